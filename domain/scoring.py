"""Scoring (R-F01..R-F09): a score sheet per seat, line by line, at any moment of a game or from tallies."""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import asdict, dataclass, replace
from typing import Any

from domain.catalog import Catalog, load_catalog
from domain.errors import InvalidTallies
from domain.matcha.tea_garden import ENTRANCE, geisha_points
from domain.solo.game import rival_lines
from domain.state import GameState
from domain.vocabulary import Floor

COURTIER_POINTS = {Floor.GATE: 1, Floor.STEWARD: 3, Floor.DIPLOMAT: 6, Floor.DAIMYO: 10}
"""R-F05."""
CASTLE_FLOORS = (Floor.STEWARD, Floor.DIPLOMAT, Floor.DAIMYO)
"""Floors whose courtiers multiply warriors (R-F06: inside the castle, the Gate excluded)."""


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """One player's score, line by line (the rulebook's score pad)."""

    seat: int
    name: str
    in_game_cp: int
    coins_seals: int
    resources: int
    passage_of_time: int
    courtiers: int
    warriors: int
    gardeners: int
    total: int
    rank: int

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class MatchaScoreSheet(ScoreSheet):
    """A Matcha player's score: the base lines (whisks counted in ``resources``, R-F03) and the geishas
    (R-F08), listed after the gardeners."""

    geishas: int = 0

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        order = [
            *(key for key in data if key not in ("geishas", "total", "rank")),
            "geishas",
            "total",
            "rank",
        ]
        return {key: data[key] for key in order}


def track_tile(total: int, matcha: bool) -> str:
    """The tile beside a player's fan for a score of `total` on the 40-space Clan Point track (R-R06): +40, then
    flipped to +80; with Matcha, above 120, the +120 tile, then flipped to +160 (R-M19). An empty string below
    40."""
    laps = total // 40
    if laps == 0:
        return ""
    if matcha and laps >= 3:
        return "+160" if laps >= 4 else "+120"
    return "+80" if laps >= 2 else "+40"


def coins_seals_points(coins: int, seals: int) -> int:
    """R-F02: one CP per full 5 coins and seals together."""
    return (coins + seals) // 5


def resource_points(*amounts: int) -> int:
    """R-F03: per resource type, 1 CP for 3 to 6, 2 CP for 7."""
    return sum(2 if amount >= 7 else 1 if amount >= 3 else 0 for amount in amounts)


def courtier_points(by_floor: Mapping[Floor, int]) -> int:
    """R-F05: Gate 1, Stewards 3, Diplomats 6, Daimyo 10 each."""
    return sum(COURTIER_POINTS[floor] * count for floor, count in by_floor.items())


def warrior_points(yard_values: Sequence[int], by_floor: Mapping[Floor, int]) -> int:
    """R-F06: the sum of the yard values of your warriors times your courtiers inside the castle."""
    inside = sum(by_floor.get(floor, 0) for floor in CASTLE_FLOORS)
    return sum(yard_values) * inside


def rank(sheets: list[ScoreSheet], order: Sequence[int], shared: bool) -> tuple[ScoreSheet, ...]:
    """Ranks by total, ties broken by the turn-order track (R-F09, C.8) unless ties are `shared`."""
    position = {seat: i for i, seat in enumerate(order)}
    ordered = sorted(sheets, key=lambda sheet: (-sheet.total, position[sheet.seat]))
    ranks: dict[int, int] = {}
    for i, sheet in enumerate(ordered):
        if shared and i and sheet.total == ordered[i - 1].total:
            ranks[sheet.seat] = ranks[ordered[i - 1].seat]
        else:
            ranks[sheet.seat] = i + 1
    return tuple(replace(sheet, rank=ranks[sheet.seat]) for sheet in sorted(sheets, key=lambda s: s.seat))


