"""The stores a game log writes to: one eventsourcing application per store, and the router that picks the store of a
game from its id (docs/operations/scale-out.md).
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar
from uuid import UUID, uuid4

from eventsourcing.application import Application
from eventsourcing.persistence import DataError, Mapper, PersistenceError
from eventsourcing.utils import get_topic

from replay import snapshots
from replay.cache import WarmCache
from replay.ephemeral import Ephemeral, MemoryEphemeral, SQLiteEphemeral
from replay.errors import GameCorrupt, RulesVersionUnsupported
from replay.events import DomainEvent, GameCreated
from replay.game import GameSnapshot, NotAGameEvent, project_game
from replay.heads import Heads
from replay.index import Listing, MemoryListing, index_id
from replay.integrity import CheckedMapper
from replay.store.shards import shard_classes, shard_index
from replay.stored_records import checked_events, readable_events
from replay.views import MemoryViews, SQLiteViews, Views
from replay.watch import ChangeWatch, can_watch

logger = logging.getLogger(__name__)

CREATED_PAGE = 500
Projector = Callable[[Any, Iterable[Any]], Any]
"""A stream's fold: given the fold so far (None at first) and some events, the new fold."""


@dataclass(frozen=True)
class CatchUp:
    """Bringing cached folds up to date: each fold, the head the store had for it, and what to ask the store (each
    stream's events after the version before the fold's last, so the first one returned proves the fold's last
    event is still there)."""

    held: list[Any]
    heads: list[tuple[int, datetime]]
    after: list[tuple[UUID, int]]


