"""Recording a move keeps the state its decision reached (``replay.game.after_decided``) instead of playing it
again: that is only right while deciding a move and re-applying the recorded move reach the same state, which
these tests hold for every kind of game."""

from __future__ import annotations

import random

import pytest

import domain
from replay import decisions, rules
from replay.game import after_decided, created_game, project_game

SETUPS = [
    pytest.param({"players": 3}, id="base"),
    pytest.param({"players": 4, "expansions": ("matcha",)}, id="matcha"),
    pytest.param({"players": 1, "solo": "hard"}, id="solo"),
    pytest.param({"players": 1, "solo": "medium", "expansions": ("matcha",)}, id="tokugawa"),
]


@pytest.mark.parametrize("setup", SETUPS)
@pytest.mark.parametrize("seed", range(3))
def test_deciding_a_move_and_reapplying_it_reach_the_same_state(setup: dict, seed: int) -> None:
    rng = random.Random(seed)
    state = domain.new_game(
        setup["players"], seed=seed, solo=setup.get("solo"), expansions=setup.get("expansions")
    )
    moves = 0
    while not domain.is_over(state):
        move = rng.choice(domain.legal_moves(state))
        decided, chance = rules.decide(state, move)
        assert rules.reapply(state, move, chance) == decided, f"move {moves}: {move}"
        state, moves = decided, moves + 1
    assert moves > 20


def test_after_decided_is_the_projection_of_the_events() -> None:
    created, opening = decisions.create({"players": ["Aiko", "Bo"], "seed": 7})
    game = created_game(created, opening)
    rng = random.Random(7)
    for _ in range(40):
        batch = [rng.choice(domain.legal_moves(game.state))]
        played = decisions.play(game, batch, actor="owner")
        projected = project_game(game, played.events)
        assert after_decided(game, played.events, played.states) == projected
        game = projected
