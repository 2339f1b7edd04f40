"""``heronlog verify``: read every stored record of every store, fold every stream, and check every snapshot against
the events it summarises (docs/cli.md#verify). Each game is found in its store's index of streams
(:mod:`replay.census`) and read on its own, part by part: a missing or damaged record hides nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from eventsourcing.persistence import DataError

import domain
from replay import census, snapshots
from replay.access import project_access
from replay.annotations import project_annotations
from replay.application import GameLog
from replay.errors import GameCorrupt
from replay.events import GAME_EVENTS, GameCreated, GameIndexed
from replay.game import Game, GameSnapshot, project_game, restore
from replay.index import index_id
from replay.integrity import is_sealed
from replay.stores import GameStore, Projector

PAGE = 1000

_FOLDS: dict[str, Projector] = {
    census.GAME: project_game,
    census.ANNOTATIONS: project_annotations,
    census.GRANTS: project_access,
}


@dataclass(frozen=True)
class Problem:
    """One thing found wrong: in which store, which game (or the list of games), which part of it, at which
    version (None: the stream as a whole), and what."""

    store: str
    stream: str
    version: int | None
    what: str
    part: str = census.GAME

    def __str__(self) -> str:
        part = "" if self.part in (census.GAME, "list") else f" {self.part}"
        where = "" if self.version is None else f" version {self.version}"
        return f"{self.store}: {self.stream}{part}{where}: {self.what}"


@dataclass
class Report:
    """What ``verify`` read and found."""

    records: int = 0
    unsealed: int = 0
    """Records written before the integrity check: read, but not proved intact."""
    streams: int = 0
    games: int = 0
    snapshots: int = 0
    unplayable: int = 0
    """Games recorded under rules this build does not replay (their engine states are not checked)."""
    dropped: int = 0
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def verify(
    log: GameLog, *, drop_bad_snapshots: bool = False, progress: Callable[[Problem], None] | None = None
) -> Report:
    """Check every store of ``log`` (see the module docstring); ``progress`` hears of each problem as found."""
    report = Report()
    for store in log.stores:
        _Checker(store, report, progress, drop_bad_snapshots).run()
    return report


@dataclass
class _Checker:
    """The checks of one store."""

    store: GameStore
    report: Report
    progress: Callable[[Problem], None] | None
    drop_bad_snapshots: bool

    def found(self, stream: object, version: int | None, what: str, part: str = census.GAME) -> None:
        problem = Problem(self.store.name, str(stream), version, what, part)
        self.report.problems.append(problem)
        if self.progress is not None:
            self.progress(problem)

    def run(self) -> None:
        list_id = index_id(self.store)
        entries, damaged = self.list_entries(list_id)
        listed = {UUID(entry.game_id) for entry in entries}
        found = census.census(self.store, listed)
        games: set[UUID] = set()
        for game_id in found.game_ids:
            if self.game(game_id, found.streams_of(game_id), listed=game_id in listed):
                games.add(game_id)
        unlisted = sorted(str(game_id) for game_id in games - listed)
        if damaged and len(unlisted) <= len(damaged):
            # Most likely their entries are the damaged ones: said once, with each damaged entry.
            names = f"; games no readable entry names: {', '.join(unlisted)}" if unlisted else ""
            for version, what in damaged:
                self.found(list_id, version, f"a damaged entry of the list of games: {what}{names}", "list")
            return
        for version, what in damaged:
            self.found(list_id, version, f"a damaged entry of the list of games: {what}", "list")
        for name in unlisted:
            self.found(name, None, "the game is missing from the list of games")

    def records(
        self, stream: UUID, part: str, owner: UUID, missing: set[int] | None = None, *, name: bool = True
    ) -> list[Any]:
        """Every stored record of a stream that can be read, each counted; a record indexed but missing is
        named (unless ``name`` is false; its version added to ``missing``), and the reading goes on after it."""
        records: list[Any] = []
        after: int | None = None
        while True:
            try:
                page = self.store.recorder.select_events(stream, gt=after, limit=PAGE)
            except DataError as error:  # the index names a record the log does not hold
                version = getattr(error, "version", None)
                if name or version is None:
                    self.found(owner, version, f"damaged record: {error}", part)
                if version is None:
                    return records
                if missing is not None:
                    missing.add(version)
                page = self.store.recorder.select_events(stream, gt=after, lte=version - 1)
                records += page
                after = version
                continue
            records += page
            if len(page) < PAGE:
                break
            after = page[-1].originator_version
        self.report.records += len(records)
        self.report.unsealed += sum(not is_sealed(record) for record in records)
        return records

    def events(self, stream: UUID, part: str, owner: UUID) -> list[Any] | None:
        """A stream's events, every record checked and each damaged one named; None when one is damaged."""
        missing: set[int] = set()
        problems = len(self.report.problems)
        records = self.records(stream, part, owner, missing)
        events = []
        sealed = False
        expected = 1
        for record in records:
            version = record.originator_version
            if version != expected and not set(range(expected, version)) <= missing:
                gap = (
                    f"the stored events start at version {version}"
                    if expected == 1
                    else f"the stored versions go from {expected - 1} to {version}"
                )
                self.found(owner, expected, f"is missing: {gap}", part)
            expected = version + 1
            sealed_here = is_sealed(record)
            if sealed and not sealed_here:
                self.found(
                    owner,
                    version,
                    "damaged record: it carries no checksum while the records before it do (removed?)",
                    part,
                )
                continue
            sealed = sealed or sealed_here
            try:
                events.append(self.store.mapper.to_domain_event(record))
            except Exception as error:  # whatever is wrong with it, it is reported, and the reading goes on
                self.found(owner, version, f"damaged record: {error}", part)
        return events if len(self.report.problems) == problems else None

    def list_entries(self, list_id: UUID) -> tuple[list[GameIndexed], list[tuple[int, str]]]:
        """The readable entries of the list of games, and each damaged one's version and what is wrong."""
        entries: list[GameIndexed] = []
        damaged: list[tuple[int, str]] = []
        missing: set[int] = set()
        expected = 1
        for record in self.records(list_id, "list", list_id, missing, name=False):
            # An entry missing (deleted, lost) is said as a damaged one is: the list's, once.
            missing |= set(range(expected, record.originator_version))
            expected = record.originator_version + 1
            try:
                entry = self.store.mapper.to_domain_event(record)
            except Exception as error:
                damaged.append((record.originator_version, str(error)))
                continue
            if isinstance(entry, GameIndexed):
                entries.append(entry)
        self.report.streams += 1
        damaged += [(version, "it is missing") for version in missing]
        return entries, sorted(damaged)

    def game(self, game_id: UUID, streams: dict[str, UUID], *, listed: bool) -> bool:
        """Check every part of one game; whether it is a game (not a stream of another kind whose game the
        store does not hold)."""
        own = streams.get(census.GAME)
        events = self.events(own, census.GAME, game_id) if own is not None else []
        if events is not None and not events:
            if own is not None or listed or len(streams) > 0:
                holder = "the list of games names it" if listed else "its annotations or grants are stored"
                self.found(game_id, None, f"the store holds none of its events, while {holder}")
            return True
        if events and not isinstance(events[0], GAME_EVENTS):
            self.found(
                game_id,
                events[0].originator_version,
                f"a stream of no game: it starts with {type(events[0]).__name__}, and no game of this store has it",
            )
            return False
        self.report.games += 1
        for part, stream in streams.items():
            self.report.streams += 1
            if part == census.GAME:
                if events is not None:
                    self.fold_game(game_id, events)
                continue
            if (parts := self.events(stream, part, game_id)) is not None:
                self.fold(stream, part, game_id, parts)
        return True

    def fold(self, stream: UUID, part: str, game_id: UUID, events: Sequence[Any]) -> None:
        try:
            self.store.fold_events(stream, _FOLDS[part], None, events)
        except GameCorrupt as error:
            self.found(game_id, error.details.get("version"), str(error.details.get("detail")), part)

    def fold_game(self, game_id: UUID, events: list[Any]) -> None:
        """Fold the game from its first event, and compare each snapshot with the fold at its version."""
        store, report = self.store, self.report
        if not isinstance(events[0], GameCreated):
            return  # named already: its first event is missing
        stored = list(store.snapshots.recorder.select_events(game_id)) if store.snapshots is not None else []
        taken: dict[int, GameSnapshot] = {}
        for record in stored:
            report.snapshots += 1
            report.unsealed += not is_sealed(record)
            try:
                snapshot = store.mapper.to_domain_event(record)
            except Exception as error:
                self.bad_snapshot(game_id, record.originator_version, f"damaged: {error}")
                continue
            if isinstance(snapshot, GameSnapshot):
                taken[record.originator_version] = snapshot
        game: Game | None = None
        try:
            for event in events:
                game = store.fold_events(game_id, project_game, game, [event])
                assert game is not None
                version = event.originator_version
                if version in taken and (why := _differs(taken[version], events[:version], game)):
                    self.bad_snapshot(game_id, version, why)
        except GameCorrupt as error:
            self.found(game_id, error.details.get("version"), str(error.details.get("detail")))
            return
        if game is not None and not game.playable:
            report.unplayable += 1
        for version in sorted(v for v in taken if v > len(events)):
            self.bad_snapshot(game_id, version, "is beyond the game's last event")

    def bad_snapshot(self, game_id: UUID, version: int, why: str) -> None:
        dropped = ""
        if self.drop_bad_snapshots:
            snapshots.drop(self.store, game_id, version)
            self.report.dropped += 1
            dropped = " (dropped)"
        self.found(game_id, version, f"bad snapshot: {why}{dropped}")


def _differs(snapshot: GameSnapshot, events: list[Any], game: Game) -> str:
    """Why ``snapshot`` is not the game ``game`` (its fold at the snapshot's version), or ''."""
    try:
        restored = restore(snapshot, events)
    except Exception as error:
        return f"does not restore: {error!r}"
    if restored is None:
        return "does not summarise the events stored up to its version"
    if restored.records != game.records or restored.audit != game.audit or restored.keys != game.keys:
        return "restores another history than its events'"
    if not game.playable:
        return ""
    if domain.state_to_dict(restored.state) != domain.state_to_dict(game.state):
        return "holds another state than the fold of its events (its contents are wrong)"
    return ""