def _sheet(seat: int, name: str, lines: list[int], geishas: int | None = None) -> ScoreSheet:
    cp, coins_seals, resources, pot, courtiers, warriors, gardeners = lines
    if geishas is not None:
        return MatchaScoreSheet(
            seat,
            name,
            cp,
            coins_seals,
            resources,
            pot,
            courtiers,
            warriors,
            gardeners,
            sum(lines) + geishas,
            0,
            geishas,
        )
    return ScoreSheet(
        seat, name, cp, coins_seals, resources, pot, courtiers, warriors, gardeners, sum(lines), 0
    )


def courtiers_by_floor(state: GameState, seat: int) -> dict[Floor, int]:
    """Where a seat's courtiers stand (those still on the Domain score nothing)."""
    board = state.board
    by_floor = {floor: 0 for floor in COURTIER_POINTS}
    by_floor[Floor.GATE] = board.gate[seat]
    for room in board.rooms:
        by_floor[state.catalog.room(room.id).floor] += room.courtiers.count(seat)
    by_floor[Floor.DAIMYO] = board.daimyo.spots.count(seat) + board.daimyo.extra.count(seat)
    return by_floor


def score(state: GameState) -> tuple[ScoreSheet, ...]:
    """Every seat's score sheet as if the game ended now."""
    catalog = state.catalog
    board = state.board
    matcha = board.matcha is not None
    sheets = []
    for seat, player in enumerate(state.players):
        by_floor = courtiers_by_floor(state, seat)
        yard_values = [
            catalog.yard(yard.id).value for yard in board.yards for s in yard.warriors if s == seat
        ]
        garden_cp = sum(
            catalog.gardens[slot.card].cp
            for slot in board.gardens
            if slot.card is not None and seat in slot.gardeners
        )
        lines = [
            player.cp,
            coins_seals_points(player.coins, player.seals),
            resource_points(player.food, player.iron, player.pearl, *((player.whisks,) if matcha else ())),
            catalog.pot_points[player.pot],
            courtier_points(by_floor),
            warrior_points(yard_values, by_floor),
            garden_cp,
        ]
        geishas = geisha_points(state, seat) if matcha else None
        if state.solo is not None:
            # under rival_scoring="cp_only" the rival's geishas score nothing either (Tokugawa, R-F08)
            counted = rival_lines(state, seat, [*lines, geishas or 0])
            lines, geishas = counted[:-1], counted[-1] if matcha else None
        sheets.append(_sheet(seat, player.name, lines, geishas))
    return rank(sheets, state.turn_order, state.options.tie_break == "shared")


# --- the stand-alone score sheet (the rulebook's scorer) -

PLAYER_KEYS = {
    "name",
    "cp",
    "coins",
    "seals",
    "food",
    "iron",
    "pearl",
    "resource_points",
    "pot",
    "pot_points",
    "courtiers",
    "warriors",
    "warrior_points",
    "gardeners",
    "gardener_points",
    "turn_order",
}
MATCHA_KEYS = {"whisks", "geishas", "geisha_points", "gardeners_placed"}
"""Matcha tallies (R-F03, R-F08): the whisk track, where the geishas stand (or their points), and how many
gardeners are placed when the gardeners are given as ``gardener_points`` (the Tea House counts them)."""


def _count(data: Mapping[str, Any], key: str, low: int, high: int | None, where: str) -> int:
    value = data.get(key, 0)
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < low
        or (high is not None and value > high)
    ):
        bound = f"{low} to {high}" if high is not None else f"at least {low}"
        raise InvalidTallies(
            f"{where}: {key} is a whole number, {bound}", details={"field": key, "value": value}
        )
    return value


def _members(data: Any, keys: Sequence[str], where: str) -> dict[str, int]:
    if data is None:
        return dict.fromkeys(keys, 0)
    if not isinstance(data, Mapping) or set(data) - set(keys):
        raise InvalidTallies(f"{where} maps {list(keys)} to counts", details={"allowed": list(keys)})
    counts = {key: _count(data, key, 0, 5, where) for key in keys}
    if sum(counts.values()) > 5:
        raise InvalidTallies(f"{where}: a clan has 5 of each member", details=counts)
    return counts