class GameStore(Application[UUID]):
    """One store of games (see the module docstring). Its name is part of the stored data's layout (Redis keys
    and the library's per-application settings are named after it), so it stays ``GameLog``.

    Reading a stream (:meth:`read`) is the store's own, not the library repository's, for three reasons:

    * **a fold held in memory is checked against the store** before it is brought up to date: the store must
      still hold the very event the fold ends with (same version, same time). A server that came back with
      older data (a Redis restarted from an older snapshot, an ``everysec`` AOF after a power loss, a replica
      that took over) no longer does, and the stream is read again from the store, rather than served, or
      written on, from versions the store lost;
    * **every record is checked** (:mod:`replay.integrity`) and a damaged one, or a stream that does not fold,
      is a :class:`replay.errors.GameCorrupt` naming the stream and the version, for that stream only;
    * **a game is restored from a snapshot and the events it summarises** (:mod:`replay.snapshots`): a
      snapshot that does not match them, or fails its check, is dropped and an earlier one (or none) used.
    """

    name = "GameLog"
    env: ClassVar[dict[str, str]] = {
        "IS_SNAPSHOTTING_ENABLED": "y",
        # The library builds its cache when this is set; the game log then puts its own cache, bounded by
        # bytes, in its place (``cache`` below). An empty value turns caching off, as it does in the library.
        "AGGREGATE_CACHE_MAXSIZE": "256",
        # Games are immutable values: a cached one is shared, never deep-copied (the library's default copies).
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
        # The library's JSON, read with msgspec (replay/transcoding.py): the same bytes, read several times faster.
        "TRANSCODER_TOPIC": "replay.transcoding:FastJSONTranscoder",
    }
    snapshot_class = GameSnapshot

    def __init__(self, env: Mapping[str, str] | None = None, *, cache: WarmCache | None = None) -> None:
        super().__init__(env)
        if self.repository.cache is not None:
            self.repository.cache = cache  # type: ignore[assignment]  # holds more than aggregates (replay.cache)
        self.watch = ChangeWatch(self.recorder) if can_watch(self.recorder) else None
        self._ephemeral: Ephemeral | None = None
        self._listing: Listing | None = None
        self._views: Views | None = None
        self._lazy_lock = threading.Lock()
        self._heads = Heads()

    def construct_mapper(self) -> Mapper[UUID]:
        """The library's mapper with an integrity check in every record (:mod:`replay.integrity`)."""
        return self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=CheckedMapper)

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

    @property
    def views(self) -> Views:
        """This store's hashes and sorted sets for read models (:mod:`replay.views`), made on first use."""
        if self._views is None:
            with self._lazy_lock:
                if self._views is None:
                    self._views = self._make_views()
        return self._views

    def _make_views(self) -> Views:
        recorder: Any = self.recorder
        if type(recorder).__module__.startswith("replay.store"):
            from replay.store.views import RedisViews

            return RedisViews(recorder.datastore, recorder.tag)
        if type(recorder).__module__ == "eventsourcing.sqlite":
            return SQLiteViews(recorder)
        return MemoryViews()

    def _make_listing(self) -> Listing:
        """The list of games kept where this store keeps its events."""
        recorder: Any = self.recorder
        if type(recorder).__module__.startswith("replay.store"):
            from replay.store.index import RedisListing

            return RedisListing(recorder, index_id(self))
        if type(recorder).__module__ == "eventsourcing.sqlite":
            from replay.index_sqlite import SQLiteListing

            return SQLiteListing(recorder, index_id(self), self.name)
        return MemoryListing(
            self.last_version,
            lambda: self.last_version(index_id(self)),
            lambda game_id: next(iter(self.recorder.select_events(game_id, lte=1, limit=1)), None),
        )

    def _make_ephemeral(self) -> Ephemeral:
        """Short-lived records kept where this store keeps its events."""
        recorder: Any = self.recorder
        if type(recorder).__module__.startswith("replay.store"):
            from replay.store.ephemeral import RedisEphemeral

            return RedisEphemeral(recorder.datastore, recorder.tag)
        if type(recorder).__module__ == "eventsourcing.sqlite":
            return SQLiteEphemeral(recorder.datastore)
        return MemoryEphemeral()

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """Save events (one atomic write) and record the last one of each stream (its head): the fold cached
        after this write ends with it (:meth:`cache_fold`)."""
        recordings = super().save(*objs, **kwargs)
        for event in objs:
            if isinstance(event, DomainEvent):
                self._heads.record(event)
        return recordings

    # --- reading -------------------------------------------------------------------------------------------

    def read(self, stream_id: UUID, projector: Projector, version: int | None = None) -> Any | None:
        """The fold of one stream (at ``version``, or as it stands), or None when it has no events. A fold held
        in memory is brought up to date when the store still holds the event it ends with; otherwise, and for
        a past version, the stream is read from the store (a game from its nearest good snapshot)."""
        if version is None:
            held = self.cached_fold(stream_id)
            if held is not None:
                head = self._heads.of(stream_id)
                if head is not None and head[0] == held.version:
                    events = self.stream_events(stream_id, gt=held.version - 1)
                    fold = self._forward(stream_id, projector, held, head, events)
                    if fold is not None:
                        return fold
                self._forget(stream_id)
        if projector is project_game:
            fold, last = self._read_game(stream_id, version)
        else:
            events = self.stream_events(stream_id, lte=version)
            fold, last = self.fold_events(stream_id, projector, None, events), events[-1] if events else None
        if fold is not None and version is None and last is not None:
            self.cache_fold(stream_id, fold)
            self._heads.record(last)
        return fold

    def _forward(
        self,
        stream_id: UUID,
        projector: Projector,
        held: Any,
        head: tuple[int, datetime],
        events: Sequence[Any],
    ) -> Any | None:
        """``held`` brought up to date with ``events`` (the stored events from its last one on), or None when
        the store no longer holds that last event as the fold knew it."""
        if not events or (events[0].originator_version, events[0].timestamp) != head:
            logger.warning(
                "stream %s: the store no longer holds version %s as this process knew it (the store came back "
                "with older data?): read again from the store",
                stream_id,
                held.version,
            )
            return None
        if len(events) == 1:
            return held
        fold = self.fold_events(stream_id, projector, held, events[1:])
        self.cache_fold(stream_id, fold)
        self._heads.record(events[-1])
        return fold

    def _read_game(self, game_id: UUID, version: int | None) -> tuple[Any | None, Any]:
        """A game from the store (and the last event read): its events up to ``version``, from its nearest
        good snapshot, else folded from the first."""
        events = self.stream_events(game_id, lte=version)
        if not events:
            return None, None
        if not isinstance(events[0], GameCreated):
            raise NotAGameEvent(f"stream {game_id} is not a game's")
        restored, unproved = snapshots.restore_latest(self, game_id, events)
        if restored is None:
            game = self.fold_events(game_id, project_game, None, events)
            if unproved is not None and version is None:
                snapshots.reseal(self, game, unproved)
            return game, events[-1]
        return self.fold_events(game_id, project_game, restored, events[restored.version :]), events[-1]

    def fold_events(self, stream_id: UUID, projector: Projector, start: Any, events: Sequence[Any]) -> Any:
        """Fold ``events`` onto ``start`` one at a time, so that one that does not fold is named."""
        fold = start
        for event in events:
            try:
                fold = projector(fold, (event,))
            except (NotAGameEvent, PersistenceError, RulesVersionUnsupported):
                raise
            except Exception as error:  # the stored events do not fold: damaged, or written by a bug
                logger.warning(
                    "stream %s does not fold at version %s",
                    stream_id,
                    event.originator_version,
                    exc_info=True,
                )
                raise GameCorrupt.of(
                    stream_id, event.originator_version, f"does not fold: {error!r}"
                ) from error
        return fold

    def stream_events(self, stream_id: UUID, *, gt: int | None = None, lte: int | None = None) -> list[Any]:
        """A stream's stored events after version ``gt`` up to ``lte``, each checked (:mod:`replay.integrity`)
        and in an unbroken run of versions; a damaged one is a :class:`GameCorrupt` naming the stream and the
        version."""
        try:
            stored = self.recorder.select_events(stream_id, gt=gt, lte=lte)
        except DataError as error:  # the store's index names a record it does not hold
            raise GameCorrupt.of(stream_id, getattr(error, "version", None), str(error)) from error
        return self.decoded(stream_id, stored, first=gt is None)

    def decoded(self, stream_id: UUID, records: Sequence[Any], *, first: bool = False) -> list[Any]:
        """A stream's stored records as events, each checked (:func:`replay.stored_records.checked_events`)."""
        return checked_events(self.mapper, stream_id, records, first=first)

    def streams_events(self, stream_ids: Sequence[UUID]) -> list[list[Any]]:
        """Several streams' stored events, each checked as :meth:`stream_events` checks them, read in one round
        trip (and one moment) where the store can (Redis): a game's export reads its annotations and its events
        together."""
        select: Callable[..., list[list[Any]]] | None = getattr(self.recorder, "select_new_events", None)
        if select is None:
            return [self.stream_events(stream_id) for stream_id in stream_ids]
        try:
            found = select([(stream_id, 0) for stream_id in stream_ids])
        except DataError:  # damage: read stream by stream, so that the report names the stream and version
            return [self.stream_events(stream_id) for stream_id in stream_ids]
        return [
            self.decoded(stream_id, records, first=True)
            for stream_id, records in zip(stream_ids, found, strict=True)
        ]

    def readable_events(
        self, stream_id: UUID, *, gt: int | None = None, limit: int | None = None
    ) -> tuple[list[Any], int | None]:
        """A stream's events after version ``gt`` (``limit`` records at most) that can be read, the damaged
        ones left out (each logged), and the version of the last record read (None when there was none): for
        a stream whose entries stand alone (the list of games), where one damaged entry must not hide the
        others."""
        try:
            records = list(self.recorder.select_events(stream_id, gt=gt, limit=limit))
        except DataError as error:  # an entry indexed but missing: the ones before it, and on after it
            version = getattr(error, "version", None)
            if version is None:
                raise GameCorrupt.of(stream_id, None, str(error)) from error
            logger.error("stream %s: the record at version %s is missing", stream_id, version)
            before = self.recorder.select_events(stream_id, gt=gt, lte=version - 1)
            return readable_events(self.mapper, stream_id, before), version
        return readable_events(self.mapper, stream_id, records), (
            int(records[-1].originator_version) if records else None
        )

    def cached_fold(self, stream_id: UUID) -> Any | None:
        """The fold of a stream as this process last kept it, or None."""
        cache = self.repository.cache
        if cache is None:
            return None
        try:
            return cache.get(stream_id)
        except KeyError:
            return None

    def cached_value(self, key: Any) -> Any | None:
        """What this process keeps under ``key`` (a stream's fold, or what the game log derived from one),
        without counting it as a use; None when nothing is kept."""
        cache = self.repository.cache
        return cache.peek(key) if isinstance(cache, WarmCache) else None

    def cache_value(self, key: Any, value: Any, still: Callable[[Any | None], bool] | None = None) -> bool:
        """Keep ``value`` under ``key`` (if ``still(what is kept now)``, when given); whether it was kept."""
        cache = self.repository.cache
        if not isinstance(cache, WarmCache):
            return False
        return cache.put_if(key, value, still or (lambda _: True))

    def cache_fold(self, stream_id: UUID, fold: Any) -> None:
        """Cache ``fold``, the newest fold of a stream. The library's cache fast-forwards the object it holds,
        which suits mutable aggregates; folds here are immutable, so the newest must be put back, or every read
        would refold from the cached version."""
        if self.repository.cache is not None:
            self.repository.cache.put(stream_id, fold)

    def _forget(self, stream_id: UUID) -> None:
        """Forget the fold of a stream the store no longer holds as this process knew it, and whatever was
        derived from it (:meth:`replay.cache.WarmCache.forget_stream`)."""
        cache = self.repository.cache
        if isinstance(cache, WarmCache):
            cache.forget_stream(stream_id)
        elif cache is not None:
            with contextlib.suppress(KeyError):
                cache.get(stream_id, evict=True)
        self._heads.forget(stream_id)

    def read_together(self, streams: Sequence[tuple[UUID, Projector]]) -> list[Any | None]:
        """The folds of several streams of this store as they stand. When every one is cached and the store can
        read several streams' new events at once (Redis), one round trip brings them all up to date: every
        write to a game reads the game and its access stream. Otherwise each is read on its own."""
        select: Callable[..., list[list[Any]]] | None = getattr(self.recorder, "select_new_events", None)
        plan = self.catch_up_plan(streams) if select is not None else None
        if select is None or plan is None:
            return [self.read(stream_id, projector) for stream_id, projector in streams]
        try:
            found = select(plan.after)
        except DataError as error:
            raise GameCorrupt.of(streams[0][0], None, str(error)) from error
        return self._caught_up(streams, plan, found)

    def count_claiming(
        self, key: str, window: int, weight: int, claim: tuple[str, str, int] | None = None
    ) -> tuple[int, int, str | None]:
        """Count ``weight`` hits of ``key`` in the current ``window`` (as ``ephemeral.hit``) and, with ``claim``
        (a name, a kind of write, seconds), claim an ``Idempotency-Key``'s use (``ephemeral.claim``), in one
        round trip where the store can: the count, the seconds left of the window, and the use kept (None
        without a claim)."""
        if claim is None:
            return (*self.ephemeral.hit(key, window, weight), None)
        both: Callable[..., tuple[int, int, str]] | None = getattr(self.ephemeral, "hit_and_claim", None)
        if both is not None:
            return both(key, window, weight, claim)
        count, left = self.ephemeral.hit(key, window, weight)
        return count, left, self.ephemeral.claim(*claim)

    def count_reading(
        self,
        key: str,
        window: int,
        weight: int,
        streams: Sequence[tuple[UUID, Projector]],
        claim: tuple[str, str, int] | None = None,
    ) -> tuple[int, int, str | None, list[Any | None] | None]:
        """:meth:`count_claiming` and, when the store can do it in the same round trip (Redis, every stream
        cached), bring the streams' folds up to date in it: the write guard's count with the write's read of its
        game. The count, the seconds left of the window, the key's use kept (None without a claim), and the
        folds as :meth:`read_together` gives them, or None when only the count was made."""
        counted: Callable[..., tuple[int, str | None, list[list[Any]]]] | None = getattr(
            self.recorder, "count_and_select_new_events", None
        )
        counter: Callable[[str, int], tuple[str, int, int]] | None = getattr(self.ephemeral, "counter", None)
        claimed: Callable[[str], str] | None = getattr(self.ephemeral, "claimed", None)
        plan = self.catch_up_plan(streams) if counted is not None and counter is not None else None
        if counted is None or counter is None or claimed is None or plan is None:
            return (*self.count_claiming(key, window, weight, claim), None)
        name, seconds, left = counter(key, window)
        in_redis = (claimed(claim[0]), claim[1], claim[2]) if claim is not None else None
        try:
            count, first, found = counted(name, weight, seconds, plan.after, in_redis)
        except DataError as error:
            raise GameCorrupt.of(streams[0][0], None, str(error)) from error
        return count, left, first, self._caught_up(streams, plan, found)

    def catch_up_plan(self, streams: Sequence[tuple[UUID, Projector]]) -> CatchUp | None:
        """What bringing these streams' cached folds up to date asks of the store (each one's events from the
        last one its fold holds on), or None when one of them is not cached as the store last had it."""
        plan = CatchUp([], [], [])
        for stream_id, _ in streams:
            fold, head = self.cached_fold(stream_id), self._heads.of(stream_id)
            if fold is None or head is None or head[0] != fold.version:
                return None
            plan.held.append(fold)
            plan.heads.append(head)
            plan.after.append((stream_id, fold.version - 1))
        return plan

    def _caught_up(
        self, streams: Sequence[tuple[UUID, Projector]], plan: CatchUp, found: Sequence[Sequence[Any]]
    ) -> list[Any | None]:
        """The folds of :meth:`catch_up_plan`'s plan brought forward by the stored events ``found`` for each; a
        stream whose fold the store no longer holds as it was is read again whole."""
        folds = []
        for (stream_id, projector), held_fold, head, new in zip(
            streams, plan.held, plan.heads, found, strict=True
        ):
            events = self.decoded(stream_id, new)
            fold = self._forward(stream_id, projector, held_fold, head, events)
            folds.append(fold if fold is not None else self.read(stream_id, projector))
        return folds

    def confirm_replicated(self) -> None:
        """Before a retry is answered from what this store holds (a write found recorded under its
        ``Idempotency-Key``, a creation's receipt): with ``REDIS_WAIT_REPLICAS``, make sure the replicas hold it
        too (:meth:`replay.store.datastore.RedisDatastore.confirm_replicated`), since the first attempt may
        have been answered 503 precisely because they did not confirm it; ``NotReplicatedError`` (503) when
        they still do not. Nothing to do for a store without replicas to wait for (SQLite, memory)."""
        recorder: Any = self.recorder
        confirm = getattr(getattr(recorder, "datastore", None), "confirm_replicated", None)
        if confirm is not None and hasattr(recorder, "log_key"):
            confirm(recorder.log_key)

    def exists(self, stream_id: UUID) -> bool:
        return bool(self.recorder.select_events(stream_id, limit=1))

    def last_version(self, stream_id: UUID) -> int:
        """The version of a stream's last event (0 when it has none)."""
        last = self.recorder.select_events(stream_id, desc=True, limit=1)
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


def created_game_ids(store: GameStore) -> Iterator[UUID]:
    """The id of every game whose ``GameCreated`` the store's notification log holds, oldest first: every game,
    found without the list of games and without decoding a record (so a damaged record hides none)."""
    topic = get_topic(GameCreated)
    start = 1
    while True:
        page = store.recorder.select_notifications(start, CREATED_PAGE, topics=[topic])
        for notification in page:
            originator = notification.originator_id
            yield originator if isinstance(originator, UUID) else UUID(str(originator))
        if len(page) < CREATED_PAGE:
            return
        start = page[-1].id + 1
