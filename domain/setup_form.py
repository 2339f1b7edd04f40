"""The table setup's form: every field of a game's setup layout (`domain.layout`) with its words, and every card or
tile that may go there, described by what is printed on it and drawn from the catalog as the board draws it, so that
a recorder finds a card by reading it.
"""

from __future__ import annotations

from typing import Any

from domain.areas.bridges import dice_per_colour
from domain.catalog import Block, natural
from domain.layout import field_name, first_game_layout, path_of
from domain.names import cost_text, icons_text, target_text
from domain.prompts import DealCard, DealDieTile, StackOrder
from domain.state import GameState
from domain.vocabulary import Colour, space_text

_TITLES = {
    "dice": ("Dice", "Type each bridge's dice as digits, in any order: they are laid ascending (R-S07)."),
    "stack": (
        "Turn order",
        "The stack of influence markers, top first: tap the players from the first to play to the last (R-S11).",
    ),
    "castle": (
        "Castle cards",
        "One card face up in each room (R-S03). Tap a room, then its card: the picker goes on to the next field.",
    ),
    "daimyo": ("Daimyo card", "One card on the top floor (R-S04)."),
    "die_tiles": (
        "Die tiles",
        "Tap each space's colour: only the colours still possible are offered, the likeliest first, and a space "
        "left one colour is laid by itself (R-S05).",
    ),
    "well": ("Well tiles", "The 2 die tiles laid reward side up at the Well (R-S05)."),
    "gardens": ("Gardens", "A plant and a stone garden card under each bridge (R-S08)."),
    "yards": (
        "Yard tiles",
        "The face printed on each yard space: blue (an action) or yellow (a reward) (R-S09).",
    ),
    "offer": (
        "Starting pairs",
        "The Starting Resource cards dealt, each with its Starting Action card (R-S12).",
    ),
    "matcha": ("Matcha", "The pond's lily pads, the Himeji cards face up and the ceremony tokens (R-M01)."),
}
"""Each section's title and the line under it, in the form's order: first what a table rolls and draws for
itself (its dice, its stack), then the components it lays out (which it may let the service draw)."""


def _block_words(block: Block) -> str:
    rows = " and ".join(block.id.split("+"))
    shade = "dark" if block.dark else "light"
    does = icons_text(block.icons)
    return f"{rows} ({shade}): " + (f"pay {cost_text(block.cost)} → {does}" if block.cost else does)


def _component_words(state: GameState, pool: str, item: str) -> str:
    """What is printed on a card or tile, in words, after its id."""
    catalog = state.catalog
    if pool in ("steward", "diplomat"):
        card = catalog.cards[item]
        mark = " ♦" if card.diamond else ""
        return f"{item}{mark}: " + " · ".join(_block_words(block) for block in card.blocks)
    if pool == "daimyo":
        spots = catalog.daimyo[item]
        return f"{item}: " + " · ".join(f"spot {i + 1}: {icons_text(icons)}" for i, icons in enumerate(spots))
    if pool in ("plant", "stone"):
        garden = catalog.gardens[item]
        does = icons_text(garden.icons)
        does = f"pay {cost_text(garden.cost)} → {does}" if garden.cost else does
        return f"{item}: {garden.food} food, {garden.cp} CP; {does}"
    if pool.startswith("yard_tiles"):
        tile = catalog.yard_tiles[item]
        face = pool.partition(".")[2] or "blue"
        return f"{item} ({face}): {icons_text(tile.blue if face == 'blue' else tile.yellow)}"
    if pool == "die_tiles":
        die_tile = catalog.die_tiles[item]
        return f"{item}: {icons_text(die_tile.reward)} (a {die_tile.colour.value} die on the back)"
    if pool == "starting_resources":
        start = catalog.starting_resources[item]
        decree = (
            f", and a Decree card ({icons_text(catalog.cards[start.decree].lantern)})" if start.decree else ""
        )
        return f"{item}: {icons_text(start.gain)}{decree}; lantern: {icons_text(catalog.cards[item].lantern)}"
    if pool == "starting_actions":
        card = catalog.cards[item]
        copies = catalog.starting_actions.get(item, 1)
        return (
            f"{item}: "
            + " · ".join(icons_text(block.icons) for block in card.blocks)
            + (f" ({copies} copies)" if copies > 1 else "")
        )
    matcha = catalog.matcha
    assert matcha is not None  # the other pools are Matcha's
    if pool == "lily_pads":
        return f"{item}: {icons_text(matcha.lily_pads[item])}"
    if pool in ("ikebana", "calligraphy"):
        curtains = matcha.curtains[item]
        blue = icons_text(curtains.blue)
        blue = f"pay {cost_text(curtains.blue_cost)} → {blue}" if curtains.blue_cost else blue
        mark = " ♦" if curtains.diamond else ""
        return f"{item}{mark}: yellow: {icons_text(curtains.yellow)} · blue: {blue}"
    return f"{item}: {icons_text(matcha.faces[item])}"  # a ceremony token's face


def pool_items(state: GameState, pool: str) -> list[str]:
    """The components a pool's fields may take in this game (♦ cards are out at 2 players, R-S02)."""
    decks = state.board.decks
    matcha = state.board.matcha
    spec = state.catalog.matcha
    if pool.startswith("yard_tiles"):
        return list(decks.yard_tiles)
    if pool == "die_tiles":
        return sorted(state.catalog.die_tiles, key=natural)
    if pool == "starting_actions":
        return sorted(set(decks.starting_actions), key=natural)
    if pool.startswith("ceremony") and spec is not None and matcha is not None:
        side = 0 if pool.endswith("blue") else 1
        return sorted((spec.tokens[token][side] for token in matcha.tokens), key=natural)
    if pool in ("ikebana", "calligraphy") and matcha is not None:
        deck = next(d for d in matcha.decks if d.id == pool)
        return list(deck.rest)
    if pool == "lily_pads" and matcha is not None:
        return list(matcha.lily_pads)
    items: tuple[str, ...] = getattr(decks, pool)
    return list(items)


