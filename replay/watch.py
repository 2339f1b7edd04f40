"""Waking a game's spectators as soon as the game changes, instead of each of them polling the store.

On Redis one blocking read per process follows each shard's notification log while someone watches.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

logger = logging.getLogger("heronlog.watch")

IDLE_SECONDS = 30.0
"""How long the thread keeps following the log with no one waiting."""

BLOCK_MS = 1000
"""The longest one blocking read waits; the thread looks whether it is still needed between two."""

PAGE = 500
"""Notifications read at a time while catching up."""

REMEMBERED = 50_000
"""Games whose latest notification id is kept (the least recently changed are forgotten first: a mark is never
older than a few moments, and a game forgotten was last changed long before it)."""


def can_watch(recorder: Any) -> bool:
    """Whether this application recorder can also block until something is committed, as the Redis one can
    (``last_notice``, ``wait_for_notice``); a stream polls the others."""
    return all(callable(getattr(recorder, name, None)) for name in ("last_notice", "wait_for_notice"))


class ChangeWatch:
    """Follows one application's notification log for the streams of this process (see the module's
    docstring). ``recorder`` is the application's recorder: the library's ``select_notifications`` and
    ``max_notification_id``, and the two calls :func:`can_watch` asks for."""

    def __init__(
        self,
        recorder: Any,
        *,
        idle_seconds: float = IDLE_SECONDS,
        block_ms: int = BLOCK_MS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._recorder = recorder
        self._idle_seconds = idle_seconds
        self._block_ms = block_ms
        self._clock = clock
        self._lock = threading.Lock()
        self._reset()

    def _reset(self) -> None:
        """A fresh state: on creation, and in a forked process (the parent's thread does not exist there)."""
        self._pid = os.getpid()
        self._thread: threading.Thread | None = None
        self._position = 0
        self._latest: OrderedDict[UUID | str, int] = OrderedDict()
        self._waiters: dict[UUID | str, set[threading.Event]] = {}
        self._last_use = self._clock()

    @property
    def following(self) -> bool:
        """Whether the thread is following the log now."""
        with self._lock:
            return self._thread is not None and self._pid == os.getpid()

    def mark(self) -> int:
        """Where the watch is in the log, to pass to :meth:`wait` after reading the game. Starts the thread
        if it is not following the log (one read of the log's last id, which raises if the store is down)."""
        with self._lock:
            if self._pid != os.getpid():
                self._reset()
            self._last_use = self._clock()
            if self._thread is not None:
                return self._position
        start = self._recorder.max_notification_id() or 0
        with self._lock:
            if self._thread is None:
                self._position = start
                self._thread = threading.Thread(
                    target=self._follow, args=(start,), name="heronlog-change-watch", daemon=True
                )
                self._thread.start()
            return self._position

    def wait(self, originator_id: UUID | str, mark: int, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for a notification about ``originator_id`` above ``mark``; whether
        one came (False also when the watch stopped: read again, and take a new mark)."""
        event = threading.Event()
        with self._lock:
            if self._latest.get(originator_id, 0) > mark:
                return True
            if self._thread is None:
                return False
            self._waiters.setdefault(originator_id, set()).add(event)
        try:
            event.wait(max(0.0, timeout))
        finally:
            with self._lock:
                waiting = self._waiters[originator_id]
                waiting.discard(event)
                if not waiting:
                    del self._waiters[originator_id]
                self._last_use = self._clock()
                changed = self._latest.get(originator_id, 0) > mark
        return changed

    def _follow(self, last: int) -> None:
        """The thread: read the notices' horizon, read every notification after the last one seen, then block
        until a notice newer than the horizon exists (what is committed meanwhile is above the horizon)."""
        recorder = self._recorder
        try:
            while True:
                horizon = recorder.last_notice()
                while True:
                    page = recorder.select_notifications(start=last, limit=PAGE, inclusive_of_start=False)
                    if page:
                        last = self._record(page)
                    if len(page) < PAGE:
                        break
                if self._done():
                    return
                recorder.wait_for_notice(after=horizon, timeout_ms=self._block_ms)
        except Exception:
            logger.warning("the change watch stopped: the store did not answer", exc_info=True)
            self._stop()

    def _record(self, page: Sequence[Any]) -> int:
        """Record a page of notifications and wake their games' waiters; the last id."""
        with self._lock:
            for notification in page:
                originator, number = notification.originator_id, int(notification.id)
                self._latest[originator] = number
                self._latest.move_to_end(originator)
                for event in self._waiters.get(originator, ()):
                    event.set()
                self._position = number
            while len(self._latest) > REMEMBERED:
                self._latest.popitem(last=False)
            return self._position

    def _done(self) -> bool:
        """Whether no one has waited for a while: then the thread stops (under the lock, so that a mark made
        meanwhile either sees it stopped and starts another, or keeps this one going)."""
        with self._lock:
            if self._waiters or self._clock() - self._last_use < self._idle_seconds:
                return False
            self._thread = None
            self._latest.clear()
            return True

    def _stop(self) -> None:
        with self._lock:
            self._thread = None
            self._latest.clear()
            for waiting in self._waiters.values():
                for event in waiting:
                    event.set()
