"""Gardens and the Gardener action; their activation at the end of a round (R-GA01, R-GA02, R-S08, R-E03)."""

from __future__ import annotations

from domain.kinds.actions import DoneMove
from domain.kinds.base import Move
from domain.kinds.gardener import GardenerMove
from domain.matcha.tea_garden import platform_options
from domain.prompts import GardenerAction, Menu, Option
from domain.resources import affordable
from domain.state import GameState, GardenSlot, pop, push, replace, replace_in, with_board, with_player
from domain.vocabulary import Resource


def garden_option(state: GameState, slot: GardenSlot) -> Option:
    assert slot.card is not None
    card = state.catalog.gardens[slot.card]
    return Option(slot.id, card.cost, card.icons)


def _open(state: GameState, seat: int) -> list[GardenSlot]:
    """Garden cards holding none of the seat's gardeners (R-GA01)."""
    return [slot for slot in state.board.gardens if slot.card is not None and seat not in slot.gardeners]


def gardener_waiting(state: GameState, frame: GardenerAction) -> bool:
    gardens = state.catalog.gardens
    return state.players[frame.seat].gardeners > 0 and any(
        affordable(state, frame.seat, ((Resource.FOOD, gardens[slot.card].food),))
        for slot in _open(state, frame.seat)
        if slot.card is not None
    )


def gardener_moves(state: GameState, frame: GardenerAction) -> list[Move]:
    seat = frame.seat
    player = state.players[seat]
    gardens = state.catalog.gardens
    moves: list[Move] = []
    if player.gardeners > 0:
        moves.extend(
            GardenerMove(seat, slot.id)
            for slot in _open(state, seat)
            if slot.card is not None and player.food >= gardens[slot.card].food
        )
    moves.append(DoneMove(seat))
    return moves


def gardener_play(state: GameState, frame: GardenerAction, move: GardenerMove | DoneMove) -> GameState:
    state = pop(state)
    if isinstance(move, DoneMove):
        return state
    seat = frame.seat
    slots = state.board.gardens
    index = next(i for i, slot in enumerate(slots) if slot.id == move.garden)
    slot = slots[index]
    assert slot.card is not None
    player = state.players[seat]
    food = state.catalog.gardens[slot.card].food
    state = with_player(state, seat, replace(player, food=player.food - food, gardeners=player.gardeners - 1))
    slot = replace(slot, gardeners=(*slot.gardeners, seat))
    state = with_board(state, gardens=replace_in(slots, index, slot))
    # R-GA02: the card's immediate action, paying its printed coin cost if the player wants it.
    return push(state, Menu(seat, f"garden:{slot.id}", (garden_option(state, slot),), (), 1, False))


def activation_menus(state: GameState) -> list[Menu]:
    """One menu per player with gardeners on activated cards, in turn order (R-E03)."""
    active = {bridge.colour for bridge in state.board.bridges if bridge.count() > 0}
    menus = []
    for seat in state.turn_order:
        options = tuple(
            garden_option(state, slot)
            for slot in state.board.gardens
            if slot.bridge in active and slot.card is not None and seat in slot.gardeners
        )
        if state.board.matcha is not None:
            options += platform_options(state, seat)
        if options:
            menus.append(Menu(seat, "gardens", options, (), len(options), False))
    return menus
