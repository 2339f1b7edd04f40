"""The component catalog: every printed card, tile, space and track of the base game, as data (DESIGN §2).

The packaged JSON files under ``domain/catalog/`` hold the contents of rules/COMPONENTS.md, each entry with
its ``source`` and a ``verified`` flag. A game may override any part (``new_game(catalog=...)``): the override
is merged over the packaged data (dictionaries key by key, lists of entries with an ``id`` entry by entry,
anything else replaced) and the state carries the full effective catalog, so a recorded game never changes
when the packaged files do (decision C.4).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from domain.errors import InvalidSetup
from domain.solo_cards import SoloCard, parse_solo_cards
from domain.vocabulary import Colour, Cost, Floor, Icon, Resource, parse_icon

CATALOG_FILES = (
    "meta.json",
    "board.json",
    "castle_cards.json",
    "starting.json",
    "gardens.json",
    "tiles.json",
    "first_game.json",
)
SOLO_FILES = ("solo.json",)
"""Packaged only into the catalog of a solo game (R-SO01): a multiplayer game's catalog stays the base one."""
ROW_POSITIONS = ("top", "middle", "bottom")
"""The three rows an Action card faces on the Personal Domain, and the three blocks of a steward card."""


@dataclass(frozen=True, slots=True)
class Block:
    """One block of a card: the rows it faces, its background, what it costs and what it does (R-C03,
    R-C04)."""

    id: str
    rows: tuple[str, ...]
    dark: bool
    cost: Cost
    icons: tuple[Icon, ...]


@dataclass(frozen=True, slots=True)
class Card:
    """A card that can be an Action card or sit in a Lantern Area: castle cards, starting cards, decrees."""

    id: str
    deck: str
    blocks: tuple[Block, ...]
    lantern: tuple[Icon, ...]
    diamond: bool = False


@dataclass(frozen=True, slots=True)
class StartingResource:
    """A Starting Resource card (R-S12): what it gives at once, its Decree card if any, its lantern icon."""

    id: str
    gain: tuple[Icon, ...]
    decree: str | None


@dataclass(frozen=True, slots=True)
class Garden:
    """A garden card (R-GA01, R-GA02, R-F07): food to place a gardener, CP at the end, its action."""

    id: str
    type: str
    food: int
    cp: int
    cost: Cost
    icons: tuple[Icon, ...]


@dataclass(frozen=True, slots=True)
class YardTile:
    """A double-sided Yard tile: blue front (an action), yellow back (a reward) (R-S09, R-WA04)."""

    id: str
    blue: tuple[Icon, ...]
    yellow: tuple[Icon, ...]


@dataclass(frozen=True, slots=True)
class DieTile:
    """A die tile: a die colour on one face, a reward on the other (R-S05, R-W02)."""

    id: str
    colour: Colour
    reward: tuple[Icon, ...]


@dataclass(frozen=True, slots=True)
class RoomSpec:
    """A castle room: its floor, printed die value and number of die tiles (R-C01, R-P02)."""

    id: str
    floor: Floor
    value: int
    tiles: int


@dataclass(frozen=True, slots=True)
class OutsideSpec:
    """An Outside the Walls space: value 5, one of its two worker actions (R-O01, R-O02)."""

    id: str
    value: int
    actions: tuple[Icon, ...]


@dataclass(frozen=True, slots=True)
class YardSpec:
    """A training yard: iron to enter, warrior value at the end, the tile faces it holds (R-WA02, R-F06)."""

    id: str
    iron: int
    value: int
    faces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RowSpec:
    """A Personal Domain row: its members, die colour, position facing the Action card, rewards (R-D01,
    R-D02)."""

    id: str
    member: str
    colour: Colour
    position: str
    rewards: tuple[tuple[Icon, ...], ...]


