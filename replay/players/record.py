"""A player's record as counters: what each game adds to each of its players' counters, and the record read back
from them (means, the record by player count, with and without Matcha, solo by rival, by starting choice, and
head to head).

Every counter is a sum over games, so a game's part can be taken back exactly (a correction, a link): the
projection adds a game's new part and takes its old part away in one change (:mod:`replay.players.projection`).
Only a finished multiplayer game counts (:attr:`GameFacts.counted`); every game is listed. A solo game has its
own record against each rival difficulty; a tie is ranked as the rules rank it (R-F09).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import fields
from typing import Any

from domain.scoring import MatchaScoreSheet
from replay.history import SHEET_FIELDS
from replay.players.facts import GameFacts

LINES: tuple[str, ...] = tuple(
    field.name for field in fields(MatchaScoreSheet) if field.name not in SHEET_FIELDS
)
"""The score sheet's lines, in its order: the CP gained during the game, coins and seals, resources, the Passage
of Time, courtiers, warriors, gardeners and (with Matcha) geishas."""

Counters = dict[str, Counter[str]]
"""Per player id, counter name -> amount."""


def parts(facts: GameFacts, player_id: Callable[[str], str]) -> Counters:
    """What ``facts`` add to the counters of each of its players (``player_id`` names a player by its name)."""
    found: Counters = {}
    people = facts.people
    for seat in people:
        mine = found.setdefault(player_id(seat.player), Counter())
        mine["listed"] += 1
        if facts.status == "abandoned":
            mine["abandoned"] += 1
        elif facts.status == "in progress":
            mine["in_progress"] += 1
        if not facts.counted or seat.total is None:
            continue
        won = 1 if seat.rank == 1 else 0
        if facts.solo:
            _tally(mine, f"solo:{facts.solo}:{'matcha' if facts.matcha else 'base'}", won, seat.total)
            continue
        _tally(mine, "", won, seat.total)
        _tally(mine, f"n{len(people)}", won, seat.total)
        _tally(mine, "matcha" if facts.matcha else "base", won, seat.total)
        if seat.start:
            _tally(mine, f"start:{seat.start}", won, seat.total)
        for line, value in seat.lines.items():
            mine[f"line:{line}"] += value
        for other in people:
            if other is seat or other.rank is None or seat.rank is None:
                continue
            versus = f"vs:{player_id(other.player)}"
            mine[f"{versus}:games"] += 1
            if seat.rank < other.rank:
                mine[f"{versus}:ahead"] += 1
            elif seat.rank > other.rank:
                mine[f"{versus}:behind"] += 1
    return found


def _tally(counters: Counter[str], group: str, won: int, total: int) -> None:
    prefix = f"{group}:" if group else ""
    counters[f"{prefix}games"] += 1
    counters[f"{prefix}won"] += won
    counters[f"{prefix}score"] += total


def summed(parts_of_games: Iterable[Counters]) -> Counters:
    """Several games' parts added up."""
    total: Counters = {}
    for part in parts_of_games:
        for player, counters in part.items():
            total.setdefault(player, Counter()).update(counters)
    return total


def _mean(total: int, games: int) -> float | None:
    return round(total / games, 2) if games else None


def _group(counters: Mapping[str, int], prefix: str) -> dict[str, Any]:
    games = counters.get(f"{prefix}games", 0)
    return {
        "games": games,
        "won": counters.get(f"{prefix}won", 0),
        "mean_score": _mean(counters.get(f"{prefix}score", 0), games),
    }


def record_of(counters: Mapping[str, int], best: tuple[int, str] | None) -> dict[str, Any]:
    """A player's record from their counters and their best score (with its game), for the API."""
    games = counters.get("games", 0)
    lines = [
        {"line": line, "mean": _mean(counters.get(f"line:{line}", 0), games)}
        for line in LINES
        if line != "geishas" or counters.get("matcha:games", 0)
    ]
    by_players = sorted(
        {
            int(name[1 : name.index(":")])
            for name in counters
            if name.startswith("n") and name.endswith(":games")
        }
    )
    starts = sorted({name.split(":")[1] for name in counters if name.startswith("start:")})
    solos = sorted(
        {
            tuple(name.split(":")[1:3])
            for name in counters
            if name.startswith("solo:") and name.endswith(":games")
        }
    )
    return {
        "listed": counters.get("listed", 0),
        "in_progress": counters.get("in_progress", 0),
        "abandoned": counters.get("abandoned", 0),
        **_group(counters, ""),
        "best_score": best[0] if best else None,
        "best_game": best[1] if best else None,
        "lines": lines,
        "by_players": [{"players": count, **_group(counters, f"n{count}:")} for count in by_players],
        "matcha": [
            {"matcha": matcha, **_group(counters, f"{'matcha' if matcha else 'base'}:")}
            for matcha in (False, True)
            if counters.get(f"{'matcha' if matcha else 'base'}:games", 0)
        ],
        "solo": [
            {
                "difficulty": difficulty,
                "matcha": kind == "matcha",
                **_group(counters, f"solo:{difficulty}:{kind}:"),
            }
            for difficulty, kind in solos
        ],
        "starts": sorted(
            ({"card": card, **_group(counters, f"start:{card}:")} for card in starts),
            key=lambda start: (-start["games"], start["card"]),
        ),
    }


def versus_of(counters: Mapping[str, int]) -> dict[str, dict[str, int]]:
    """Head to head from a player's counters: per other player's id, the finished games played together and how
    often this player finished ahead of them, or behind (the rest are ties the rules shared)."""
    found: dict[str, dict[str, int]] = {}
    for name, value in counters.items():
        if name.startswith("vs:"):
            _, other, what = name.split(":")
            found.setdefault(other, {"games": 0, "ahead": 0, "behind": 0})[what] = value
    return found
