"""A club's whole archive as a folder of exports: backing up every game of a store, and restoring a backup into a
store (docs/operations/backups.md).

A backup is plain exports with an index of checksums, every game found past any damage (:mod:`replay.census`) and
the damaged ones named; a restore imports each game with every check, keeping its id, and can be run again.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from replay import census, exports
from replay.application import GameLog
from replay.errors import GameCorrupt, GameNotFound, InvalidLog, ReplayError
from replay.events import now
from replay.health import package_version

FORMAT = "heronlog.backup"
FORMAT_VERSION = 1
INDEX_FILE = "index.json"


class BackupRefused(ReplayError):
    """A backup would write into a folder that holds something other than an earlier backup."""

    code = "backup_refused"


class NotABackup(ReplayError):
    """A restore was pointed at a folder without a readable backup index."""

    code = "not_a_backup"


# --- backing up -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BackedUpGame:
    """One game of a backup, as its index lists it."""

    game_id: str
    title: str
    players: tuple[str, ...]
    private: bool
    status: str
    parent_id: str | None
    created_at: str
    version: int
    """The game's version when it was backed up: the number of events in its stream."""
    annotations: int
    """How many annotation events (added, edited, deleted) the file holds."""
    file: str
    bytes: int
    sha256: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "title": self.title,
            "players": list(self.players),
            "private": self.private,
            "status": self.status,
            "parent_id": self.parent_id,
            "created_at": self.created_at,
            "version": self.version,
            "annotations": self.annotations,
            "file": self.file,
            "bytes": self.bytes,
            "sha256": self.sha256,
        }


@dataclass(frozen=True)
class NotBackedUp:
    """A game the backup could not read: its stored events are damaged (``heronlog verify`` says more)."""

    game_id: str
    message: str

    def to_dict(self) -> dict[str, Any]:
        return {"game_id": self.game_id, "message": self.message}


@dataclass(frozen=True)
class BackupReport:
    """What a backup wrote, and the games it could not read (the others are backed up all the same)."""

    directory: Path
    games: tuple[BackedUpGame, ...]
    bytes: int
    """The size of every file written, the index included."""
    seconds: float
    failed: tuple[NotBackedUp, ...] = ()

    @property
    def ok(self) -> bool:
        """Whether every game of the store was backed up."""
        return not self.failed

    @property
    def private(self) -> int:
        return sum(game.private for game in self.games)

    @property
    def forks(self) -> int:
        return sum(game.parent_id is not None for game in self.games)


