"""``GameLog``: the event-sourced application that turns the rules engine into a game log (DESIGN §3).

A thin service (STYLE habit 9): every method gets a game, asks :mod:`replay.decisions` what happens, and saves
the events. The store is whatever the environment names (``PERSISTENCE_MODULE``: the library's in-memory or
SQLite modules, or ``replay.store`` for Redis); the same code runs on all three.

Concurrency: every write names the version it expects. A stale one raises :class:`StaleVersion`; when two
writers race on the same version, the store's integrity check lets exactly one win and the other gets
``StaleVersion`` too. An idempotency key makes a retried ``play`` return the first result without writing.
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError

import domain
from replay import annotations as notes
from replay import decisions, exports, history, rules
from replay.annotations import Annotation, Annotations, project_annotations
from replay.errors import GameNotFound, KeyReused, StaleVersion, UnknownVersion
from replay.events import DomainEvent, GameCreated, GameIndexed, Move
from replay.game import (
    MAX_VERSION,
    Game,
    GameSnapshot,
    NotAGameEvent,
    after_decided,
    created_game,
    project_game,
)
from replay.watch import ChangeWatch, can_watch

if TYPE_CHECKING:
    from replay.store.recorders import Along

SNAPSHOT_EVERY = 50
"""Take a snapshot at least every this many events (and at every round's end): reading any version then
folds at most this many events after the nearest snapshot."""


def snapshot_phase(game_id: UUID) -> int:
    """Where a game's snapshots fall in each ``SNAPSHOT_EVERY`` events: at versions ``phase``, ``phase + 50``...
    (as well as at round ends). Drawn from the game's id, so that games started together (a club's tables at
    the start of an evening, a load test's clients) do not all take their snapshots at the same moment: a
    snapshot is a few milliseconds of a worker's time, and fifty at once stalled every answer of that worker
    for a tenth of a second."""
    return game_id.int % SNAPSHOT_EVERY


def snapshot_crossed(game_id: UUID, before: int, after: int) -> bool:
    """Whether going from version ``before`` to ``after`` passes one of the game's snapshot versions."""
    phase = snapshot_phase(game_id)
    return (before - phase) // SNAPSHOT_EVERY != (after - phase) // SNAPSHOT_EVERY


@dataclass(frozen=True)
class Played:
    """The answer to a write: the versions it created (or found, for a repeated idempotency key) and the game
    as it now stands."""

    game: Game
    versions: tuple[int, ...]
    repeated: bool = False


def _versions(events: Sequence[DomainEvent]) -> tuple[int, ...]:
    return tuple(event.originator_version for event in events)


def _repeated(game: Game, key: str | None, moves: Sequence[Move]) -> Played | None:
    """The answer to a retry: the moves already recorded under this ``Idempotency-Key``, if any. The key must
    come back with the same moves: a key reused for other moves (once the API's answer cache has forgotten
    it) would otherwise be answered as recorded while nothing was."""
    versions = game.keys.get(key) if key else None
    if not versions:
        return None
    recorded = [game.records[version].move for version in versions]
    if not exports.same_json(recorded, list(moves)):
        raise KeyReused(
            "this Idempotency-Key was used for other moves: use a new key for a new move",
            versions=list(versions),
        )
    return Played(game, versions, repeated=True)


@dataclass(frozen=True)
class PlannedRead:
    """A read prepared as one command to send in another round trip to the same Redis server (see
    ``GameLog.plan_game_with``): ``server`` says which server, ``finish`` folds the command's reply."""

    server: tuple[Any, ...] | None
    command: tuple[Any, ...]
    finish: Callable[[Any], Any]


@dataclass(frozen=True)
class GameSummary:
    """A game as the list of games shows it."""

    game_id: str
    title: str
    players: tuple[str, ...]
    mode: str
    private: bool
    parent: Mapping[str, Any] | None
    created_on: str
    version: int
    status: str
    round: int
    winner: str | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "title": self.title,
            "players": list(self.players),
            "mode": self.mode,
            "private": self.private,
            "parent": dict(self.parent) if self.parent else None,
            "created_on": self.created_on,
            "version": self.version,
            "status": self.status,
            "round": self.round,
            "winner": self.winner,
        }


logger = logging.getLogger(__name__)


