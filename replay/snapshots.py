"""When a game's snapshot is taken, and who writes it (docs/architecture/events.md#snapshots).

At every round's end and every 50 events, from a phase drawn from the game's id; stored by a thread of its own in
``heronlog serve``, so a move's answer never waits for one.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import PersistenceError

from domain import GameState
from replay.game import Game, GameSnapshot, restore
from replay.integrity import is_sealed


class SnapshotStore(Protocol):
    """What restoring asks of a store (``replay.stores.GameStore``, which imports this module)."""

    snapshots: Any
    mapper: Any


FLUSH_LOOK_SECONDS = 0.01
"""How often a flush looks whether the queued snapshots are stored."""

SNAPSHOT_EVERY = 50
"""Take a snapshot at least every this many events (and at every round's end): reading any version then
folds at most this many events after the nearest snapshot."""

logger = logging.getLogger(__name__)


def snapshot_phase(game_id: UUID) -> int:
    """Where a game's snapshots fall in each ``SNAPSHOT_EVERY`` events: at versions ``phase``, ``phase + 50``...
    (as well as at round ends). Drawn from the game's id, so that games started together (a club's tables at
    the start of an evening, a load test's clients) do not all take their snapshots at the same moment: a
    snapshot is a few milliseconds of a worker's time, and fifty at once stalled every answer of that worker
    for a tenth of a second."""
    return game_id.int % SNAPSHOT_EVERY


def snapshot_crossed(game_id: UUID, before: int, after: int) -> bool:
    """Whether going from version ``before`` to ``after`` passes one of the game's snapshot versions."""
    phase = snapshot_phase(game_id)
    return (before - phase) // SNAPSHOT_EVERY != (after - phase) // SNAPSHOT_EVERY


def snapshot_due(before: Game | None, after: Game) -> bool:
    """Whether the write that took a game from ``before`` (None: a new game) to ``after`` should be followed by
    a snapshot of ``after``: at each round's end and at least every ``SNAPSHOT_EVERY`` events (never for a game
    this build cannot replay: it has no state to keep)."""
    if after.version <= 1 or not after.playable:
        return False
    if before is None or not before.playable or snapshot_crossed(after.id, before.version, after.version):
        return True
    # A state's round is its coordinates' round; read directly, as domain.coordinates would work out the
    # whole prompt to tell it (that was a tenth of recording a move).
    return bool(before.state.round != after.state.round)


class SnapshotWriter:
    """Takes and stores games' snapshots from a thread of its own, so that the write whose game is due one
    answers without waiting for it (``SNAPSHOTS_IN_BACKGROUND``; ``heronlog serve`` turns it on).

    A snapshot is taken and stored under load at every round's end: about 2.5 ms of the interpreter (the game's
    fold as JSON) and one more write to the store, fsynced, inside the request. The snapshots written are the
    same, a few milliseconds later; until one is stored a cold read folds from the one before it, as it does
    when a snapshot fails. When the queue is full the caller writes the snapshot itself (the writer never falls
    behind by more than ``capacity`` games), and games still queued when the process exits are written then
    (``atexit``, up to ``EXIT_SECONDS``). The thread is started on first use in each process, so a gunicorn
    worker gets its own after the fork."""

    EXIT_SECONDS = 10.0
    DELAY_SECONDS = 0.05
    """How long a snapshot waits in the queue: the write that queued it answers first (taking the snapshot at
    once took the interpreter from that very request, whose answer was still to be built)."""

    def __init__(
        self, write: Callable[[Game], None], capacity: int = 64, delay: float = DELAY_SECONDS
    ) -> None:
        self._write = write
        self._capacity = capacity
        self._delay = delay
        self._lock = threading.Lock()
        self._queue: queue.Queue[tuple[float, Game] | None] = queue.Queue(capacity)
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._exit_hook = False
        self._closing = threading.Event()

    def submit(self, game: Game) -> bool:
        """Queue ``game``'s snapshot; False when the queue is full (the caller then writes it itself)."""
        self._running()
        try:
            self._queue.put_nowait((time.monotonic() + self._delay, game))
        except queue.Full:
            return False
        return True

    def _running(self) -> None:
        if self._thread is not None and self._pid == os.getpid():
            return
        with self._lock:
            if self._thread is not None and self._pid == os.getpid():
                return
            if self._pid != os.getpid():
                # A forked child inherits the parent's queue but not its thread: start afresh.
                self._queue = queue.Queue(self._capacity)
            self._pid = os.getpid()
            self._thread = threading.Thread(target=self._run, name="heronlog-snapshots", daemon=True)
            self._thread.start()
            if not self._exit_hook:
                atexit.register(self._at_exit)
                self._exit_hook = True

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                due, game = item
                if (wait := due - time.monotonic()) > 0:
                    self._closing.wait(wait)  # cut short by close()
                self._write(game)
            except Exception:  # a snapshot is an optimisation: the events are stored, a cold read folds more
                assert item is not None
                game = item[1]
                logger.warning(
                    "could not store the snapshot of game %s at version %s",
                    game.id,
                    game.version,
                    exc_info=True,
                )
            finally:
                self._queue.task_done()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued snapshot is stored (at most ``timeout`` seconds); whether they all were."""
        if self._thread is None or self._pid != os.getpid():
            return True
        deadline = None if timeout is None else time.monotonic() + timeout
        # Looked at, not waited on: the queue's own condition is the standard library's alone (a gevent worker's
        # queue has none), and its count is every queue's.
        while self._queue.unfinished_tasks:
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(FLUSH_LOOK_SECONDS)
        return True

    def _at_exit(self) -> None:
        self._closing.set()
        self.flush(self.EXIT_SECONDS)

    def close(self) -> None:
        """Store every queued snapshot and stop the thread."""
        if self._thread is None or self._pid != os.getpid():
            return
        self._closing.set()  # no more waiting before each snapshot
        self.flush()
        self._queue.put(None)
        self._thread.join()
        self._thread = None
        self._closing.clear()


class Snapshots:
    """The snapshot policy and its writer for one game log: :meth:`after_write` is called with every write's
    game before and after, and stores a snapshot when one is due, here or in the background."""

    def __init__(self, write: Callable[[Game], None], *, background: bool) -> None:
        self.write = write
        self._writer = SnapshotWriter(write) if background else None

    @property
    def background(self) -> bool:
        """Whether snapshots are written from a thread of their own."""
        return self._writer is not None

    def after_write(self, before: Game | None, after: Game) -> None:
        """Store a snapshot of ``after`` when one is due. Never raises: the write it follows is stored already,
        and a snapshot is an optimisation (one that cannot be stored, say where a snapshot of a line the store
        lost still sits at that version, is logged and a cold read folds a little more)."""
        if not snapshot_due(before, after):
            return
        if self._writer is not None and self._writer.submit(after):
            return
        try:
            self.write(after)
        except Exception:
            logger.warning(
                "could not store the snapshot of game %s at version %s",
                after.id,
                after.version,
                exc_info=True,
            )

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until the snapshots taken in the background are stored; whether they all were."""
        return self._writer is None or self._writer.flush(timeout)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()


# --- restoring ----------------------------------------------------------------------------------------------

RESTORE_ATTEMPTS = 3
"""Snapshots tried, newest first, before a game is folded from its first event."""


def restore_latest(store: SnapshotStore, game_id: UUID, events: list[Any]) -> tuple[Game | None, int | None]:
    """The game at the version of its newest good snapshot within ``events`` (the game's stored events from
    version 1, in order), restored from that snapshot and the events it summarises, or None when it has none;
    and the version of a snapshot passed over because it was written before snapshots carried a checksum.

    A snapshot that fails its integrity check or does not match the events is dropped (:func:`drop`). One
    without a checksum is not used: its engine state (a player's coins) could have changed without anything
    to tell, and only a fold of the events can prove it; the caller folds them, and writes a sealed snapshot
    in its place (:func:`reseal`)."""
    if store.snapshots is None or not events:
        return None, None
    upto = events[-1].originator_version
    for _ in range(RESTORE_ATTEMPTS):
        found = store.snapshots.recorder.select_events(game_id, desc=True, limit=1, lte=upto)
        if not found:
            return None, None
        version = found[0].originator_version
        if not is_sealed(found[0]):
            return None, version
        try:
            snapshot = store.mapper.to_domain_event(found[0])
            game = restore(snapshot, events[:version]) if isinstance(snapshot, GameSnapshot) else None
            why = "does not match the events it summarises"
        except PersistenceError:
            raise
        except Exception as error:  # a cache that cannot be read is dropped, whatever broke in it
            game, why = None, f"cannot be read ({error!r})"
        if game is not None:
            return (game if game.playable else None), None  # a game not replayed here is read as recorded
        logger.warning("game %s: the snapshot at version %s %s: dropped", game_id, version, why)
        drop(store, game_id, version)
        upto = version - 1
    return None, None


def state_within(
    store: SnapshotStore, game: Game, *, lte: int, moves_at: Sequence[int], most: int
) -> tuple[int, GameState] | None:
    """The engine state after ``start`` <= ``most`` moves of ``game``'s line of play, from one of its newest
    few snapshots at or before version ``lte`` (``moves_at[v]``: how many moves of today's line stood after
    version ``v``, -1 for a line since undone or corrected): ``(start, state)``, or None when none fits. Only a
    sealed snapshot that matches the game as this process holds it is used (:meth:`GameSnapshot.state_on`);
    a damaged one is passed over (the game's next read from the store drops it)."""
    if store.snapshots is None:
        return None
    for record in store.snapshots.recorder.select_events(
        game.id, desc=True, lte=lte, limit=RESTORE_ATTEMPTS + 1
    ):
        start = moves_at[record.originator_version]
        if not 0 <= start <= most or not is_sealed(record):
            continue
        try:
            snapshot = store.mapper.to_domain_event(record)
            state = snapshot.state_on(game, start) if isinstance(snapshot, GameSnapshot) else None
        except PersistenceError:
            raise
        except Exception:  # a cache that cannot be read is passed over, whatever broke in it
            logger.warning(
                "game %s: the snapshot at version %s cannot be read", game.id, record.originator_version
            )
            continue
        if state is not None:
            return start, state
    return None


def reseal(store: SnapshotStore, game: Game, unproved: int) -> None:
    """After a game was folded from its events in place of a snapshot without a checksum (at version
    ``unproved``), store a sealed snapshot of it, so that the next cold read is restored again: in the old
    one's place when the game is still at that version. Never raises: it is a cache."""
    if store.snapshots is None or not game.playable:
        return
    try:
        if game.version == unproved:
            drop(store, game.id, unproved)
        store.snapshots.put([GameSnapshot.take(game)])
    except Exception:  # a snapshot is an optimisation: the game was read, the next read folds again
        logger.warning("could not reseal the snapshot of game %s", game.id, exc_info=True)


def drop(store: SnapshotStore, game_id: UUID, version: int) -> None:
    """Delete the snapshot of ``game_id`` at ``version`` from the store, as far as the store allows (Redis and
    SQLite; the in-memory store keeps it, and it is passed over at each read). Never raises: a snapshot not
    dropped is only passed over again."""
    assert store.snapshots is not None
    recorder: Any = store.snapshots.recorder
    try:
        discard = getattr(recorder, "discard", None)
        if discard is not None:  # replay.store (Redis)
            discard(game_id, version)
        elif type(recorder).__module__ == "eventsourcing.sqlite":
            with recorder.datastore.transaction(commit=True) as cursor:
                cursor.execute(
                    f"DELETE FROM {recorder.events_table_name} WHERE originator_id = ? AND originator_version = ?",
                    (game_id.hex, version),  # the library keeps UUIDs as their 32 hex digits
                )
    except (PersistenceError, OSError):
        logger.warning(
            "could not drop the snapshot of game %s at version %s", game_id, version, exc_info=True
        )
