"""Hypothesis: every move of `legal_moves` applies; moves outside it (mutated legal moves, other seats, moves
of other prompts) are rejected with a DomainError and leave the state unchanged."""

from __future__ import annotations

import functools
import random

from hypothesis import given
from hypothesis import strategies as st

import domain
from domain.state import GameState

from . import hypothesis_support as support
from .helpers import table_or_seeded

SETTINGS = support.settings_with(max_examples=150)


@functools.cache
def positions() -> tuple[GameState, ...]:
    """Every state of 12 random games (2-4 players, seeded and table mode), a pool to draw from."""
    games = (
        (seed, domain.new_game(2 + seed % 3, **table_or_seeded(seed, table=seed % 3 == 0)))
        for seed in range(12)
    )
    return support.states_of_games(games, bias=0.8)


states = support.drawn_from(positions)


@SETTINGS
@given(states, st.randoms(use_true_random=False))
def test_every_legal_move_applies(state: GameState, rnd: random.Random) -> None:
    for after in support.after_legal_moves(state, rnd, most=8):
        assert isinstance(after, GameState)


@SETTINGS
@given(states, st.data())
def test_moves_outside_legal_moves_are_rejected_and_change_nothing(
    state: GameState, data: st.DataObject
) -> None:
    support.assert_rejected_unless_legal(state, support.mutate(support.draw_legal_move(state, data), data))


@SETTINGS
@given(states, states)
def test_a_move_from_another_moment_is_rejected_unless_legal_here(state: GameState, other: GameState) -> None:
    support.assert_moves_of_another_moment_rejected(state, other)
