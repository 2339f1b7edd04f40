"""Hashes and sorted sets kept beside a store's events: what read models other than the list of games are built of
(the players: :mod:`replay.players.projection`), so that each is written once for every store.

Redis keeps them as its own hashes and sorted sets (:mod:`replay.store.views`), SQLite as two indexed tables in the
store's file, memory as dictionaries. A :class:`Change` is applied whole or not at all, and only while its guards
hold (each names a hash field's expected value): a read model reads, decides and applies, and decides again when
another process changed what it read, so two processes applying the same change count it once.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

Op = tuple[str, str, str, Any]
"""One write: ``(kind, key, field or member, value)``. Kinds: ``hset`` (value: text), ``hdel``, ``hincr`` (value:
a whole number added; a field that comes to 0 is deleted), ``hmin`` (keep the smaller text: ``value`` when the
field is absent or greater), ``hmax`` (keep the greater), ``zadd`` (value: the score), ``zrem``, ``zincr``
(value: added to the score; a member whose score comes to 0 or less leaves the set) and ``del`` (the whole
key)."""

Read = tuple[Any, ...]
"""One read: ``("hgetall", key)``, ``("hmget", key, fields)``, ``("zrange", key, start, count, descending)`` (by
rank), ``("zfrom", key, score, count)`` (the members from ``score`` up, ascending), ``("zinter", key, other, start,
count)`` (the members of both, by their score in ``key``, descending), ``("zscore", key, member)`` or
``("zcard", key)``."""

Members = list[tuple[str, float]]


@dataclass
class Change:
    """Writes applied together, if every guard ``(key, field, expected)`` holds (``expected`` None: the field is
    absent)."""

    guards: list[tuple[str, str, str | None]] = field(default_factory=list)
    ops: list[Op] = field(default_factory=list)

    def guard(self, key: str, name: str, expected: str | None) -> None:
        self.guards.append((key, name, expected))

    def hset(self, key: str, name: str, value: str) -> None:
        self.ops.append(("hset", key, name, value))

    def hdel(self, key: str, name: str) -> None:
        self.ops.append(("hdel", key, name, ""))

    def hincr(self, key: str, name: str, delta: int) -> None:
        if delta:
            self.ops.append(("hincr", key, name, int(delta)))

    def hmin(self, key: str, name: str, value: str) -> None:
        self.ops.append(("hmin", key, name, value))

    def hmax(self, key: str, name: str, value: str) -> None:
        self.ops.append(("hmax", key, name, value))

    def zadd(self, key: str, member: str, score: float) -> None:
        self.ops.append(("zadd", key, member, score))

    def zrem(self, key: str, member: str) -> None:
        self.ops.append(("zrem", key, member, ""))

    def zincr(self, key: str, member: str, delta: float) -> None:
        if delta:
            self.ops.append(("zincr", key, member, delta))

    def delete(self, key: str) -> None:
        self.ops.append(("del", key, "", ""))

    def __bool__(self) -> bool:
        return bool(self.ops)


class Views(Protocol):
    """A store's hashes and sorted sets (see the module docstring)."""

    def read(self, reads: Sequence[Read]) -> list[Any]:
        """The answers to some reads, in one round trip and one moment where the store can: ``hgetall`` a dict,
        ``hmget`` a list (None for a field absent), ``zrange`` a list of (member, score), ``zscore`` a score or
        None, ``zcard`` a count."""

    def apply(self, change: Change) -> bool:
        """Apply the change whole if its guards hold; whether they held."""


# --- in this process ------------------------------------------------------------------------------------------


def _ranked(members: dict[str, float], descending: bool) -> Members:
    return sorted(members.items(), key=lambda item: (item[1], item[0]), reverse=descending)


