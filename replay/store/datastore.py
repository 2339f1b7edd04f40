"""The connection to Redis shared by the recorders of one factory: client, key names, scripts, retries."""

from __future__ import annotations

import hashlib
import logging
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, cast

import redis
import redis.exceptions as rex
from eventsourcing.persistence import OperationalError, PersistenceError
from redis.backoff import NoBackoff
from redis.cluster import ClusterNode, RedisCluster
from redis.retry import Retry

from replay.store.errors import NotReplicatedError, translated
from replay.store.gathering import Gathering, cooperative

T = TypeVar("T")
Client = redis.Redis | RedisCluster
logger = logging.getLogger("replay.store")

DEFAULT_PREFIX = "heronlog"
DEFAULT_SOCKET_TIMEOUT = 10.0
DEFAULT_READ_ATTEMPTS = 4
DEFAULT_SUBSCRIBE_BLOCK_MS = 200
DEFAULT_WAIT_TIMEOUT_MS = 1000
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
    """A Lua script called by its SHA1 (``EVALSHA``). A server that does not know it yet (first use, a restart,
    a failover) answers ``NOSCRIPT``, which means the script did not run: it is then sent whole once (``EVAL``,
    which also keeps it there). Never ``SCRIPT LOAD``: on a cluster that goes to every master, and one master
    down would stop every shard."""

    def __init__(self, client: Client, source: str, gathering: Gathering | None = None) -> None:
        self.client = client
        self.source = source
        self.sha = hashlib.sha1(source.encode()).hexdigest()
        self.gathering = gathering
        """Where it waits for the other scripts of its worker's turn (:mod:`replay.store.gathering`), if anywhere."""

    def __call__(self, keys: Sequence[str], args: Sequence[str | bytes | int | float]) -> Any:
        if self.gathering is not None:
            return self.gathering.send(self, keys, args)
        try:
            return self.client.evalsha(self.sha, len(keys), *keys, *args)
        except rex.NoScriptError:
            return self.whole(keys, args)

    def whole(self, keys: Sequence[str], args: Sequence[str | bytes | int | float]) -> Any:
        """Send the script's source itself (``EVAL``), for a server that answered ``NOSCRIPT``."""
        return self.client.eval(self.source, len(keys), *keys, *args)

    def then_wait(
        self,
        node: redis.Redis,
        keys: Sequence[str],
        args: Sequence[str | bytes | int | float],
        wait: tuple[int, int],
    ) -> tuple[Any, int]:
        """Run the script on ``node`` and ``WAIT`` for replicas on the same connection (one pipeline, so that
        WAIT counts this very write); the script's reply and how many replicas confirmed it."""
        whole = False
        for _ in range(2):
            pipe = node.pipeline(transaction=False)
            if whole:
                pipe.eval(self.source, len(keys), *keys, *args)
            else:
                pipe.evalsha(self.sha, len(keys), *keys, *args)
            pipe.execute_command("WAIT", *wait)  # type: ignore[no-untyped-call]  # untyped in redis-py
            reply, confirmed = pipe.execute(raise_on_error=False)
            if isinstance(reply, rex.NoScriptError) and not whole:  # did not run: send it whole
                whole = True
                continue
            if isinstance(reply, Exception):
                raise reply
            if isinstance(confirmed, Exception):
                raise confirmed
            return reply, int(confirmed)
        raise AssertionError("unreachable")  # pragma: no cover


