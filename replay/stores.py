"""The stores a game log writes to: one eventsourcing application per store, and the router that picks the store
of a game (DESIGN §3, §4).

A :class:`GameStore` is one eventsourcing ``Application``: an event store with its notification log, a
snapshot store, and the cache of folded streams (the game log's :class:`replay.cache.WarmCache`, shared by all
its stores and bounded by bytes). It holds whole games: a game's own stream, its annotation stream and its
access stream always live in the game's store, so every write to a game is one atomic write to one store (on
Redis, every key it touches shares the store's hash tag). Beside its events it keeps its list of games
(:mod:`replay.index`) and its short-lived records (:mod:`replay.ephemeral`).

One store is the usual case. On Redis, several stores ("shards", named ``GameLog0``, ``GameLog1``...) each get
their own hash tag, so Redis Cluster spreads them over its masters; :class:`Stores` is the router that picks a
game's store from its id alone (:func:`replay.store.shards.shard_index`), so nothing is looked up. The game log
(:class:`replay.application.GameLog`) asks the router and never knows how many stores there are.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any, ClassVar
from uuid import UUID, uuid4

from eventsourcing.application import AggregateNotFoundError, Application

from replay.cache import WarmCache
from replay.ephemeral import Ephemeral, MemoryEphemeral, SQLiteEphemeral
from replay.game import GameSnapshot
from replay.index import Listing, MemoryListing, index_id
from replay.store.shards import shard_classes, shard_index
from replay.watch import ChangeWatch, can_watch

Projector = Callable[[Any, Iterable[Any]], Any]
"""A stream's fold: given the fold so far (None at first) and some events, the new fold."""


