"""The connection to Redis shared by the recorders of one factory: client, key names, scripts, retries.

One :class:`RedisDatastore` wraps one redis-py client (a connection pool), standalone or cluster. It decides:

* **which client**: ``cluster=None`` asks the server (``INFO cluster``, ``cluster_enabled:1``) and switches to
  :class:`redis.cluster.RedisCluster` when the URL names a cluster node; ``True``/``False`` skip the question;
* **key names**: every key starts with the hash tag ``{<prefix>:<application name>}``, so an
  application's keys live in one cluster slot and one script may touch any of them;
* **retries**: redis-py's own retries are switched off, because redis-py would resend a write whose reply was
  lost. Reads are retried here with a short back-off (:meth:`read`); writes are sent once (:meth:`write`) and
  the recorders resolve a lost reply by reading what was stored;
* **durability check**: at start it warns (:class:`RedisEvictionWarning`) when the server may evict keys, and
  logs when acknowledged writes are not fsynced.
"""

from __future__ import annotations

import logging
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import redis
import redis.exceptions as rex
from eventsourcing.persistence import OperationalError
from redis.backoff import NoBackoff
from redis.cluster import RedisCluster
from redis.retry import Retry

from replay.store.errors import translated

T = TypeVar("T")
Client = redis.Redis | RedisCluster
logger = logging.getLogger("replay.store")

DEFAULT_PREFIX = "heronlog"
DEFAULT_SOCKET_TIMEOUT = 10.0
DEFAULT_READ_ATTEMPTS = 4
DEFAULT_SUBSCRIBE_BLOCK_MS = 200
READ_BACKOFF_SECONDS = 0.05

# Servers already checked by this process: the check runs once per server, not once per application.
_checked_servers: set[tuple[object, object]] = set()


class RedisEvictionWarning(RuntimeWarning):
    """The server's ``maxmemory-policy`` may evict keys, which would silently delete recorded events."""


def check_name(kind: str, value: str) -> str:
    """A key prefix or application name must not contain the braces that delimit Redis hash tags."""
    if not value or "{" in value or "}" in value:
        raise ValueError(f"{kind} must be non-empty and contain no braces: {value!r}")
    return value


class Script:
    """A Lua script called by its SHA1 (``EVALSHA``), loaded on first use and again after a server restart or
    a failover (``NOSCRIPT`` means the script did not run, so calling again is safe)."""

    def __init__(self, client: Client, source: str) -> None:
        self.client = client
        self.source = source
        self.sha: str | None = None

    def __call__(self, keys: Sequence[str], args: Sequence[str | bytes | int | float]) -> Any:
        if self.sha is None:
            self.sha = self.client.script_load(self.source)
        try:
            return self.client.evalsha(self.sha, len(keys), *keys, *args)
        except rex.NoScriptError:
            self.sha = self.client.script_load(self.source)
            return self.client.evalsha(self.sha, len(keys), *keys, *args)


class RedisDatastore:
    """A Redis client with the key-naming, retry and durability policy of the recorders."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = DEFAULT_PREFIX,
        cluster: bool | None = None,
        socket_timeout: float = DEFAULT_SOCKET_TIMEOUT,
        read_attempts: int = DEFAULT_READ_ATTEMPTS,
        subscribe_block_ms: int = DEFAULT_SUBSCRIBE_BLOCK_MS,
        check_durability: bool = True,
    ) -> None:
        self.url = url
        self.prefix = check_name("REDIS_KEY_PREFIX", prefix)
        self.read_attempts = max(1, read_attempts)
        self.subscribe_block_ms = subscribe_block_ms
        options: dict[str, Any] = {
            "socket_timeout": socket_timeout,
            "socket_connect_timeout": min(socket_timeout, 5.0),
            # Sent once: a lost reply is resolved by the recorders, never by resending (module docstring).
            "retry": Retry(NoBackoff(), 0),
        }
        with translated():
            if cluster is None:
                probe = redis.Redis.from_url(url, **options)
                try:
                    cluster = probe.info("cluster").get("cluster_enabled") == 1
                finally:
                    probe.close()
            self.is_cluster = cluster
            self.client: Client = (
                RedisCluster.from_url(url, **options) if cluster else redis.Redis.from_url(url, **options)
            )
            if check_durability:
                self.check_durability()
        self._scripts: dict[str, Script] = {}

    def tag(self, name: str) -> str:
        """The hash tag that every key of the named application starts with."""
        return "{" + self.prefix + ":" + check_name("application name", name) + "}"

    def script(self, source: str) -> Script:
        """The callable script for a Lua source (one per datastore, so each is loaded once per server)."""
        script = self._scripts.get(source)
        if script is None:
            script = self._scripts[source] = Script(self.client, source)
        return script

    def read(self, call: Callable[[], T]) -> T:
        """Run a call that only reads, retrying it when the server is unreachable for a moment."""
        attempt = 1
        while True:
            try:
                with translated():
                    return call()
            except OperationalError:
                if attempt >= self.read_attempts:
                    raise
                time.sleep(READ_BACKOFF_SECONDS * 2 ** (attempt - 1))
                attempt += 1

    def write(self, call: Callable[[], T]) -> T:
        """Run a call that writes, once; a lost reply raises ``OutcomeUnknownError``."""
        with translated(write=True):
            return call()

    def servers(self) -> list[redis.Redis]:
        """A client for each server: the one server, or every node of a cluster."""
        if isinstance(self.client, RedisCluster):
            nodes = self.client.get_nodes()  # type: ignore[no-untyped-call]  # untyped in redis-py
            return [self.client.get_redis_connection(node) for node in nodes]
        return [self.client]

    def check_durability(self) -> None:
        """Warn when a server could evict keys; log when acknowledged writes could be lost on a crash."""
        for server in self.servers():
            kwargs = server.get_connection_kwargs()
            where = (kwargs.get("host", kwargs.get("path", "?")), kwargs.get("port"))
            if where in _checked_servers:
                continue
            _checked_servers.add(where)
            memory = server.info("memory")
            persistence = server.info("persistence")
            policy = str(memory.get("maxmemory_policy", "unknown"))
            if policy.startswith("allkeys"):
                # volatile-* policies only evict keys with an expiry, and the recorders never set one.
                warnings.warn(
                    f"redis {where[0]}:{where[1]} has maxmemory-policy {policy}: "
                    "it may evict recorded events when memory is full. "
                    "Use maxmemory-policy noeviction (see docker/redis.conf).",
                    RedisEvictionWarning,
                    stacklevel=4,
                )
            if not persistence.get("aof_enabled"):
                logger.warning(
                    "redis %s:%s has appendonly no: events acknowledged since the last snapshot are lost "
                    "if the server stops (see docker/redis.conf)",
                    *where,
                )

    def close(self) -> None:
        """Close every connection of the client."""
        self.client.close()
