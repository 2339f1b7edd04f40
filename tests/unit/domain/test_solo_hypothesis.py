"""Hypothesis on solo games (R-SO01..R-SO06): every legal move applies; moves outside the legal ones (mutated
legal moves, the rival's seat, moves of other prompts) are rejected with a DomainError and change nothing."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import domain
from domain.state import GameState

from .helpers import assert_rejected_unchanged
from .solo_helpers import RIVAL, eager
from .test_hypothesis import mutate

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def positions() -> tuple[GameState, ...]:
    """Every state of 9 random solo games (each difficulty, seeded and table mode), a pool to draw from."""
    pool: list[GameState] = []
    for seed in range(9):
        rng = random.Random(seed)
        mode = "table" if seed % 3 == 0 else "seeded"
        state = domain.new_game(
            ["Ana"],
            solo=("easy", "medium", "hard")[seed % 3],
            mode=mode,
            seed=seed if mode == "seeded" else None,
        )
        while not domain.is_over(state):
            pool.append(state)
            state = domain.apply(state, eager(rng, domain.legal_moves(state), 0.8))
        pool.append(state)
    return tuple(pool)


OTHER: list[dict[str, Any]] = [
    {"kind": "solo_card", "seat": None, "card": "SO1"},
    {"kind": "solo_card", "seat": None, "card": "SO10"},
    {"kind": "rival_garden", "seat": 0, "garden": "coral_plant"},
    {"kind": "rival_room", "seat": 0, "room": "steward_1"},
    {"kind": "rival_room", "seat": 0, "room": "daimyo"},
    {"kind": "take_die", "seat": RIVAL, "bridge": "coral", "end": "left"},
    {"kind": "convert", "seat": RIVAL, "to": "coin"},
]
"""Moves of the solo game's own kinds, and moves for the rival's seat."""

states = st.integers(min_value=0).map(lambda i: positions()[i % len(positions())])


@SETTINGS
@given(states, st.randoms(use_true_random=False))
def test_R_SO03_every_legal_solo_move_applies(state: GameState, rnd: random.Random) -> None:
    legal = domain.legal_moves(state)
    assert bool(legal) != domain.is_over(state)
    for move in rnd.sample(legal, min(len(legal), 8)):
        after = domain.apply(state, json.loads(json.dumps(move)))
        assert domain.prompt_of(after)["seat"] != RIVAL


@SETTINGS
@given(states, st.data())
def test_R_SO05_solo_moves_outside_legal_moves_are_rejected_and_change_nothing(
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
