"""Random seeded playouts: 1,000 complete games (2, 3 and 4 players) with the invariants checked after every
move (OpenSpiel's random_sim_test): resources 0-7, seals 0-5, coins >= 0, dice and clan members conserved,
3 turns per player per round, a legal move always exists before the end, and a complete score at the end."""

from __future__ import annotations

import random

import pytest

import domain
from domain.vocabulary import Phase

from .playout_support import PARTS, assert_complete_score, check_invariants, play_to_the_end

GAMES = 1000
CHUNKS = 20
PER_CHUNK = GAMES // CHUNKS


def playout(players: int, seed: int) -> None:
    start = domain.new_game(players, seed=seed)
    state, turns = play_to_the_end(start, random.Random(seed), seed % 2 == 0, check_invariants, most=5000)
    assert state.round == state.rules.rounds and state.phase is Phase.OVER
    assert turns == {(r, s): 3 for r in (1, 2, 3) for s in range(players)}
    assert sum(bridge.count() for bridge in state.board.bridges) == 3
    assert_complete_score(state, PARTS)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts_keep_every_invariant(chunk: int) -> None:
    for i in range(PER_CHUNK):
        seed = chunk * PER_CHUNK + i
        playout(2 + seed % 3, seed)
