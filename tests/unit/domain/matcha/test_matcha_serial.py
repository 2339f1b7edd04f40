"""Matcha states as JSON: every state of Matcha games round-trips exactly, base states keep their old shape (no
Matcha keys), and a base state written before the expansion existed still loads."""

from __future__ import annotations

import json
import random

import pytest

import domain

from ..helpers import assert_round_trips_through_json, eager
from .helpers import matcha_standard


@pytest.mark.parametrize("players", [2, 4])
def test_every_state_of_a_matcha_game_round_trips_through_json(players: int) -> None:
    rng = random.Random(players)
    state = domain.new_game(players, seed=players, expansions=["matcha"], draw=False)
    while True:
        assert_round_trips_through_json(state)
        if domain.is_over(state):
            break
        state = domain.apply(state, eager(rng, domain.legal_moves(state), 0.8), draw=False)
        if rng.random() < 0.5:
            state = domain.resolve_chance(state).state


def test_a_matcha_state_names_its_expansion_board() -> None:
    data = domain.state_to_dict(matcha_standard())
    assert data["rules"]["expansions"] == ["matcha"] and data["rules"]["turns_per_round"] == 4
    assert set(data["board"]["matcha"]) >= {
        "tea_room",
        "himeji",
        "decks",
        "pond",
        "entrance",
        "path",
        "tea_house",
    }
    assert data["board"]["bridges"][-1]["colour"] == "green"
    assert data["players"][0]["geishas"] == 5 and data["players"][0]["ceremony"] == "CT9"
    assert "whisks" not in data["players"][0]  # at its default (0) an expansion field is left out


def test_a_base_state_written_before_matcha_still_loads() -> None:
    state = domain.new_game(3, seed=8)
    data = domain.state_to_dict(state)
    for player in data["players"]:
        assert not {"whisks", "geishas", "ceremony"} & set(player)
    assert domain.state_from_dict(json.loads(json.dumps(data))) == state