def glob_escape(text: str) -> str:
    """``text`` matched literally in a Redis glob pattern (``SCAN MATCH``)."""
    return "".join("\\" + char if char in "*?[]\\" else char for char in text)


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
        wait_replicas: int = 0,
        wait_timeout_ms: int = DEFAULT_WAIT_TIMEOUT_MS,
        gather: bool = True,
        one_trip: bool = True,
    ) -> None:
        self.url = url
        self.one_trip = one_trip
        """Whether a move may be counted, checked and appended in one script (replay.one_trip)."""
        self.prefix = check_name("REDIS_KEY_PREFIX", prefix)
        self.read_attempts = max(1, read_attempts)
        self.subscribe_block_ms = subscribe_block_ms
        self.wait_replicas = max(0, wait_replicas)
        self.wait_timeout_ms = max(1, wait_timeout_ms)
        first, *more = url.split(",")
        extra_nodes = [_node(address) for address in more]
        options: dict[str, Any] = {
            "socket_timeout": socket_timeout,
            "socket_connect_timeout": min(socket_timeout, 5.0),
            # Sent once: a lost reply is resolved by the recorders, never by resending (module docstring).
            "retry": Retry(NoBackoff(), 0),
        }
        with translated():
            if cluster is None:
                cluster = bool(extra_nodes) or _is_cluster(first, options)
            self.is_cluster = cluster
            self.client: Client = (
                self._cluster_client(first, extra_nodes, options)
                if cluster
                else redis.Redis.from_url(first, **options)
            )
            if check_durability:
                self.check_durability()
        self._scripts: dict[str, Script] = {}
        # Scripts gathered per turn of gevent's loop (replay.store.gathering): a cluster's pipelines split by node.
        self.gathering = (
            Gathering(self.client)
            if gather and isinstance(self.client, redis.Redis) and cooperative()
            else None
        )

    @staticmethod
    def _cluster_client(first: str, extra_nodes: list[ClusterNode], options: dict[str, Any]) -> RedisCluster:
        """A cluster client that starts while a node is down: not every slot need be served
        (``require_full_coverage=False``), and it starts with redis-py's own retries, which pass over a start-up
        node or a default node that does not answer (with none, a client whose first node was down could not
        start). Then, as for one server, nothing is sent twice: the cluster's retries are switched off (its
        nodes' connections never retry)."""
        start = {name: value for name, value in options.items() if name != "retry"}
        client = RedisCluster(url=first, startup_nodes=extra_nodes, require_full_coverage=False, **start)
        client.set_retry(options["retry"])
        return client

    def tag(self, name: str) -> str:
        """The hash tag that every key of the named application starts with."""
        return "{" + self.prefix + ":" + check_name("application name", name) + "}"

    def script(self, source: str) -> Script:
        """The callable script for a Lua source (one per datastore, so each is loaded once per server)."""
        script = self._scripts.get(source)
        if script is None:
            script = self._scripts[source] = Script(self.client, source, self.gathering)
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

    def write_script(
        self, script: Script, keys: Sequence[str], args: Sequence[str | bytes | int | float]
    ) -> Any:
        """Run a write script whose success is an acknowledgement (an append of events): once, as :meth:`write`,
        and with ``wait_replicas``, only acknowledged when that many replicas confirm it within
        ``wait_timeout_ms`` (else :class:`NotReplicatedError`: the write is on the master, not yet anywhere
        else, and the caller must not say it is kept; a retry with the same key finds it if it survives)."""
        if not self.wait_replicas:
            return self.write(lambda: script(keys, args))
        wait = (self.wait_replicas, self.wait_timeout_ms)
        with translated(write=True):
            try:
                reply, confirmed = script.then_wait(self._node_of(keys[0]), keys, args, wait)
            except rex.ResponseError as error:
                if not str(error).startswith(("MOVED", "ASK")) or not isinstance(self.client, RedisCluster):
                    raise
                # The slot moved (a failover): the script did not run. Learn the new layout and send it once.
                self.client.nodes_manager.initialize()
                reply, confirmed = script.then_wait(self._node_of(keys[0]), keys, args, wait)
        if confirmed < self.wait_replicas:
            raise NotReplicatedError(
                f"the write reached {confirmed} of {self.wait_replicas} replicas within "
                f"{self.wait_timeout_ms} ms: not acknowledged"
            )
        return reply

    def confirm_replicated(self, key: str) -> None:
        """With ``wait_replicas``: make sure that what the server holds under ``key``'s slot so far reached the
        replicas (a write whose reply was lost, found stored afterwards). ``WAIT`` counts the writes of its
        own connection, so a small write under the same hash tag goes first: the replicas confirm it only once
        they have everything the master applied before it."""
        if not self.wait_replicas:
            return
        tag = key[: key.index("}") + 1] if key.startswith("{") and "}" in key else key
        with translated(write=True):
            pipe = self._node_of(key).pipeline(transaction=False)
            pipe.set(f"{tag}:replicated", b"1", px=60_000)
            pipe.execute_command("WAIT", self.wait_replicas, self.wait_timeout_ms)  # type: ignore[no-untyped-call]
            _, confirmed = pipe.execute()
        if int(confirmed) < self.wait_replicas:
            raise NotReplicatedError(
                f"a write found stored reached {confirmed} of {self.wait_replicas} replicas within "
                f"{self.wait_timeout_ms} ms: not acknowledged"
            )

    def probe(self, tag: str) -> tuple[str, str, str | None]:
        """This store's state, asked as its requests ask (``replay.health``): ``(status, words, node)``, the
        status ``ok``, ``read-only`` or ``unavailable``. A read of the log's counter, then a short write beside
        it (``{tag}:health``, expiring after a minute) and, with ``wait_replicas``, its confirmation by them.
        Never raises."""
        node = self.node_address(tag)
        client = self.client
        try:
            with translated():
                client.get(f"{tag}:events:last")
        except PersistenceError as error:
            return "unavailable", f"reads fail: {error}", node
        try:
            with translated(write=True):
                client.set(f"{tag}:health", str(time.time()).encode(), px=60_000)
            self.confirm_replicated(f"{tag}:health")
        except PersistenceError as error:
            return "read-only", f"reads answer, writes fail: {error}", node
        replicas = f", confirmed by {self.wait_replicas} replica(s)" if self.wait_replicas else ""
        return "ok", f"reads and writes answer{replicas}", node

    def keys_like(self, tag: str, pattern: str) -> Iterator[bytes]:
        """Every key of the server that holds ``tag`` (its slot's master in a cluster) whose name is ``tag``
        followed by ``pattern`` (a glob): ``SCAN``, a page at a time, so no call holds the server for long."""
        match = glob_escape(tag) + pattern
        node = self._node_of(tag)
        cursor: int = 0
        while True:
            cursor, keys = self.read(lambda c=cursor: node.scan(c, match=match, count=1000))  # type: ignore[misc]
            yield from (key if isinstance(key, bytes) else key.encode() for key in keys)
            if not cursor:
                return

    def node_address(self, key: str) -> str | None:
        """``host:port`` of the server that holds ``key`` (its slot's master in a cluster), if known."""
        try:
            if isinstance(self.client, RedisCluster):
                node = self.client.get_node_from_key(key)  # type: ignore[no-untyped-call]  # untyped in redis-py
                return f"{node.host}:{node.port}"
            kwargs = self.client.get_connection_kwargs()
            return f"{kwargs.get('host', kwargs.get('path', '?'))}:{kwargs.get('port', '')}".rstrip(":")
        except (redis.RedisError, rex.RedisClusterException, OSError, AttributeError):
            return None

    def _node_of(self, key: str) -> redis.Redis:
        """The client of the server that holds ``key``: the one server, or the master of its cluster slot."""
        if isinstance(self.client, RedisCluster):
            node = self.client.get_node_from_key(key)  # type: ignore[no-untyped-call]  # untyped in redis-py
            return self.client.get_redis_connection(node)
        return self.client

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
            try:
                memory = _info(server, "memory")
                persistence = _info(server, "persistence")
            except (redis.RedisError, OSError) as error:
                # A node down at start stops only its own slots' games: start, and check it another time.
                logger.warning("redis %s:%s did not answer the durability check: %s", *where, error)
                continue
            _checked_servers.add(where)
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
        """Close every connection of the client. A cluster client's ``close`` hands each node's connection back
        to that node's pool without closing the pool (redis-py gives the nodes pools of their own), so the
        sockets stayed open until the garbage collector found them: each node's pool is disconnected too."""
        nodes = self.client.get_nodes() if isinstance(self.client, RedisCluster) else []  # type: ignore[no-untyped-call]
        self.client.close()
        for node in nodes:
            if node.redis_connection is not None:
                node.redis_connection.connection_pool.disconnect()


def _node(address: str) -> ClusterNode:
    """A cluster node named ``host:port`` (or a URL) in a list of start-up nodes."""
    address = address.strip().split("://", 1)[-1].split("@", 1)[-1].split("/", 1)[0]
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        raise ValueError(f"a cluster node is host:port, not {address!r}")
    return ClusterNode(host, int(port))  # type: ignore[no-untyped-call]  # untyped in redis-py


def _info(server: redis.Redis, section: str) -> dict[str, Any]:
    """One section of a server's ``INFO``, as the synchronous client answers it (redis-py types every reply as
    possibly awaitable, for its asyncio client)."""
    return cast(dict[str, Any], server.info(section))


def _is_cluster(url: str, options: dict[str, Any]) -> bool:
    """Whether the server at ``url`` runs in cluster mode (``INFO cluster``)."""
    probe = redis.Redis.from_url(url, **options)
    try:
        return bool(_info(probe, "cluster").get("cluster_enabled") == 1)
    finally:
        probe.close()