class GameStore(Application[UUID]):
    """One store of games (see the module docstring). Its name is part of the stored data's layout (Redis keys
    and the library's per-application settings are named after it), so it stays ``GameLog``."""

    name = "GameLog"
    env: ClassVar[dict[str, str]] = {
        "IS_SNAPSHOTTING_ENABLED": "y",
        # The library builds its cache (and fast-forwards what it holds) when this is set; the game log then
        # puts its own cache, bounded by bytes, in its place (``cache`` below). An empty value turns caching
        # off, as it does in the library.
        "AGGREGATE_CACHE_MAXSIZE": "256",
        # Games are immutable values: a cached one is shared, never deep-copied (the library's default copies).
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
    }
    snapshot_class = GameSnapshot

    def __init__(self, env: Mapping[str, str] | None = None, *, cache: WarmCache | None = None) -> None:
        super().__init__(env)
        if self.repository.cache is not None:
            self.repository.cache = cache  # type: ignore[assignment]  # holds more than aggregates (replay.cache)
        self.watch = ChangeWatch(self.recorder) if can_watch(self.recorder) else None
        self._ephemeral: Ephemeral | None = None
        self._listing: Listing | None = None
        self._lazy_lock = threading.Lock()

    @property
    def ephemeral(self) -> Ephemeral:
        """This store's short-lived records (:mod:`replay.ephemeral`), made on first use."""
        if self._ephemeral is None:
            with self._lazy_lock:
                if self._ephemeral is None:
                    self._ephemeral = self._make_ephemeral()
        return self._ephemeral

    @property
    def listing(self) -> Listing:
        """This store's list of games (:mod:`replay.index`), made on first use."""
        if self._listing is None:
            with self._lazy_lock:
                if self._listing is None:
                    self._listing = self._make_listing()
        return self._listing

    def _make_listing(self) -> Listing:
        """The list of games kept where this store keeps its events."""
        recorder: Any = self.recorder
        if type(recorder).__module__.startswith("replay.store"):
            from replay.store.index import RedisListing

            return RedisListing(recorder, index_id(self))
        if type(recorder).__module__ == "eventsourcing.sqlite":
            from replay.index_sqlite import SQLiteListing

            return SQLiteListing(recorder, index_id(self), self.name)
        return MemoryListing(self.last_version, lambda: self.last_version(index_id(self)))

    def _make_ephemeral(self) -> Ephemeral:
        """Short-lived records kept where this store keeps its events."""
        recorder: Any = self.recorder
        if type(recorder).__module__.startswith("replay.store"):
            from replay.store.ephemeral import RedisEphemeral

            return RedisEphemeral(recorder.datastore, recorder.tag)
        if type(recorder).__module__ == "eventsourcing.sqlite":
            return SQLiteEphemeral(recorder.datastore)
        return MemoryEphemeral()

    def read(self, stream_id: UUID, projector: Projector, version: int | None = None) -> Any | None:
        """The fold of one stream (at ``version``, or as it stands), or None when it has no events."""
        try:
            return self.repository.get(stream_id, version=version, projector_func=projector)
        except AggregateNotFoundError:
            return None

    def cached(self, stream_id: UUID) -> Any | None:
        """The fold of a stream as this process last kept it, or None."""
        cache = self.repository.cache
        if cache is None:
            return None
        try:
            return cache.get(stream_id)
        except KeyError:
            return None

    def peek(self, key: Any) -> Any | None:
        """What this process keeps under ``key`` (a stream's fold, or what the game log derived from one),
        without counting it as a use; None when nothing is kept."""
        cache = self.repository.cache
        return cache.peek(key) if isinstance(cache, WarmCache) else None

    def remember(self, key: Any, value: Any, still: Callable[[Any | None], bool] | None = None) -> bool:
        """Keep ``value`` under ``key`` (if ``still(what is kept now)``, when given); whether it was kept."""
        cache = self.repository.cache
        if not isinstance(cache, WarmCache):
            return False
        return cache.put_if(key, value, still or (lambda _: True))

    def keep(self, stream_id: UUID, fold: Any) -> None:
        """Cache ``fold``, the newest fold of a stream. The library's cache fast-forwards the object it holds,
        which suits mutable aggregates; folds here are immutable, so the newest must be put back, or every read
        would refold from the cached version."""
        if self.repository.cache is not None:
            self.repository.cache.put(stream_id, fold)

    def read_together(self, streams: Sequence[tuple[UUID, Projector]]) -> list[Any | None]:
        """The folds of several streams of this store as they stand. When every one is cached and the store can
        read several streams' new events at once (Redis), one round trip brings them all up to date: every
        write to a game reads the game and its access stream. Otherwise each is read on its own."""
        held: list[Any] = [self.cached(stream_id) for stream_id, _ in streams]
        select: Callable[..., list[list[Any]]] | None = getattr(self.recorder, "select_new_events", None)
        if select is None or not self.repository.fastforward or any(fold is None for fold in held):
            return [self.read(stream_id, projector) for stream_id, projector in streams]
        found = select(
            [(stream_id, fold.version) for (stream_id, _), fold in zip(streams, held, strict=True)]
        )
        folds = []
        for (stream_id, projector), held_fold, new in zip(streams, held, found, strict=True):
            fold = held_fold
            if new:
                fold = projector(held_fold, map(self.mapper.to_domain_event, new))
                self.keep(stream_id, fold)
            folds.append(fold)
        return folds

    def exists(self, stream_id: UUID) -> bool:
        return bool(list(self.events.get(stream_id, limit=1)))

    def last_version(self, stream_id: UUID) -> int:
        """The version of a stream's last event (0 when it has none)."""
        last = list(self.events.get(stream_id, desc=True, limit=1))
        return int(last[0].originator_version) if last else 0


class Stores:
    """The router: every store of a game log, and which one holds a given game."""

    def __init__(self, stores: Sequence[GameStore]) -> None:
        if not stores:
            raise ValueError("a game log needs at least one store")
        self.all = list(stores)

    @classmethod
    def build(cls, env: Mapping[str, str], count: int = 1, cache: WarmCache | None = None) -> Stores:
        """``count`` stores on the configured persistence module: one named ``GameLog``, or shards named
        ``GameLog0`` .. ``GameLog{count-1}``, sharing ``cache``."""
        if count <= 1:
            return cls([GameStore(env=env, cache=cache)])
        return cls([store_class(env=env, cache=cache) for store_class in shard_classes(GameStore, count)])

    def of(self, game_id: UUID) -> GameStore:
        """The store that holds this game (and its annotation and access streams)."""
        return self.all[shard_index(game_id, len(self.all))]

    def of_key(self, key: str) -> GameStore:
        """The store that keeps a record named by ``key`` rather than by a game (a receipt of a creation)."""
        return self.all[shard_index(key, len(self.all))]

    def new_id_in(self, store: GameStore) -> UUID:
        """A fresh random game id whose game lives in ``store`` (a few draws on average: one per store)."""
        while True:
            game_id = uuid4()
            if self.of(game_id) is store:
                return game_id

    def __iter__(self) -> Iterator[GameStore]:
        return iter(self.all)

    def __len__(self) -> int:
        return len(self.all)

    def close(self) -> None:
        for store in self.all:
            store.close()
