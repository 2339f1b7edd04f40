"""What the random playouts of every variant share (base game, solo, Matcha, Tokugawa): the invariants checked
after every move (the Matcha ones on top of the base ones), the playout loop of the multiplayer playouts, and the
check of a complete score at the end."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import domain
from domain.state import GameState
from domain.vocabulary import Phase

from .helpers import eager as eager_move

Move = dict[str, Any]

PARTS = (
    "in_game_cp",
    "coins_seals",
    "resources",
    "passage_of_time",
    "courtiers",
    "warriors",
    "gardeners",
)
"""The lines of a base score sheet that add up to its total."""

MATCHA_PARTS = (*PARTS, "geishas")
"""The lines of a Matcha score sheet that add up to its total."""


def dice_in_play(state: GameState) -> int:
    """The dice on the bridges, placed anywhere (the Matcha spaces too, where the expansion is in play) and
    held."""
    board = state.board
    placed = sum(len(room.dice) for room in board.rooms) + sum(len(space.dice) for space in board.outside)
    if board.matcha is not None:
        placed += sum(len(space.dice) for space in (*board.matcha.tea_room, *board.matcha.himeji))
    placed += len(board.well.dice) + sum(d is not None for p in state.players for d in p.domain)
    return sum(bridge.count() for bridge in board.bridges) + placed + (state.held is not None)


def check_invariants(state: GameState) -> None:
    """The base game's invariants: resources 0-7, seals 0-5, coins, CP and PoT in range, the 5 courtiers,
    gardeners and warriors of each clan conserved, the dice conserved and rooms' stacking, the turn order a
    permutation."""
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


def check_matcha_invariants(state: GameState) -> None:
    """The base invariants (`check_invariants`), and Matcha's: whisks 0-7, the 5 geishas of each clan
    conserved, capacities (the Viewing Platform one per clan, each Tea House room two per clan), dice stacking on
    every space, no green die in the castle, every ceremony token and Himeji card in one place at most."""
    check_invariants(state)
    count = len(state.players)
    board = state.board
    matcha = board.matcha
    spec = state.catalog.matcha
    assert matcha is not None and spec is not None
    stack = 2 if count >= 3 else 1
    for seat, player in enumerate(state.players):
        assert 0 <= player.whisks <= 7, player
        geishas = (
            player.geishas
            + matcha.entrance.count(seat)
            + matcha.platform.count(seat)
            + sum(space.count(seat) for space in matcha.path)
            + sum(room.geishas.count(seat) for room in matcha.tea_house)
        )
        assert geishas == 5, (seat, geishas)
        assert matcha.platform.count(seat) <= 1
        assert all(room.geishas.count(seat) <= 2 for room in matcha.tea_house)
    if state.phase is Phase.TURNS:
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


def play_to_the_end(
    state: GameState, rng: random.Random, eager: bool, check: Callable[[GameState], None], most: int
) -> tuple[GameState, Counter[tuple[int, int]]]:
    """`state` played to its end by an `eager` player (see `helpers.eager`) or a uniform one, a legal move always
    there before the end, `check` after every move and fewer than `most` moves in all: the end state and the
    turns taken per (round, seat)."""
    turns: Counter[tuple[int, int]] = Counter()
    moves = 0
    while not domain.is_over(state):
        legal = domain.legal_moves(state)
        assert legal, domain.prompt_of(state)
        # An eager player prefers acting over declining and converting, which walks the deeper paths (ascents,
        # Daimyo spots, yards, milestones) far more often; the others choose uniformly.
        move = eager_move(rng, legal) if eager else rng.choice(legal)
        if move["kind"] == "take_die":
            turns[(state.round, move["seat"])] += 1
        state = domain.apply(state, move)
        check(state)
        moves += 1
        assert moves < most, "a game that never ends"
    return state, turns


def assert_complete_score(state: GameState, parts: tuple[str, ...]) -> None:
    """Every seat has a rank, 1 to the number of seats, and each sheet's total is the sum of its `parts`."""
    sheets = domain.score(state)
    assert sorted(sheet.rank for sheet in sheets) == list(range(1, len(state.players) + 1))
    for sheet in sheets:
        lines = sheet.to_dict()
        assert lines["total"] == sum(lines[part] for part in parts), lines
