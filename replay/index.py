"""The list of games: a read model of every store's game index (DESIGN §3).

Each store keeps one index stream (:class:`replay.events.GameIndexed` events), written in the same transaction
as each new game's first event, so the list never shows a game that does not exist nor misses one that does.
An entry holds what the list shows and searches (title, players, mode, privacy, parent, creation time) without
loading the game; what changes as the game is played (its version, status, round and winner) is read from the
game itself for the page being shown, and kept per game version.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import domain
from replay.errors import GameCorrupt, store_unavailable
from replay.events import GameCreated, GameIndexed
from replay.game import Game
from replay.stores import GameStore, Stores


@dataclass(frozen=True)
class GameSummary:
    """A game as the list of games shows it."""

    game_id: str
    title: str
    players: tuple[str, ...]
    mode: str
    private: bool
    parent: Mapping[str, Any] | None
    created_on: str
    version: int
    status: str
    round: int
    winner: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "title": self.title,
            "players": list(self.players),
            "mode": self.mode,
            "private": self.private,
            "parent": dict(self.parent) if self.parent else None,
            "created_on": self.created_on,
            "version": self.version,
            "status": self.status,
            "round": self.round,
            "winner": self.winner,
        }


def index_id(store: GameStore) -> UUID:
    """The id of a store's index stream (derived from the store's name, so every process finds it)."""
    return uuid5(NAMESPACE_URL, f"heronlog:index:{store.name}")


def entry_for(created: GameCreated, stream_id: UUID, position: int) -> GameIndexed:
    """The index's record of a new game, at ``position`` of the index stream."""
    return GameIndexed(
        originator_id=stream_id,
        originator_version=position,
        timestamp=created.timestamp,
        game_id=str(created.originator_id),
        players=[seat["name"] for seat in created.setup["players"]],
        mode=created.setup["mode"],
        title=created.setup["title"],
        private=created.setup["private"],
        parent=created.parent,
    )


class GameIndex:
    """The list of games across every store of a game log. ``load`` reads a game as it stands."""

    def __init__(self, stores: Stores, load: Callable[[UUID], Game]) -> None:
        self._stores = stores
        self._load = load
        self._lock = threading.Lock()
        self._summaries: dict[str, tuple[int, GameSummary]] = {}

    def next_entry(self, store: GameStore, created: GameCreated) -> GameIndexed:
        """The entry a new game of ``store`` takes: the next position of its index stream. A game indexed at
        the same moment by another process takes that position first; the writer then asks again."""
        stream_id = index_id(store)
        return entry_for(created, stream_id, store.last_version(stream_id) + 1)

    def entries(
        self, store: GameStore | None = None, unavailable: list[str] | None = None
    ) -> list[GameIndexed]:
        """Every game of every store (or of ``store`` only), in no particular order. An entry whose record is
        damaged is left out (and logged: ``heronlog verify`` names it). With ``unavailable``, a store that does
        not answer (a cluster node down) is named there and left out, and the others are listed; without it,
        or when no store answers, the store's error is raised."""
        found: list[GameIndexed] = []
        stores = list(self._stores if store is None else [store])
        for each in stores:
            try:
                events = each.readable_events(index_id(each))
            except Exception as error:
                if unavailable is None or not store_unavailable(error):
                    raise
                unavailable.append(each.name)
                if len(unavailable) == len(stores):
                    raise
                continue
            found += [event for event in events if isinstance(event, GameIndexed)]
        return found

    def game_ids(self, store: GameStore | None = None) -> Iterator[UUID]:
        """The ids of every game (of ``store`` only, when it is given)."""
        for entry in self.entries(store):
            yield UUID(entry.game_id)

    def page(
        self, *, search: str | None = None, include_private: bool = False, limit: int = 50, offset: int = 0
    ) -> tuple[list[GameSummary], int]:
        """Games newest first (by their own creation time: an imported game keeps the time it was recorded),
        those whose title or players contain ``search`` when it is given; and how many there are in all."""
        needle = (search or "").casefold().strip()
        unavailable: list[str] = []
        selected = [
            entry
            for entry in sorted(
                self.entries(unavailable=unavailable), key=lambda entry: entry.timestamp, reverse=True
            )
            if (include_private or not entry.private)
            and (not needle or needle in " ".join([entry.title, *entry.players]).casefold())
        ]
        return Page(
            [self.summary(entry) for entry in selected[offset : offset + limit]], len(selected), unavailable
        )

    def summary(self, entry: GameIndexed) -> GameSummary:
        """The entry with what the game says now (kept per game version: a page is shown again and again). A
        game whose stored events are damaged is listed as ``damaged`` (opening it names the damage), one of
        rules this build does not replay as ``rules unsupported``: the list never refuses a game."""
        try:
            game = self._load(UUID(entry.game_id))
        except GameCorrupt:
            return self._entry_only(entry, status="damaged")
        cached = self._summaries.get(entry.game_id)
        if cached and cached[0] == game.version:
            return cached[1]
        if not game.playable:
            return self._entry_only(entry, status=game.status, version=game.version)
        winner = None
        if domain.is_over(game.state):
            sheets = [sheet.to_dict() for sheet in domain.score(game.state)]
            best = min(range(len(sheets)), key=lambda seat: sheets[seat]["rank"])
            winner = entry.players[best]
        summary = GameSummary(
            game_id=entry.game_id,
            title=entry.title,
            players=tuple(entry.players),
            mode=entry.mode,
            private=entry.private,
            parent=entry.parent,
            created_on=entry.timestamp.isoformat(),
            version=game.version,
            status=game.status,
            round=domain.coordinates(game.state).round,
            winner=winner,
        )
        with self._lock:
            self._summaries[entry.game_id] = (game.version, summary)
        return summary

    @staticmethod
    def _entry_only(entry: GameIndexed, *, status: str, version: int = 0) -> GameSummary:
        """What the list says of a game it cannot read as usual: the entry, and why."""
        return GameSummary(
            game_id=entry.game_id,
            title=entry.title,
            players=tuple(entry.players),
            mode=entry.mode,
            private=entry.private,
            parent=entry.parent,
            created_on=entry.timestamp.isoformat(),
            version=version,
            status=status,
            round=0,
            winner=None,
        )


class Page(tuple[list[GameSummary], int]):
    """A page of the list: ``(games, total)``, unpacked as a pair. ``unavailable`` names the stores (shards)
    that did not answer: their games are missing from the page and from the total (empty when all answered)."""

    unavailable: tuple[str, ...]

    def __new__(
        cls, games: list[GameSummary], total: int, unavailable: list[str] | tuple[str, ...] = ()
    ) -> Page:
        page = super().__new__(cls, (games, total))
        page.unavailable = tuple(unavailable)
        return page
