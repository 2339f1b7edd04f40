"""Hypothesis on solo games (R-SO01..R-SO06): every legal move applies; moves outside the legal ones (mutated
legal moves, the rival's seat, moves of other prompts) are rejected with a DomainError and change nothing."""

from __future__ import annotations

import functools
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import domain
from domain.state import GameState

from . import hypothesis_support as support
from .helpers import table_or_seeded
from .solo_helpers import RIVAL

SETTINGS = support.settings_with(max_examples=120)


@functools.cache
def positions() -> tuple[GameState, ...]:
    """Every state of 9 random solo games (each difficulty, seeded and table mode), a pool to draw from."""
    games = (
        (
            seed,
            domain.new_game(
                ["Ana"],
                solo=("easy", "medium", "hard")[seed % 3],
                **table_or_seeded(seed, table=seed % 3 == 0),
            ),
        )
        for seed in range(9)
    )
    return support.states_of_games(games, bias=0.8)


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

states = support.drawn_from(positions)


@SETTINGS
@given(states, st.randoms(use_true_random=False))
def test_R_SO03_every_legal_solo_move_applies(state: GameState, rnd: random.Random) -> None:
    for after in support.after_legal_moves(state, rnd, most=8):
        assert domain.prompt_of(after)["seat"] != RIVAL


@SETTINGS
@given(states, st.data())
def test_R_SO05_solo_moves_outside_legal_moves_are_rejected_and_change_nothing(
    state: GameState, data: st.DataObject
) -> None:
    move = support.solo_move_outside(support.draw_legal_move(state, data), data, OTHER)
    support.assert_rejected_unless_legal(state, move)
