"""Whether the store serves, shard by shard, for ``GET /readyz``; and the version of heronlog that answers.

Each shard is asked the way requests go (a read and a short write on its own hash tag; on SQLite a committed write
larger than any move's), so readiness fails exactly when a move would; a process whose every shard only reads is
not ready.
"""

from __future__ import annotations

import functools
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from replay.errors import store_unavailable

if TYPE_CHECKING:
    from replay.application import GameLog
    from replay.stores import GameStore

PROBE_SECONDS = 2.0
"""How long a readiness check waits for every shard: a shard that has not answered by then is unavailable
(a container's health check gives up after 3 s)."""


@functools.cache
def package_version() -> str:
    """The installed distribution's version (the source tree may run uninstalled in some tools). Looked up
    once: reading the installed metadata takes about a millisecond, and /healthz answers it every time."""
    try:
        return version("heronlog")
    except PackageNotFoundError:
        return "0+unknown"


@dataclass(frozen=True)
class ShardHealth:
    """One store's (shard's) state: ``ok``, ``read-only`` or ``unavailable``, in words, and where it lives
    (``host:port`` of its Redis node, when it has one)."""

    name: str
    status: str
    detail: str
    node: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "status": self.status, "detail": self.detail, "node": self.node}


@dataclass(frozen=True)
class Readiness:
    """Every store's state, and the whole: ``ok``, ``degraded`` (some shards serve) or ``unavailable``."""

    status: str
    shards: tuple[ShardHealth, ...]
    detail: str

    @property
    def serving(self) -> bool:
        """Whether the process records at least some games (the HTTP answer is 200 then, 503 otherwise: a
        process whose every store only reads is not ready for players)."""
        return self.status in ("ok", "degraded")


def readiness(log: GameLog, timeout: float = PROBE_SECONDS) -> Readiness:
    """Probe every store of ``log`` at once, each by the way its requests go; never raises."""
    stores = list(log.stores)
    deadline = time.monotonic() + timeout
    pool = ThreadPoolExecutor(max_workers=len(stores), thread_name_prefix="heronlog-probe")
    try:
        futures = [pool.submit(probe, store) for store in stores]
        shards = []
        for store, future in zip(stores, futures, strict=True):
            try:
                shards.append(future.result(timeout=max(0.0, deadline - time.monotonic())))
            except FutureTimeout:
                shards.append(ShardHealth(store.name, "unavailable", f"no answer within {timeout:.0f} s"))
    finally:
        pool.shutdown(wait=False)  # a probe stuck in a socket ends at its own timeout
    return summarise(tuple(shards))


def summarise(shards: tuple[ShardHealth, ...]) -> Readiness:
    """The whole from the shards' states."""
    ok = sum(shard.status == "ok" for shard in shards)
    if ok == len(shards):
        return Readiness(
            "ok", shards, "every store reads and writes" if len(shards) > 1 else "the store reads and writes"
        )
    serving = sum(shard.status != "unavailable" for shard in shards)
    names = ", ".join(f"{shard.name} {shard.status}" for shard in shards if shard.status != "ok")
    if serving == 0:
        return Readiness("unavailable", shards, f"no store serves: {names}")
    if ok == 0:  # games read, and none can be recorded
        return Readiness("read-only", shards, f"no store takes writes: {names}")
    return Readiness("degraded", shards, f"{ok} of {len(shards)} stores read and write; {names}")


PROBE_TABLE = "heronlog_health"
PROBE_BYTES = 64 * 1024
"""What the SQLite write probe writes: more than a move or a new game writes (a game's first event, with its
catalog, is about 30 KB), so that a disk with no room for a write has none for the probe either."""


def write_probe(datastore: Any) -> None:
    """A write to the SQLite file as its requests write: one row of :data:`PROBE_BYTES` replaced in a table
    of its own, committed. It fails exactly when a write would: a full disk, a read-only file or file
    system, a file that cannot be locked."""
    with datastore.transaction(commit=True) as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {PROBE_TABLE} (name TEXT PRIMARY KEY, at REAL, room BLOB)"
        )
        cursor.execute(
            f"INSERT OR REPLACE INTO {PROBE_TABLE} (name, at, room) VALUES ('probe', ?, zeroblob(?))",
            (time.time(), PROBE_BYTES),
        )


def probe(store: GameStore) -> ShardHealth:
    """One store's state, asked the way its requests ask (see the module docstring); never raises."""
    recorder: Any = store.recorder
    if type(recorder).__module__.startswith("replay.store"):
        status, detail, node = recorder.datastore.probe(recorder.tag)
        return ShardHealth(store.name, status, detail, node)
    try:
        recorder.max_notification_id()
    except Exception as error:
        if not store_unavailable(error) and not isinstance(error, OSError):
            raise
        return ShardHealth(store.name, "unavailable", f"reads fail: {type(error).__name__}")
    if type(recorder).__module__ == "eventsourcing.sqlite":
        # Never the file's path: /readyz answers anyone, and where the files live is the operator's to know.
        try:
            write_probe(recorder.datastore)
        except Exception as error:
            if not store_unavailable(error) and not isinstance(error, OSError | sqlite3.Error):
                raise
            return ShardHealth(store.name, "read-only", f"reads answer, writes fail: {error}")
        return ShardHealth(store.name, "ok", "the SQLite file reads and writes")
    return ShardHealth(store.name, "ok", "in memory")
