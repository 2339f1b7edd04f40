"""The game aggregate: an immutable fold of a game's events, and the projector that builds it.

The projector is a plain function (eventsourcing's functional aggregate) that never validates, draws or reads the
clock; keeping every state along the line makes undo and replay steps lookups.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import singledispatch
from typing import Any
from uuid import UUID

import msgspec

import domain
from domain import GameState
from replay import rules
from replay.events import (
    CorrectionRedone,
    CorrectionUndone,
    DomainEvent,
    GameAbandoned,
    GameCreated,
    LineCorrected,
    Move,
    MoveAmended,
    MovePlayed,
    MoveResolved,
    MovesRedone,
    MovesUndone,
    RulesUpgraded,
)

MAX_VERSION = 2**63 - 1
"""The largest version a store can hold (SQLite's INTEGER is 64-bit signed): no game reaches it, and a
version a client sends beyond it is never handed to a store (the API's schemas refuse it; the log's reads
answer as for any version the game does not have)."""


@dataclass(frozen=True)
class MoveRecord:
    """One recorded move: what was played, by whom, when, and the chance outcomes that followed it."""

    version: int
    move: Move
    chance: tuple[Move, ...]
    seat: int | None
    actor: str
    at: datetime
    description: str
    idempotency_key: str | None = None
    amends: int | None = None
    """For an amended move: the version of the move it replaced."""
    resolves: int | None = None
    """For a move of an amendment's resolution: the version of the later recorded move it was played in place
    of (that move no longer fitted after the correction)."""
    rewritten: bool = False
    """Whether a correction said this recorded move anew, keeping it (``MoveAmended.rewritten``): the same move
    by the other seat, or the same die from the other end of its bridge."""
    redescribed: bool = field(default=False, compare=False)
    """Whether ``description`` was said again after an amendment (``_redescribe``), so that it may differ from
    the words of the event that recorded the move: a snapshot keeps only such words (:meth:`GameSnapshot.take`).
    Not part of the record's value: words said again that came back to the event's own (two amendments, the
    second undoing what the first changed) are the same record, whether a fold or a snapshot of the first
    format (which cannot tell them apart) built it."""

    @property
    def replaced(self) -> int | None:
        """The version of the recorded move this one corrects (amended, or resolved in an amendment), if any."""
        return self.amends if self.amends is not None else self.resolves

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MoveRecord:
        """A record as a snapshot keeps it: its fields by name (:meth:`GameSnapshot.take`)."""
        return cls(
            version=data["version"],
            move=dict(data["move"]),
            chance=tuple(dict(outcome) for outcome in data["chance"]),
            seat=data["seat"],
            actor=data["actor"],
            at=data["at"],
            description=data["description"],
            idempotency_key=data["idempotency_key"],
            amends=data["amends"],
            resolves=data.get("resolves"),  # snapshots written before resolutions existed have none
            rewritten=bool(data.get("rewritten", False)),
            redescribed=bool(data.get("redescribed", False)),
        )


@dataclass(frozen=True)
class AuditEntry:
    """A change to the line of play other than a new move: undo, redo, amend, abandon."""

    version: int
    kind: str
    actor: str
    at: datetime
    versions: tuple[int, ...]
    remark: str = ""
    setup: bool = False
    """Whether it changed the setup's chance outcomes (a setup correction, its undo or redo): the states before
    it are those of another opening."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "kind": self.kind,
            "actor": self.actor,
            "at": self.at,
            "versions": list(self.versions),
            "note": self.remark,  # the stored key (snapshots hold it): kept as it was
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AuditEntry:
        return cls(
            version=data["version"],
            kind=data["kind"],
            actor=data["actor"],
            at=data["at"],
            versions=tuple(data["versions"]),
            remark=data["note"],
        )


@dataclass(frozen=True)
class Lineup:
    """What a correction changes, as it stands on one side of it: the line of play, the setup's chance outcomes,
    and the recorded moves it said anew (``rewritten``) or whose chance it drew again (``redrawn``), by version:
    their move and chance outcomes."""

    line: tuple[int, ...]
    opening: tuple[Move, ...]
    moves: Mapping[int, tuple[Move, tuple[Move, ...], bool]]
    """By version: the move, its chance outcomes, and whether a correction had said it anew."""


@dataclass(frozen=True)
class LineChange:
    """A correction (``MoveAmended`` or ``LineCorrected`` at ``version``) as the line stood before and after it:
    what an undo right after it sets back, and what a redo then sets again."""

    version: int
    before: Lineup
    after: Lineup


@dataclass(frozen=True)
class Game:
    """One game as folded from its events (see the module docstring)."""

    id: UUID
    version: int
    created_on: datetime
    modified_on: datetime
    setup: Mapping[str, Any]
    rules_version: str
    catalog: Mapping[str, Any]
    opening: tuple[Move, ...]
    parent: Mapping[str, Any] | None
    records: Mapping[int, MoveRecord]
    line: tuple[int, ...]
    redo: tuple[int, ...]
    audit: tuple[AuditEntry, ...]
    keys: Mapping[str, tuple[int, ...]]
    abandoned: AuditEntry | None
    base: int
    """Index along the line of ``states[0]``: states before it are rebuilt on demand (after a snapshot)."""
    states: tuple[GameState, ...]
    """``states[i]`` is the rules-engine state after ``base + i`` effective moves."""
    corrected: LineChange | None = None
    """The correction that was the last change to the line of play: what a plain undo takes back."""
    uncorrected: LineChange | None = None
    """The correction an undo just took back: what a redo writes again."""

    @property
    def playable(self) -> bool:
        """Whether this build replays the game's rules version, so that the game has engine states. A game of
        a version it does not replay is still read as recorded (its moves, words, undo and amendments: what
        its events say), without states (:func:`replay.rules.is_supported`)."""
        return bool(self.states)

    @property
    def state(self) -> GameState:
        """The current rules-engine state (``domain.GameState``); :class:`RulesVersionUnsupported` for a game
        recorded under rules this build does not replay."""
        if not self.states:
            raise rules.unsupported(self.rules_version, game_id=self.id)
        return self.states[-1]

    @property
    def mode(self) -> str:
        return str(self.setup["mode"])

    @property
    def status(self) -> str:
        """``abandoned``, ``finished`` (the rules say the game is over), ``in progress``, or ``rules
        unsupported`` (recorded under rules this build does not replay: readable as recorded, not playable)."""
        if self.abandoned is not None:
            return "abandoned"
        if not self.states:
            return "rules unsupported"
        return "finished" if domain.is_over(self.state) else "in progress"

    def state_after(self, moves: int) -> GameState:
        """The state after the first ``moves`` effective moves of the line of play."""
        if not 0 <= moves <= len(self.line):
            raise IndexError(moves)
        if not self.states:
            raise rules.unsupported(self.rules_version, game_id=self.id)
        if moves >= self.base:
            return self.states[moves - self.base]
        state = rules.opening_state(self.setup, self.catalog, self.opening, rules_version=self.rules_version)
        for version in self.line[:moves]:
            record = self.records[version]
            state = rules.reapply(state, record.move, record.chance)
        return state

    def with_states_from_start(self) -> Game:
        """This game with every state along the line materialised (after a snapshot only the last is)."""
        if not self.states:
            raise rules.unsupported(self.rules_version, game_id=self.id)
        if self.base == 0:
            return self
        states = [
            rules.opening_state(self.setup, self.catalog, self.opening, rules_version=self.rules_version)
        ]
        for version in self.line[: self.base]:
            record = self.records[version]
            states.append(rules.reapply(states[-1], record.move, record.chance))
        return replace(self, base=0, states=(*states[:-1], *self.states))


# --- the projector ----------------------------------------------------------------------------------------


class NotAGameEvent(TypeError):
    """An event of another stream (annotations, access, the index) was folded as a game's: that id is not a
    game's."""


@singledispatch
def mutate(event: DomainEvent, game: Game | None) -> Game:
    """Fold one event into the game (one function per event type, registered below)."""
    raise NotAGameEvent(f"not a game event: {type(event).__name__}")


@mutate.register
def _created(event: GameCreated, _: Game | None) -> Game:
    if not rules.is_supported(event.rules_version):
        # Read as recorded, without states, until a RulesUpgraded event moves it to rules this build plays.
        return created_game(event, None)
    opening = tuple(dict(move) for move in event.opening)
    state = rules.opening_state(event.setup, event.catalog, opening, rules_version=event.rules_version)
    return created_game(event, state)


def created_game(event: GameCreated, state: Any) -> Game:
    """The game a ``GameCreated`` event starts, given its opening state: the state the rules engine built when
    it decided the game (``decisions.create``), or the one the fold builds from the event (None: the game's
    rules are not replayed here, and it has no states)."""
    opening = tuple(dict(move) for move in event.opening)
    return Game(
        id=event.originator_id,
        version=event.originator_version,
        created_on=event.timestamp,
        modified_on=event.timestamp,
        setup=event.setup,
        rules_version=event.rules_version,
        # One copy per catalog, not per game read (a game whose rules are not replayed here has no engine state
        # to share it with, and keeps its own).
        catalog=event.catalog if state is None else rules.shared_catalog(state, event.catalog),
        opening=opening,
        parent=event.parent,
        records={},
        line=(),
        redo=(),
        audit=(),
        keys={},
        abandoned=None,
        base=0,
        states=() if state is None else (state,),
    )


def _record_of(event: MovePlayed | MoveResolved, **more: Any) -> MoveRecord:
    """The record of a move played (or played by a resolution: ``more`` says what it resolves)."""
    return MoveRecord(
        version=event.originator_version,
        move=dict(event.move),
        chance=tuple(dict(outcome) for outcome in event.chance),
        seat=event.seat,
        actor=event.actor,
        at=event.timestamp,
        description=event.description,
        idempotency_key=event.idempotency_key,
        **more,
    )


def _advance(game: Game, event: DomainEvent) -> dict[str, Any]:
    """What every event changes: the version, the time of the last change, and the keys of the writes
    (an event recorded with an ``Idempotency-Key`` is found by it: :mod:`replay.idempotency`)."""
    changed: dict[str, Any] = {"version": event.originator_version, "modified_on": event.timestamp}
    key = getattr(event, "idempotency_key", None)
    if key:
        changed["keys"] = {**game.keys, key: (*game.keys.get(key, ()), event.originator_version)}
    return changed


def _extend(game: Game, versions: Iterable[int], records: Mapping[int, MoveRecord]) -> tuple[Any, ...]:
    """The states after playing ``versions`` (recorded moves) on from the current state (none for a game
    without states: its rules are not replayed here)."""
    if not game.states:
        return ()
    states = list(game.states)
    for version in versions:
        record = records[version]
        states.append(rules.reapply(states[-1], record.move, record.chance))
    return tuple(states)


def _truncated(game: Game, moves: int) -> Game:
    """The game with its states cut back to the first ``moves`` effective moves (rebuilding if needed)."""
    if not game.states:
        return replace(game, line=game.line[:moves])
    if moves < game.base:
        game = game.with_states_from_start()
    return replace(game, line=game.line[:moves], states=game.states[: moves - game.base + 1])


@mutate.register
def _played(event: MovePlayed, game: Game | None) -> Game:
    assert game is not None
    return _played_to(event, game, None)


def _played_to(event: MovePlayed, game: Game, state: Any) -> Game:
    """The game after ``event``; ``state`` is the state the move reached when it was decided, or None to
    play the recorded move (and its chance outcomes) on the current state."""
    record = _record_of(event)
    records = {**game.records, record.version: record}
    return replace(
        game,
        **_advance(game, event),
        records=records,
        line=(*game.line, record.version),
        redo=(),  # a new move ends what could be redone
        corrected=None,  # and what a correction's undo or redo would set back
        uncorrected=None,
        states=_extend(game, [record.version], records)
        if state is None or not game.states
        else (*game.states, state),
    )


@mutate.register
def _undone(event: MovesUndone, game: Game | None) -> Game:
    assert game is not None
    kept = len(game.line) - len(event.versions)
    cut = _truncated(game, kept)
    entry = _entry_of(event)
    return replace(
        cut,
        **_advance(game, event),
        redo=(*event.versions, *game.redo),
        audit=(*game.audit, entry),
        corrected=None,
        uncorrected=None,
    )


@mutate.register
def _redone(event: MovesRedone, game: Game | None) -> Game:
    assert game is not None
    entry = _entry_of(event)
    return replace(
        game,
        **_advance(game, event),
        line=(*game.line, *event.versions),
        redo=game.redo[len(event.versions) :],
        audit=(*game.audit, entry),
        states=_extend(game, event.versions, game.records),
        corrected=None,
        uncorrected=None,
    )


@mutate.register
def _resolved(event: MoveResolved, game: Game | None) -> Game:
    # Only recorded: the amendment written right after it puts it on the line of play (``_amended``).
    assert game is not None
    record = _record_of(event, resolves=event.replaces)
    return replace(game, **_advance(game, event), records={**game.records, record.version: record})


Correction = MoveAmended | LineCorrected
"""The events that correct the line of play (docs/api/amend.md)."""


@dataclass(frozen=True)
class Relined:
    """What a correction, its undo or its redo does to a game without the rules: the line of play and the
    setup's chance outcomes it leaves, the recorded moves it changed in place (said anew, chance drawn again),
    its audit entry, and the correction as it stands before and after (:class:`LineChange`)."""

    line: tuple[int, ...]
    opening: tuple[Move, ...]
    patched: frozenset[int]
    entry: AuditEntry
    change: LineChange


def _moves_of(
    records: Mapping[int, MoveRecord], versions: Iterable[int]
) -> dict[int, tuple[Move, tuple[Move, ...], bool]]:
    return {v: (records[v].move, records[v].chance, records[v].rewritten) for v in versions}


def _correction(
    event: Correction, line: Sequence[int], opening: tuple[Move, ...], records: dict[int, MoveRecord]
) -> Relined:
    """What a correction does to the line of play and the records, without the rules (shared by the fold,
    :func:`_corrected`, and the reading of a history, :func:`history`). ``records`` is changed in place: an
    amendment's own move is added, the kept moves whose chance was drawn again get their new outcomes, and those
    said anew their new move.

    The moves from the corrected one on (after it, for a ``MoveAmended``, whose own move takes its place) are
    laid again: each with a resolution is replaced by its moves (and stays after them when ``kept``), each
    dropped leaves, the others stay."""
    setup = isinstance(event, LineCorrected) and event.opening is not None
    position = 0 if setup else list(line).index(event.version)
    dropped = set(event.dropped)
    resolutions = {int(entry["version"]): entry for entry in event.resolutions}
    later: list[int] = []
    left: list[int] = []  # the moves that leave the line: dropped, or replaced by their resolution
    start = position + 1 if isinstance(event, MoveAmended) else position
    for version in line[start:]:
        resolution = resolutions.get(version)
        if resolution is not None:
            later.extend(int(move) for move in resolution["moves"])
            if resolution["kept"]:
                later.append(version)
            else:
                left.append(version)
        elif version in dropped:
            left.append(version)
        else:
            later.append(version)
    patched = frozenset({int(key) for key in event.redrawn} | {int(key) for key in event.rewritten})
    before = Lineup(tuple(line), opening, _moves_of(records, patched))
    for key, outcomes in event.redrawn.items():
        records[int(key)] = replace(records[int(key)], chance=tuple(dict(o) for o in outcomes))
    for key, move in event.rewritten.items():
        records[int(key)] = replace(records[int(key)], move=dict(move), seat=move.get("seat"), rewritten=True)
    head: tuple[int, ...] = ()
    if isinstance(event, MoveAmended):
        amended = MoveRecord(
            version=event.originator_version,
            move=dict(event.move),
            chance=tuple(dict(outcome) for outcome in event.chance),
            seat=event.move.get("seat"),
            actor=event.actor,
            at=event.timestamp,
            description=event.description,
            amends=event.version,
        )
        records[amended.version] = amended
        head = (amended.version,)
    relined = (*line[:position], *head, *later)
    after_opening = opening
    if isinstance(event, LineCorrected) and setup and event.opening is not None:
        after_opening = tuple(dict(o) for o in event.opening)
    change = LineChange(
        event.originator_version, before, Lineup(relined, after_opening, _moves_of(records, patched))
    )
    corrected = f"; played {len(resolutions)} later move(s) anew" if resolutions else ""
    if isinstance(event, MoveAmended):
        entry = AuditEntry(
            event.originator_version,
            "amend",
            event.actor,
            event.timestamp,
            (event.version, *left),
            remark=f"replaced the move of version {event.version}{corrected}; dropped {len(event.dropped)} "
            "later move(s)",
        )
    else:
        where = "the setup" if setup else f"the move of version {event.version}"
        entry = AuditEntry(
            event.originator_version,
            "correct",
            event.actor,
            event.timestamp,
            relined,  # the whole line as it now stands: what ``decisions.line_at`` replays
            remark=f"{event.correction.replace('_', ' ')} at {where}{corrected}; dropped {len(event.dropped)} "
            "later move(s)",
            setup=setup,
        )
    return Relined(relined, after_opening, patched, entry, change)


def _turned(
    change: LineChange, event: CorrectionUndone | CorrectionRedone, records: dict[int, MoveRecord]
) -> Relined:
    """What an undo (back to ``change.before``) or a redo (to ``change.after``) of a correction does without the
    rules; ``records`` is changed in place (the moves the correction changed get their move and chance back)."""
    undo = isinstance(event, CorrectionUndone)
    start, goal = (change.after, change.before) if undo else (change.before, change.after)
    for version, (move, chance, rewritten) in goal.moves.items():
        records[version] = replace(
            records[version], move=dict(move), seat=move.get("seat"), chance=chance, rewritten=rewritten
        )
    entry = AuditEntry(
        event.originator_version,
        "uncorrect" if undo else "recorrect",
        event.actor,
        event.timestamp,
        goal.line,
        remark=f"{'took back' if undo else 'wrote again'} the correction of version {change.version}",
        setup=goal.opening != start.opening,
    )
    return Relined(goal.line, goal.opening, frozenset(goal.moves), entry, change)


def _first_change(old: Sequence[int], new: Sequence[int], patched: frozenset[int]) -> int:
    """How many moves the two lines share from their start, none of them changed in place."""
    shared = 0
    for mine, theirs in zip(old, new, strict=False):
        if mine != theirs or mine in patched:
            break
        shared += 1
    return shared


def _relined_game(
    game: Game, event: DomainEvent, relined: Relined, records: dict[int, MoveRecord], **more: Any
) -> Game:
    """The game with the line, setup and records ``relined`` left, its states played again from the first move
    that changed (from the setup when the setup changed), and the words of the moves from there said again."""
    same_opening = relined.opening == game.opening
    position = _first_change(game.line, relined.line, relined.patched) if same_opening else 0
    if not game.states:
        base, states = 0, ()
    elif same_opening:
        cut = _truncated(game, position)
        base, states = cut.base, _extend(cut, relined.line[position:], records)
    else:
        opening = rules.opening_state(
            game.setup, game.catalog, relined.opening, rules_version=game.rules_version
        )
        base, states = 0, _extend(replace(game, states=(opening,), base=0), relined.line, records)
    if states:
        # The moves from the change on are now played on the corrected line: their words are said again from
        # the states they are played on there ("places the coral 6", not the die the old line had taken). Only
        # here: a move recorded is described once, when it is decided (``decisions.play``), on its own line.
        _redescribe(records, relined.line[position:], states[position - base :])
    return replace(
        game,
        **_advance(game, event),
        records=records,
        line=relined.line,
        opening=relined.opening,
        redo=(),
        audit=(*game.audit, relined.entry),
        base=base,
        states=states,
        **more,
    )


@mutate.register
def _amended(event: MoveAmended, game: Game | None) -> Game:
    assert game is not None
    records = dict(game.records)
    relined = _correction(event, game.line, game.opening, records)
    return _relined_game(game, event, relined, records, corrected=relined.change, uncorrected=None)


@mutate.register
def _line_corrected(event: LineCorrected, game: Game | None) -> Game:
    assert game is not None
    records = dict(game.records)
    relined = _correction(event, game.line, game.opening, records)
    return _relined_game(game, event, relined, records, corrected=relined.change, uncorrected=None)


@mutate.register
def _correction_undone(event: CorrectionUndone, game: Game | None) -> Game:
    assert game is not None and game.corrected is not None
    records = dict(game.records)
    relined = _turned(game.corrected, event, records)
    return _relined_game(game, event, relined, records, corrected=None, uncorrected=game.corrected)


@mutate.register
def _correction_redone(event: CorrectionRedone, game: Game | None) -> Game:
    assert game is not None and game.uncorrected is not None
    records = dict(game.records)
    relined = _turned(game.uncorrected, event, records)
    return _relined_game(game, event, relined, records, corrected=game.uncorrected, uncorrected=None)


def _redescribe(records: dict[int, MoveRecord], versions: Sequence[int], befores: Sequence[Any]) -> None:
    """Describe each move of ``versions`` again from the state before it (``befores``, in order) and keep the
    words in its record (``records`` is changed in place): what the move does on the line it now stands on."""
    for version, before in zip(versions, befores, strict=False):
        record = records[version]
        description = domain.describe(before, record.move)
        if description != record.description:
            records[version] = replace(record, description=description, redescribed=True)


@mutate.register
def _abandoned(event: GameAbandoned, game: Game | None) -> Game:
    assert game is not None
    entry = _entry_of(event)
    return replace(game, **_advance(game, event), abandoned=entry, audit=(*game.audit, entry))


@mutate.register
def _upgraded(event: RulesUpgraded, game: Game | None) -> Game:
    assert game is not None
    moved = replace(
        game,
        **_advance(game, event),
        rules_version=event.rules_version,
        audit=(*game.audit, _entry_of(event)),
        corrected=None,
        uncorrected=None,
    )
    if not rules.is_supported(event.rules_version):
        return replace(moved, base=0, states=())
    # The whole line of play was checked under the new rules before this event was written: every state is
    # built again under them, from the opening on.
    states = [
        rules.opening_state(moved.setup, moved.catalog, moved.opening, rules_version=moved.rules_version)
    ]
    for version in moved.line:
        record = moved.records[version]
        states.append(rules.reapply(states[-1], record.move, record.chance))
    return replace(moved, base=0, states=tuple(states))


# --- a game's history, without the rules ------------------------------------------------------------------


def _entry_of(event: DomainEvent) -> AuditEntry:
    """The audit entry of an event that changes the line of play other than by a new move (amendments make
    theirs in :func:`_amendment`)."""
    if isinstance(event, MovesUndone | MovesRedone):
        kind = "undo" if isinstance(event, MovesUndone) else "redo"
        return AuditEntry(event.originator_version, kind, event.actor, event.timestamp, tuple(event.versions))
    if isinstance(event, GameAbandoned):
        return AuditEntry(
            event.originator_version, "abandon", event.actor, event.timestamp, (), remark=event.reason
        )
    if isinstance(event, RulesUpgraded):
        return AuditEntry(
            event.originator_version,
            "upgrade",
            event.actor,
            event.timestamp,
            (),
            remark=f"moved from rules {event.previous} to rules {event.rules_version}",
        )
    raise NotAGameEvent(f"no audit entry for {type(event).__name__}")


def history(events: Iterable[DomainEvent]) -> Game:
    """A game's history read from its events without the rules engine: its records, line of play, what can
    be redone, the audit and the keys of its writes, exactly as :func:`project_game` folds them, but without
    states (``states`` is empty) and in time linear in the events (the fold copies its mappings at each
    event). What restoring a snapshot needs (:func:`restore`), which then adds the engine's state.

    The one thing it cannot say without the rules is the words of the moves an amendment kept, which are said
    again from the states of the corrected line (:func:`_redescribe`): they stay as recorded here, and a
    snapshot keeps the words said again."""
    events = iter(events)
    created = next(events, None)
    if not isinstance(created, GameCreated):
        raise NotAGameEvent("a game's history starts with its GameCreated event")
    records: dict[int, MoveRecord] = {}
    line: list[int] = []
    redo: list[int] = []
    audit: list[AuditEntry] = []
    keys: dict[str, tuple[int, ...]] = {}
    abandoned: AuditEntry | None = None
    opening = tuple(dict(move) for move in created.opening)
    corrected: LineChange | None = None
    uncorrected: LineChange | None = None
    rules_version = created.rules_version
    version, modified_on = created.originator_version, created.timestamp
    for event in events:
        version, modified_on = event.originator_version, event.timestamp
        key = getattr(event, "idempotency_key", None)
        if key:
            keys[key] = (*keys.get(key, ()), version)
        if isinstance(event, MovePlayed | MovesUndone | MovesRedone | RulesUpgraded):
            corrected = uncorrected = None
        if isinstance(event, MovePlayed):
            records[version] = _record_of(event)
            line.append(version)
            redo = []
        elif isinstance(event, MovesUndone):
            del line[len(line) - len(event.versions) :]
            redo = [*event.versions, *redo]
            audit.append(_entry_of(event))
        elif isinstance(event, MovesRedone):
            line.extend(event.versions)
            redo = redo[len(event.versions) :]
            audit.append(_entry_of(event))
        elif isinstance(event, MoveResolved):
            records[version] = _record_of(event, resolves=event.replaces)
        elif isinstance(event, MoveAmended | LineCorrected | CorrectionUndone | CorrectionRedone):
            if isinstance(event, CorrectionUndone):
                assert corrected is not None
                relined = _turned(corrected, event, records)
                corrected, uncorrected = None, corrected
            elif isinstance(event, CorrectionRedone):
                assert uncorrected is not None
                relined = _turned(uncorrected, event, records)
                corrected, uncorrected = uncorrected, None
            else:
                relined = _correction(event, line, opening, records)
                corrected, uncorrected = relined.change, None
            line, opening = list(relined.line), relined.opening
            redo = []
            audit.append(relined.entry)
        elif isinstance(event, GameAbandoned):
            abandoned = _entry_of(event)
            audit.append(abandoned)
        elif isinstance(event, RulesUpgraded):
            rules_version = event.rules_version
            audit.append(_entry_of(event))
        else:
            raise NotAGameEvent(f"not a game event: {type(event).__name__}")
    return Game(
        id=created.originator_id,
        version=version,
        created_on=created.timestamp,
        modified_on=modified_on,
        setup=created.setup,
        rules_version=rules_version,
        catalog=created.catalog,
        opening=opening,
        parent=created.parent,
        records=records,
        line=tuple(line),
        redo=tuple(redo),
        audit=tuple(audit),
        keys=keys,
        abandoned=abandoned,
        base=len(line),
        states=(),
        corrected=corrected,
        uncorrected=uncorrected,
    )


# --- snapshots --------------------------------------------------------------------------------------------

SNAPSHOT_FORMAT = 2
"""The snapshot format written now: the engine's state and the line of play, not the history (see below)."""


@dataclass(frozen=True)
class GameSnapshot(DomainEvent):
    """A game's state at one version: the library's snapshot store keeps these so that reading a long game, or
    any past version of it, needs no rules-engine fold of the moves before it.

    A snapshot costs what a state costs, not what a history costs: it holds the engine's state (without the
    catalog, which the game's first event holds), the line of play and what can be redone (both bounded by a
    game's length), the rules version, and the words of the moves an amendment said again. The records, the
    audit and the keys, which grow with every event, are read from the events themselves (:func:`history`),
    which also checks the snapshot against the events it summarises (:func:`restore`). Snapshots of the
    earlier formats (the whole fold, as JSON text or JSON data) restore the same way.

    ``state`` is JSON text written by msgspec (the library's transcoder keeps it as one string)."""

    topic: str
    state: dict[str, Any] | str

    @classmethod
    def take(cls, game: Game) -> GameSnapshot:
        # The engine's state holds the catalog too, the same as the game's own (its first event's): it is
        # left out, and put back on restoring. Kept only if the two differ (none is known to).
        engine = domain.state_to_dict(game.state, catalog=not _catalog_is_the_games(game))
        fold = {
            "format": SNAPSHOT_FORMAT,
            "rules_version": game.rules_version,
            "line": game.line,
            "redo": game.redo,
            # Only the words an amendment said again differ from their events' (``_redescribe``).
            "described": {
                str(v): record.description for v, record in game.records.items() if record.redescribed
            },
            "engine": engine,
        }
        return cls(
            originator_id=game.id,
            originator_version=game.version,
            timestamp=game.modified_on,
            topic="replay.game:Game",
            state=_SNAPSHOT_JSON.encode(fold).decode(),
        )

    def fold(self) -> dict[str, Any]:
        """The snapshot's data. For the earlier formats, the whole fold with times as ``datetime``."""
        if isinstance(self.state, dict):
            return self.state
        data: dict[str, Any] = _SNAPSHOT_JSON_DATA.decode(self.state)
        if "format" in data:
            return data
        data["created_on"] = datetime.fromisoformat(data["created_on"])
        for entry in (*data["records"], *data["audit"], data["abandoned"]):
            if entry is not None:
                entry["at"] = datetime.fromisoformat(entry["at"])
        return data

    def restored(self, past: Game) -> Game | None:
        """The game at this snapshot's version, given its history read from the events up to that version
        (:func:`history`); None when the snapshot does not summarise those events (another event at its
        version, another line of play, other rules: a snapshot written from a stale fold, or damaged)."""
        data = self.fold()
        if (past.id, past.version, past.modified_on) != (
            self.originator_id,
            self.originator_version,
            self.timestamp,
        ):
            return None
        if list(past.line) != list(data["line"]) or list(past.redo) != list(data["redo"]):
            return None
        if past.rules_version != data["rules_version"]:
            return None
        if not rules.is_supported(past.rules_version):
            return past  # read as recorded: no states
        described = _described(data, past)
        if described is None:
            return None
        records = dict(past.records)
        for version, words in described.items():
            if version not in records:
                return None
            records[version] = replace(records[version], description=words, redescribed=True)
        engine = domain.state_from_dict(_with_catalog(data["engine"], past.catalog))
        return replace(
            past,
            catalog=rules.shared_catalog(engine, past.catalog),  # one copy per catalog, not per game read
            records=records,
            base=len(past.line),
            states=(engine,),
        )

    def state_on(self, game: Game, moves: int) -> GameState | None:
        """The engine state this snapshot keeps, when it is ``game``'s after the first ``moves`` moves of its
        line of play: taken at an event the game holds (same version, same time), on that line, under the same
        rules. None otherwise (a snapshot of a line since undone or corrected, of rules the game has moved
        from, or written from a fold the store no longer holds). What rebuilding a game's earlier states may
        start from (:meth:`replay.services.repository.GameRepository.reaching`)."""
        if self.originator_id != game.id or _time_of(game, self.originator_version) != self.timestamp:
            return None
        data = self.fold()
        if data["rules_version"] != game.rules_version or list(data["line"]) != list(game.line[:moves]):
            return None
        if _changed_in_place_since(game, self.originator_version):
            return None
        catalog = game.catalog if "format" in data else data["catalog"]
        return domain.state_from_dict(_with_catalog(data["engine"], catalog))


IN_PLACE = frozenset({"correct", "uncorrect", "recorrect"})
"""The audit kinds of the changes that may keep a move on the line while changing it, or the setup under it
(a correction other than one move replaced, its undo and its redo)."""


def _changed_in_place_since(game: Game, version: int) -> bool:
    """Whether a change after ``version`` may have changed a move of the line in place, or the setup: a state
    taken then is not the state of the same moves now."""
    return any(entry.kind in IN_PLACE and entry.version > version for entry in game.audit)


def _time_of(game: Game, version: int) -> datetime | None:
    """When the game's event at ``version`` was written, as the fold knows it (None: it does not)."""
    if version == 1:
        return game.created_on
    record = game.records.get(version)
    if record is not None:
        return record.at
    return next((entry.at for entry in game.audit if entry.version == version), None)


def _described(data: Mapping[str, Any], past: Game) -> dict[int, str] | None:
    """The words of the moves an amendment said again, as the snapshot keeps them; None when a snapshot of
    the first format, written before amendments said them again, summarises a game with an amendment (it
    cannot say them: the game is folded from its events instead)."""
    if "format" in data:
        return {int(version): words for version, words in data["described"].items()}
    amended = any(record.amends is not None for record in past.records.values())
    if amended and not data.get("described_on_line"):
        return None
    said = {int(record["version"]): str(record["description"]) for record in data["records"]}
    return {
        version: words
        for version, words in said.items()
        if version in past.records and past.records[version].description != words
    }


_SNAPSHOT_JSON = msgspec.json.Encoder()
_SNAPSHOT_JSON_DATA = msgspec.json.Decoder()


def restore(snapshot: GameSnapshot, events: Sequence[DomainEvent]) -> Game | None:
    """The game at ``snapshot``'s version from the snapshot and the events it summarises (the game's events up
    to that version, in order); None when they do not agree (:meth:`GameSnapshot.restored`)."""
    return snapshot.restored(history(events))


@mutate.register
def _restored(event: GameSnapshot, _: Game | None) -> Game:
    """A snapshot of the first formats holds a whole fold: it restores on its own (the library's way). One of
    the current format needs the events it summarises (:func:`restore`)."""
    data = event.fold()
    if "format" in data:
        raise TypeError("a snapshot of this format is restored with the events it summarises (game.restore)")
    rules.ensure_supported(data["rules_version"])
    records = {record.version: record for record in map(MoveRecord.from_dict, data["records"])}
    line = tuple(data["line"])
    state = domain.state_from_dict(_with_catalog(data["engine"], data["catalog"]))
    game = Game(
        id=event.originator_id,
        version=event.originator_version,
        created_on=data["created_on"],
        modified_on=event.timestamp,
        setup=data["setup"],
        rules_version=data["rules_version"],
        catalog=rules.shared_catalog(state, data["catalog"]),  # one copy per catalog, not per game read
        opening=tuple(dict(move) for move in data["opening"]),
        parent=data["parent"],
        records=records,
        line=line,
        redo=tuple(data["redo"]),
        audit=tuple(AuditEntry.from_dict(entry) for entry in data["audit"]),
        keys={key: tuple(versions) for key, versions in data["keys"].items()},
        abandoned=AuditEntry.from_dict(data["abandoned"]) if data["abandoned"] else None,
        base=len(line),
        states=(state,),
    )
    return game if data.get("described_on_line") else _described_on_line(game)


def _described_on_line(game: Game) -> Game:
    """A game restored from a snapshot written before amendments described their kept moves again: the moves
    of the line after its first amended move are described again, as the fold of its events describes them
    (the moves before it were never played on another line). A game never amended is as it was restored."""
    amended = next((index for index, v in enumerate(game.line) if game.records[v].amends is not None), None)
    if amended is None:
        return game
    game = game.with_states_from_start()
    records = dict(game.records)
    _redescribe(records, game.line[amended + 1 :], game.states[amended + 1 :])
    return replace(game, records=records)


_CATALOGS_CHECKED: dict[tuple[int, int], tuple[Any, Mapping[str, Any], bool]] = {}
"""(id(engine catalog), id(game's catalog)) -> (the two, whether they are the same): see below."""


def _catalog_is_the_games(game: Game) -> bool:
    """Whether the engine's catalog is the game's own, so that a snapshot may keep it once. It is for every
    game recorded by this code (the first event stores the full effective catalog); checked anyway, once per
    pair of catalog objects (the states of a fold share their engine catalog, and games of the same catalog
    share one; a game's fold keeps its own mapping): comparing them costs about what was to be saved."""
    catalog, mine = game.state.catalog, game.catalog
    key = (id(catalog), id(mine))
    seen = _CATALOGS_CHECKED.get(key)
    if seen is not None and seen[0] is catalog and seen[1] is mine:
        return seen[2]
    same = bool(domain.catalog_of(game.state) == mine)
    if len(_CATALOGS_CHECKED) >= 1024:  # bounded: forget them all now and then, each is checked again
        _CATALOGS_CHECKED.clear()
    _CATALOGS_CHECKED[key] = (catalog, mine, same)  # both kept alive, so the ids stay theirs
    return same


def _with_catalog(engine: dict[str, Any], catalog: Mapping[str, Any]) -> dict[str, Any]:
    """The engine's state as ``domain.state_to_dict`` gave it, its catalog put back (see ``GameSnapshot.take``)."""
    return engine if "catalog" in engine else {**engine, "catalog": catalog}


def project_game(game: Game | None, events: Iterable[Any]) -> Game | None:
    """The projector given to the library's repository: a plain left fold of :func:`mutate`."""
    for event in events:
        game = mutate(event, game)
    return game


def after_decided(game: Game, events: Sequence[MovePlayed], states: Sequence[Any]) -> Game:
    """The game after moves just decided from it (``replay.decisions.play``), given the state each one
    reached: what :func:`project_game` gives, without playing each move a second time (``rules.decide``
    and ``rules.reapply`` reach the same state: a unit test holds them equal)."""
    for event, state in zip(events, states, strict=True):
        game = _played_to(event, game, state)
    return game


def fold(events: Iterable[DomainEvent]) -> Game:
    """Fold a whole stream from scratch (tests and imports); raises if the stream is empty."""
    game = project_game(None, events)
    if game is None:
        raise ValueError("no events")
    return game
