"""What each field of a table setup may still take beside what the others hold, for the new-game page's pickers:
one physical card or tile in one place (R-S12's copies), no castle dealt again (R-S03), and the Well's and each
die-tile space's colours as R-S05 leaves them, likeliest first. Any castle that keeps R-S05's three conditions is
dealt by drawing its colours space by space in the filling order, so a small search over the free spaces decides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from domain.areas import castle
from domain.layout import Path, read_entries
from domain.setup_form import form_fields, pool_items
from domain.state import GameState
from domain.vocabulary import Colour

Space = tuple[str, int]
"""A die-tile space: (room id, position in the room, from the top)."""


def setup_choices(state: GameState, layout: Mapping[str, Any]) -> dict[str, Any]:
    """``{"fields": {field: [ids]}, "tiles": {room: [[colours] for each space]}}`` for this layout (see the module
    docstring). A layout that is not a JSON object of the layout's sections raises `InvalidLayout`."""
    entries = read_entries(layout)
    fields = form_fields(state)
    cards = [entry for entry in fields if entry["kind"] == "card"]
    given = {entry["field"]: _given(entries, entry["field"]) for entry in cards}
    tiles = _tiles_given(state, entries)
    choices = {entry["field"]: _card_choices(state, entry, cards, given, tiles) for entry in cards}
    spaces = _tile_choices(state, tiles) if any(entry["kind"] == "tiles" for entry in fields) else {}
    return {"fields": choices, "tiles": spaces}


def _given(entries: Mapping[Path, Any], name: str) -> str | None:
    value = entries.get(tuple(name.split(".")))
    return value if isinstance(value, str) else None


# --- the cards and tiles of the card fields -


def _family(pool: str) -> str:
    """The components a pool's items are: a yard tile and a ceremony token are one component whatever face."""
    return pool.partition(".")[0]


def _component(state: GameState, pool: str, item: str) -> str:
    """The physical component an item of a pool is: a ceremony token's face is its token (R-M01)."""
    spec = state.catalog.matcha
    if _family(pool) == "ceremony" and spec is not None:
        return next((token for token, faces in spec.tokens.items() if item in faces), item)
    return item


def _copies(state: GameState, pool: str, item: str) -> int:
    """How many of this component the game has: the Starting Action cards come in copies (R-S12)."""
    return state.catalog.starting_actions.get(item, 1) if pool == "starting_actions" else 1


def _card_choices(
    state: GameState,
    field: Mapping[str, Any],
    cards: list[dict[str, Any]],
    given: Mapping[str, str | None],
    tiles: Mapping[Space, Colour],
) -> list[str]:
    name, pool = field["field"], field["pool"]
    used = Counter(
        _component(state, other["pool"], value)
        for other in cards
        if other["field"] != name
        and _family(other["pool"]) == _family(pool)
        and (value := given.get(other["field"])) is not None
    )
    items = [
        item
        for item in pool_items(state, pool)
        if used[_component(state, pool, item)] < _copies(state, pool, item)
    ]
    if name.startswith("castle."):
        items = [item for item in items if not _castle_dealt_again(state, name, given, item)]
    elif name.startswith("well."):
        items = [item for item in items if _left_for_the_well(state, name, given, tiles, item)]
    return items


def _castle_dealt_again(state: GameState, name: str, given: Mapping[str, str | None], item: str) -> bool:
    """Whether `item` in this room would complete a castle of one dark-background action (R-S03)."""
    others = [value for field, value in given.items() if field.startswith("castle.") and field != name]
    if any(value is None for value in others) or len(others) + 1 != len(state.board.rooms):
        return False
    cards = [state.catalog.cards.get(value) for value in (*others, item) if value is not None]
    if any(card is None for card in cards):
        return False
    return len({castle.dark_action(card) for card in cards if card is not None}) == 1


def _left_for_the_well(
    state: GameState,
    name: str,
    given: Mapping[str, str | None],
    tiles: Mapping[Space, Colour],
    item: str,
) -> bool:
    """Whether a tile of this one's colour is left for the Well once the castle has its tiles (R-S05)."""
    tile = state.catalog.die_tiles.get(item)
    if tile is None:
        return False
    left = Counter(state.board.decks.die_tiles)
    left.subtract(colour.value for colour in tiles.values())
    for field, value in given.items():
        if (
            field.startswith("well.")
            and field != name
            and value is not None
            and value in state.catalog.die_tiles
        ):
            left[state.catalog.die_tiles[value].colour.value] -= 1
    return left[tile.colour.value] > 0


# --- the die tiles (R-S05) -


def _tiles_given(state: GameState, entries: Mapping[Path, Any]) -> dict[Space, Colour]:
    """The die-tile colours entered, by space (what is not a colour of a room's space is left out)."""
    found: dict[Space, Colour] = {}
    names = {colour.value: colour for colour in Colour}
    for room in state.board.rooms:
        value = entries.get(("die_tiles", room.id))
        if not isinstance(value, list) or len(value) != len(room.tiles):
            continue
        for position, colour in enumerate(value):
            if isinstance(colour, str) and colour in names:
                found[(room.id, position)] = names[colour]
    return found


def _tile_choices(state: GameState, given: Mapping[Space, Colour]) -> dict[str, list[list[str]]]:
    """For each room, for each of its spaces, the colours that keep a castle possible, the likeliest first."""
    catalog = state.catalog
    spaces = [*catalog.diamond_spaces, *catalog.numbered_spaces]
    bag = Counter(Colour(colour) for colour in state.board.decks.die_tiles)
    rooms = {room.id: len(room.tiles) for room in state.board.rooms}
    diamonds = set(catalog.diamond_spaces)
    answer: dict[str, list[list[str]]] = {room: [[] for _ in range(size)] for room, size in rooms.items()}
    for space in spaces:
        others = {other: colour for other, colour in given.items() if other != space}
        left = bag - Counter(others.values())
        possible = [
            colour
            for colour in Colour
            if _castle_possible({**others, space: colour}, spaces, rooms, diamonds, bag)
        ]
        order = list(Colour)
        possible.sort(key=lambda colour: (-left[colour], order.index(colour)))
        answer[space[0]][space[1]] = [colour.value for colour in possible]
    return answer


def _castle_possible(
    laid: Mapping[Space, Colour],
    spaces: list[Space],
    rooms: Mapping[str, int],
    diamonds: set[Space],
    bag: Counter[Colour],
) -> bool:
    """Whether the free spaces can be filled so that the castle keeps R-S05 (depth first, the ♦ spaces first)."""
    laid = dict(laid)
    free = [space for space in spaces if space not in laid]

    def fits(space: Space) -> bool:
        colour = laid[space]
        if sum(1 for other in laid.values() if other is colour) > bag[colour]:
            return False
        if space in diamonds and sum(1 for other in diamonds if laid.get(other) is colour) > 1:
            return False
        room = [laid.get((space[0], position)) for position in range(rooms[space[0]])]
        return None in room or len(set(room)) > 1

    if not all(fits(space) for space in laid):
        return False

    def go(index: int) -> bool:
        if index == len(free):
            return True
        space = free[index]
        for colour in Colour:
            laid[space] = colour
            if fits(space) and go(index + 1):
                return True
        del laid[space]
        return False

    return go(0)
