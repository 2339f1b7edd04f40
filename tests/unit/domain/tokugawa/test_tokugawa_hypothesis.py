"""Hypothesis on Tokugawa games (R-TK01..R-TK07): every legal move applies and never hands a prompt to the rival;
moves outside the legal ones (mutated legal moves, the rival's seat, the Tokugawa kinds out of place) are
rejected with a DomainError and change nothing."""

from __future__ import annotations

import functools
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import domain
from domain.state import GameState

from .. import hypothesis_support as support
from ..helpers import table_or_seeded
from ..solo_helpers import RIVAL

SETTINGS = support.settings_with(max_examples=100)


@functools.cache
def positions() -> tuple[GameState, ...]:
    """Every state of 6 random Tokugawa games (each difficulty, seeded and table mode), a pool to draw from."""
    games = (
        (
            seed,
            domain.new_game(
                ["Ana"],
                solo=("easy", "medium", "hard")[seed % 3],
                **table_or_seeded(seed, table=seed % 2 == 1),
                expansions=["matcha"],
            ),
        )
        for seed in range(6)
    )
    return support.states_of_games(games, bias=0.8)


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

states = support.drawn_from(positions)


@SETTINGS
@given(states, st.randoms(use_true_random=False))
def test_R_TK03_every_legal_tokugawa_move_applies(state: GameState, rnd: random.Random) -> None:
    for after in support.after_legal_moves(state, rnd, most=6):
        assert domain.prompt_of(after)["seat"] != RIVAL
        assert after.players[RIVAL].cp >= 0 and after.players[RIVAL].coins >= 0


@SETTINGS
@given(states, st.data())
def test_R_TK05_tokugawa_moves_outside_legal_moves_are_rejected_and_change_nothing(
    state: GameState, data: st.DataObject
) -> None:
    move = support.solo_move_outside(support.draw_legal_move(state, data), data, OTHER)
    support.assert_rejected_unless_legal(state, move)
