"""Random seeded playouts: 1,000 complete games (2, 3 and 4 players) with the invariants checked after every
move (OpenSpiel's random_sim_test): resources 0-7, seals 0-5, coins >= 0, dice and clan members conserved,
3 turns per player per round, a legal move always exists before the end, and a complete score at the end."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import domain
from domain.state import GameState
from domain.vocabulary import Phase

GAMES = 1000
CHUNKS = 20
PER_CHUNK = GAMES // CHUNKS


def choose(rng: random.Random, moves: list[dict[str, Any]], eager: bool) -> dict[str, Any]:
    """Uniform over the legal moves; an `eager` player prefers acting over declining and converting, which
    walks the deeper paths (ascents, Daimyo spots, yards, milestones) far more often."""
    if eager and rng.random() < 0.85:
        acting = [m for m in moves if m["kind"] not in ("done", "convert")]
        if acting:
            return rng.choice(acting)
    return rng.choice(moves)


def dice_in_play(state: GameState) -> int:
    board = state.board
    placed = sum(len(room.dice) for room in board.rooms) + sum(len(space.dice) for space in board.outside)
    placed += len(board.well.dice) + sum(d is not None for p in state.players for d in p.domain)
    held = state.held is not None
    return sum(bridge.count() for bridge in board.bridges) + placed + held


def check_invariants(state: GameState) -> None:
    count = len(state.players)
    for seat, player in enumerate(state.players):
        assert 0 <= player.seals <= 5, player
        assert all(0 <= amount <= 7 for amount in (player.food, player.iron, player.pearl)), player
        assert player.coins >= 0 and player.cp >= 0, player
        assert 0 <= player.pot <= 20
        board = state.board
        courtiers = (
            player.courtiers
            + board.gate[seat]
            + sum(room.courtiers.count(seat) for room in board.rooms)
            + board.daimyo.spots.count(seat)
            + board.daimyo.extra.count(seat)
        )
        gardeners = player.gardeners + sum(slot.gardeners.count(seat) for slot in board.gardens)
        warriors = player.warriors + sum(yard.warriors.count(seat) for yard in board.yards)
        assert (courtiers, gardeners, warriors) == (5, 5, 5), (seat, courtiers, gardeners, warriors)
    if state.phase is Phase.TURNS:
        assert dice_in_play(state) == len(state.rules.colours) * (count + 1)
        for room in state.board.rooms:
            assert len(room.dice) <= (2 if count >= 3 else 1)
    assert sorted(state.turn_order) == list(range(count))


def playout(players: int, seed: int) -> None:
    rng = random.Random(seed)
    eager = seed % 2 == 0
    state = domain.new_game(players, seed=seed)
    turns: Counter[tuple[int, int]] = Counter()
    moves = 0
    while not domain.is_over(state):
        legal = domain.legal_moves(state)
        assert legal, domain.prompt_of(state)
        move = choose(rng, legal, eager)
        if move["kind"] == "take_die":
            turns[(state.round, move["seat"])] += 1
        state = domain.apply(state, move)
        check_invariants(state)
        moves += 1
        assert moves < 5000, "a game that never ends"
    assert state.round == state.rules.rounds and state.phase is Phase.OVER
    assert turns == {(r, s): 3 for r in (1, 2, 3) for s in range(players)}
    assert sum(bridge.count() for bridge in state.board.bridges) == 3
    sheets = domain.score(state)
    assert sorted(sheet.rank for sheet in sheets) == list(range(1, players + 1))
    for sheet in sheets:
        lines = sheet.to_dict()
        parts = (
            "in_game_cp",
            "coins_seals",
            "resources",
            "passage_of_time",
            "courtiers",
            "warriors",
            "gardeners",
        )
        assert lines["total"] == sum(lines[part] for part in parts)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts_keep_every_invariant(chunk: int) -> None:
    for i in range(PER_CHUNK):
        seed = chunk * PER_CHUNK + i
        playout(2 + seed % 3, seed)
