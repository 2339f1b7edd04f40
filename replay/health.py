"""Liveness of the configured event store, for ``GET /healthz`` and the start-up banner."""

from __future__ import annotations

from dataclasses import dataclass

from replay.config import StoreConfig


@dataclass(frozen=True)
class StoreHealth:
    """Whether the store answered, and a short human explanation when it did not."""

    ok: bool
    detail: str


def check_store(config: StoreConfig) -> StoreHealth:
    """Ask the store a trivial question; never raises."""
    if config.kind == "redis":
        import redis  # imported here: SQLite users never pay for the Redis client at start-up

        try:
            client = redis.Redis.from_url(config.redis_url or "", socket_timeout=2, socket_connect_timeout=2)
            client.ping()
            client.close()
        except (redis.RedisError, OSError, ValueError) as error:
            return StoreHealth(ok=False, detail=f"redis unreachable: {error}")
        return StoreHealth(ok=True, detail="redis answered PING")
    if config.kind == "sqlite":
        assert config.sqlite_path is not None
        folder = config.sqlite_path.parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            return StoreHealth(ok=False, detail=f"data folder not writable: {error}")
        return StoreHealth(ok=True, detail=str(config.sqlite_path))
    return StoreHealth(ok=True, detail="in-memory")