def _canonical(data: Mapping[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@dataclass(frozen=True)
class Catalog:
    """The effective catalog of one game: the JSON it came from (`raw`) and lookups parsed from it.

    Two catalogs are equal when their JSON is equal; the lookups are derived and excluded from comparison.
    """

    raw: str
    cards: Mapping[str, Card] = field(compare=False, repr=False)
    stewards: tuple[str, ...] = field(compare=False, repr=False)
    diplomats: tuple[str, ...] = field(compare=False, repr=False)
    daimyo: Mapping[str, tuple[tuple[Icon, ...], ...]] = field(compare=False, repr=False)
    starting_resources: Mapping[str, StartingResource] = field(compare=False, repr=False)
    starting_actions: Mapping[str, int] = field(compare=False, repr=False)
    gardens: Mapping[str, Garden] = field(compare=False, repr=False)
    yard_tiles: Mapping[str, YardTile] = field(compare=False, repr=False)
    die_tiles: Mapping[str, DieTile] = field(compare=False, repr=False)
    rooms: tuple[RoomSpec, ...] = field(compare=False, repr=False)
    diamond_spaces: tuple[tuple[str, int], ...] = field(compare=False, repr=False)
    numbered_spaces: tuple[tuple[str, int], ...] = field(compare=False, repr=False)
    outside: tuple[OutsideSpec, ...] = field(compare=False, repr=False)
    well_value: int = field(compare=False, repr=False)
    well_icons: tuple[Icon, ...] = field(compare=False, repr=False)
    well_tiles: int = field(compare=False, repr=False)
    yards: tuple[YardSpec, ...] = field(compare=False, repr=False)
    pot_last: int = field(compare=False, repr=False)
    milestones: Mapping[int, int] = field(compare=False, repr=False)
    pot_points: tuple[int, ...] = field(compare=False, repr=False)
    domain_value: int = field(compare=False, repr=False)
    rows: tuple[RowSpec, ...] = field(compare=False, repr=False)
    first_game: Mapping[str, Any] = field(compare=False, repr=False)
    solo_cards: Mapping[str, SoloCard] = field(default_factory=dict, compare=False, repr=False)
    """The solo deck (R-SO01, COMPONENTS §1.11): present in a solo game's catalog only."""

    def to_dict(self) -> dict[str, Any]:
        """The catalog as JSON (a fresh copy every call)."""
        result: dict[str, Any] = json.loads(self.raw)
        return result

    def room(self, room_id: str) -> RoomSpec:
        for spec in self.rooms:
            if spec.id == room_id:
                return spec
        raise KeyError(room_id)

    def row(self, row_id: str) -> RowSpec:
        for spec in self.rows:
            if spec.id == row_id:
                return spec
        raise KeyError(row_id)

    def row_of_colour(self, colour: str) -> RowSpec | None:
        for spec in self.rows:
            if spec.colour == colour:
                return spec
        return None

    def yard(self, yard_id: str) -> YardSpec:
        for spec in self.yards:
            if spec.id == yard_id:
                return spec
        raise KeyError(yard_id)


@functools.cache
def packaged_catalog(solo: bool = False) -> str:
    """The packaged catalog files merged into one canonical JSON text (with the solo deck for a solo game)."""
    merged: dict[str, Any] = {}
    folder = resources.files("domain").joinpath("catalog")
    for name in CATALOG_FILES + (SOLO_FILES if solo else ()):
        part = json.loads(folder.joinpath(name).read_text(encoding="utf-8"))
        overlap = set(part) & set(merged)
        if overlap:  # pragma: no cover - guards the packaged files themselves
            raise RuntimeError(f"catalog file {name} repeats sections {sorted(overlap)}")
        merged.update(part)
    return _canonical(merged)


def merge(base: Any, override: Any) -> Any:
    """Merge an override over catalog data: dicts key by key, lists of entries with an id by id."""
    if isinstance(base, dict) and isinstance(override, Mapping):
        result = dict(base)
        for key, value in override.items():
            result[key] = merge(base[key], value) if key in base else value
        return result
    if (
        isinstance(base, list)
        and isinstance(override, list)
        and all(isinstance(item, dict) and "id" in item for item in base)
        and all(isinstance(item, Mapping) and "id" in item for item in override)
    ):
        merged = [dict(item) for item in base]
        index = {item["id"]: i for i, item in enumerate(merged)}
        for item in override:
            if item["id"] in index:
                merged[index[item["id"]]] = merge(merged[index[item["id"]]], item)
            else:
                merged.append(dict(item))
        return merged
    return override


def load_catalog(override: Mapping[str, Any] | None = None, *, solo: bool = False) -> Catalog:
    """The effective catalog: the packaged one (with the solo deck if `solo`), with `override` merged over it
    (InvalidSetup if malformed)."""
    if not override:
        return _parse_text(packaged_catalog(solo))
    try:
        data = merge(json.loads(packaged_catalog(solo)), json.loads(json.dumps(override)))
    except (TypeError, ValueError) as error:
        raise InvalidSetup(f"the catalog override is not JSON data: {error}") from None
    return catalog_from_dict(data)


def catalog_from_dict(data: Mapping[str, Any]) -> Catalog:
    """Rebuild a catalog from its full JSON (as stored with a game)."""
    try:
        text = _canonical(data)
    except (TypeError, ValueError) as error:
        raise InvalidSetup(f"the catalog is not JSON data: {error}") from None
    return _parse_text(text)


@functools.lru_cache(maxsize=32)
def _parse_text(text: str) -> Catalog:
    try:
        return _parse(text, json.loads(text))
    except InvalidSetup:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise InvalidSetup(
            f"the catalog is malformed: {type(error).__name__}: {error}", details={"error": str(error)}
        ) from None


def _icons(items: Any) -> tuple[Icon, ...]:
    if not isinstance(items, list):
        raise TypeError(f"expected a list of icons, got {items!r}")
    return tuple(parse_icon(item) for item in items)


def _cost(data: Any) -> Cost:
    if not isinstance(data, Mapping):
        raise TypeError(f"a cost is a mapping such as {{'seal': 1}}, got {data!r}")
    cost = []
    for name, amount in data.items():
        resource = Resource(name)
        if not isinstance(amount, int) or amount < 0:
            raise ValueError(f"cost amounts are whole numbers, got {amount!r}")
        if amount:
            cost.append((resource, amount))
    return tuple(cost)


def _blocks(items: Any) -> tuple[Block, ...]:
    blocks = []
    for item in items:
        rows = tuple(item["rows"])
        if not rows or any(row not in ROW_POSITIONS for row in rows):
            raise ValueError(f"block rows must be among {ROW_POSITIONS}, got {rows!r}")
        block_id = "all" if len(rows) == len(ROW_POSITIONS) else "+".join(rows)
        background = item["background"]
        if background not in ("light", "dark"):
            raise ValueError(f"block background is light or dark, got {background!r}")
        blocks.append(
            Block(block_id, rows, background == "dark", _cost(item.get("cost", {})), _icons(item["effects"]))
        )
    return tuple(blocks)


def _unique(entries: list[Any], section: str) -> None:
    ids = [entry["id"] for entry in entries]
    if len(ids) != len(set(ids)):
        raise ValueError(f"{section}: repeated ids")


def _parse(text: str, data: dict[str, Any]) -> Catalog:
    cards: dict[str, Card] = {}
    for deck, section in (("steward", "stewards"), ("diplomat", "diplomats")):
        _unique(data[section], section)
        for entry in data[section]:
            cards[entry["id"]] = Card(
                entry["id"], deck, _blocks(entry["blocks"]), _icons(entry["lantern"]), bool(entry["diamond"])
            )
    for entry in data["starting_actions"]:
        cards[entry["id"]] = Card(
            entry["id"], "starting_action", _blocks(entry["blocks"]), _icons(entry["lantern"])
        )
    for entry in data["starting_resources"]:
        cards[entry["id"]] = Card(entry["id"], "starting_resource", (), _icons(entry["lantern"]))
    for entry in data["decrees"]:
        cards[entry["id"]] = Card(entry["id"], "decree", (), _icons(entry["lantern"]))
    if len(cards) != sum(
        len(data[s]) for s in ("stewards", "diplomats", "starting_actions", "starting_resources", "decrees")
    ):
        raise ValueError("card ids must be unique across every card type")
    starting_resources = {
        entry["id"]: StartingResource(entry["id"], _icons(entry["gain"]), entry.get("decree"))
        for entry in data["starting_resources"]
    }
    for entry in starting_resources.values():
        if entry.decree is not None and entry.decree not in cards:
            raise ValueError(f"{entry.id} grants an unknown decree {entry.decree!r}")
    daimyo = {entry["id"]: tuple(_icons(spot) for spot in entry["spots"]) for entry in data["daimyo"]}
    gardens = {
        entry["id"]: Garden(
            entry["id"],
            entry["type"],
            int(entry["food"]),
            int(entry["cp"]),
            _cost(entry.get("cost", {})),
            _icons(entry["effects"]),
        )
        for entry in data["gardens"]
    }
    for garden in gardens.values():
        if garden.type not in ("plant", "stone"):
            raise ValueError(f"garden {garden.id} has an unknown type {garden.type!r}")
    yard_tiles = {
        entry["id"]: YardTile(entry["id"], _icons(entry["blue"]), _icons(entry["yellow"]))
        for entry in data["yard_tiles"]
    }
    die_tiles = {
        entry["id"]: DieTile(entry["id"], Colour(entry["colour"]), _icons(entry["reward"]))
        for entry in data["die_tiles"]
    }
    castle = data["castle"]
    rooms = tuple(
        RoomSpec(room["id"], Floor(room["floor"]), int(room["value"]), int(room["tiles"]))
        for room in castle["rooms"]
    )
    if any(room.floor not in (Floor.STEWARD, Floor.DIPLOMAT) for room in rooms):
        raise ValueError("castle rooms are on the steward or diplomat floor (R-C01)")
    room_ids = {room.id: room for room in rooms}
    diamond_spaces = tuple((str(room), int(pos)) for room, pos in castle["diamond_spaces"])
    numbered_spaces = tuple((str(room), int(pos)) for room, pos in castle["numbered_spaces"])
    spaces = diamond_spaces + numbered_spaces
    expected = {(room.id, pos) for room in rooms for pos in range(room.tiles)}
    if len(spaces) != len(expected) or set(spaces) != expected or any(r not in room_ids for r, _ in spaces):
        raise ValueError("castle diamond_spaces + numbered_spaces must list every die-tile space once")
    if len(diamond_spaces) != len(Colour):
        raise ValueError("there is one diamond space per die colour (R-S05)")
    well = data["well"]
    if len(die_tiles) != len(expected) + int(well["tiles"]):
        raise ValueError("the die tiles must fill the castle and the Well exactly (R-S05)")
    outside = tuple(
        OutsideSpec(space["id"], int(space["value"]), _icons(space["actions"]))
        for space in data["outside_the_walls"]
    )
    yards = tuple(
        YardSpec(yard["id"], int(yard["iron"]), int(yard["value"]), tuple(yard["faces"]))
        for yard in data["yards"]
    )
    for yard in yards:
        if not yard.faces or any(face not in ("blue", "yellow") for face in yard.faces):
            raise ValueError(f"{yard.id}: yard faces are blue or yellow")
    pot = data["passage_of_time"]
    milestones = {int(space): int(cost) for space, cost in pot["milestones"].items()}
    points = tuple(int(p) for p in pot["points"])
    if len(points) != int(pot["last_space"]) + 1:
        raise ValueError("passage_of_time.points needs one value per space, 0 to last_space")
    domain = data["domain"]
    rows = tuple(
        RowSpec(
            row["id"],
            row["member"],
            Colour(row["colour"]),
            row["position"],
            tuple(_icons(reward) for reward in row["rewards"]),
        )
        for row in domain["rows"]
    )
    if sorted(row.colour for row in rows) != sorted(Colour) or sorted(r.position for r in rows) != sorted(
        ROW_POSITIONS
    ):
        raise ValueError("the Personal Domain has one row per die colour, one per position (R-D01)")
    if any(row.member not in ("courtier", "gardener", "warrior") for row in rows):
        raise ValueError("Personal Domain rows hold courtiers, gardeners or warriors")
    solo_cards = parse_solo_cards(
        data.get("solo_cards", []),
        [*(room.id for room in rooms), *(space.id for space in outside), "well"],
        [yard.iron for yard in yards],
    )
    return Catalog(
        raw=text,
        cards=cards,
        stewards=tuple(entry["id"] for entry in data["stewards"]),
        diplomats=tuple(entry["id"] for entry in data["diplomats"]),
        daimyo=daimyo,
        starting_resources=starting_resources,
        starting_actions={entry["id"]: int(entry.get("copies", 1)) for entry in data["starting_actions"]},
        gardens=gardens,
        yard_tiles=yard_tiles,
        die_tiles=die_tiles,
        rooms=rooms,
        diamond_spaces=diamond_spaces,
        numbered_spaces=numbered_spaces,
        outside=outside,
        well_value=int(well["value"]),
        well_icons=_icons(well["effects"]),
        well_tiles=int(well["tiles"]),
        yards=yards,
        pot_last=int(pot["last_space"]),
        milestones=milestones,
        pot_points=points,
        domain_value=int(domain["value"]),
        rows=rows,
        first_game=data["first_game"],
        solo_cards=solo_cards,
    )
