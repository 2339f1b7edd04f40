"""The list of games of a SQLite store: indexed tables in the store's own file (:mod:`replay.index`)."""

from __future__ import annotations

import json
from collections.abc import Container, Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from replay.index import Direction, Entry, Found, Key, Query, Row, Summary, answer

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS heronlog_games (game TEXT PRIMARY KEY, created INTEGER NOT NULL, "
    "public INTEGER NOT NULL, entry TEXT NOT NULL, words TEXT NOT NULL) WITHOUT ROWID",
    "CREATE INDEX IF NOT EXISTS heronlog_games_public ON heronlog_games (public, created, game)",
    "CREATE INDEX IF NOT EXISTS heronlog_games_every ON heronlog_games (created, game)",
    "CREATE TABLE IF NOT EXISTS heronlog_game_summaries (game TEXT PRIMARY KEY, version INTEGER NOT NULL, "
    "summary TEXT NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS heronlog_game_words (word TEXT NOT NULL, created INTEGER NOT NULL, "
    "game TEXT NOT NULL, PRIMARY KEY (word, created, game)) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS heronlog_words (word TEXT PRIMARY KEY, games INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS heronlog_listings (listing TEXT PRIMARY KEY, position INTEGER NOT NULL, "
    "public INTEGER NOT NULL, every INTEGER NOT NULL)",
)
CHUNK = 500
"""Ids per ``IN (...)`` list: well under SQLite's limit on a statement's variables."""


def _chunks(items: Sequence[Any]) -> list[Sequence[Any]]:
    return [items[start : start + CHUNK] for start in range(0, len(items), CHUNK)]


class SQLiteListing:
    """The list of games of one SQLite store (see the module docstring)."""

    def __init__(self, recorder: Any, index_stream: UUID, name: str) -> None:
        self._datastore = recorder.datastore
        self._events = recorder.events_table_name
        self._index = index_stream.hex
        self._name = name
        with self._datastore.transaction(commit=True) as cursor:
            for statement in SCHEMA:
                cursor.execute(statement)
            cursor.execute(
                "INSERT OR IGNORE INTO heronlog_listings (listing, position, public, every) VALUES (?, 0, 0, 0)",
                (name,),
            )

    def position(self) -> int:
        with self._datastore.transaction(commit=False) as cursor:
            cursor.execute("SELECT position FROM heronlog_listings WHERE listing = ?", (self._name,))
            return int(cursor.fetchone()[0])

    def add(self, entries: Sequence[tuple[Entry, Summary | None]], position: int) -> None:
        public = every = 0
        with self._datastore.transaction(commit=True) as cursor:
            for entry, summary in entries:
                key = entry.key
                cursor.execute(
                    "INSERT OR IGNORE INTO heronlog_games (game, created, public, entry, words) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (
                        key.game,
                        key.created,
                        0 if entry.private else 1,
                        json.dumps(entry.to_dict()),
                        entry.text,
                    ),
                )
                cursor.execute("SELECT changes()")
                if cursor.fetchone()[0]:
                    every += 1
                    if not entry.private:
                        public += 1
                        for word in entry.words:
                            cursor.execute(
                                "INSERT OR IGNORE INTO heronlog_game_words (word, created, game) VALUES (?, ?, ?)",
                                (word, key.created, key.game),
                            )
                            cursor.execute(
                                "INSERT INTO heronlog_words (word, games) VALUES (?, 1) "
                                "ON CONFLICT (word) DO UPDATE SET games = games + 1",
                                (word,),
                            )
                if summary is not None:
                    self._keep(cursor, key.game, summary)
            cursor.execute(
                "UPDATE heronlog_listings SET position = MAX(position, ?), public = public + ?, every = every + ? "
                "WHERE listing = ?",
                (position, public, every, self._name),
            )

    def keep_summary(self, game_id: UUID, summary: Summary) -> None:
        with self._datastore.transaction(commit=True) as cursor:
            self._keep(cursor, game_id.hex, summary)

    @staticmethod
    def _keep(cursor: Any, game: str, summary: Summary) -> None:
        cursor.execute(
            "INSERT INTO heronlog_game_summaries (game, version, summary) VALUES (?, ?, ?) "
            "ON CONFLICT (game) DO UPDATE SET version = excluded.version, summary = excluded.summary "
            "WHERE excluded.version > heronlog_game_summaries.version",
            (game, summary.version, json.dumps(summary.to_dict())),
        )

    def page(self, query: Query, checked: Container[str] = ()) -> Found:
        with self._datastore.transaction(commit=False) as cursor:
            tables = _Tables(cursor, self._events, self._name)
            cursor.execute("SELECT position FROM heronlog_listings WHERE listing = ?", (self._name,))
            position = int(cursor.fetchone()[0])
            cursor.execute(
                f"SELECT MAX(originator_version) FROM {self._events} WHERE originator_id = ?", (self._index,)
            )
            stream = int(cursor.fetchone()[0] or 0)
            keys, total, complete = answer(tables, query)
            rows = tables.rows(keys, checked)
        return Found(rows, total, complete, position, stream)


