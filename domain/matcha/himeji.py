"""Matcha's Himeji Principality: the Ikebana and Calligraphy decks and their curtains (R-M05, R-M11, R-M12, R-M17,
C.7).
"""

from __future__ import annotations

from domain.catalog import HIMEJI_DECKS, Curtains
from domain.errors import DomainError, IllegalMove
from domain.kinds.actions import DoneMove
from domain.kinds.base import Move
from domain.kinds.matcha import HimejiCardMove
from domain.prompts import DealCard, Frame, HimejiCard, Menu, Option, Seq, TakeCurtainCard, bundle
from domain.state import (
    GameState,
    HimejiDeck,
    matcha_board,
    pop,
    push,
    replace,
    replace_in,
    swap_top,
    with_board,
    with_player,
)
from domain.vocabulary import Icon


def deck(state: GameState, name: str) -> HimejiDeck:
    return next(d for d in matcha_board(state).decks if d.id == name)


def top_card(state: GameState, name: str) -> Curtains | None:
    """The card on top of a Himeji deck, the one whose curtains can be used."""
    spec = state.catalog.matcha
    assert spec is not None
    card = deck(state, name).top
    return spec.curtains[card] if card is not None else None


def curtain_option(state: GameState, name: str, side: str, *, free: bool) -> Option | None:
    """One curtain of a deck's top card as a menu entry; the blue curtain carries its printed seal cost unless
    `free` (C.7)."""
    card = top_card(state, name)
    if card is None:
        return None
    if side == "yellow":
        return Option(f"{name}:yellow", (), card.yellow)
    paid = not free and state.options.blue_curtain_seals == "pay_printed"
    return Option(f"{name}:blue", card.blue_cost if paid else (), card.blue)


def space_menu(state: GameState, seat: int, space_id: str) -> Menu:
    """A die on a Himeji space: the curtains facing it, each optional, in any order (R-M05)."""
    spec = state.catalog.matcha
    assert spec is not None
    facing = next(s for s in spec.himeji if s.id == space_id).curtains
    options = tuple(
        option
        for name, side in facing
        if (option := curtain_option(state, name, side, free=False)) is not None
    )
    return Menu(seat, f"himeji:{space_id}", options, (), len(options), False)


def blue_curtains_menu(state: GameState, seat: int, title: str, *, free: bool) -> Menu:
    """The blue curtain of one of the top cards (path space 2, R-M12; the blue-curtain symbol, R-M17)."""
    options = tuple(
        option
        for name in HIMEJI_DECKS
        if (option := curtain_option(state, name, "blue", free=free)) is not None
    )
    return Menu(seat, title, options, (), 1, False)


def yellow_curtain_menu(state: GameState, seat: int) -> Menu:
    """The yellow curtain of one of the top cards (the yellow-curtain symbol, R-M17)."""
    options = tuple(
        option
        for name in HIMEJI_DECKS
        if (option := curtain_option(state, name, "yellow", free=False)) is not None
    )
    return Menu(seat, "yellow_curtain", options, (), 1, False)


def both_yellow_curtains(state: GameState, seat: int) -> Frame:
    """Both visible yellow curtains, in any order (token CT20)."""
    icons: tuple[Icon, ...] = ()
    for name in HIMEJI_DECKS:
        card = top_card(state, name)
        if card is not None:
            icons += card.yellow
    return bundle(seat, "yellow_curtains", icons)


# --- choosing a card: path space 1 (R-M11) and the two-card symbol (R-M17) -


PATH_ONE_BINDING = frozenset({"0.1.0", "0.2.0", "0.3.0", "0.4.0"})
"""Rules versions under which a geisha stopping on path space 1 must take a card. From 0.5.0 the space may be
declined like path space 2 and the Viewing Platform (R-P07; docs/rules/decisions.md, path space 1)."""


def declinable(state: GameState, frame: HimejiCard) -> bool:
    """Whether this choice of a card may be declined: path space 1's, from rules 0.5.0 (R-M11, R-P07)."""
    return frame.purpose == "path" and state.rules_version not in PATH_ONE_BINDING


def card_moves(state: GameState, frame: HimejiCard) -> list[Move]:
    moves: list[Move] = [
        HimejiCardMove(frame.seat, name) for name in HIMEJI_DECKS if deck(state, name).top is not None
    ]
    if moves and declinable(state, frame):
        moves.append(DoneMove(frame.seat))
    return moves


def explain_card(state: GameState, frame: HimejiCard, move: HimejiCardMove | DoneMove) -> DomainError | None:
    """Why ``done`` is refused here: the two-card symbol is a gain (R-M17); path space 1 before rules 0.5.0."""
    if not isinstance(move, DoneMove):
        return None
    if frame.purpose != "path":
        return IllegalMove("the two-card symbol's card must be chosen: it is not optional", rule="R-M17")
    return IllegalMove(
        f"under rules {state.rules_version} path space 1 cannot be declined: take the Ikebana or the "
        "Calligraphy card (games of rules 0.5.0 on may decline it)",
        rule="R-M11",
        details={"rules_version": state.rules_version},
    )


def card_waiting(state: GameState, frame: HimejiCard) -> bool:
    return len(card_moves(state, frame)) > 1


def card_auto(state: GameState, frame: HimejiCard) -> GameState:
    moves = card_moves(state, frame)
    return card_play(state, frame, moves[0]) if moves else pop(state)


def card_play(state: GameState, frame: HimejiCard, move: Move) -> GameState:
    if isinstance(move, DoneMove):
        return pop(state)
    assert isinstance(move, HimejiCardMove)
    seat, name = frame.seat, move.deck
    card = top_card(state, name)
    assert card is not None
    if frame.purpose == "path":
        # R-M11: the yellow curtain first, then the card is taken (TakeCurtainCard resolves after the Seq).
        return swap_top(state, TakeCurtainCard(seat, name), Seq(seat, card.yellow))
    options = tuple(
        option for side in ("yellow", "blue") if (option := curtain_option(state, name, side, free=False))
    )
    return swap_top(state, Menu(seat, f"card:{name}", options, (), len(options), False))


def take_card_auto(state: GameState, frame: TakeCurtainCard) -> GameState:
    """The card goes to the Lantern Area, never to the clan board's Action card space, and the deck's next card
    is revealed; the deck's last card stays in Himeji (R-M11)."""
    state = pop(state)
    board = matcha_board(state)
    index = next(i for i, d in enumerate(board.decks) if d.id == frame.deck)
    current = board.decks[index]
    if current.top is None or not current.rest:
        return state
    player = state.players[frame.seat]
    state = with_player(state, frame.seat, replace(player, lantern=(*player.lantern, current.top)))
    decks = replace_in(board.decks, index, replace(current, top=None))
    state = with_board(state, matcha=replace(board, decks=decks))
    return push(state, DealCard(frame.deck, f"himeji:{frame.deck}"))
