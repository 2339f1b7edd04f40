"""Which event store heronlog uses, and how the eventsourcing library is told about it.

Three stores, chosen by configuration and never by code: ``sqlite`` (the default), ``redis`` (``replay.store``)
and ``memory``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from replay.application import GameLog

StoreKind = Literal["sqlite", "redis", "memory"]
STORE_KINDS: tuple[StoreKind, ...] = ("sqlite", "redis", "memory")
SQLITE_FILENAME = "heronlog.sqlite"
DEFAULT_DATA_FOLDER = "data"


class ConfigError(ValueError):
    """The environment names a store that cannot be used (unknown kind, Redis without a URL)."""


@dataclass(frozen=True)
class Variable:
    """One environment variable heronlog reads: its name, its default (None: unset) and what it means."""

    name: str
    default: str | None
    meaning: str


STORE_VARIABLES: tuple[Variable, ...] = (
    Variable(
        "HERONLOG_STORE", None, "`sqlite`, `redis` or `memory` (default: `redis` if `REDIS_URL` is set)"
    ),
    Variable("HERONLOG_DATA", DEFAULT_DATA_FOLDER, "folder of the SQLite file `heronlog.sqlite`"),
    Variable(
        "REDIS_URL",
        None,
        "the Redis server: `redis://[user:pass@]host:port/db`, `rediss://`, `unix://`; for a cluster, several "
        "nodes may be named, `redis://host1:port1,host2:port2`",
    ),
    Variable("REDIS_KEY_PREFIX", "heronlog", "first part of every key's hash tag"),
    Variable("HERONLOG_SHARDS", "1", "applications (shards) the games are spread over, 1 to 64"),
    Variable("HERONLOG_CACHE_MB", "48", "megabytes of games each process keeps warm (0: none)"),
    # Read by the Redis persistence module (replay.store.factory) through the eventsourcing library's
    # environment, which also takes them per application (GAMELOG0_REDIS_URL...).
    Variable("REDIS_CLUSTER", "auto", "`auto` (ask the server), `yes` (Redis Cluster) or `no`"),
    Variable("REDIS_SOCKET_TIMEOUT", "10", "seconds to wait for a Redis reply"),
    Variable(
        "REDIS_SUBSCRIBE_BLOCK_MS", "200", "how often a blocked subscription checks whether it was stopped"
    ),
    Variable(
        "REDIS_WAIT_REPLICAS",
        "0",
        "replicas that must confirm each append before it is acknowledged (0: the master's word alone)",
    ),
    Variable(
        "REDIS_WAIT_TIMEOUT_MS",
        "1000",
        "how long an append waits for those replicas; unconfirmed, it is `503 store_unavailable`",
    ),
)
"""Every environment variable the event store is configured from (README, "Configuration")."""

_DECLARED = {variable.name: variable for variable in STORE_VARIABLES}


def setting(environ: Mapping[str, str], name: str) -> str | None:
    """The value of a declared store variable: set and not empty, else its default. Reading an undeclared
    name is a bug (KeyError): the table above must stay the complete list."""
    declared = _DECLARED[name]
    return environ.get(name) or declared.default


@dataclass(frozen=True)
class StoreConfig:
    """A resolved choice of event store."""

    kind: StoreKind
    sqlite_path: Path | None = None
    redis_url: str | None = None
    redis_prefix: str = "heronlog"
    shards: int = 1
    """How many applications games are spread over (``HERONLOG_SHARDS``; see replay.shards)."""
    cache_mb: float = 48
    """The budget of each process's warm cache of games (``HERONLOG_CACHE_MB``; see replay.cache)."""

    @classmethod
    def from_environ(cls, environ: Mapping[str, str], kind: str | None = None) -> StoreConfig:
        """Resolve the store from environment variables; ``kind`` (from the command line) wins."""
        url = setting(environ, "REDIS_URL")
        chosen = kind or setting(environ, "HERONLOG_STORE") or ("redis" if url else "sqlite")
        text = setting(environ, "HERONLOG_CACHE_MB") or "48"
        try:
            cache_mb = float(text)
        except ValueError:
            cache_mb = -1.0
        if not 0 <= cache_mb <= 1_000_000:
            raise ConfigError(f"HERONLOG_CACHE_MB must be a number of megabytes, 0 or more, not {text!r}")
        if chosen == "sqlite":
            folder = Path(setting(environ, "HERONLOG_DATA") or DEFAULT_DATA_FOLDER).expanduser().resolve()
            return cls(kind="sqlite", sqlite_path=folder / SQLITE_FILENAME, cache_mb=cache_mb)
        if chosen == "redis":
            if not url:
                raise ConfigError("the redis store needs REDIS_URL, e.g. redis://127.0.0.1:6379/0")
            shards = setting(environ, "HERONLOG_SHARDS") or "1"
            if not shards.isdigit() or not 1 <= int(shards) <= 64:
                raise ConfigError(f"HERONLOG_SHARDS must be a whole number from 1 to 64, not {shards!r}")
            return cls(
                kind="redis",
                redis_url=url,
                redis_prefix=setting(environ, "REDIS_KEY_PREFIX") or "heronlog",
                shards=int(shards),
                cache_mb=cache_mb,
            )
        if chosen == "memory":
            return cls(kind="memory", cache_mb=cache_mb)
        raise ConfigError(f"unknown store {chosen!r}: choose one of {', '.join(STORE_KINDS)}")

    def describe(self) -> str:
        """One line for the start-up banner: where the events are kept."""
        if self.kind == "sqlite":
            return f"sqlite file {self.sqlite_path}"
        if self.kind == "redis":
            spread = f", {self.shards} shards" if self.shards > 1 else ""
            return f"redis {self.redis_url} (key prefix {self.redis_prefix!r}{spread})"
        return "memory (nothing is kept after the process ends)"

    def eventsourcing_env(self) -> dict[str, str]:
        """The environment the eventsourcing library reads to build its recorders."""
        if self.kind == "sqlite":
            assert self.sqlite_path is not None
            return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(self.sqlite_path)}
        if self.kind == "redis":
            assert self.redis_url is not None
            return {
                "PERSISTENCE_MODULE": "replay.store",
                "REDIS_URL": self.redis_url,
                "REDIS_KEY_PREFIX": self.redis_prefix,
            }
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}


def open_log(config: StoreConfig, **extra_env: str) -> GameLog:
    """The game log on the configured store (creating the SQLite data folder if needed), with as many stores
    as the configuration names shards."""
    from replay.application import GameLog

    if config.sqlite_path is not None:
        config.sqlite_path.parent.mkdir(parents=True, exist_ok=True)
    return GameLog(
        {**config.eventsourcing_env(), "CACHE_MB": str(config.cache_mb), **extra_env}, shards=config.shards
    )