def backup(log: GameLog, directory: Path, *, force: bool = False, store: str | None = None) -> BackupReport:
    """Write every game of ``log`` into ``directory`` (created if missing), and the index last.

    Refuses (:class:`BackupRefused`) a folder that is not empty unless it holds an earlier backup or
    ``force`` is given. Over an earlier backup, the files of games it listed that the store no longer has are
    removed, so that the folder is the new backup and nothing else. ``store`` (the store's kind) is noted in
    the index."""
    started = time.perf_counter()
    directory.mkdir(parents=True, exist_ok=True)
    earlier = _earlier_files(directory, force=force)
    games: list[BackedUpGame] = []
    failed: list[NotBackedUp] = []
    written = 0
    for game_id in census.game_ids(log.stores):
        try:
            game, data = _backed_up(log, game_id)
        except GameCorrupt as error:
            # One damaged game must not cost the club the backup of the others: it is reported, and the
            # backup goes on (the command then exits non-zero).
            failed.append(NotBackedUp(str(game_id), error.message))
            continue
        except GameNotFound:
            failed.append(NotBackedUp(str(game_id), _NO_FIRST_EVENT))
            continue
        _write_atomically(directory / game.file, data)
        games.append(game)
        written += len(data)
    # Oldest first: the order a reader expects, and mostly parents before their forks already.
    games.sort(key=lambda game: (game.created_at, game.game_id))
    index = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "heronlog_version": package_version(),
        "created_at": now().isoformat(),
        "store": store,
        "export_format": exports.FORMAT,
        "export_format_version": exports.FORMAT_VERSION,
        "games": [game.to_dict() for game in games],
        "failed": [game.to_dict() for game in failed],
    }
    data = (json.dumps(index, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    # The index goes last: a backup cut short leaves the earlier index (or none), never one that lists a
    # file not yet written. An earlier index left beside files rewritten since catches them by checksum.
    _write_atomically(directory / INDEX_FILE, data)
    written += len(data)
    kept = {game.file for game in games}
    for name in earlier - kept:
        (directory / name).unlink(missing_ok=True)
    _sync_directory(directory)
    return BackupReport(directory, tuple(games), written, time.perf_counter() - started, tuple(failed))


_NO_FIRST_EVENT = (
    "the store holds events of this stream, or the list of games names it, but no game's first event: "
    "heronlog verify says what is there"
)


def _earlier_files(directory: Path, *, force: bool) -> set[str]:
    """The game files of the earlier backup in ``directory`` (empty if it has none); raises
    :class:`BackupRefused` if the folder holds anything else and ``force`` is not given."""
    if not any(directory.iterdir()):
        return set()
    try:
        index = _read_index(directory)
    except NotABackup:
        if force:
            return set()
        raise BackupRefused(
            f"{directory} is not empty and holds no heronlog backup: choose an empty folder, or --force to "
            "write the backup among what is there",
            directory=str(directory),
        ) from None
    return {
        entry["file"]
        for entry in index["games"]
        if isinstance(entry, Mapping) and isinstance(entry.get("file"), str) and _plain_name(entry["file"])
    }


def _backed_up(log: GameLog, game_id: UUID) -> tuple[BackedUpGame, bytes]:
    """One game's file and its index entry, both from one export: the index never describes another version
    than the file holds, even while people play on during the backup."""
    document = log.export(game_id)
    version = 1 + len(document["events"])
    game = log.get_game(game_id)
    if game.version != version:  # moved on since the export was read: fold it as exported
        game = log.get_game(game_id, version)
    data = exports.json_text(document).encode("utf-8")
    parent = document["parent"]
    entry = BackedUpGame(
        game_id=str(game_id),
        title=str(document["setup"].get("title", "")),
        players=tuple(str(seat["name"]) for seat in document["setup"]["players"]),
        private=bool(document["setup"].get("private")),
        status=game.status,
        parent_id=str(parent["game_id"]) if parent else None,
        created_at=str(document["created_at"]),
        version=version,
        annotations=len(document["annotations"]),
        file=f"{game_id}.json",
        bytes=len(data),
        sha256=hashlib.sha256(data).hexdigest(),
    )
    return entry, data


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``path`` whole or not at all: a temporary file beside it, flushed to disk, then renamed over it
    (a rename within one folder is atomic), so that a crash never leaves half a file under the real name."""
    handle = tempfile.NamedTemporaryFile(  # noqa: SIM115  (closed before the rename, removed on failure)
        dir=path.parent, prefix=f".{path.name}.", suffix=".tmp", delete=False
    )
    try:
        with handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(handle.name, path)
    except BaseException:
        Path(handle.name).unlink(missing_ok=True)
        raise


def _sync_directory(directory: Path) -> None:
    """Flush the folder's entries (the renames) to disk, where the system allows opening a folder."""
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


# --- restoring --------------------------------------------------------------------------------------------


class Outcome(StrEnum):
    """What a restore did with one game of the backup."""

    RESTORED = "restored"
    """Imported with the rules' checks, under its own id, with a fresh owner token."""
    ALREADY_THERE = "already there"
    """The store has this game already, with the same export: nothing was written."""
    CONFLICT = "conflict"
    """The store has a game with this id and a different export: it was left untouched."""
    FAILED = "failed"
    """The file is missing, damaged (its SHA-256 is not the index's), or does not refold with the rules."""


@dataclass(frozen=True)
class Restored:
    """One game's outcome. ``position`` is its entry in the index (``games[3]``); ``problems`` lists what the
    import found, each with its position in the file (``events[12]``); ``token`` is the fresh owner token of
    a game restored (the only time it is known)."""

    position: str
    file: str
    game_id: str
    title: str
    outcome: Outcome
    message: str = ""
    problems: tuple[Mapping[str, Any], ...] = ()
    token: str | None = field(default=None, repr=False)


@dataclass(frozen=True)
class RestoreReport:
    """Every game's outcome, in the order they were restored."""

    directory: Path
    games: tuple[Restored, ...]
    seconds: float

    def count(self, outcome: Outcome) -> int:
        return sum(game.outcome is outcome for game in self.games)

    @property
    def ok(self) -> bool:
        """Whether every game was restored or was already there."""
        return all(game.outcome in (Outcome.RESTORED, Outcome.ALREADY_THERE) for game in self.games)


@dataclass(frozen=True)
class _Entry:
    position: str
    game_id: str
    file: str
    sha256: str
    title: str
    parent_id: str | None


def restore(
    log: GameLog, directory: Path, *, progress: Callable[[Restored], None] | None = None
) -> RestoreReport:
    """Import every game of the backup in ``directory`` into ``log`` (see the module docstring).

    ``progress`` is called with each game's outcome as soon as it is known: a restored game's owner token
    exists nowhere else, so the caller should hand it on at once rather than after the last game (a restore
    cut short would otherwise lose the tokens of the games it had written)."""
    started = time.perf_counter()
    index = _read_index(directory)
    outcomes: list[Restored] = []
    entries, malformed = _entries(index["games"])
    for outcome in [*malformed, *(_restore_one(log, directory, entry) for entry in _ordered(entries))]:
        outcomes.append(outcome)
        if progress is not None:
            progress(outcome)
    return RestoreReport(directory, tuple(outcomes), time.perf_counter() - started)


def _read_index(directory: Path) -> dict[str, Any]:
    path = directory / INDEX_FILE
    try:
        index = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise NotABackup(f"{directory} holds no {INDEX_FILE}: not a heronlog backup") from None
    except (OSError, ValueError, RecursionError) as error:
        raise NotABackup(f"cannot read {path}: {error}") from None
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise NotABackup(f"{path} is not a {FORMAT} index")
    if index.get("format_version") != FORMAT_VERSION:
        raise NotABackup(
            f"{path} is a backup of format version {index.get('format_version')!r}; this heronlog reads "
            f"version {FORMAT_VERSION}"
        )
    if not isinstance(index.get("games"), list):
        raise NotABackup(f"{path} has no list of games")
    return index


def _plain_name(name: str) -> bool:
    """Whether ``name`` names a file inside the backup's folder: an index edited to point at ``../x`` or an
    absolute path must not make a restore read, or a backup delete, anything outside it."""
    return bool(name) and name not in (".", "..") and Path(name).name == name and "/" not in name


def _entries(listed: Sequence[Any]) -> tuple[list[_Entry], list[Restored]]:
    """The index's entries that can be restored, and the outcome of those that cannot even be read."""
    entries: list[_Entry] = []
    malformed: list[Restored] = []
    for number, item in enumerate(listed):
        position = f"games[{number}]"
        game = item if isinstance(item, Mapping) else {}
        game_id, name, digest = game.get("game_id"), game.get("file"), game.get("sha256")
        problem = None
        try:
            UUID(str(game_id))
        except ValueError:
            problem = f"game_id {game_id!r} is not a game id"
        if not isinstance(name, str) or not _plain_name(name):
            problem = problem or f"file {name!r} is not the name of a file in the backup"
        if not isinstance(digest, str):
            problem = problem or "sha256 is missing"
        if problem is not None:
            malformed.append(
                Restored(
                    position, str(name or ""), str(game_id or ""), "", Outcome.FAILED, f"index: {problem}"
                )
            )
            continue
        parent = game.get("parent_id")
        entries.append(
            _Entry(
                position,
                str(UUID(str(game_id))),
                str(name),
                str(digest),
                str(game.get("title") or ""),
                str(parent) if parent else None,
            )
        )
    return entries, malformed


def _ordered(entries: Iterable[_Entry]) -> list[_Entry]:
    """The entries in the index's order, except that a fork comes after its parent when the backup holds
    the parent (an interrupted restore then never holds a branch without the game it branched from)."""
    listed = list(entries)
    first: dict[str, int] = {}
    for number, entry in enumerate(listed):
        first.setdefault(entry.game_id, number)
    placed: set[int] = set()
    ordered: list[_Entry] = []
    for number in range(len(listed)):
        chain: list[int] = []
        current: int | None = number
        # Walk up to the first ancestor already placed (or outside the backup), then place downwards. The
        # chain stops at a number it has seen, so a loop of parents in a doctored index ends too.
        while current is not None and current not in placed and current not in chain:
            chain.append(current)
            parent = listed[current].parent_id
            current = first.get(parent) if parent is not None else None
        for link in reversed(chain):
            placed.add(link)
            ordered.append(listed[link])
    return ordered


def as_restored(document: Mapping[str, Any]) -> dict[str, Any]:
    """An export as restoring it keeps it: what does not travel left out. A comment names the grant whose token
    wrote it, and grants never travel (a restored game has a fresh owner): the import drops it
    (:func:`replay.exports.refold`), so a game restored from a file is that file without it."""
    notes = document.get("annotations")
    if not isinstance(notes, list):
        return dict(document)
    kept = []
    for entry in notes:
        data = entry.get("data") if isinstance(entry, Mapping) else None
        if entry.get("type") == "AnnotationAdded" and isinstance(data, Mapping) and data.get("author_grant"):
            entry = {**entry, "data": {**data, "author_grant": None}}  # noqa: PLW2901  (a copy, as restored)
        kept.append(entry)
    return {**document, "annotations": kept}


def _restore_one(log: GameLog, directory: Path, entry: _Entry) -> Restored:
    def outcome(kind: Outcome, message: str = "", **more: Any) -> Restored:
        return Restored(entry.position, entry.file, entry.game_id, entry.title, kind, message, **more)

    try:
        data = (directory / entry.file).read_bytes()
    except OSError as error:
        return outcome(Outcome.FAILED, f"cannot read {entry.file}: {error.strerror or error}")
    if hashlib.sha256(data).hexdigest() != entry.sha256:
        return outcome(Outcome.FAILED, f"{entry.file} does not match its sha256 in the index: changed since")
    try:
        document = json.loads(data)
    except (
        ValueError,
        RecursionError,
    ) as error:  # nested past the interpreter's limit: a report, no traceback
        return outcome(Outcome.FAILED, f"{entry.file} is not JSON heronlog reads: {error}")
    if not isinstance(document, Mapping) or document.get("game_id") != entry.game_id:
        return outcome(Outcome.FAILED, f"{entry.file} is not the export of game {entry.game_id}")
    game_id = UUID(entry.game_id)
    try:
        present = log.export(game_id)
    except GameNotFound:
        present = None
    if present is not None:
        return _compared(present, document, outcome)
    try:
        issued = log.import_log(document, game_id=game_id)
    except InvalidLog as error:
        return outcome(Outcome.FAILED, error.message, problems=tuple(error.problems))
    except ReplayError as error:
        return outcome(Outcome.FAILED, error.message)
    except IntegrityError:
        # Written by someone else between the look and the import (or an id the store uses for another
        # kind of stream): what is there is theirs.
        return outcome(Outcome.CONFLICT, "the store got a game with this id while restoring: left as it is")
    return outcome(Outcome.RESTORED, token=issued.token)


def _compared(
    present: Mapping[str, Any], document: Mapping[str, Any], outcome: Callable[..., Restored]
) -> Restored:
    """Already there when the store's export of the game is the backup's file as a restore keeps it (both as
    JSON data: :func:`as_restored`), else a conflict saying where they part."""
    here = as_restored(json.loads(exports.json_text(present)))
    document = as_restored(document)
    if here == document:
        return outcome(Outcome.ALREADY_THERE)
    ours, theirs = here.get("events", []), document.get("events", [])
    for number, (a, b) in enumerate(zip(ours, theirs, strict=False)):
        if a != b:
            where = f"they differ from events[{number}]"
            break
    else:
        if len(ours) > len(theirs):
            where = (
                f"the store's copy has {len(ours) - len(theirs)} more event(s) (played on since the backup?)"
            )
        elif len(ours) < len(theirs):
            where = f"the backup has {len(theirs) - len(ours)} more event(s)"
        else:
            differing = [
                key for key in sorted(set(here) | set(document)) if here.get(key) != document.get(key)
            ]
            where = f"they differ in {', '.join(differing)}"
    return outcome(Outcome.CONFLICT, f"the store has this game with a different log: {where}; left untouched")
