"""Random seeded Matcha playouts: 500 complete games (2, 3 and 4 players) checked after every move with the base
invariants (resources 0-7, seals 0-5, coins >= 0, dice and clan members conserved, stacking, turn order) and
Matcha's: whisks 0-7, geishas conserved, capacities (the entrance and the path unlimited, the Viewing Platform
one per clan, each Tea House room two per clan), every ceremony token and Himeji card in exactly one place,
4 turns per player per round, 4 dice left at the end, and a complete score."""

from __future__ import annotations

import random

import pytest

import domain
from domain.vocabulary import Phase

from ..playout_support import MATCHA_PARTS, assert_complete_score, check_matcha_invariants, play_to_the_end

GAMES = 500
CHUNKS = 10
PER_CHUNK = GAMES // CHUNKS


def playout(players: int, seed: int) -> None:
    start = domain.new_game(players, seed=seed, expansions=["matcha"])
    state, turns = play_to_the_end(
        start, random.Random(seed), seed % 2 == 0, check_matcha_invariants, most=8000
    )
    assert state.round == 3 and state.phase is Phase.OVER
    assert turns == {(r, s): 4 for r in (1, 2, 3) for s in range(players)}
    assert sum(bridge.count() for bridge in state.board.bridges) == 4
    assert_complete_score(state, MATCHA_PARTS)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_matcha_playouts_keep_every_invariant(chunk: int) -> None:
    for i in range(PER_CHUNK):
        seed = 10_000 + chunk * PER_CHUNK + i
        playout(2 + seed % 3, seed)
