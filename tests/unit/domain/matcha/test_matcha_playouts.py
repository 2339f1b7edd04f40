"""Random seeded Matcha playouts: 500 complete games (2, 3 and 4 players) checked after every move with the base
invariants (resources 0-7, seals 0-5, coins >= 0, dice and clan members conserved, stacking, turn order) and
Matcha's: whisks 0-7, geishas conserved, capacities (the entrance and the path unlimited, the Viewing Platform
one per clan, each Tea House room two per clan), every ceremony token and Himeji card in exactly one place,
4 turns per player per round, 4 dice left at the end, and a complete score."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import domain
from domain.state import GameState
from domain.vocabulary import Phase

from ..test_playouts import choose

GAMES = 500
CHUNKS = 10
PER_CHUNK = GAMES // CHUNKS
PARTS = (
    "in_game_cp",
    "coins_seals",
    "resources",
    "passage_of_time",
    "courtiers",
    "warriors",
    "gardeners",
    "geishas",
)


def dice_in_play(state: GameState) -> int:
    board = state.board
    matcha = board.matcha
    assert matcha is not None
    placed = sum(len(room.dice) for room in board.rooms) + sum(len(space.dice) for space in board.outside)
    placed += sum(len(space.dice) for space in (*matcha.tea_room, *matcha.himeji))
    placed += len(board.well.dice) + sum(d is not None for p in state.players for d in p.domain)
    return sum(bridge.count() for bridge in board.bridges) + placed + (state.held is not None)


def check_invariants(state: GameState) -> None:
    count = len(state.players)
    board = state.board
    matcha = board.matcha
    spec = state.catalog.matcha
    assert matcha is not None and spec is not None
    stack = 2 if count >= 3 else 1
    for seat, player in enumerate(state.players):
        assert 0 <= player.seals <= 5 and 0 <= player.whisks <= 7, player
        assert all(0 <= amount <= 7 for amount in (player.food, player.iron, player.pearl)), player
        assert player.coins >= 0 and player.cp >= 0 and 0 <= player.pot <= 20, player
        courtiers = (
            player.courtiers
            + board.gate[seat]
            + sum(room.courtiers.count(seat) for room in board.rooms)
            + board.daimyo.spots.count(seat)
            + board.daimyo.extra.count(seat)
        )
        gardeners = player.gardeners + sum(slot.gardeners.count(seat) for slot in board.gardens)
        warriors = player.warriors + sum(yard.warriors.count(seat) for yard in board.yards)
        geishas = (
            player.geishas
            + matcha.entrance.count(seat)
            + matcha.platform.count(seat)
            + sum(space.count(seat) for space in matcha.path)
            + sum(room.geishas.count(seat) for room in matcha.tea_house)
        )
        assert (courtiers, gardeners, warriors, geishas) == (5, 5, 5, 5), (
            seat,
            courtiers,
            gardeners,
            geishas,
        )
        assert matcha.platform.count(seat) <= 1
        assert all(room.geishas.count(seat) <= 2 for room in matcha.tea_house)
    if state.phase is Phase.TURNS:
        assert dice_in_play(state) == len(state.rules.colours) * (count + 1)
        for space in (*board.rooms, *board.outside, *matcha.tea_room, *matcha.himeji):
            assert len(space.dice) <= stack
        assert all(die.colour != "green" for room in board.rooms for die in room.dice)
    # every ceremony token and every Himeji card is in one place at most (the unchosen pair's token goes back to
    # the box with its pair)
    shown = [room.token for room in matcha.tea_house] + [matcha.platform_token]
    shown += [player.ceremony for player in state.players] + [pair.token for pair in board.offer]
    tokens = [t for face in shown if face is not None for t, faces in spec.tokens.items() if face in faces]
    tokens += list(matcha.tokens)
    assert len(tokens) == len(set(tokens)) and set(tokens) <= set(spec.tokens)
    cards = [card for deck in matcha.decks for card in (deck.top, *deck.rest) if card is not None]
    cards += [card for player in state.players for card in player.lantern if card in spec.curtains]
    assert len(cards) == len(set(cards))
    assert sorted(turn for turn in state.turn_order) == list(range(count))


def playout(players: int, seed: int) -> None:
    rng = random.Random(seed)
    eager = seed % 2 == 0
    state = domain.new_game(players, seed=seed, expansions=["matcha"])
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
        assert moves < 8000, "a game that never ends"
    assert state.round == 3 and state.phase is Phase.OVER
    assert turns == {(r, s): 4 for r in (1, 2, 3) for s in range(players)}
    assert sum(bridge.count() for bridge in state.board.bridges) == 4
    sheets = domain.score(state)
    assert sorted(sheet.rank for sheet in sheets) == list(range(1, players + 1))
    for sheet in sheets:
        lines = sheet.to_dict()
        assert lines["total"] == sum(lines[part] for part in PARTS)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_matcha_playouts_keep_every_invariant(chunk: int) -> None:
    for i in range(PER_CHUNK):
        seed = 10_000 + chunk * PER_CHUNK + i
        playout(2 + seed % 3, seed)
