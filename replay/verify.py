"""``heronlog verify``: read every stored record of every store, fold every stream, and check every snapshot against
the events it summarises (docs/cli.md#verify).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import domain
from replay import snapshots
from replay.access import AccessGranted, project_access
from replay.annotations import project_annotations
from replay.application import GameLog
from replay.errors import GameCorrupt
from replay.events import AnnotationAdded, GameCreated, GameIndexed
from replay.game import Game, GameSnapshot, project_game, restore
from replay.index import index_id
from replay.integrity import is_sealed
from replay.stores import GameStore

PAGE = 500


@dataclass(frozen=True)
class Problem:
    """One thing found wrong: in which store, which stream (a game's id where it is a game's), at which
    version (None: the stream as a whole), and what."""

    store: str
    stream: str
    version: int | None
    what: str

    def __str__(self) -> str:
        where = "" if self.version is None else f" version {self.version}"
        return f"{self.store}: {self.stream}{where}: {self.what}"


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


def _notifications(store: GameStore) -> Iterator[Any]:
    start = 1
    while True:
        page = store.recorder.select_notifications(start, PAGE)
        yield from page
        if len(page) < PAGE:
            return
        start = page[-1].id + 1


@dataclass
class _Checker:
    """The checks of one store."""

    store: GameStore
    report: Report
    progress: Callable[[Problem], None] | None
    drop_bad_snapshots: bool

    def found(self, stream: object, version: int | None, what: str) -> None:
        problem = Problem(self.store.name, str(stream), version, what)
        self.report.problems.append(problem)
        if self.progress is not None:
            self.progress(problem)

    def run(self) -> None:
        store, report = self.store, self.report
        kinds: dict[UUID, type] = {}  # each stream's first event's type: what kind of stream it is
        damaged: set[UUID] = set()
        for notification in _notifications(store):
            report.records += 1
            stream = notification.originator_id
            report.unsealed += not is_sealed(notification)
            try:
                event = store.mapper.to_domain_event(notification)
            except Exception as error:  # whatever is wrong with it, it is reported, and the scan goes on
                damaged.add(stream)
                self.found(stream, notification.originator_version, f"damaged record: {error}")
                continue
            kinds.setdefault(stream, type(event))
        listed: set[str] = set()
        for stream, kind in kinds.items():
            if stream in damaged:
                continue
            report.streams += 1
            try:
                if kind is GameCreated:
                    report.games += 1
                    self.game(stream)
                elif kind is GameIndexed:
                    listed |= {e.game_id for e in store.stream_events(stream) if isinstance(e, GameIndexed)}
                elif kind is AnnotationAdded:
                    store.fold_events(stream, project_annotations, None, store.stream_events(stream))
                elif kind is AccessGranted:
                    store.fold_events(stream, project_access, None, store.stream_events(stream))
            except GameCorrupt as error:
                self.found(stream, error.details.get("version"), str(error.details.get("detail")))
        games = {str(stream) for stream, kind in kinds.items() if kind is GameCreated}
        for game_id in sorted(listed - games):
            self.found(
                index_id(store),
                None,
                f"the list of games names game {game_id}, which the store does not hold",
            )
        for game_id in sorted(games - listed - {str(stream) for stream in damaged}):
            self.found(game_id, None, "the game is missing from the list of games")

    def game(self, game_id: UUID) -> None:
        """Fold the game from its first event, and compare each snapshot with the fold at its version."""
        store, report = self.store, self.report
        events = store.stream_events(game_id)
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
        for event in events:
            game = store.fold_events(game_id, project_game, game, [event])
            assert game is not None
            version = event.originator_version
            if version in taken and (why := _differs(taken[version], events[:version], game)):
                self.bad_snapshot(game_id, version, why)
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
