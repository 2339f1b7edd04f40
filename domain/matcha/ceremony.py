"""Matcha's ceremony tokens: the 20 faces CT1-CT20 and the actions only they use (R-M10, R-M13, R-M14, R-M18)."""

from __future__ import annotations

from domain.areas.castle import block_option, card_of
from domain.areas.courtier import destinations, locations, move_courtier
from domain.kinds.actions import DoneMove
from domain.kinds.base import Move
from domain.kinds.courtier import AscendMove
from domain.prompts import Climb, Frame, Menu, Option, bundle
from domain.state import GameState, pop, swap_top
from domain.vocabulary import Icon, IconKind

DISTINCT_LIGHT = "light:2"
"""The title of CT6's menu: one light-background block on each of 2 different cards (an entry taken removes the
other entries of its card, `domain.effects.menu_play`)."""


def own_token(state: GameState, seat: int) -> Frame:
    """The ceremony token on the seat's clan board, its icons in any order (R-M14)."""
    spec = state.catalog.matcha
    assert spec is not None
    face = state.players[seat].ceremony
    return bundle(seat, "ceremony:own", spec.faces[face] if face is not None else ())


def green_row_menu(state: GameState, seat: int) -> Menu:
    """The green row's second part: you may pay 1 seal to perform your own ceremony token (R-M14)."""
    spec = state.catalog.matcha
    assert spec is not None
    option = Option("ceremony", spec.token_cost, (Icon(IconKind.TOKEN),))
    return Menu(seat, "green_row", (option,), (), 1, False)


def dark_menu(state: GameState, seat: int) -> Menu:
    """The dark-background block of any card in a castle room, paying its printed cost (R-M17, CT5)."""
    options: list[Option] = []
    for room in state.board.rooms:
        card = card_of(state, room)
        if card is not None:
            options.extend(block_option(block, f"{room.id}:") for block in card.blocks if block.dark)
    return Menu(seat, "dark", tuple(options), (), 1, False)


def light_menu(state: GameState, seat: int, count: int) -> Menu:
    """One light-background block on each of `count` different castle cards (CT6)."""
    options: list[Option] = []
    for room in state.board.rooms:
        card = card_of(state, room)
        if card is not None:
            options.extend(block_option(block, f"{room.id}:") for block in card.blocks if not block.dark)
    rooms = {option.id.split(":")[0] for option in options}
    return Menu(seat, DISTINCT_LIGHT, tuple(options), (), min(count, len(rooms)), False)


def yard_blue_menu(state: GameState, seat: int) -> Menu:
    """The action of one of the blue yard tiles (CT7)."""
    tiles = state.catalog.yard_tiles
    options = tuple(
        Option(f"{yard.blue}:blue", (), tiles[yard.blue].blue) for yard in state.board.yards if yard.blue
    )
    return Menu(seat, "yard:blue", options, (), 1, False)


def yard_yellow(state: GameState, seat: int) -> Frame:
    """Both visible yellow yard tiles' rewards, in any order (CT8)."""
    tiles = state.catalog.yard_tiles
    icons = tuple(icon for yard in state.board.yards if yard.yellow for icon in tiles[yard.yellow].yellow)
    return bundle(seat, "yard:yellow", icons)


def stone_menu(state: GameState, seat: int, count: int) -> Menu:
    """The rewards of `count` different Stone Garden cards, with or without a gardener there (CT2)."""
    gardens = state.catalog.gardens
    options = tuple(
        Option(slot.id, gardens[slot.card].cost, gardens[slot.card].icons)
        for slot in state.board.gardens
        if slot.card is not None and slot.type == "stone"
    )
    return Menu(seat, "stone", options, (), min(count, len(options)), False)


# --- a courtier climbs 1 floor without pearl (CT15) -


def climbs(state: GameState, seat: int) -> list[tuple[str, str]]:
    """(from, to): one floor up from the Gate or a castle room (R-CA02)."""
    return [(where, to) for where, floor in locations(state, seat) for to in destinations(state, floor, 1)]


def climb_waiting(state: GameState, frame: Climb) -> bool:
    return bool(climbs(state, frame.seat))


def climb_moves(state: GameState, frame: Climb) -> list[Move]:
    moves: list[Move] = [AscendMove(frame.seat, where, to) for where, to in climbs(state, frame.seat)]
    moves.append(DoneMove(frame.seat))
    return moves


def climb_play(state: GameState, frame: Climb, move: AscendMove | DoneMove) -> GameState:
    if isinstance(move, DoneMove):
        return pop(state)
    state, arrival = move_courtier(state, frame.seat, move.origin, move.to)
    return swap_top(state, *arrival)
