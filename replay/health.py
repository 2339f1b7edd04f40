"""Liveness of the configured event store, for ``GET /healthz`` and the start-up banner, and the version of
heronlog that answers (``/healthz``, the OpenAPI document, a backup's index)."""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from replay.config import StoreConfig


@functools.cache
def package_version() -> str:
    """The installed distribution's version (the source tree may run uninstalled in some tools). Looked up
    once: reading the installed metadata takes about a millisecond, and /healthz answers it every time."""
    try:
        return version("heronlog")
    except PackageNotFoundError:
        return "0+unknown"


_clients: dict[str, Any] = {}
_clients_lock = threading.Lock()


def _redis_client(url: str) -> Any:
    """One client (a small connection pool) per URL, made on first use: a health check every few seconds
    should not open and close a connection each time. A dead connection is dropped and remade by the pool."""
    import redis  # imported here: SQLite users never pay for the Redis client at start-up

    with _clients_lock:
        client = _clients.get(url)
        if client is None:
            client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
            _clients[url] = client
        return client


@dataclass(frozen=True)
class StoreHealth:
    """Whether the store answered, and a short human explanation when it did not."""

    ok: bool
    detail: str


def check_store(config: StoreConfig) -> StoreHealth:
    """Ask the store a trivial question; never raises."""
    if config.kind == "redis":
        import redis

        try:
            _redis_client(config.redis_url or "").ping()
        except (redis.RedisError, OSError, ValueError) as error:
            return StoreHealth(ok=False, detail=f"redis unreachable: {error}")
        return StoreHealth(ok=True, detail="redis answered PING")
    if config.kind == "sqlite":
        assert config.sqlite_path is not None
        folder = config.sqlite_path.parent
        # Never the folder's path: /healthz answers anyone, and where the files live is the operator's to know
        # (heronlog serve prints it at start).
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return StoreHealth(ok=False, detail=f"data folder not writable: {error.strerror or 'error'}")
        return StoreHealth(ok=True, detail="data folder writable")
    return StoreHealth(ok=True, detail="in-memory")
