"""The component catalog: every printed card, tile, space and track of the game, as data (docs/engine/catalog.md).

This package holds the packaged JSON files beside this module; they are merged with an expansion's and with a
game's overrides, and the state carries the full effective catalog, so a recorded game never changes when the
files do (C.4).
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from domain.errors import InvalidSetup
from domain.solo.cards import SoloCard, parse_solo_cards
from domain.vocabulary import (
    Colour,
    Cost,
    DieColour,
    Floor,
    Icon,
    IconKind,
    MatchaColour,
    Resource,
    parse_icon,
)

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
EXPANSION_FILES: dict[str, tuple[str, ...]] = {
    "matcha": ("board.json", "cards.json", "curtains.json", "ceremony.json", "pond.json"),
}
"""The packaged files of each expansion, under ``domain/catalog/<expansion>/``."""
EXPANSION_SOLO_FILES: dict[str, tuple[str, ...]] = {"matcha": ("solo.json",)}
"""An expansion's files for the solo game only: Matcha's 3 Tokugawa solo cards (R-TK01), added to the solo deck
of a solo game with Matcha and to no other catalog."""
HIMEJI_DECKS = ("ikebana", "calligraphy")
"""The two decks lying face up in the Himeji Principality (R-M01), in board order."""


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
    colour: DieColour
    position: str
    """The block of the Action card it faces (top, middle, bottom); ``green`` for Matcha's geisha row, which
    faces none (R-M14)."""
    rewards: tuple[tuple[Icon, ...], ...]


@dataclass(frozen=True, slots=True)
class SpaceSpec:
    """A Matcha die space (Tea Room, Himeji): its printed value and, in Himeji, the curtains it faces as
    (deck, side) pairs (R-M04, R-M05)."""

    id: str
    value: int
    curtains: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Curtains:
    """An Ikebana or Calligraphy card: its yellow curtain (a reward), its blue curtain (an action, with its
    printed seal cost), the ♦ mark (removed at 2 players) (R-M05, R-M11, R-M12)."""

    id: str
    deck: str
    yellow: tuple[Icon, ...]
    blue: tuple[Icon, ...]
    blue_cost: Cost
    diamond: bool


WHISK_TRACK_TOP = 7
"""The highest whisk count R-F03 scores (as the resources: 7 give 2 CP): a catalog's whisk track ends there or
before."""


@dataclass(frozen=True, slots=True)
class MatchaCatalog:
    """The Matcha expansion's printed contents and numbers (R-M01..R-M19), parsed from the ``matcha``,
    ``lily_pads``, ``ceremony_faces``, ``ceremony_tokens``, ``ikebana`` and ``calligraphy`` sections."""

    tea_room: tuple[SpaceSpec, ...]
    tea_room_icons: tuple[Icon, ...]
    himeji: tuple[SpaceSpec, ...]
    token_cost: Cost
    """What the green row asks to perform your own ceremony token (1 seal, R-M14)."""
    entrance_cost: Cost
    """Part A of the Geisha action: 2 coins (R-M07)."""
    whisks_per_steps: Mapping[int, int]
    """Part B: whisks for 1 or 2 steps (R-M08)."""
    whisk_max: int
    whisk_price: int
    """The seals a whisk costs (R-M15)."""
    """The top of the whisk track: whisks gained beyond it are lost, as resources beyond 7 are (R-M15, R-R03)."""
    entrance_points: int
    path: tuple[tuple[str, int], ...]
    """The path spaces toward the Tea House and their points (R-M09, R-F08)."""
    platform: str
    platform_points: int
    platform_per_clan: int
    pond_cost: Cost
    pond_spaces: int
    tea_house: tuple[tuple[str, str], ...]
    """The Tea House rooms and the clan member each scores (R-M13, R-F08)."""
    tea_house_per_clan: int
    points_per_member: int
    lily_pads: Mapping[str, tuple[Icon, ...]]
    faces: Mapping[str, tuple[Icon, ...]]
    tokens: Mapping[str, tuple[str, str]]
    """Each ceremony token's (blue face, yellow face) (R-M18)."""
    curtains: Mapping[str, Curtains]
    first_game_yard: tuple[str, str] | None
    """(yard target, tile) of the first-game Matcha yard tile (R-M01)."""

    def space(self, space_id: str) -> SpaceSpec | None:
        for spec in (*self.tea_room, *self.himeji):
            if spec.id == space_id:
                return spec
        return None

    def deck(self, deck: str) -> list[str]:
        """The ids of a Himeji deck's cards."""
        return [card.id for card in self.curtains.values() if card.deck == deck]


_DIGITS = re.compile(r"(\d+)")


