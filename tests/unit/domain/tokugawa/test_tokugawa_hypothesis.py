"""Hypothesis on Tokugawa games (R-TK01..R-TK07): every legal move applies and never hands a prompt to the rival;
moves outside the legal ones (mutated legal moves, the rival's seat, the Tokugawa kinds out of place) are
rejected with a DomainError and change nothing."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import domain
from domain.state import GameState

from ..helpers import assert_rejected_unchanged
from ..solo_helpers import RIVAL, eager
from ..test_hypothesis import mutate

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def positions() -> tuple[GameState, ...]:
    """Every state of 6 random Tokugawa games (each difficulty, seeded and table mode), a pool to draw from."""
    pool: list[GameState] = []
    for seed in range(6):
        rng = random.Random(seed)
        mode = "table" if seed % 2 else "seeded"
        state = domain.new_game(
            ["Ana"],
            solo=("easy", "medium", "hard")[seed % 3],
            mode=mode,
            seed=seed if mode == "seeded" else None,
            expansions=["matcha"],
        )
        while not domain.is_over(state):
            pool.append(state)
            state = domain.apply(state, eager(rng, domain.legal_moves(state), 0.8))
        pool.append(state)
    return tuple(pool)


OTHER: list[dict[str, Any]] = [
    {"kind": "choose_start_cards", "seat": 0, "resource": "SR3", "action": "A1", "token": "CT1"},
    {"kind": "rival_geisha", "seat": 0, "from": "entrance", "to": "path_1"},
    {"kind": "rival_geisha", "seat": 0, "from": "path_2", "to": "tea_house_upper"},
    {"kind": "rival_geisha", "seat": 0, "from": "gate", "to": "path_9"},
    {"kind": "rival_discard", "seat": 0, "deck": "ikebana"},
    {"kind": "rival_discard", "seat": 0, "deck": "tarot"},
    {"kind": "solo_card", "seat": None, "card": "TK2"},
    {"kind": "send_geisha", "seat": RIVAL},
    {"kind": "take_die", "seat": RIVAL, "bridge": "green", "end": "left"},
]
"""Moves of the Tokugawa kinds, and moves for the rival's seat."""

states = st.integers(min_value=0).map(lambda i: positions()[i % len(positions())])


@SETTINGS
@given(states, st.randoms(use_true_random=False))
def test_R_TK03_every_legal_tokugawa_move_applies(state: GameState, rnd: random.Random) -> None:
    legal = domain.legal_moves(state)
    assert bool(legal) != domain.is_over(state)
    for move in rnd.sample(legal, min(len(legal), 6)):
        after = domain.apply(state, json.loads(json.dumps(move)))
        assert domain.prompt_of(after)["seat"] != RIVAL
        assert after.players[RIVAL].cp >= 0 and after.players[RIVAL].coins >= 0


@SETTINGS
@given(states, st.data())
def test_R_TK05_tokugawa_moves_outside_legal_moves_are_rejected_and_change_nothing(
    state: GameState, data: st.DataObject
) -> None:
    legal = domain.legal_moves(state)
    base: dict[str, Any] = data.draw(st.sampled_from(legal)) if legal else {"kind": "done", "seat": 0}
    how = data.draw(st.sampled_from(["rival", "mutate", "other"]))
    if how == "rival" and base.get("seat") is not None:
        move = {**base, "seat": RIVAL}
    elif how == "other":
        move = data.draw(st.sampled_from(OTHER))
    else:
        move = mutate(base, data)
    if move in legal:
        return
    assert_rejected_unchanged(state, move)
