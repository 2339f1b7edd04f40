"""The warm cache: the folds a process keeps between requests, bounded by their bytes.

A fold weighs a few kilobytes to tens of megabytes, so the budget (``HERONLOG_CACHE_MB``) counts estimated bytes,
not entries (docs/architecture/list-and-cache.md#warm-reads).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from eventsourcing.application import Cache

from replay.game import Game

DEFAULT_BUDGET_MB = 48
"""The default budget: with the interpreter, the rules engine and a web server (about 60 MB), the answers' own
bounded memos and what the allocator keeps of freed memory, a worker stays under 150 MB however many games it
touches (``make bench`` measures it: 150 MB with a 64 MB budget was too close)."""

STATE_BYTES = 1_600
"""A state along a game's line, past the first: what a move changes, the rest shared with the state before."""
RESTORED_STATE_BYTES = 160_000
"""A game's first state when it was rebuilt from a snapshot (or any state built alone): nothing is shared."""
OPENING_STATE_BYTES = 24_000
"""A game's first state when it was folded from its first event: it shares the catalog's parsed parts."""
RECORD_BYTES = 700
"""One recorded move (its move, chance outcomes, words), and the bookkeeping around it."""
GAME_BYTES = 4_000
"""The rest of a game's fold: setup, audit, keys."""
SMALL_BYTES = 2_000
"""Anything else kept (an access or annotation stream's fold, a list of versions): a little, and its items."""
ITEM_BYTES = 600


def estimated_bytes(value: Any) -> int:
    """What keeping ``value`` costs, by the model of the module docstring."""
    if isinstance(value, Game):
        first = RESTORED_STATE_BYTES if value.base > 0 else OPENING_STATE_BYTES
        if not value.states:  # a game whose rules are not replayed here: read as recorded, no states
            first = 0
        return (
            GAME_BYTES
            + first
            + STATE_BYTES * max(len(value.states) - 1, 0)
            + RECORD_BYTES * len(value.records)
            + 64 * len(value.line)
        )
    sized = getattr(value, "estimated_bytes", None)
    if isinstance(sized, int):
        return sized
    items = getattr(value, "items", None) if not isinstance(value, (tuple, list)) else value
    if isinstance(items, Mapping | tuple | list):
        return SMALL_BYTES + ITEM_BYTES * len(items)
    return SMALL_BYTES


@dataclass(frozen=True)
class Sized:
    """A value kept with its own estimate (what :func:`estimated_bytes` cannot see inside)."""

    value: Any
    estimated_bytes: int


@dataclass(frozen=True)
class CacheStats:
    """The cache's figures (``/metrics``): its bytes against its budget, and what happened since it started."""

    budget: int
    bytes: int
    entries: int
    hits: int
    misses: int
    evictions: int
    refused: int
    """Values not kept because one alone would take more than half the budget."""


class WarmCache(Cache[Hashable, Any]):
    """A least-recently-used cache bounded by the estimated bytes of what it holds (see the module docstring).

    It is the library's ``Cache`` (``get(key, evict=False)`` raising ``KeyError``, ``put(key, value)``), so
    the library's repository uses it as its own. It defines no ``__len__``: the repository tests whether it has
    a cache with ``if self.cache``, and an empty cache must still count as one."""

    def __init__(self, budget: int, size_of: Callable[[Any], int] = estimated_bytes) -> None:
        super().__init__()
        self.budget = max(0, budget)
        self._size_of = size_of
        self._lock = threading.Lock()
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._bytes = 0
        self._hits = self._misses = self._evictions = self._refused = 0

    def get(self, key: Hashable, *, evict: bool = False) -> Any:
        with self._lock:
            held = self._items.get(key)
            if held is None:
                self._misses += 1
                raise KeyError(key)
            if evict:
                del self._items[key]
                self._bytes -= held[1]
            else:
                self._items.move_to_end(key)
            self._hits += 1
            return held[0]

    def peek(self, key: Hashable) -> Any | None:
        """The value kept under ``key`` (None if there is none), without counting a hit or a miss."""
        with self._lock:
            held = self._items.get(key)
            return None if held is None else held[0]

    def put(self, key: Hashable, value: Any | None) -> None:
        if value is not None:
            self.put_if(key, value, lambda _: True)

    def put_if(self, key: Hashable, value: Any, still: Callable[[Any | None], bool]) -> bool:
        """Put ``value`` if ``still(what is kept under key now)`` holds at that moment (a fold made longer must
        not replace a newer one that another thread kept meanwhile); whether it was put."""
        size = self._size_of(value)  # outside the lock: the estimate walks nothing, but need not be serial
        with self._lock:
            held = self._items.get(key)
            if not still(None if held is None else held[0]):
                return False
            if held is not None:
                del self._items[key]
                self._bytes -= held[1]
            if size > self.budget // 2:  # one huge fold would push out everything else
                self._refused += 1
                return False
            self._items[key] = (value, size)
            self._bytes += size
            while self._bytes > self.budget:
                _, (_, freed) = self._items.popitem(last=False)
                self._bytes -= freed
                self._evictions += 1
            return True

    def forget(self, key: Hashable) -> None:
        with self._lock:
            held = self._items.pop(key, None)
            if held is not None:
                self._bytes -= held[1]

    def forget_stream(self, stream_id: Hashable) -> None:
        """Forget a stream's fold and everything kept under keys derived from it (``(kind, stream_id, ...)``:
        its states off the line, its line lengths): what a store does when it finds it no longer holds the
        stream as this process knew it (it came back with older data). Walks every key: that is rare."""
        with self._lock:
            for key in [
                key
                for key in self._items
                if key == stream_id or (isinstance(key, tuple) and len(key) > 1 and key[1] == stream_id)
            ]:
                _, size = self._items.pop(key)
                self._bytes -= size

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(
                budget=self.budget,
                bytes=self._bytes,
                entries=len(self._items),
                hits=self._hits,
                misses=self._misses,
                evictions=self._evictions,
                refused=self._refused,
            )


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    """A thread-safe map that keeps its ``most`` most recently used entries, the oldest out first: what a process
    remembers of its recent streams beside their folds (their last events, their players' facts), each cheap to
    read again when forgotten."""

    def __init__(self, most: int) -> None:
        self._most = most
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The entry under ``key`` (now the most recently used), or None."""
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            while len(self._entries) > self._most:
                self._entries.popitem(last=False)

    def forget(self, key: K) -> None:
        with self._lock:
            self._entries.pop(key, None)


def budget_from(env: Mapping[str, str]) -> int | None:
    """The cache budget in bytes from a game log's environment (``CACHE_MB``, from ``HERONLOG_CACHE_MB``):
    None turns caching off (0), else megabytes (default :data:`DEFAULT_BUDGET_MB`)."""
    text = str(env.get("CACHE_MB") or DEFAULT_BUDGET_MB).strip()
    try:
        megabytes = float(text)
    except ValueError:
        raise ValueError(f"CACHE_MB must be a number of megabytes, not {text!r}") from None
    if megabytes < 0:
        raise ValueError(f"CACHE_MB must not be negative, not {text!r}")
    return None if megabytes == 0 else int(megabytes * 1024 * 1024)