class MemoryViews:
    """The views of a store kept in this process (the in-memory store: tests, demos)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hashes: dict[str, dict[str, str]] = {}
        self._sets: dict[str, dict[str, float]] = {}

    def read(self, reads: Sequence[Read]) -> list[Any]:
        with self._lock:
            return [self._read(read) for read in reads]

    def _read(self, read: Read) -> Any:
        kind, key = read[0], read[1]
        if kind == "hgetall":
            return dict(self._hashes.get(key, {}))
        if kind == "hmget":
            held = self._hashes.get(key, {})
            return [held.get(name) for name in read[2]]
        members = self._sets.get(key, {})
        if kind == "zrange":
            start, count, descending = read[2], read[3], read[4]
            return _ranked(members, descending)[start : start + count]
        if kind == "zfrom":
            return [item for item in _ranked(members, False) if item[1] >= read[2]][: read[3]]
        if kind == "zinter":
            other = self._sets.get(read[2], {})
            both = {member: score for member, score in members.items() if member in other}
            return _ranked(both, True)[read[3] : read[3] + read[4]]
        if kind == "zscore":
            return members.get(read[2])
        if kind == "zcard":
            return len(members)
        raise ValueError(f"not a read: {kind}")

    def apply(self, change: Change) -> bool:
        with self._lock:
            for key, name, expected in change.guards:
                if self._hashes.get(key, {}).get(name) != expected:
                    return False
            for kind, key, name, value in change.ops:
                self._write(kind, key, name, value)
            return True

    def _write(self, kind: str, key: str, name: str, value: Any) -> None:
        if kind == "del":
            self._hashes.pop(key, None)
            self._sets.pop(key, None)
        elif kind in ("zadd", "zrem", "zincr"):
            members = self._sets.setdefault(key, {})
            if kind == "zadd":
                members[name] = float(value)
            elif kind == "zrem":
                members.pop(name, None)
            else:
                score = members.get(name, 0.0) + float(value)
                if score <= 0:
                    members.pop(name, None)
                else:
                    members[name] = score
            if not members:
                self._sets.pop(key, None)
        else:
            fields = self._hashes.setdefault(key, {})
            if kind == "hset":
                fields[name] = value
            elif kind == "hdel":
                fields.pop(name, None)
            elif kind == "hmin":
                if name not in fields or value < fields[name]:
                    fields[name] = value
            elif kind == "hmax":
                if name not in fields or value > fields[name]:
                    fields[name] = value
            else:  # hincr
                total = int(fields.get(name, "0")) + int(value)
                if total:
                    fields[name] = str(total)
                else:
                    fields.pop(name, None)
            if not fields:
                self._hashes.pop(key, None)


# --- SQLite ---------------------------------------------------------------------------------------------------

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS heronlog_view_fields (key TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL, "
    "PRIMARY KEY (key, field)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS heronlog_view_members (key TEXT NOT NULL, member TEXT NOT NULL, "
    "score REAL NOT NULL, PRIMARY KEY (key, member)) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS heronlog_view_members_order ON heronlog_view_members (key, score, member)",
)
_LOCK = "heronlog:views:lock"
"""A row written first by every change: it takes the file's write lock before the guards are read."""


class _GuardFailed(Exception):
    """Rolls a change back: a guard did not hold."""


class SQLiteViews:
    """The views of a SQLite store: two indexed tables in the store's own file."""

    def __init__(self, recorder: Any) -> None:
        self._datastore = recorder.datastore
        with self._datastore.transaction(commit=True) as cursor:
            for statement in SCHEMA:
                cursor.execute(statement)

    def read(self, reads: Sequence[Read]) -> list[Any]:
        with self._datastore.transaction(commit=False) as cursor:
            return [self._read(cursor, read) for read in reads]

    @staticmethod
    def _read(cursor: Any, read: Read) -> Any:
        kind, key = read[0], read[1]
        if kind == "hgetall":
            cursor.execute("SELECT field, value FROM heronlog_view_fields WHERE key = ?", (key,))
            return {row[0]: row[1] for row in cursor.fetchall()}
        if kind == "hmget":
            names = list(read[2])
            found: dict[str, str] = {}
            for start in range(0, len(names), 500):
                part = names[start : start + 500]
                marks = ",".join("?" * len(part))
                cursor.execute(
                    f"SELECT field, value FROM heronlog_view_fields WHERE key = ? AND field IN ({marks})",
                    (key, *part),
                )
                found.update({row[0]: row[1] for row in cursor.fetchall()})
            return [found.get(name) for name in names]
        if kind == "zrange":
            start, count, descending = read[2], read[3], read[4]
            order = "DESC" if descending else "ASC"
            cursor.execute(
                "SELECT member, score FROM heronlog_view_members WHERE key = ? "
                f"ORDER BY score {order}, member {order} LIMIT ? OFFSET ?",
                (key, count, start),
            )
            return [(row[0], float(row[1])) for row in cursor.fetchall()]
        if kind == "zfrom":
            cursor.execute(
                "SELECT member, score FROM heronlog_view_members WHERE key = ? AND score >= ? "
                "ORDER BY score, member LIMIT ?",
                (key, float(read[2]), read[3]),
            )
            return [(row[0], float(row[1])) for row in cursor.fetchall()]
        if kind == "zinter":
            cursor.execute(
                "SELECT a.member, a.score FROM heronlog_view_members a JOIN heronlog_view_members b "
                "ON b.key = ? AND b.member = a.member WHERE a.key = ? "
                "ORDER BY a.score DESC, a.member DESC LIMIT ? OFFSET ?",
                (read[2], key, read[4], read[3]),
            )
            return [(row[0], float(row[1])) for row in cursor.fetchall()]
        if kind == "zscore":
            cursor.execute(
                "SELECT score FROM heronlog_view_members WHERE key = ? AND member = ?", (key, read[2])
            )
            row = cursor.fetchone()
            return float(row[0]) if row else None
        if kind == "zcard":
            cursor.execute("SELECT COUNT(*) FROM heronlog_view_members WHERE key = ?", (key,))
            return int(cursor.fetchone()[0])
        raise ValueError(f"not a read: {kind}")

    def apply(self, change: Change) -> bool:
        try:
            with self._datastore.transaction(commit=True) as cursor:
                cursor.execute(
                    "INSERT OR REPLACE INTO heronlog_view_fields (key, field, value) VALUES (?, '', '')",
                    (_LOCK,),
                )
                for key, name, expected in change.guards:
                    cursor.execute(
                        "SELECT value FROM heronlog_view_fields WHERE key = ? AND field = ?", (key, name)
                    )
                    row = cursor.fetchone()
                    if (row[0] if row else None) != expected:
                        raise _GuardFailed
                for kind, key, name, value in change.ops:
                    _write(cursor, kind, key, name, value)
        except _GuardFailed:
            return False
        return True