def _card_field(state: GameState, frame: DealCard, path: str) -> dict[str, Any]:
    pool = frame.pool
    if pool == "yard_tiles":
        pool = f"yard_tiles.{frame.target.partition(':')[2]}"
    elif pool == "ceremony":
        tea_house = {room.id for room in state.board.matcha.tea_house} if state.board.matcha else set()
        pool = "ceremony.yellow" if frame.target in tea_house else "ceremony.blue"
    place = target_text(state, frame.target)
    if frame.target.startswith("offer_"):
        side = frame.target.partition(":")[2]
        place += {"resource": ": Starting Resource card", "action": ": Starting Action card"}.get(
            side, ": ceremony token (blue side)"
        )
    elif pool.startswith("ceremony"):
        place += " (yellow side)" if pool.endswith("yellow") else " (blue side)"
    return {"field": path, "kind": "card", "label": place[:1].upper() + place[1:], "pool": pool}


def _sections(state: GameState) -> dict[str, list[dict[str, Any]]]:
    """The form's fields, section by section in the form's order (a section this game has not is empty)."""
    sections: dict[str, list[dict[str, Any]]] = {name: [] for name in _TITLES}
    for frame in reversed(state.stack):
        if isinstance(frame, DealCard):
            path = field_name(path_of(state, frame))
            sections[path.split(".")[0]].append(_card_field(state, frame, path))
        elif isinstance(frame, DealDieTile):
            diamonds = {room: position for room, position in state.catalog.diamond_spaces}
            sections["die_tiles"] = [
                {
                    "field": f"die_tiles.{room.id}",
                    "kind": "tiles",
                    "label": space_text(room.id)[:1].upper() + space_text(room.id)[1:],
                    "count": len(room.tiles),
                    "diamond": diamonds.get(room.id),
                }
                for room in state.board.rooms
            ]
            sections["well"] = [
                {"field": f"well.{i}", "kind": "card", "label": f"Well tile {i + 1}", "pool": "die_tiles"}
                for i in range(state.catalog.well_tiles)
            ]
        elif isinstance(frame, StackOrder):
            sections["stack"] = [
                {
                    "field": "stack",
                    "kind": "stack",
                    "label": "The influence markers' stack, top first",
                    "seats": len(state.players),
                }
            ]
    sections["dice"] = [
        {
            "field": f"dice.{bridge.colour.value}",
            "kind": "dice",
            "label": f"The {bridge.colour.value} bridge",
            "colour": bridge.colour.value,
            "count": dice_per_colour(state),
        }
        for bridge in state.board.bridges
    ]
    return sections


def form_fields(state: GameState) -> list[dict[str, Any]]:
    """Every field of this game's setup form, in the form's order (`setup_form`'s sections, one after another)."""
    return [entry for entries in _sections(state).values() for entry in entries]


_FAMILIES = {
    "steward": ("stewards",),
    "diplomat": ("diplomats",),
    "daimyo": ("daimyo",),
    "plant": ("gardens",),
    "stone": ("gardens",),
    "yard_tiles": ("yard_tiles",),
    "die_tiles": ("die_tiles",),
    "starting_resources": ("starting_resources", "decrees"),
    "starting_actions": ("starting_actions",),
    "lily_pads": ("lily_pads",),
    "ikebana": ("ikebana",),
    "calligraphy": ("calligraphy",),
    "ceremony": ("ceremony_faces",),
}
"""The catalog's families that draw each pool's components (a Starting Resource card shows its Decree's icon)."""


def _drawn(state: GameState, pools: set[str]) -> dict[str, list[dict[str, Any]]]:
    """The catalog's entries of these pools' families, as the game's catalog holds them (without where each
    value comes from): what the page draws each component from, with the board's icons."""
    raw = state.catalog.to_dict()
    families = sorted({family for pool in pools for family in _FAMILIES.get(pool.partition(".")[0], ())})
    return {
        family: [
            {key: value for key, value in entry.items() if key not in ("source", "verified", "text")}
            for entry in raw.get(family) or ()
            if isinstance(entry, dict)
        ]
        for family in families
    }


def setup_form(state: GameState) -> dict[str, Any]:
    """The form of this game's setup layout (see the module docstring). `state` is a fresh game's, before the
    setup's chance prompts (``new_game(..., draw=False)``)."""
    sections = _sections(state)
    pools = {entry["pool"] for entries in sections.values() for entry in entries if entry["kind"] == "card"}
    return {
        "sections": [
            {"id": name, "title": _TITLES[name][0], "hint": _TITLES[name][1], "fields": entries}
            for name, entries in sections.items()
            if entries
        ],
        "pools": {
            pool: [
                {"id": item, "words": _component_words(state, pool, item)} for item in pool_items(state, pool)
            ]
            for pool in sorted(pools)
        },
        "catalog": _drawn(state, pools),
        "colours": [{"id": colour.value, "words": colour.value} for colour in Colour],
        "first_game": None if state.options.first_game else first_game_layout(state),
        "notes": [
            "The castle cards, the die tiles and the Well tiles are the rulebook's first-game layout (the "
            "first-game option): nothing to enter for them."
        ]
        if state.options.first_game
        else [],
    }
