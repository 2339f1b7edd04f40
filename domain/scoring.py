"""Scoring (R-F01..R-F09): a score sheet per seat, line by line, at any moment of a game or from tallies.

`score(state)` reads the board; `score_sheet(tallies)` does the same from end-of-game tallies typed in by
hand, as the rulebook's scorer does (for games that were not recorded). Both use the same line functions.
Lines: in-game CP (R-F01), coins and seals (R-F02), resources (R-F03), Passage of Time (R-F04), courtiers
(R-F05), warriors (R-F06), gardeners (R-F07), total, and the rank: most CP first, ties to the player highest
on the (final) turn-order track (R-F09, decision C.8; option ``tie_break="shared"`` lets tied players share a
rank).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from domain.catalog import Catalog, load_catalog
from domain.errors import InvalidTallies
from domain.solo import rival_lines
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


def _sheet(seat: int, name: str, lines: list[int]) -> ScoreSheet:
    cp, coins_seals, resources, pot, courtiers, warriors, gardeners = lines
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
            resource_points(player.food, player.iron, player.pearl),
            catalog.pot_points[player.pot],
            courtier_points(by_floor),
            warrior_points(yard_values, by_floor),
            garden_cp,
        ]
        if state.solo is not None:
            lines = rival_lines(state, seat, lines)
        sheets.append(_sheet(seat, player.name, lines))
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
    """
    catalog = catalog or load_catalog()
    if not isinstance(tallies, Mapping) or not isinstance(tallies.get("players"), Sequence):
        raise InvalidTallies('tallies are {"players": [one mapping per player]}')
    players = list(tallies["players"])
    if not 1 <= len(players) <= 4:
        raise InvalidTallies("a score sheet has 1 to 4 players", details={"players": len(players)})
    tie_break = tallies.get("tie_break", "turn_order")
    if tie_break not in ("turn_order", "shared") or set(tallies) - {"players", "tie_break"}:
        raise InvalidTallies("tallies hold players and tie_break (turn_order or shared) only")
    sheets = []
    positions = []
    yard_values = {spec.id: spec.value for spec in catalog.yards}
    for seat, data in enumerate(players):
        where = f"player {seat + 1}"
        if not isinstance(data, Mapping):
            raise InvalidTallies(f"{where} is a mapping of tallies")
        unknown = sorted(set(data) - PLAYER_KEYS)
        for a, b in (
            ("food", "resource_points"),
            ("pot", "pot_points"),
            ("warriors", "warrior_points"),
            ("gardeners", "gardener_points"),
        ):
            if a in data and b in data:
                raise InvalidTallies(f"{where}: give {a} or {b}, not both")
        if unknown:
            raise InvalidTallies(
                f"{where}: unknown tallies {unknown}", details={"known": sorted(PLAYER_KEYS)}
            )
        name = data.get("name", f"Player {seat + 1}")
        if not isinstance(name, str):
            raise InvalidTallies(f"{where}: name is text")
        floors = _members(data.get("courtiers"), [floor.value for floor in Floor], f"{where} courtiers")
        by_floor = {Floor(key): count for key, count in floors.items()}
        if "resource_points" in data:
            resources = _count(data, "resource_points", 0, 6, where)
        else:
            resources = resource_points(
                *(_count(data, key, 0, 7, where) for key in ("food", "iron", "pearl"))
            )
        if "pot_points" in data:
            pot = _count(data, "pot_points", 0, None, where)
            if pot not in set(catalog.pot_points):
                raise InvalidTallies(
                    f"{where}: no Passage of Time space scores {pot}", details={"pot_points": pot}
                )
        else:
            pot = catalog.pot_points[_count(data, "pot", 0, catalog.pot_last, where)]
        if "warrior_points" in data:
            warriors = _count(data, "warrior_points", 0, None, where)
        else:
            per_yard = _members(data.get("warriors"), list(yard_values), f"{where} warriors")
            warriors = warrior_points(
                [yard_values[y] for y, n in per_yard.items() for _ in range(n)], by_floor
            )
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
        lines = [
            _count(data, "cp", 0, None, where),
            coins_seals_points(_count(data, "coins", 0, None, where), _count(data, "seals", 0, 5, where)),
            resources,
            pot,
            courtier_points(by_floor),
            warriors,
            gardeners,
        ]
        sheets.append(_sheet(seat, name, lines))
        positions.append(
            _count(data, "turn_order", 1, len(players), where) if "turn_order" in data else seat + 1
        )
    if sorted(positions) != list(range(1, len(players) + 1)):
        raise InvalidTallies(
            "turn_order gives each player a different place, 1 to n", details={"turn_order": positions}
        )
    order = [seat for _, seat in sorted(zip(positions, range(len(players)), strict=True))]
    return rank(sheets, order, tie_break == "shared")