def score_sheet(tallies: Mapping[str, Any], catalog: Catalog | None = None) -> tuple[ScoreSheet, ...]:
    """Score sheets from end-of-game tallies, as typed in from a table.

    ``tallies = {"players": [...], "tie_break": "turn_order" | "shared"}``; each player is a mapping with
    ``name``, ``cp`` (the fan's clan points), ``coins``, ``seals``, ``food``/``iron``/``pearl`` (or
    ``resource_points``), ``pot`` (the marker's space, or ``pot_points``), ``courtiers`` ({"gate", "steward",
    "diplomat", "daimyo"}: counts), ``warriors`` ({"yard_1", ...}: counts, or ``warrior_points``),
    ``gardeners`` (garden card ids, or ``gardener_points``) and ``turn_order`` (1 = first on the final track;
    by default the order of the list). Missing counts are 0.

    With ``"expansions": ["matcha"]`` each player may also give ``whisks`` (0-7, R-F03) and ``geishas`` (counts
    by place: ``entrance``, ``viewing_platform``, ``path_1``, ``path_2`` and each Tea House room, whose geishas
    score 2 per gardener, warrior or courtier placed, as the other tallies count them; with ``gardener_points``
    give ``gardeners_placed`` too) or ``geisha_points`` (R-F08); the sheets are then `MatchaScoreSheet`.
    """
    if not isinstance(tallies, Mapping) or not isinstance(tallies.get("players"), Sequence):
        raise InvalidTallies('tallies are {"players": [one mapping per player]}')
    players = list(tallies["players"])
    if not 1 <= len(players) <= 4:
        raise InvalidTallies("a score sheet has 1 to 4 players", details={"players": len(players)})
    tie_break = tallies.get("tie_break", "turn_order")
    if tie_break not in ("turn_order", "shared") or set(tallies) - {"players", "tie_break", "expansions"}:
        raise InvalidTallies("tallies hold players, tie_break (turn_order or shared) and expansions only")
    expansions = tallies.get("expansions") or []
    if not isinstance(expansions, list | tuple) or any(name != "matcha" for name in expansions):
        raise InvalidTallies('expansions is a list: [] or ["matcha"]', details={"expansions": expansions})
    matcha = bool(expansions)
    if catalog is None:
        catalog = load_catalog(expansions=("matcha",) if matcha else ())
    keys = PLAYER_KEYS | MATCHA_KEYS if matcha else PLAYER_KEYS
    sheets = []
    positions = []
    for seat, data in enumerate(players):
        # An error names the player as the table knows them, and says which seat (the form marks the field).
        named = data.get("name") if isinstance(data, Mapping) else None
        where = named.strip() if isinstance(named, str) and named.strip() else f"player {seat + 1}"
        try:
            sheet, position = _player_sheet(
                seat, data, where, players=len(players), catalog=catalog, keys=keys, matcha=matcha
            )
        except InvalidTallies as error:
            error.details.setdefault("player", seat)
            raise
        sheets.append(sheet)
        positions.append(position)
    if sorted(positions) != list(range(1, len(players) + 1)):
        raise InvalidTallies(
            "turn_order gives each player a different place, 1 to n", details={"turn_order": positions}
        )
    order = [seat for _, seat in sorted(zip(positions, range(len(players)), strict=True))]
    return rank(sheets, order, tie_break == "shared")