class _Tables:
    """The search's primitives (:class:`replay.index.Primitives`) over one read transaction's cursor."""

    def __init__(self, cursor: Any, events: str, name: str) -> None:
        self._cursor = cursor
        self._events = events
        self._name = name

    def _all(self, statement: str, parameters: Sequence[Any] = ()) -> list[Any]:
        self._cursor.execute(statement, parameters)
        return list(self._cursor.fetchall())

    def expand(self, term: str, most: int) -> list[tuple[str, int]]:
        # Words in [term, term + U+10FFFF): every word that starts with the term, in order (an index range).
        rows = self._all(
            "SELECT word, games FROM heronlog_words WHERE word >= ? AND word < ? ORDER BY word LIMIT ?",
            (term, term + "\U0010ffff", most),
        )
        return [(row[0], int(row[1])) for row in rows]

    def count(self, source: str | None, include_private: bool) -> int:
        if source is not None:
            rows = self._all("SELECT games FROM heronlog_words WHERE word = ?", (source,))
            return int(rows[0][0]) if rows else 0
        column = "every" if include_private else "public"
        return int(
            self._all(f"SELECT {column} FROM heronlog_listings WHERE listing = ?", (self._name,))[0][0]
        )

    def keys(
        self, source: str | None, *, private: bool, start: Key | None, direction: Direction, skip: int, n: int
    ) -> list[Key]:
        parameters: list[Any]
        if source is not None:
            table, where, parameters = "heronlog_game_words", ["word = ?"], [source]
        elif private:
            table, where, parameters = "heronlog_games", [], []
        else:
            table, where, parameters = "heronlog_games", ["public = 1"], []
        if start is not None:
            where.append("(created, game) < (?, ?)" if direction == "after" else "(created, game) > (?, ?)")
            parameters += [start.created, start.game]
        order = "DESC" if direction == "after" else "ASC"
        clause = f"WHERE {' AND '.join(where)} " if where else ""
        rows = self._all(
            f"SELECT created, game FROM {table} {clause}ORDER BY created {order}, game {order} LIMIT ? OFFSET ?",
            [*parameters, n, skip],
        )
        return [Key(int(row[0]), row[1]) for row in rows]

    def intersection(self, words: Sequence[str], query: Query) -> tuple[list[Key], int]:
        # The first word's games in order of time, each looked up in the other words' (their primary key).
        joins = "".join(
            f" JOIN heronlog_game_words w{n} ON w{n}.word = ? AND w{n}.created = w0.created AND w{n}.game = w0.game"
            for n in range(1, len(words))
        )
        base = f"FROM heronlog_game_words w0{joins} WHERE w0.word = ?"
        parameters: list[Any] = [*words[1:], words[0]]
        total = int(self._all(f"SELECT COUNT(*) {base}", parameters)[0][0])
        cursor = query.before if query.before is not None else query.after
        where = ""
        if cursor is not None:
            where = " AND (w0.created, w0.game) " + ("> (?, ?)" if query.before is not None else "< (?, ?)")
            parameters += [cursor.created, cursor.game]
        order = "ASC" if query.before is not None else "DESC"
        rows = self._all(
            f"SELECT w0.created, w0.game {base}{where} ORDER BY w0.created {order}, w0.game {order} LIMIT ? OFFSET ?",
            [*parameters, query.limit, query.offset],
        )
        keys = [Key(int(row[0]), row[1]) for row in rows]
        return (keys[::-1] if query.before is not None else keys), total

    def gathered(self, words: Sequence[str]) -> list[tuple[Key, str]]:
        found: dict[str, tuple[Key, str]] = {}
        for part in _chunks(list(words)):
            marks = ",".join("?" * len(part))
            for row in self._all(
                "SELECT g.created, g.game, g.words FROM heronlog_game_words w "
                f"JOIN heronlog_games g ON g.game = w.game WHERE w.word IN ({marks})",
                part,
            ):
                found[row[1]] = (Key(int(row[0]), row[1]), row[2])
        return list(found.values())

    def walk(
        self, source: str | None, start: Key | None, direction: Direction, n: int
    ) -> list[tuple[Key, str]]:
        where: list[str] = []
        parameters: list[Any] = []
        if source is None:
            table, columns, join = "heronlog_games w", "w.created, w.game, w.words", ""
            where.append("w.public = 1")
        else:
            table, columns = "heronlog_game_words w", "w.created, w.game, g.words"
            join = " JOIN heronlog_games g ON g.game = w.game"
            where.append("w.word = ?")
            parameters.append(source)
        if start is not None:
            where.append("(w.created, w.game) " + ("< (?, ?)" if direction == "after" else "> (?, ?)"))
            parameters += [start.created, start.game]
        order = "DESC" if direction == "after" else "ASC"
        rows = self._all(
            f"SELECT {columns} FROM {table}{join} WHERE {' AND '.join(where)} "
            f"ORDER BY w.created {order}, w.game {order} LIMIT ?",
            [*parameters, n],
        )
        return [(Key(int(row[0]), row[1]), row[2]) for row in rows]

    def rows(self, keys: Sequence[Key], checked: Container[str] = ()) -> list[Row]:
        if not keys:
            return []
        games = [key.game for key in keys]
        marks = ",".join("?" * len(games))
        # Whether each game's first record (version 1) is there comes with its last version: the list says a
        # game whose first record is gone is damaged without reading the game (replay.index.GameIndex). EXISTS
        # reads the primary key's entry, not the record's state (tens of kilobytes, on pages of its own).
        found = {
            row[0]: row
            for row in self._all(
                "SELECT g.game, g.entry, s.summary, "
                f"(SELECT MAX(e.originator_version) FROM {self._events} e WHERE e.originator_id = g.game), "
                f"EXISTS (SELECT 1 FROM {self._events} f WHERE f.originator_id = g.game "
                "AND f.originator_version = 1) "
                "FROM heronlog_games g LEFT JOIN heronlog_game_summaries s ON s.game = g.game "
                f"WHERE g.game IN ({marks})",
                games,
            )
        }
        firsts = self._firsts([game for game in games if found[game][4] and game not in checked])
        return [
            Row(
                Entry.from_dict(json.loads(found[game][1])),
                Summary.from_dict(json.loads(found[game][2])) if found[game][2] else None,
                int(found[game][3]) if found[game][3] else None,
                bool(found[game][4]),
                firsts.get(game),
            )
            for game in games
        ]

    def _firsts(self, games: Sequence[str]) -> dict[str, StoredEvent]:
        """These games' first records (their states hold a game's whole setup: only those asked for)."""
        if not games:
            return {}
        rows = self._all(
            f"SELECT originator_id, topic, state FROM {self._events} "
            f"WHERE originator_id IN ({','.join('?' * len(games))}) AND originator_version = 1",
            games,
        )
        return {
            row[0]: StoredEvent(
                originator_id=UUID(row[0]), originator_version=1, topic=row[1], state=bytes(row[2])
            )
            for row in rows
        }
