"""Short-lived records kept beside a store's events: counters for rate limits and receipts of answers that carry a
secret. What is here may be forgotten without losing a game: the events are the truth.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Protocol

Clock = Callable[[], float]

RECEIPT_SECONDS = 3600
"""How long a receipt is kept: a retry of a lost answer comes within moments, or minutes from a phone that was
offline; an hour covers both without keeping tokens around."""


class Ephemeral(Protocol):
    """Short-lived records of one store (see the module docstring)."""

    def hit(self, key: str, window: int, weight: int = 1) -> tuple[int, int]:
        """Count ``weight`` hits of ``key`` (one write, or a write that costs several) in the current window of
        ``window`` seconds; return (hits so far in it, seconds until it ends). A negative weight gives hits
        back."""

    def add(self, key: str, value: bytes, seconds: int) -> bool:
        """Keep ``value`` under ``key`` for ``seconds``, unless a value is kept there already: whether it was
        kept (two attempts of one request at the same moment: exactly one keeps its receipt)."""

    def get(self, key: str) -> bytes | None:
        """The value kept under ``key``, or None when there is none (or it expired)."""

    def claim(self, key: str, value: str, seconds: int) -> str:
        """Keep ``value`` under ``key`` for ``seconds`` unless one is kept there already: the value kept there
        now (``value`` itself, or the one kept first)."""


def window_of(now: float, window: int) -> tuple[int, int]:
    """The start of the fixed window ``now`` falls in, and the whole seconds until it ends (at least 1)."""
    start = int(now // window) * window
    return start, max(1, int(start + window - now))


class MemoryEphemeral:
    """Counters and receipts in this process: a lock and two dictionaries, pruned as they grow."""

    def __init__(self, clock: Clock = time.time, capacity: int = 10_000) -> None:
        self._clock = clock
        self._capacity = capacity
        self._lock = threading.Lock()
        self._counts: dict[str, tuple[int, int]] = {}
        self._kept: OrderedDict[str, tuple[float, bytes]] = OrderedDict()
        self._claims: OrderedDict[str, tuple[float, str]] = OrderedDict()

    def hit(self, key: str, window: int, weight: int = 1) -> tuple[int, int]:
        start, left = window_of(self._clock(), window)
        with self._lock:
            if len(self._counts) > self._capacity:  # forget the windows that have ended
                self._counts = {k: v for k, v in self._counts.items() if v[0] == start}
            began, count = self._counts.get(key, (start, 0))
            count = count + weight if began == start else weight
            self._counts[key] = (start, count)
        return count, left

    def add(self, key: str, value: bytes, seconds: int) -> bool:
        with self._lock:
            now = self._clock()
            held = self._kept.get(key)
            if held is not None and held[0] >= now:
                return False
            self._kept[key] = (now + seconds, value)
            self._kept.move_to_end(key)
            while len(self._kept) > self._capacity:
                self._kept.popitem(last=False)
            return True

    def claim(self, key: str, value: str, seconds: int) -> str:
        with self._lock:
            now = self._clock()
            held = self._claims.get(key)
            if held is not None and held[0] >= now:
                return held[1]
            self._claims[key] = (now + seconds, value)
            self._claims.move_to_end(key)
            while len(self._claims) > self._capacity:
                self._claims.popitem(last=False)
            return value

    def get(self, key: str) -> bytes | None:
        with self._lock:
            item = self._kept.get(key)
            if item is None:
                return None
            if item[0] < self._clock():
                del self._kept[key]
                return None
            return item[1]


class SQLiteEphemeral(MemoryEphemeral):
    """Receipts in a table of the store's own SQLite file (they must outlive a crashed worker); counters and
    key uses in this process, as a SQLite store is served by one process (a write per request to count it would cost
    more than the request)."""

    TABLE = "heronlog_receipts"

    def __init__(self, datastore: Any, clock: Clock = time.time) -> None:
        super().__init__(clock)
        self._datastore = datastore
        with datastore.transaction(commit=True) as cursor:
            cursor.execute(
                f"CREATE TABLE IF NOT EXISTS {self.TABLE} "
                "(key TEXT PRIMARY KEY, value BLOB NOT NULL, expires REAL NOT NULL)"
            )

    def add(self, key: str, value: bytes, seconds: int) -> bool:
        now = self._clock()
        with self._datastore.transaction(commit=True) as cursor:
            cursor.execute(f"DELETE FROM {self.TABLE} WHERE expires < ?", (now,))
            cursor.execute(
                f"INSERT OR IGNORE INTO {self.TABLE} (key, value, expires) VALUES (?, ?, ?)",
                (key, value, now + seconds),
            )
            cursor.execute("SELECT changes()")
            return bool(cursor.fetchone()[0])

    def get(self, key: str) -> bytes | None:
        with self._datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT value, expires FROM {self.TABLE} WHERE key = ?", (key,))
            row = cursor.fetchone()
        if row is None or row[1] < self._clock():
            return None
        return bytes(row[0])