@functools.lru_cache(maxsize=4096)
def natural(text: str) -> tuple[Any, ...]:
    """Sort key for component ids, putting S2 before S10 and CT2 before CT10. Remembered: the engine sorts the
    same few hundred ids over and over (each deal, each draw from a pile), and splitting them was a tenth of
    setting up a seeded game."""
    return tuple(int(part) if part.isdigit() else part for part in _DIGITS.split(text))


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
    audience_cost: Cost = field(compare=False, repr=False)
    """The Audience: a courtier to the Gate (R-CA01)."""
    ascent_pearl: Mapping[int, int] = field(compare=False, repr=False)
    """The Ascent: pearl for 1 or 2 floors (R-CA01)."""
    conversions: Mapping[str, int] = field(compare=False, repr=False)
    """What seals convert to, and the seals each costs (R-R02; with Matcha, whisks too, R-M15)."""
    pot_points: tuple[int, ...] = field(compare=False, repr=False)
    domain_value: int = field(compare=False, repr=False)
    rows: tuple[RowSpec, ...] = field(compare=False, repr=False)
    first_game: Mapping[str, Any] = field(compare=False, repr=False)
    matcha: MatchaCatalog | None = field(default=None, compare=False, repr=False)
    """The Matcha expansion's contents, when its files are part of the catalog."""
    solo_cards: Mapping[str, SoloCard] = field(default_factory=dict, compare=False, repr=False)
    """The solo deck (R-SO01, docs/rules/components.md §1.11): present in a solo game's catalog only."""

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
    return _merged_files("", CATALOG_FILES + (SOLO_FILES if solo else ()))


@functools.cache
def packaged_expansion(name: str, solo: bool = False) -> str:
    """An expansion's packaged files merged into one canonical JSON text (the overlay on the base files); with
    `solo`, its solo-game files instead."""
    return _merged_files(name, EXPANSION_SOLO_FILES.get(name, ()) if solo else EXPANSION_FILES[name])


def _merged_files(subfolder: str, files: Sequence[str]) -> str:
    """Packaged catalog files (of `domain/catalog/<subfolder>`) merged into one canonical JSON text; no two
    files may hold the same section."""
    merged: dict[str, Any] = {}
    folder = resources.files(__name__)
    if subfolder:
        folder = folder.joinpath(subfolder)
    for file in files:
        part = json.loads(folder.joinpath(file).read_text(encoding="utf-8"))
        overlap = set(part) & set(merged)
        if overlap:  # pragma: no cover - guards the packaged files themselves
            where = f"{subfolder}/{file}" if subfolder else file
            raise RuntimeError(f"catalog file {where} repeats sections {sorted(overlap)}")
        merged.update(part)
    return _canonical(merged)


@functools.cache
def _packaged_with(expansions: tuple[str, ...], solo: bool = False) -> str:
    data = json.loads(packaged_catalog(solo))
    for name in expansions:
        data = merge(data, json.loads(packaged_expansion(name)))
        if solo:
            data = merge(data, json.loads(packaged_expansion(name, solo=True)))
    return _canonical(data)


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


def load_catalog(
    override: Mapping[str, Any] | None = None, expansions: tuple[str, ...] = (), *, solo: bool = False
) -> Catalog:
    """The effective catalog: the packaged one (with the files of each expansion in play, and the solo deck if
    `solo`), with `override` merged over it (InvalidSetup if malformed)."""
    unknown = [name for name in expansions if name not in EXPANSION_FILES]
    if unknown:
        raise InvalidSetup(f"unknown expansions {unknown}", details={"known": sorted(EXPANSION_FILES)})
    packaged = _packaged_with(tuple(expansions), solo) if expansions else packaged_catalog(solo)
    if not override:
        return _parse_text(packaged)
    try:
        data = merge(json.loads(packaged), json.loads(json.dumps(override)))
    except (TypeError, ValueError) as error:
        raise InvalidSetup(f"the catalog override is not JSON data: {error}") from None
    return catalog_from_dict(data)


def catalog_from_dict(data: Mapping[str, Any]) -> Catalog:
    """Rebuild a catalog from its full JSON (as stored with a game)."""
    # Every game read back brings its own copy of the same few catalogs: one already met is found by its
    # ``repr`` (exact like the canonical JSON for JSON data, 1 and 1.0 and true told apart, in half the time).
    seen = repr(data) if type(data) is dict else None
    found = _SEEN.get(seen) if seen is not None else None
    if found is not None:
        return found
    try:
        text = _canonical(data)
    except (TypeError, ValueError) as error:
        raise InvalidSetup(f"the catalog is not JSON data: {error}") from None
    catalog = _parse_text(text)
    if seen is not None:
        if len(_SEEN) >= _SEEN_MAX:
            _SEEN.clear()
        _SEEN[seen] = catalog
    return catalog