def _write(cursor: Any, kind: str, key: str, name: str, value: Any) -> None:
    if kind == "hset":
        cursor.execute(
            "INSERT OR REPLACE INTO heronlog_view_fields (key, field, value) VALUES (?, ?, ?)",
            (key, name, value),
        )
    elif kind == "hdel":
        cursor.execute("DELETE FROM heronlog_view_fields WHERE key = ? AND field = ?", (key, name))
    elif kind == "hincr":
        cursor.execute(
            "INSERT INTO heronlog_view_fields (key, field, value) VALUES (?, ?, ?) ON CONFLICT (key, field) "
            "DO UPDATE SET value = CAST(CAST(value AS INTEGER) + CAST(excluded.value AS INTEGER) AS TEXT)",
            (key, name, str(int(value))),
        )
        cursor.execute(
            "DELETE FROM heronlog_view_fields WHERE key = ? AND field = ? AND CAST(value AS INTEGER) = 0",
            (key, name),
        )
    elif kind == "hmin":
        cursor.execute(
            "INSERT INTO heronlog_view_fields (key, field, value) VALUES (?, ?, ?) ON CONFLICT (key, field) "
            "DO UPDATE SET value = excluded.value WHERE excluded.value < value",
            (key, name, value),
        )
    elif kind == "hmax":
        cursor.execute(
            "INSERT INTO heronlog_view_fields (key, field, value) VALUES (?, ?, ?) ON CONFLICT (key, field) "
            "DO UPDATE SET value = excluded.value WHERE excluded.value > value",
            (key, name, value),
        )
    elif kind == "zadd":
        cursor.execute(
            "INSERT OR REPLACE INTO heronlog_view_members (key, member, score) VALUES (?, ?, ?)",
            (key, name, float(value)),
        )
    elif kind == "zrem":
        cursor.execute("DELETE FROM heronlog_view_members WHERE key = ? AND member = ?", (key, name))
    elif kind == "zincr":
        cursor.execute(
            "INSERT INTO heronlog_view_members (key, member, score) VALUES (?, ?, ?) ON CONFLICT (key, member) "
            "DO UPDATE SET score = score + excluded.score",
            (key, name, float(value)),
        )
        cursor.execute(
            "DELETE FROM heronlog_view_members WHERE key = ? AND member = ? AND score <= 0", (key, name)
        )
    elif kind == "del":
        cursor.execute("DELETE FROM heronlog_view_fields WHERE key = ?", (key,))
        cursor.execute("DELETE FROM heronlog_view_members WHERE key = ?", (key,))
    else:
        raise ValueError(f"not a write: {kind}")
