"""Every stream a store holds, named by its game: how backups and ``heronlog verify`` find every game past any damage.

The streams come from the store's index of streams (Redis: each stream's sorted set; SQLite: the stream ids of its
events table), not from its log of records nor from the list of games, so a missing or damaged record hides no
other game. The list's id derives from the store's name and a game's comments and grants from the game's id; every
other stream is a game's own."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from replay import access
from replay import annotations as notes
from replay.events import GameIndexed
from replay.index import index_id
from replay.stores import GameStore

PAGE = 1000

GAME, ANNOTATIONS, GRANTS = "game", "annotations", "grants"
"""The parts of a game: its own stream, its annotation stream, its access stream (its grants)."""


@dataclass(frozen=True)
class Part:
    """One stream of a game: the game's id and which part of it the stream is."""

    game_id: UUID
    part: str


@dataclass
class Census:
    """The streams of one store: the list of games' id, each game's parts, by stream id."""

    list_id: UUID
    parts: dict[UUID, Part] = field(default_factory=dict)

    @property
    def game_ids(self) -> list[UUID]:
        """Every game found, in the order of their ids (a backup's order is its index's, not this)."""
        return sorted({part.game_id for part in self.parts.values()}, key=str)

    def streams_of(self, game_id: UUID) -> dict[str, UUID]:
        """The streams a game has in the store, by part."""
        return {part.part: stream for stream, part in self.parts.items() if part.game_id == game_id}


def stream_ids(store: GameStore) -> set[UUID]:
    """Every stream ``store`` holds events of, found in its index of streams (see the module docstring)."""
    recorder: Any = store.recorder
    if callable(getattr(recorder, "originator_ids", None)):  # replay.store: the streams' sorted sets
        return _uuids(recorder.originator_ids())
    if type(recorder).__module__ == "eventsourcing.sqlite":
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT DISTINCT originator_id FROM {recorder.events_table_name}")
            return _uuids(row[0] for row in cursor.fetchall())
    found: set[UUID] = set()  # in memory: the log has every record
    start = 1
    while True:
        page = recorder.select_notifications(start, PAGE)
        found |= _uuids(notification.originator_id for notification in page)
        if len(page) < PAGE:
            return found
        start = page[-1].id + 1


def census(store: GameStore, listed: Iterable[UUID] = ()) -> Census:
    """The streams of ``store``, each named by its game; ``listed`` adds the games the list of games names
    (a game whose every record is gone is still named there)."""
    streams = stream_ids(store)
    found = Census(index_id(store))
    streams.discard(found.list_id)
    derived: dict[UUID, Part] = {}
    for game_id in streams | set(listed):
        derived[notes.stream_id(game_id)] = Part(game_id, ANNOTATIONS)
        derived[access.stream_id(game_id)] = Part(game_id, GRANTS)
    for stream in streams:
        found.parts[stream] = derived.get(stream) or Part(stream, GAME)
    for game_id in listed:
        found.parts.setdefault(game_id, Part(game_id, GAME))
    return found


def listed(store: GameStore) -> set[UUID]:
    """The games the list of games of ``store`` names, in its entries that can be read."""
    stream, after, found = index_id(store), 0, set()
    while True:
        entries, last = store.readable_events(stream, gt=after, limit=PAGE)
        found |= _uuids(entry.game_id for entry in entries if isinstance(entry, GameIndexed))
        if last is None or last == after:
            return found
        after = last


def game_ids(stores: Iterable[GameStore]) -> Iterator[UUID]:
    """Every game of every store, found past any damage (see the module docstring), store by store."""
    for store in stores:
        yield from census(store, listed(store)).game_ids


def _uuids(originators: Iterable[object]) -> set[UUID]:
    """The ids that are heronlog's (UUIDs); a stream of another application sharing the store is passed over."""
    found = set()
    for originator in originators:
        if isinstance(originator, UUID):
            found.add(originator)
            continue
        try:
            found.add(UUID(str(originator)))
        except ValueError:
            continue
    return found