class SnapshotWriter:
    """Takes and stores games' snapshots from a thread of its own, so that the write whose game is due one
    answers without waiting for it (``SNAPSHOTS_IN_BACKGROUND``; ``heronlog serve`` turns it on).

    A snapshot is taken and stored under load at every round's end: about 2.5 ms of the interpreter (the game's
    fold as JSON, about 50 KB) and one more write to the store, fsynced, inside the request. The snapshots
    written are the same, a few milliseconds later; until one is stored a cold read folds from the one before
    it, as it does when a snapshot fails. When the queue is full the caller writes the snapshot itself (the
    writer never falls behind by more than ``capacity`` games), and games still queued when the process exits
    are written then (``atexit``, up to ``EXIT_SECONDS``). The thread is started on first use in each process,
    so a gunicorn worker gets its own after the fork."""

    EXIT_SECONDS = 10.0
    DELAY_SECONDS = 0.05
    """How long a snapshot waits in the queue: the write that queued it answers first (taking the snapshot at
    once took the interpreter from that very request, whose answer was still to be built)."""

    def __init__(
        self, write: Callable[[Game], None], capacity: int = 64, delay: float = DELAY_SECONDS
    ) -> None:
        self._write = write
        self._capacity = capacity
        self._delay = delay
        self._lock = threading.Lock()
        self._queue: queue.Queue[tuple[float, Game] | None] = queue.Queue(capacity)
        self._thread: threading.Thread | None = None
        self._pid = 0
        self._exit_hook = False
        self._closing = threading.Event()

    def submit(self, game: Game) -> bool:
        """Queue ``game``'s snapshot; False when the queue is full (the caller then writes it itself)."""
        self._running()
        try:
            self._queue.put_nowait((time.monotonic() + self._delay, game))
        except queue.Full:
            return False
        return True

    def _running(self) -> None:
        if self._thread is not None and self._pid == os.getpid():
            return
        with self._lock:
            if self._thread is not None and self._pid == os.getpid():
                return
            if self._pid != os.getpid():
                # A forked child inherits the parent's queue but not its thread: start afresh.
                self._queue = queue.Queue(self._capacity)
            self._pid = os.getpid()
            self._thread = threading.Thread(target=self._run, name="heronlog-snapshots", daemon=True)
            self._thread.start()
            if not self._exit_hook:
                atexit.register(self._at_exit)
                self._exit_hook = True

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                due, game = item
                if (wait := due - time.monotonic()) > 0:
                    self._closing.wait(wait)  # cut short by close()
                self._write(game)
            except Exception:  # a snapshot is an optimisation: the events are stored, a cold read folds more
                assert item is not None
                game = item[1]
                logger.warning(
                    "could not store the snapshot of game %s at version %s",
                    game.id,
                    game.version,
                    exc_info=True,
                )
            finally:
                self._queue.task_done()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every queued snapshot is stored (at most ``timeout`` seconds); whether they all were."""
        if self._thread is None or self._pid != os.getpid():
            return True
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._queue.all_tasks_done:
            while self._queue.unfinished_tasks:
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    return False
                self._queue.all_tasks_done.wait(remaining)
        return True

    def _at_exit(self) -> None:
        self._closing.set()
        self.flush(self.EXIT_SECONDS)

    def close(self) -> None:
        """Store every queued snapshot and stop the thread."""
        if self._thread is None or self._pid != os.getpid():
            return
        self._closing.set()  # no more waiting before each snapshot
        self.flush()
        self._queue.put(None)
        self._thread.join()
        self._thread = None
        self._closing.clear()


class GameLog(Application[UUID]):
    """Record, replay, undo, redo, amend, fork, annotate and export games of The White Castle."""

    env: ClassVar[dict[str, str]] = {
        "IS_SNAPSHOTTING_ENABLED": "y",
        # Games are immutable values: a cached one is shared, never deep-copied (the library's default copies).
        "AGGREGATE_CACHE_MAXSIZE": "256",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
    }
    snapshot_class = GameSnapshot

    def __init__(self, env: Mapping[str, str] | None = None) -> None:
        super().__init__(env)
        self.index_id = uuid5(NAMESPACE_URL, f"heronlog:index:{self.name}")
        self._index_lock = threading.Lock()
        self._summaries: dict[str, tuple[int, GameSummary]] = {}
        background = self.env.get("SNAPSHOTS_IN_BACKGROUND", "n").lower() in ("y", "yes", "true", "1")
        self._snapshot_writer = SnapshotWriter(self._write_snapshot) if background else None
        self._watch = ChangeWatch(self.recorder) if can_watch(self.recorder) else None

    def watch_for(self, game_id: UUID) -> ChangeWatch | None:
        """What wakes a spectator of this game when it changes (:mod:`replay.watch`), or None when this store
        cannot wake anyone (SQLite, memory): a spectator then polls."""
        return self._watch

    def close(self) -> None:
        if self._snapshot_writer is not None:
            self._snapshot_writer.close()
        super().close()

    @property
    def writes_along(self) -> bool:
        """Whether this store can write a key along with a move's events (``play(along=...)``): Redis can."""
        return bool(getattr(self.recorder, "writes_along", False))

    def flush_snapshots(self, timeout: float | None = None) -> bool:
        """Wait until the snapshots taken in the background are stored (with ``SNAPSHOTS_IN_BACKGROUND``)."""
        return self._snapshot_writer is None or self._snapshot_writer.flush(timeout)

    # --- reading -------------------------------------------------------------------------------------------

    def get_game(self, game_id: UUID, version: int | None = None) -> Game:
        """The game at its current version, or as it stood right after event ``version``."""
        if version is not None and not 1 <= version <= MAX_VERSION:  # never handed to the store
            now = self.get_game(game_id)  # an unknown game is still 404 game_not_found first
            raise UnknownVersion(f"this game has versions 1 to {now.version}", version=version)
        try:
            game = self.repository.get(game_id, version=version, projector_func=project_game)
        except (AggregateNotFoundError, NotAGameEvent):  # no stream, or another kind of stream
            raise GameNotFound(f"no game {game_id}", game_id=str(game_id)) from None
        if not isinstance(game, Game):  # another aggregate's id (an annotation or index stream)
            raise GameNotFound(f"no game {game_id}", game_id=str(game_id))
        if version is not None and game.version != version:
            raise UnknownVersion(f"this game has versions 1 to {game.version}", version=version)
        if version is None:
            self._cache(game)
        return game

    def get_game_with(
        self, game_id: UUID, stream_id: UUID, projector: Callable[[Any, Iterable[Any]], Any]
    ) -> tuple[Game, Any | None]:
        """The game as it stands now, and another stream of this application (a game's access stream) as it
        stands, or None when that stream has no events. When both are cached and the store can read several
        streams at once (Redis), the events recorded since are read in one round trip instead of two: every
        write reads both."""
        held = self._held(game_id, stream_id)
        select: Callable[..., list[list[Any]]] | None = getattr(self.recorder, "select_new_events", None)
        if held is None or select is None:
            game = self.get_game(game_id)
            try:
                stream = self.repository.get(stream_id, projector_func=projector)
            except AggregateNotFoundError:
                stream = None
            return game, stream
        found = select([(game_id, held[0].version), (stream_id, held[1].version)])
        return self._caught_up(held, found, stream_id, projector)

    def plan_game_with(
        self, game_id: UUID, stream_id: UUID, projector: Callable[[Any, Iterable[Any]], Any]
    ) -> PlannedRead | None:
        """:meth:`get_game_with` prepared as one Redis command, for a caller that has a round trip to the same
        server to make anyway (the API's rate limit): send ``command`` in it, then give its reply to
        ``finish``. None when that read cannot be planned (not both cached, not standalone Redis)."""
        held = self._held(game_id, stream_id)
        plan_command = getattr(self.recorder, "new_events_command", None)
        if held is None or plan_command is None:
            return None
        after = [(game_id, held[0].version), (stream_id, held[1].version)]
        command = plan_command(after)
        if command is None:
            return None
        parse = self.recorder.parse_new_events  # type: ignore[attr-defined]  # the Redis recorder's

        def finish(reply: Any) -> tuple[Game, Any | None]:
            return self._caught_up(held, parse(after, reply), stream_id, projector)

        return PlannedRead(self.recorder.datastore.server(), command, finish)  # type: ignore[attr-defined]

    def _held(self, game_id: UUID, stream_id: UUID) -> tuple[Game, Any] | None:
        """The game and the other stream, when both are in the cache (and the cache fast-forwards)."""
        cache = self.repository.cache
        if cache is None or not self.repository.fastforward:
            return None
        try:
            game, stream = cache.get(game_id), cache.get(stream_id)
        except KeyError:
            return None
        return (game, stream) if isinstance(game, Game) else None

    def _caught_up(
        self,
        held: tuple[Game, Any],
        found: list[list[Any]],
        stream_id: UUID,
        projector: Callable[[Any, Iterable[Any]], Any],
    ) -> tuple[Game, Any]:
        """The held game and stream with the stored events found since folded in (and put back in the cache)."""
        game, stream = held
        if found[0]:
            try:
                caught_up = project_game(game, map(self.mapper.to_domain_event, found[0]))
            except NotAGameEvent:
                raise GameNotFound(f"no game {game.id}", game_id=str(game.id)) from None
            assert caught_up is not None
            game = caught_up
            self._cache(game)
        if found[1]:
            stream = projector(stream, map(self.mapper.to_domain_event, found[1]))
            self.keep(stream_id, stream)
        return game, stream

    def _cached(self, game_id: UUID) -> Game | None:
        cache = self.repository.cache
        if cache is None:
            return None
        try:
            game = cache.get(game_id)
        except KeyError:
            return None
        return game if isinstance(game, Game) else None

    def _cache(self, game: Game) -> None:
        # The library's cache fast-forwards the object it holds, which suits mutable aggregates; a Game is
        # immutable, so the newest fold must be put back, or every read would refold from the cached version.
        self.keep(game.id, game)

    def keep(self, stream_id: UUID, fold: Any) -> None:
        """Cache ``fold``, the newest fold of a stream of this application (a game, or its access stream when
        this process has just saved or caught up with it): a write reads the game and its access stream
        together, planned in the rate limit's round trip (:meth:`plan_game_with`), only when both are cached."""
        if self.repository.cache is not None:
            self.repository.cache.put(stream_id, fold)

    def get(self, game_id: UUID) -> Game:
        """The game as it stands now (``game.state`` is the rules engine's state, ``game.version`` its
        version)."""
        return self.get_game(game_id)

    def state_at(self, game_id: UUID, version: int) -> Any:
        """The rules-engine state right after event ``version`` (what a player saw then)."""
        if version < 1:
            raise UnknownVersion("versions start at 1", version=version)
        current = self._cached(game_id)
        if current is None:
            # A cold read: fold from the nearest snapshot at or before that version, and nothing more.
            return self.get_game(game_id, version).state
        current = self.get_game(game_id)
        if version > current.version:
            raise UnknownVersion(f"this game has versions 1 to {current.version}", version=version)
        line = decisions.line_at(current, version)
        # Fast path: the line at that version is a prefix of today's line, and the game holds its states.
        if line == current.line[: len(line)] and len(line) >= current.base:
            return current.state_after(len(line))
        # Otherwise fold from the nearest snapshot at or before that version.
        return self.get_game(game_id, version).state

    def state_on_line(self, game_id: UUID, version: int) -> Any:
        """The rules-engine state right after the move at ``version`` of today's line of play (the replay of
        the game as it stands now, amendments included); :class:`UnknownVersion` when ``version`` is not a move
        of the line."""
        return decisions.state_after_move(self.get_game(game_id), version)

    def before_move(self, game_id: UUID, version: int) -> tuple[Game, Any]:
        """The game now, and the rules-engine state just before the move at ``version`` of its line of play
        (what amending that move is judged against); :class:`UnknownVersion` when ``version`` is not a move of
        the line."""
        game = self.get_game(game_id)
        return game, decisions.state_before_move(game, version)

    def timeline(self, game_id: UUID, *, include_undone: bool = False) -> list[history.TimelineEntry]:
        return history.timeline(self.get_game(game_id), include_undone=include_undone)

    def locate(self, game_id: UUID, round: int, turn: int, seat: int | None = None) -> int:
        """The version of the first move of ``turn`` of ``round`` (of ``seat``, an index from 0, if given)."""
        game = self.get_game(game_id)
        for entry in history.timeline(game):
            if entry.round == round and entry.turn == turn and (seat is None or entry.seat == seat):
                return entry.version
        of = "" if seat is None else f" of {domain.seat_text(game.state, seat)}"
        raise UnknownVersion(
            f"no move{of} in round {round}, turn {turn}",
            round=round,
            turn=turn,
            seat=seat,
        )

    def events_of(self, game_id: UUID, after: int = 0) -> list[DomainEvent]:
        """The game's stored events after version ``after``, in order."""
        self.get_game(game_id)
        if after > MAX_VERSION:  # beyond any store's integers (SQLite's are 64-bit): nothing comes after it
            return []
        return list(self.events.get(game_id, gt=after or None))  # type: ignore[arg-type]

    def changes_since(self, game_id: UUID, version: int) -> list[dict[str, Any]]:
        """What happened after ``version``: each later event as JSON (the spectators' feed)."""
        return [exports.event_to_dict(event) for event in self.events_of(game_id, after=version)]

    # --- recording -----------------------------------------------------------------------------------------

    def shard_for(self, game_id: UUID) -> GameLog:
        """The application that records this game: this one (see :class:`replay.shards.ShardedLog`)."""
        return self

    def create_game(
        self,
        setup: Mapping[str, Any],
        *,
        catalog: Mapping[str, Any] | None = None,
        game_id: UUID | None = None,
    ) -> UUID:
        """Start a new game; returns its id (unguessable: a random UUID, unless ``game_id`` is given)."""
        created, state = decisions.create(setup, catalog=catalog, game_id=game_id)
        self._save_with_index([created], opening=state)
        return created.originator_id

    def play(
        self,
        game_id: UUID,
        move: Move | Sequence[Move],
        *,
        expected_version: int,
        actor: str,
        idempotency_key: str | None = None,
        known: Game | None = None,
        along: Callable[[Played], Along | None] | None = None,
    ) -> Played:
        """Record one move, or a batch (a list) applied all or nothing. ``known`` is the game as the caller
        has just read it (saves reading it again); if it is stale, the store's version check refuses the
        write as with any lost race.

        ``along`` (only where :attr:`writes_along`: the Redis store) is given the answer before it is saved
        and may return a key to write in the same atomic append as the moves (set only if they are): the API
        keeps the answer to a retried ``Idempotency-Key`` this way, without a round trip of its own."""
        moves = [move] if isinstance(move, Mapping) else list(move)
        game = known if known is not None and known.id == game_id else self.get_game(game_id)
        repeated = _repeated(game, idempotency_key, moves)
        if repeated is not None:
            return repeated
        self._expect(game, expected_version)
        decided = decisions.play(game, moves, actor=actor, idempotency_key=idempotency_key)
        after = after_decided(game, decided.events, decided.states)
        extra: dict[str, Along] = {}
        if along is not None:
            if not self.writes_along:
                raise ValueError(f"this store cannot write a key along with events: {self.recorder!r}")
            write = along(Played(after, _versions(decided.events)))
            if write is not None:
                extra["along"] = write
        try:
            return self._commit(game, decided.events, after, **extra)
        except StaleVersion:
            # Lost a race. If the winner was this same request retried, answer as it did.
            repeated = _repeated(self.get_game(game_id), idempotency_key, moves)
            if repeated is not None:
                return repeated
            raise

    def undo(
        self, game_id: UUID, *, to_version: int | None = None, expected_version: int, actor: str
    ) -> Played:
        game = self.get_game(game_id)
        self._expect(game, expected_version)
        return self._commit(game, [decisions.undo(game, actor=actor, to_version=to_version)])

    def redo(self, game_id: UUID, *, count: int = 1, expected_version: int, actor: str) -> Played:
        game = self.get_game(game_id)
        self._expect(game, expected_version)
        return self._commit(game, [decisions.redo(game, actor=actor, count=count)])

    def amend(
        self,
        game_id: UUID,
        version: int,
        move: Move,
        *,
        expected_version: int,
        actor: str,
        dry_run: bool = False,
        resolutions: Sequence[Any] = (),
    ) -> tuple[Played, decisions.AmendReport]:
        """Replace the move recorded at ``version``; the report says which later moves still fit.
        ``resolutions`` give the moves really played where later moves no longer fit (``decisions.amend``)."""
        game = self.get_game(game_id)
        self._expect(game, expected_version)
        events, report = decisions.amend(game, version, move, actor=actor, resolutions=resolutions)
        if dry_run:
            return Played(game, ()), report
        return self._commit(game, events), report

    def abandon(self, game_id: UUID, *, expected_version: int, actor: str, reason: str = "") -> Played:
        game = self.get_game(game_id)
        self._expect(game, expected_version)
        return self._commit(game, [decisions.abandon(game, actor=actor, reason=reason)])

    def fork(
        self,
        game_id: UUID,
        version: int,
        *,
        into: GameLog | None = None,
        branch: UUID | None = None,
        title: str | None = None,
    ) -> UUID:
        """A new game that starts as this one stood at ``version`` ("what if"), linked to it, titled ``title``
        or by default as a branch of this one (``decisions.branch_title``). ``into`` and ``branch`` name the
        application and id of the new game (sharded logs); by default, here and random."""
        game = self.as_it_stood(game_id, version)
        branch = branch or uuid4()
        (into or self)._save_with_index(decisions.fork_events(game, version, branch, title))
        return branch

    def as_it_stood(self, game_id: UUID, version: int) -> Game:
        """The game folded up to ``version`` (its records as they were then), or as it stands now when that
        version is not an earlier one (``decisions.fork_events`` refuses a version the game never had). A branch
        copies the moves as recorded at its version: an amend recorded since may have redrawn the chance of the
        later moves it kept, and those moves, copied as they are now, no longer fit the line they are put in."""
        game = self.get_game(game_id)
        return self.get_game(game_id, version) if 1 <= version < game.version else game

    # --- annotations ---------------------------------------------------------------------------------------

    def annotation_stream(self, game_id: UUID) -> Annotations:
        stream_id = notes.stream_id(game_id)
        try:
            stream = self.repository.get(stream_id, projector_func=project_annotations)
        except AggregateNotFoundError:
            return notes.empty(game_id)
        assert isinstance(stream, Annotations)
        return stream

    def annotations(self, game_id: UUID) -> list[Annotation]:
        self.get_game(game_id)
        return self.annotation_stream(game_id).visible()

    def annotate(
        self,
        game_id: UUID,
        *,
        version: int,
        author: str,
        text: str,
        glyph: str | None = None,
        target: Mapping[str, Any] | None = None,
    ) -> Annotation:
        game = self.get_game(game_id)
        for _ in range(5):  # annotation writes never conflict in substance: retry a lost race on the stream
            stream = self.annotation_stream(game_id)
            event = notes.add(
                stream,
                version=version,
                game_version=game.version,
                author=author,
                text=text,
                glyph=glyph,
                target=target,
                parts=domain.board_parts(game.state),
            )
            try:
                self.save(event)
            except IntegrityError:
                continue
            return self.annotation_stream(game_id).get(event.annotation_id)
        raise StaleVersion(stream.version, self.annotation_stream(game_id).version)

    def edit_annotation(
        self,
        game_id: UUID,
        annotation_id: str,
        *,
        editor: str,
        text: str,
        glyph: str | None = None,
        target: Mapping[str, Any] | None = None,
    ) -> Annotation:
        parts = domain.board_parts(self.get_game(game_id).state)
        stream = self.annotation_stream(game_id)
        self._save_or_stale(
            notes.edit(
                stream, annotation_id, editor=editor, text=text, glyph=glyph, target=target, parts=parts
            )
        )
        return self.annotation_stream(game_id).get(annotation_id)

    def delete_annotation(self, game_id: UUID, annotation_id: str, *, actor: str) -> None:
        stream = self.annotation_stream(game_id)
        self._save_or_stale(notes.delete(stream, annotation_id, actor=actor))

    # --- exports -------------------------------------------------------------------------------------------

    def export(self, game_id: UUID) -> dict[str, Any]:
        """The full log as JSON (setup, catalog, rules version, every event, every annotation event)."""
        # The annotations are read first: each was anchored to a version the game had when it was written, so
        # the game's events read next reach it, and an export taken while people annotate (a club's backup
        # during an evening) still imports. Read the other way round, a note added in between could point
        # beyond the exported game.
        note_events = [
            event for event in self.events.get(notes.stream_id(game_id)) if isinstance(event, DomainEvent)
        ]
        game_events = self.events_of(game_id)
        return exports.export_document(game_events, note_events)

    def export_text(self, game_id: UUID) -> str:
        return history.text_record(self.get_game(game_id), self.annotations(game_id))

    def export_bgstats(self, game_id: UUID) -> dict[str, Any]:
        return history.bgstats_play(self.get_game(game_id))

    def check_log(self, data: Any) -> Game:
        """Refold an exported log without writing anything (raises ``InvalidLog`` listing every problem)."""
        return exports.refold(data, game_id=uuid4()).game

    def import_log(self, data: Any, *, keep_id: bool = True, game_id: UUID | None = None) -> UUID:
        """Write an exported log as a game of this store, after refolding it with the rules. The game keeps
        its id unless that id is taken here (or ``keep_id`` is false); ``game_id`` imposes one."""
        game_id = game_id or self.import_id(data, keep_id=keep_id)
        imported = exports.refold(data, game_id=game_id)
        self._save_with_index(imported.game_events, extra=imported.note_events)
        return game_id

    def import_id(self, data: Any, *, keep_id: bool) -> UUID:
        """The id an imported game gets: its own if it is free here and ``keep_id``, else a new one.

        Only an id such as heronlog gives a game is kept: a random UUID (version 4) that names no stream at
        all here. A game's annotation and access streams, and the index, have ids derived from a name
        (version 5, :func:`uuid5`), which anyone can work out from a game's id: an import that took one of
        them would write a game into another game's stream, or squat the annotation stream a game has not
        written yet, and every later read or write of it would fail."""
        if keep_id and isinstance(data, Mapping):
            try:
                wanted = UUID(str(data.get("game_id")))
            except ValueError:
                return uuid4()
            if wanted.version == 4 and not self._exists(wanted):
                return wanted
        return uuid4()

    # --- rules versions ------------------------------------------------------------------------------------

    def revalidate(self, game_id: UUID) -> dict[str, Any]:
        """Dry-run: replay the game's line of play under the current rules, with every check; report the first
        move they would reject (or that all still pass)."""
        game = self.get_game(game_id)
        state = rules.fresh_state(game.setup, game.catalog)
        try:
            for move in game.opening:
                state = domain.apply(state, move, check=True, draw=False)
        except domain.DomainError as error:
            return {"game_id": str(game_id), "ok": False, "version": 1, "error": error.to_dict()}
        for version in game.line:
            record = game.records[version]
            try:
                state = rules.recheck(state, record.move, record.chance)
            except domain.DomainError as error:
                return {
                    "game_id": str(game_id),
                    "ok": False,
                    "version": version,
                    "move": record.move,
                    "error": error.to_dict(),
                }
        return {"game_id": str(game_id), "ok": True, "version": None}

    def revalidate_all(self) -> list[dict[str, Any]]:
        return [self.revalidate(UUID(entry.game_id)) for entry in self._index_entries()]

    # --- the list of games ---------------------------------------------------------------------------------

    def list_games(
        self, *, search: str | None = None, include_private: bool = False, limit: int = 50, offset: int = 0
    ) -> list[GameSummary]:
        """Games, newest first, optionally only those whose title or players contain ``search``."""
        page, _ = self.page_of_games(
            search=search, include_private=include_private, limit=limit, offset=offset
        )
        return page

    def page_of_games(
        self, *, search: str | None = None, include_private: bool = False, limit: int = 50, offset: int = 0
    ) -> tuple[list[GameSummary], int]:
        """:meth:`list_games`, and how many games it finds in all (a listing's total, for its next page)."""
        selected = self._selected(search, include_private)
        return [self._summary(entry) for entry in selected[offset : offset + limit]], len(selected)

    def _selected(self, search: str | None, include_private: bool) -> list[GameIndexed]:
        needle = (search or "").casefold().strip()
        selected = []
        # Newest first by the game's own creation time (an imported game keeps the time it was recorded).
        for entry in sorted(self._index_entries(), key=lambda entry: entry.timestamp, reverse=True):
            if entry.private and not include_private:
                continue
            if needle and needle not in " ".join([entry.title, *entry.players]).casefold():
                continue
            selected.append(entry)
        return selected

    def _index_entries(self) -> list[GameIndexed]:
        return [event for event in self.events.get(self.index_id) if isinstance(event, GameIndexed)]

    def _summary(self, entry: GameIndexed) -> GameSummary:
        game = self.get_game(UUID(entry.game_id))
        cached = self._summaries.get(entry.game_id)
        if cached and cached[0] == game.version:
            return cached[1]
        over = domain.is_over(game.state)
        winner = None
        if over:
            sheets = [sheet.to_dict() for sheet in domain.score(game.state)]
            best = min(range(len(sheets)), key=lambda seat: sheets[seat]["rank"])
            winner = entry.players[best]
        summary = GameSummary(
            game_id=entry.game_id,
            title=entry.title,
            players=tuple(entry.players),
            mode=entry.mode,
            private=entry.private,
            parent=entry.parent,
            created_on=entry.timestamp.isoformat(),
            version=game.version,
            status=game.status,
            round=domain.coordinates(game.state).round,
            winner=winner,
        )
        self._summaries[entry.game_id] = (game.version, summary)
        return summary

    # --- writing -------------------------------------------------------------------------------------------

    @staticmethod
    def _expect(game: Game, expected_version: int) -> None:
        if expected_version != game.version:
            raise StaleVersion(expected_version, game.version)

    def _commit(
        self, game: Game, events: Sequence[DomainEvent], after: Game | None = None, **along: Along
    ) -> Played:
        """Save the events; a clash on a version means another writer won the race. ``after`` is the game
        they lead to, when the caller has it already; ``along`` goes to the recorder (see :meth:`play`)."""
        try:
            self.save(*events, **along)
        except IntegrityError:
            current = self.get_game(game.id)
            raise StaleVersion(game.version, current.version) from None
        if after is None:
            after = project_game(game, events)
        assert after is not None
        self._cache(after)
        self._snapshot_if_due(game, after)
        return Played(after, _versions(events))

    def _save_or_stale(self, event: DomainEvent) -> None:
        try:
            self.save(event)
        except IntegrityError:
            raise StaleVersion(event.originator_version - 1, event.originator_version) from None

    def _save_with_index(
        self, events: Sequence[DomainEvent], extra: Sequence[DomainEvent] = (), opening: Any = None
    ) -> None:
        """Save a new game's events with its index entry, in one transaction (retrying only the index's
        position when another game was indexed at the same moment). ``opening`` is the game's opening state
        when the caller has just built it (``decisions.create``): the game is not set up once more."""
        created = events[0]
        assert isinstance(created, GameCreated)
        with self._index_lock:
            for _ in range(20):
                last = self._last_index_version()
                entry = decisions.index_entry(created, self.index_id, last + 1)
                try:
                    self.save(*events, entry, *extra)
                except IntegrityError:
                    if self._exists(created.originator_id):
                        raise
                    continue
                if opening is None:
                    game = project_game(None, events)
                else:
                    game = project_game(created_game(created, opening), events[1:])
                assert game is not None
                # Cached as a write's fold is: the new game is read back at once (its creator's answer), and
                # folding it again from the store set the whole game up a third time.
                self._cache(game)
                self._snapshot_if_due(None, game)
                return
        raise StaleVersion(last, self._last_index_version())

    def _last_index_version(self) -> int:
        last = list(self.events.get(self.index_id, desc=True, limit=1))
        return last[0].originator_version if last else 0

    def _exists(self, game_id: UUID) -> bool:
        return bool(list(self.events.get(game_id, limit=1)))

    def _snapshot_if_due(self, before: Game | None, after: Game) -> None:
        """Snapshot at each round's end and at least every ``SNAPSHOT_EVERY`` events."""
        if self.snapshots is None:
            return
        if after.version <= 1:
            return
        crossed = before is None or snapshot_crossed(after.id, before.version, after.version)
        # A state's round is its coordinates' round; read directly, as domain.coordinates would work out the
        # whole prompt to tell it (that was a tenth of recording a move).
        new_round = before is not None and before.state.round != after.state.round
        if not (crossed or new_round):
            return
        if self._snapshot_writer is None or not self._snapshot_writer.submit(after):
            self._write_snapshot(after)

    def _write_snapshot(self, game: Game) -> None:
        assert self.snapshots is not None
        self.snapshots.put([GameSnapshot.take(game)])

    def iter_game_ids(self) -> Iterator[UUID]:
        for entry in self._index_entries():
            yield UUID(entry.game_id)
