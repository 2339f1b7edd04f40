"""Random seeded solo playouts: 360 complete games against the rival (120 per difficulty; a third in table mode
with every chance outcome, solo cards included, picked at random among the legal ones), with the base
invariants and the rival's checked after every move: the rival holds coins only, never negative, its CP never
fall, it never gets a prompt, its deck and line always hold the 9 cards, dice never stack (R-SO06), and each
seat places 3 dice in the last round."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import domain
from domain.state import GameState
from domain.vocabulary import Phase

from .helpers import eager, table_or_seeded
from .playout_support import check_invariants
from .solo_helpers import HUMAN, RIVAL

DIFFICULTIES = ("easy", "medium", "hard")
GAMES = 360
CHUNKS = 12
PER_CHUNK = GAMES // CHUNKS


def check_rival(state: GameState, cp_before: int) -> int:
    rival = state.players[RIVAL]
    assert rival.automatic and not state.players[HUMAN].automatic
    assert (rival.seals, rival.food, rival.iron, rival.pearl) == (0, 0, 0, 0), rival
    assert rival.coins >= 0 and rival.cp >= cp_before, (rival, cp_before)
    assert rival.action_card is None and rival.lantern == () and rival.domain == (None, None, None)
    assert state.solo is not None
    assert sorted(state.solo.deck + state.solo.line) == sorted(state.catalog.solo_cards)
    assert domain.prompt_of(state)["seat"] != RIVAL
    board = state.board
    assert all(len(room.dice) <= 1 for room in board.rooms) and all(len(s.dice) <= 1 for s in board.outside)
    return rival.cp


def placed_by(state: GameState) -> Counter[int]:
    board = state.board
    dice = [d for room in board.rooms for d in room.dice] + [d for s in board.outside for d in s.dice]
    dice += list(board.well.dice) + [d for p in state.players for d in p.domain if d is not None]
    return Counter(d.seat for d in dice)


def solo_playout(seed: int) -> GameState:
    rng = random.Random(seed)
    difficulty = DIFFICULTIES[seed % 3]
    table = seed % 3 == (seed // 3) % 3
    state = domain.new_game(["Ana"], solo=difficulty, **table_or_seeded(seed, table))
    cp = state.players[RIVAL].cp
    moves = 0
    while not domain.is_over(state):
        legal = domain.legal_moves(state)
        assert legal, domain.prompt_of(state)
        assert all(move["seat"] != RIVAL for move in legal)
        state = domain.apply(state, eager(rng, legal, 0.85 if seed % 2 else 0.0))
        check_invariants(state)
        cp = check_rival(state, cp)
        moves += 1
        assert moves < 3000, "a game that never ends"
    assert state.round == 3 and state.phase is Phase.OVER
    assert placed_by(state) == {HUMAN: 3, RIVAL: 3}
    sheets = domain.score(state)
    assert sorted(sheet.rank for sheet in sheets) == [1, 2]
    return state


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_R_SO01_R_SO06_random_solo_playouts_keep_every_invariant(chunk: int) -> None:
    for i in range(PER_CHUNK):
        solo_playout(chunk * PER_CHUNK + i)


def test_the_playouts_cover_each_difficulty_in_both_modes() -> None:
    kinds = Counter((seed % 3, seed % 3 == (seed // 3) % 3) for seed in range(GAMES))
    assert len(kinds) == 6 and min(kinds.values()) >= 30
