"""Which event store heronlog uses, and how the eventsourcing library is told about it.

Three stores, chosen by configuration and never by code: ``sqlite`` (the default), ``redis`` (``replay.store``)
and ``memory``.
"""

from __future__ import annotations

import math
import sqlite3
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
    Variable(
        "REDIS_GATHER",
        "yes",
        "under gevent, send the scripts of one turn of a worker's loop as one pipeline (one sync of Redis's file)",
    ),
    Variable(
        "REDIS_ONE_TRIP_MOVES",
        "yes",
        "a move to a game the worker holds warm is checked, counted and appended in one round trip",
    ),
)
"""Every environment variable the event store is configured from (README, "Configuration")."""

_DECLARED = {variable.name: variable for variable in STORE_VARIABLES}


REDIS_SCHEMES = ("redis", "rediss", "unix")
CLUSTER_WORDS = ("auto", "yes", "no", "y", "n", "true", "false", "on", "off", "1", "0")
SWITCH_WORDS = CLUSTER_WORDS[1:]


def _redis_url(url: str) -> str | None:
    """What is wrong with a ``REDIS_URL`` (None: nothing): its scheme, and each node's host and port."""
    shown = url if "@" not in url else url.split("://", 1)[0] + "://...@" + url.rsplit("@", 1)[1]
    scheme, sep, rest = url.partition("://")
    if not sep or scheme.lower() not in REDIS_SCHEMES:
        return f"REDIS_URL must start with redis://, rediss:// or unix://, not {shown!r}"
    if scheme.lower() == "unix":
        return None if rest.split("?", 1)[0] else f"REDIS_URL names no socket file: {shown!r}"
    nodes = rest.rsplit("@", 1)[-1].split("/", 1)[0].split("?", 1)[0]
    for node in nodes.split(","):
        if node.startswith("["):  # an IPv6 address: [::1]:6379
            after = node.partition("]")[2]
            port = after[1:] if after.startswith(":") else None
        else:
            port = node.rpartition(":")[2] if ":" in node else None
        if port is not None and not (port.isdigit() and 1 <= int(port) <= 65535):
            return f"REDIS_URL has a port that is no port, {port!r}, in {shown!r}: a whole number from 1 to 65535"
    path = rest.rsplit("@", 1)[-1].partition("/")[2].split("?", 1)[0]
    if path and not path.isdigit():
        return f"REDIS_URL names a database that is no number, {path!r}, in {shown!r}"
    return None


def _positive(name: str, text: str, *, whole: bool, lowest: float) -> str | None:
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value) or value < lowest:
        kind = "a whole number" if whole else "a number"
        return f"{name} must be {kind} of {lowest:g} or more, not {text!r}"
    return None


def check_store_settings(environ: Mapping[str, str]) -> list[str]:
    """What is wrong with the store's variables in ``environ``, one line each, whatever store they choose: a
    setting that cannot be used stops a command before it opens anything, rather than failing every request
    later."""
    problems = []
    url = setting(environ, "REDIS_URL")
    if url and (wrong := _redis_url(url)):
        problems.append(wrong)
    shards = setting(environ, "HERONLOG_SHARDS") or "1"
    if not shards.isdigit() or not 1 <= int(shards) <= 64:
        problems.append(f"HERONLOG_SHARDS must be a whole number from 1 to 64, not {shards!r}")
    for name in ("REDIS_GATHER", "REDIS_ONE_TRIP_MOVES"):
        if (setting(environ, name) or "yes").strip().lower() not in SWITCH_WORDS:
            problems.append(f"{name} is yes or no, not {setting(environ, name)!r}")
    cluster = (setting(environ, "REDIS_CLUSTER") or "auto").strip().lower()
    if cluster not in CLUSTER_WORDS:
        problems.append(f"REDIS_CLUSTER is auto, yes or no, not {setting(environ, 'REDIS_CLUSTER')!r}")
    prefix = setting(environ, "REDIS_KEY_PREFIX") or ""
    if any(char in prefix for char in "{}") or any(char.isspace() for char in prefix):
        problems.append(
            f"REDIS_KEY_PREFIX may hold no braces and no spaces (it is part of a hash tag), not {prefix!r}"
        )
    for name, whole, lowest in (
        ("REDIS_SOCKET_TIMEOUT", False, 0.001),
        ("REDIS_SUBSCRIBE_BLOCK_MS", True, 1),
        ("REDIS_WAIT_REPLICAS", True, 0),
        ("REDIS_WAIT_TIMEOUT_MS", True, 1),
    ):
        text = setting(environ, name)
        if text and (wrong := _positive(name, text.strip(), whole=whole, lowest=lowest)):
            problems.append(wrong)
    return problems


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
        """Resolve the store from environment variables; ``kind`` (from the command line) wins. Every store
        variable is checked (:func:`check_store_settings`): the first one wrong is a :class:`ConfigError`."""
        problems = check_store_settings(environ)
        if problems:
            raise ConfigError(problems[0])
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


def _make_folder(folder: Path) -> None:
    """Make the data folder if it is missing; :class:`ConfigError` when it cannot be one."""
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"HERONLOG_DATA must name a folder; {folder} is a file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ConfigError(
            f"HERONLOG_DATA: cannot use {folder} as the data folder: {error.strerror or error}"
        ) from None


def check_data_folder(config: StoreConfig) -> None:
    """For the SQLite store: make its data folder if needed and open its file for writing once (nothing is
    written), so that a folder that is a file, cannot be made or cannot be written is one line
    (:class:`ConfigError`) before anything starts, not an error on every request."""
    if config.sqlite_path is None:
        return
    _make_folder(config.sqlite_path.parent)
    if config.sqlite_path.exists() and not config.sqlite_path.is_file():
        raise ConfigError(f"HERONLOG_DATA: {config.sqlite_path} is not a file")
    try:
        connection = sqlite3.connect(config.sqlite_path, timeout=1)
        try:
            connection.execute("BEGIN IMMEDIATE")  # takes the write lock, as a write would
            connection.rollback()
        finally:
            connection.close()
    except sqlite3.OperationalError as error:
        if "locked" in str(error):  # another process writes now: the file can be written
            return
        raise ConfigError(
            f"HERONLOG_DATA: cannot write the SQLite store {config.sqlite_path}: {error}"
        ) from None
    except sqlite3.DatabaseError as error:
        raise ConfigError(f"HERONLOG_DATA: {config.sqlite_path} is not a SQLite store: {error}") from None


def open_log(config: StoreConfig, **extra_env: str) -> GameLog:
    """The game log on the configured store (creating the SQLite data folder if needed), with as many stores
    as the configuration names shards. A data folder that cannot be used is a :class:`ConfigError`."""
    from replay.application import GameLog

    if config.sqlite_path is not None:
        _make_folder(config.sqlite_path.parent)
    return GameLog(
        {**config.eventsourcing_env(), "CACHE_MB": str(config.cache_mb), **extra_env}, shards=config.shards
    )