_SEEN: dict[str, Catalog] = {}
_SEEN_MAX = 32


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


def _section(data: Mapping[str, Any], name: str, within: str | None = None) -> Mapping[str, Any]:
    """A section of the catalog (of its section `within`); for a catalog stored before the section existed
    (the costs of the Courtier action and of the seal conversions were numbers of the engine until then), the
    packaged one: the same numbers, read from the packaged files rather than typed again here."""
    section = data.get(name)
    if isinstance(section, Mapping):
        return section
    packaged = json.loads(_packaged_with(("matcha",)))
    found: Mapping[str, Any] = packaged[within][name] if within else packaged[name]
    return found


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
    card_sections = ["stewards", "diplomats", "starting_actions", "starting_resources", "decrees"]
    for deck in HIMEJI_DECKS if "matcha" in data else ():
        # Ikebana and Calligraphy cards end in Lantern Areas, so they are cards with a lantern side (R-M11).
        card_sections.append(deck)
        for entry in data[deck]:
            cards[entry["id"]] = Card(entry["id"], deck, (), _icons(entry["lantern"]), bool(entry["diamond"]))
    if len(cards) != sum(len(data[s]) for s in card_sections):
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
    for deck, floor in (("steward", Floor.STEWARD), ("diplomat", Floor.DIPLOMAT)):
        # A room's card offers one block per die-tile space of the room (R-C01): the two must agree, or the
        # room's menu would point past the card's blocks.
        sizes = {room.tiles for room in rooms if room.floor == floor}
        for card in cards.values():
            if card.deck == deck and {len(card.blocks)} != sizes:
                raise ValueError(
                    f"{deck} card {card.id} has {len(card.blocks)} block(s); "
                    f"the {deck} rooms have {' or '.join(map(str, sorted(sizes)))} die-tile spaces"
                )
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
    courtier = _section(data, "courtier")
    ascent_pearl = {int(floors): int(pearl) for floors, pearl in courtier["ascent_pearl"].items()}
    conversions = {str(to): int(seals) for to, seals in _section(data, "seal_conversions")["prices"].items()}
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
    matcha = None
    if "matcha" in data:
        matcha, green = _parse_matcha(data)
        rows = (*rows, green)
        conversions["whisk"] = matcha.whisk_price
    else:
        _refuse_matcha_icons(cards, daimyo, gardens, yard_tiles, starting_resources)
    if any(seals < 1 or Resource(to) is Resource.SEAL for to, seals in conversions.items()):
        raise ValueError("seals convert to another resource, for 1 seal or more (R-R02)")
    matcha_spaces = [spec.id for spec in (*matcha.tea_room, *matcha.himeji)] if matcha is not None else []
    solo_cards = parse_solo_cards(
        data.get("solo_cards", []),
        [*(room.id for room in rooms), *(space.id for space in outside), *matcha_spaces, "well"],
        [yard.iron for yard in yards],
        matcha=matcha is not None,
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
        audience_cost=_cost(courtier["audience_cost"]),
        ascent_pearl=ascent_pearl,
        conversions=conversions,
        pot_points=points,
        domain_value=int(domain["value"]),
        rows=rows,
        first_game=data["first_game"],
        solo_cards=solo_cards,
        matcha=matcha,
    )


MATCHA_ONLY = frozenset(
    {
        IconKind.WHISK,
        IconKind.GEISHA,
        IconKind.SLASH,
        IconKind.LILY,
        IconKind.POND,
        IconKind.CURTAIN,
        IconKind.ADVANCE,
        IconKind.TOKEN,
    }
)
"""Symbols that need the Matcha board or clan board (whisks, geishas, the pond, the curtains, the token)."""


def _refuse_matcha_icons(
    cards: Mapping[str, Card],
    daimyo: Mapping[str, tuple[tuple[Icon, ...], ...]],
    gardens: Mapping[str, Garden],
    yard_tiles: Mapping[str, YardTile],
    starting: Mapping[str, StartingResource],
) -> None:
    """A catalog without the Matcha sections may not use Matcha's symbols: a base game has no board for them."""
    groups: list[tuple[str, tuple[Icon, ...]]] = []
    for card in cards.values():
        groups += [(card.id, block.icons) for block in card.blocks] + [(card.id, card.lantern)]
    groups += [(card_id, spot) for card_id, spots in daimyo.items() for spot in spots]
    groups += [(garden.id, garden.icons) for garden in gardens.values()]
    groups += [(tile.id, tile.blue + tile.yellow) for tile in yard_tiles.values()]
    groups += [(entry.id, entry.gain) for entry in starting.values()]
    for owner, icons in groups:
        for icon in icons:
            if icon.kind in MATCHA_ONLY:
                raise ValueError(f"{owner}: {icon} is a Matcha symbol; it needs the Matcha expansion")