def _player_sheet(
    seat: int, data: Any, where: str, *, players: int, catalog: Catalog, keys: Set[str], matcha: bool
) -> tuple[ScoreSheet, int]:
    """One player's sheet from their tallies, and their place in turn order (``where`` names them in errors)."""
    yard_values = {spec.id: spec.value for spec in catalog.yards}
    if not isinstance(data, Mapping):
        raise InvalidTallies(f"{where} is a mapping of tallies")
    unknown = sorted(set(data) - keys)
    for a, b in (
        ("food", "resource_points"),
        ("pot", "pot_points"),
        ("warriors", "warrior_points"),
        ("gardeners", "gardener_points"),
        ("geishas", "geisha_points"),
        ("whisks", "resource_points"),
    ):
        if a in data and b in data:
            raise InvalidTallies(f"{where}: give {a} or {b}, not both")
    if unknown:
        raise InvalidTallies(f"{where}: unknown tallies {unknown}", details={"known": sorted(keys)})
    name = data.get("name", f"Player {seat + 1}")
    if not isinstance(name, str):
        raise InvalidTallies(f"{where}: name is text")
    floors = _members(data.get("courtiers"), [floor.value for floor in Floor], f"{where} courtiers")
    by_floor = {Floor(key): count for key, count in floors.items()}
    if "resource_points" in data:
        resources = _count(data, "resource_points", 0, 8 if matcha else 6, where)
    else:
        counted = ("food", "iron", "pearl", "whisks") if matcha else ("food", "iron", "pearl")
        resources = resource_points(*(_count(data, key, 0, 7, where) for key in counted))
    if "pot_points" in data:
        pot = _count(data, "pot_points", 0, None, where)
        if pot not in set(catalog.pot_points):
            raise InvalidTallies(
                f"{where}: no Passage of Time space scores {pot}", details={"pot_points": pot}
            )
    else:
        pot = catalog.pot_points[_count(data, "pot", 0, catalog.pot_last, where)]
    per_yard = _members(data.get("warriors"), list(yard_values), f"{where} warriors")
    if "warrior_points" in data:
        warriors = _count(data, "warrior_points", 0, None, where)
    else:
        warriors = warrior_points([yard_values[y] for y, n in per_yard.items() for _ in range(n)], by_floor)
    if "gardener_points" in data:
        gardeners = _count(data, "gardener_points", 0, None, where)
    else:
        cards = data.get("gardeners", [])
        if (
            not isinstance(cards, Sequence)
            or isinstance(cards, str)
            or len(cards) > 5
            or len(set(cards)) != len(cards)
            or any(card not in catalog.gardens for card in cards)
        ):
            raise InvalidTallies(
                f"{where}: gardeners lists up to 5 different garden cards",
                details={"known": sorted(catalog.gardens)},
            )
        gardeners = sum(catalog.gardens[card].cp for card in cards)
    geishas = None
    if matcha:
        placed = {
            "courtier": sum(by_floor.values()),
            "warrior": sum(per_yard.values()),
            "gardener": len(data.get("gardeners", []))
            if "gardener_points" not in data
            else _count(data, "gardeners_placed", 0, 5, where),
        }
        geishas = _geisha_tally(data, where, catalog, placed)
    lines = [
        _count(data, "cp", 0, None, where),
        coins_seals_points(_count(data, "coins", 0, None, where), _count(data, "seals", 0, 5, where)),
        resources,
        pot,
        courtier_points(by_floor),
        warriors,
        gardeners,
    ]
    position = _count(data, "turn_order", 1, players, where) if "turn_order" in data else seat + 1
    return _sheet(seat, name, lines, geishas), position


def _geisha_tally(data: Mapping[str, Any], where: str, catalog: Catalog, placed: Mapping[str, int]) -> int:
    """R-F08 from tallies: points per place, and the Tea House rooms' 2 per member of the room's kind placed."""
    spec = catalog.matcha
    assert spec is not None
    if "geisha_points" in data:
        return _count(data, "geisha_points", 0, None, where)
    values = {ENTRANCE: spec.entrance_points, spec.platform: spec.platform_points, **dict(spec.path)}
    rooms = dict(spec.tea_house)
    counts = _members(data.get("geishas"), [*values, *rooms], f"{where} geishas")
    if counts[spec.platform] > spec.platform_per_clan or any(
        counts[room] > spec.tea_house_per_clan for room in rooms
    ):
        raise InvalidTallies(f"{where}: one geisha per clan on the Viewing Platform, two per Tea House room")
    points = sum(values[place] * counts[place] for place in values)
    return points + sum(
        counts[room] * spec.points_per_member * placed[member] for room, member in rooms.items()
    )