def _parse_matcha(data: dict[str, Any]) -> tuple[MatchaCatalog, RowSpec]:
    """The Matcha sections (R-M01..R-M19) and the clan board's green row."""
    section = data["matcha"]
    tea_room = tuple(SpaceSpec(s["id"], int(s["value"]), ()) for s in section["tea_room"]["spaces"])
    himeji = tuple(
        SpaceSpec(s["id"], int(s["value"]), tuple((str(deck), str(side)) for deck, side in s["curtains"]))
        for s in section["himeji"]["spaces"]
    )
    for spec in himeji:
        if not spec.curtains or any(
            d not in HIMEJI_DECKS or side not in ("yellow", "blue") for d, side in spec.curtains
        ):
            raise ValueError(f"{spec.id}: curtains are (ikebana|calligraphy, yellow|blue) pairs")
    ids = [spec.id for spec in (*tea_room, *himeji)]
    if len(set(ids)) != len(ids) or len(tea_room) != 2 or len(himeji) != 2:
        raise ValueError("the Tea Room and Himeji have 2 spaces each, with distinct ids (R-M04, R-M05)")
    row = section["green_row"]
    green = RowSpec(
        row["id"], "geisha", MatchaColour(row["colour"]), "green", tuple(_icons(r) for r in row["rewards"])
    )
    action = section["geisha_action"]
    # Catalogs stored with games before the track's maximum was a catalog value have no "whisk_track": 7.
    whisk_max = int(section.get("whisk_track", {}).get("max", WHISK_TRACK_TOP))
    if not 1 <= whisk_max <= WHISK_TRACK_TOP:
        raise ValueError(
            f"the whisk track's maximum must be 1 to {WHISK_TRACK_TOP}: R-F03 scores whisks as the resources, "
            f"up to {WHISK_TRACK_TOP}"
        )
    garden = section["tea_garden"]
    house = garden["tea_house"]
    rooms = tuple((str(room["id"]), str(room["scores"])) for room in house["rooms"])
    if any(scores not in ("courtier", "gardener", "warrior") for _, scores in rooms):
        raise ValueError("a Tea House room scores courtiers, gardeners or warriors (R-F08)")
    faces = {entry["id"]: _icons(entry["effects"]) for entry in data["ceremony_faces"]}
    tokens = {entry["id"]: (str(entry["blue"]), str(entry["yellow"])) for entry in data["ceremony_tokens"]}
    shown = [face for pair in tokens.values() for face in pair]
    if len(shown) != len(set(shown)) or not set(shown) <= set(faces):
        raise ValueError("every ceremony token has two known faces, each face on one token only (R-M18)")
    curtains: dict[str, Curtains] = {}
    for deck in HIMEJI_DECKS:
        _unique(data[deck], deck)
        for entry in data[deck]:
            curtains[entry["id"]] = Curtains(
                entry["id"],
                deck,
                _icons(entry["yellow"]),
                _icons(entry["blue"]),
                _cost(entry.get("blue_cost", {})),
                bool(entry["diamond"]),
            )
    lily_pads = {entry["id"]: _icons(entry["effects"]) for entry in data["lily_pads"]}
    _unique(data["lily_pads"], "lily_pads")
    if len(lily_pads) < int(garden["pond_spaces"]):
        raise ValueError("the pond needs as many lily pads as it has spaces (R-M01)")
    first = section.get("first_game_yard")
    return (
        MatchaCatalog(
            tea_room=tea_room,
            tea_room_icons=_icons(section["tea_room"]["effects"]),
            himeji=himeji,
            token_cost=_cost(row["token_cost"]),
            entrance_cost=_cost(action["entrance_cost"]),
            whisks_per_steps={int(k): int(v) for k, v in action["whisks_per_steps"].items()},
            whisk_max=whisk_max,
            whisk_price=int(_section(section, "seal_conversion", "matcha")["whisk"]),
            entrance_points=int(garden["entrance_points"]),
            path=tuple((str(space["id"]), int(space["points"])) for space in garden["path"]),
            platform=str(garden["platform"]["id"]),
            platform_points=int(garden["platform"]["points"]),
            platform_per_clan=int(garden["platform"]["per_clan"]),
            pond_cost=_cost(garden["pond_cost"]),
            pond_spaces=int(garden["pond_spaces"]),
            tea_house=rooms,
            tea_house_per_clan=int(house["per_clan_per_room"]),
            points_per_member=int(house["points_per_member"]),
            lily_pads=lily_pads,
            faces=faces,
            tokens=tokens,
            curtains=curtains,
            first_game_yard=(str(first["target"]), str(first["tile"])) if first else None,
        ),
        green,
    )
