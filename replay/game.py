"""The game aggregate: an immutable fold of a game's events, and the projector that builds it.

A :class:`Game` is what the log knows about one game at one version: its setup, every move ever recorded
(:class:`MoveRecord`, kept even when undone), the **line of play** (the versions of the effective moves, in
order), what can be redone, the audit of undo/redo/amend, and the rules-engine states along the line.

The projector :func:`project_game` is a plain function (STYLE: eventsourcing's functional aggregate): for
each event it returns a new ``Game``; it never validates, never draws a random number and never reads the clock
("decide once, apply many"). Keeping every state along the line (they are immutable and share structure)
makes undo to any point O(1) and a replay step free; a game rebuilt from a snapshot starts with only its
current state and rebuilds the earlier ones the first time they are needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import singledispatch
from typing import Any
from uuid import UUID

import msgspec

import domain
from domain import GameState
from replay import rules
from replay.events import (
    DomainEvent,
    GameAbandoned,
    GameCreated,
    Move,
    MoveAmended,
    MovePlayed,
    MoveResolved,
    MovesRedone,
    MovesUndone,
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
        )


@dataclass(frozen=True)
class AuditEntry:
    """A change to the line of play other than a new move: undo, redo, amend, abandon."""

    version: int
    kind: str
    actor: str
    at: datetime
    versions: tuple[int, ...]
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "kind": self.kind,
            "actor": self.actor,
            "at": self.at,
            "versions": list(self.versions),
            "note": self.note,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AuditEntry:
        return cls(
            version=data["version"],
            kind=data["kind"],
            actor=data["actor"],
            at=data["at"],
            versions=tuple(data["versions"]),
            note=data["note"],
        )


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

    @property
    def state(self) -> GameState:
        """The current rules-engine state."""
        return self.states[-1]

    @property
    def mode(self) -> str:
        return str(self.setup["mode"])

    @property
    def status(self) -> str:
        """``abandoned``, ``finished`` (the rules say the game is over) or ``in progress``."""
        if self.abandoned is not None:
            return "abandoned"
        return "finished" if domain.is_over(self.state) else "in progress"

    def state_after(self, moves: int) -> GameState:
        """The state after the first ``moves`` effective moves of the line of play."""
        if not 0 <= moves <= len(self.line):
            raise IndexError(moves)
        if moves >= self.base:
            return self.states[moves - self.base]
        state = rules.opening_state(self.setup, self.catalog, self.opening, rules_version=self.rules_version)
        for version in self.line[:moves]:
            record = self.records[version]
            state = rules.reapply(state, record.move, record.chance)
        return state

    def with_states_from_start(self) -> Game:
        """This game with every state along the line materialised (after a snapshot only the last is)."""
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
    rules.ensure_supported(event.rules_version)
    opening = tuple(dict(move) for move in event.opening)
    state = rules.opening_state(event.setup, event.catalog, opening, rules_version=event.rules_version)
    return created_game(event, state)


def created_game(event: GameCreated, state: Any) -> Game:
    """The game a ``GameCreated`` event starts, given its opening state: the state the rules engine built when
    it decided the game (``decisions.create``), or the one the fold builds from the event."""
    opening = tuple(dict(move) for move in event.opening)
    return Game(
        id=event.originator_id,
        version=event.originator_version,
        created_on=event.timestamp,
        modified_on=event.timestamp,
        setup=event.setup,
        rules_version=event.rules_version,
        catalog=rules.shared_catalog(state, event.catalog),  # one copy per catalog, not per game read
        opening=opening,
        parent=event.parent,
        records={},
        line=(),
        redo=(),
        audit=(),
        keys={},
        abandoned=None,
        base=0,
        states=(state,),
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
    """The states after playing ``versions`` (recorded moves) on from the current state."""
    states = list(game.states)
    for version in versions:
        record = records[version]
        states.append(rules.reapply(states[-1], record.move, record.chance))
    return tuple(states)


def _truncated(game: Game, moves: int) -> Game:
    """The game with its states cut back to the first ``moves`` effective moves (rebuilding if needed)."""
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
        states=_extend(game, [record.version], records) if state is None else (*game.states, state),
    )


@mutate.register
def _undone(event: MovesUndone, game: Game | None) -> Game:
    assert game is not None
    kept = len(game.line) - len(event.versions)
    cut = _truncated(game, kept)
    entry = AuditEntry(event.originator_version, "undo", event.actor, event.timestamp, tuple(event.versions))
    return replace(
        cut,
        **_advance(game, event),
        redo=(*event.versions, *game.redo),
        audit=(*game.audit, entry),
    )


@mutate.register
def _redone(event: MovesRedone, game: Game | None) -> Game:
    assert game is not None
    entry = AuditEntry(event.originator_version, "redo", event.actor, event.timestamp, tuple(event.versions))
    return replace(
        game,
        **_advance(game, event),
        line=(*game.line, *event.versions),
        redo=game.redo[len(event.versions) :],
        audit=(*game.audit, entry),
        states=_extend(game, event.versions, game.records),
    )


@mutate.register
def _resolved(event: MoveResolved, game: Game | None) -> Game:
    # Only recorded: the amendment written right after it puts it on the line of play (``_amended``).
    assert game is not None
    record = _record_of(event, resolves=event.replaces)
    return replace(game, **_advance(game, event), records={**game.records, record.version: record})


@mutate.register
def _amended(event: MoveAmended, game: Game | None) -> Game:
    assert game is not None
    position = game.line.index(event.version)
    dropped = set(event.dropped)
    resolutions = {int(entry["version"]): entry for entry in event.resolutions}
    later: list[int] = []
    left: list[int] = []  # the later moves that leave the line: dropped, or replaced by their resolution
    for version in game.line[position + 1 :]:
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
    records = dict(game.records)
    for key, outcomes in event.redrawn.items():
        records[int(key)] = replace(records[int(key)], chance=tuple(dict(o) for o in outcomes))
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
    cut = _truncated(game, position)
    states = _extend(cut, [amended.version, *later], records)
    # The kept later moves are now played on the corrected line: their words are said again from the states
    # they are played on there ("places the coral 6", not the die the old line had taken). Only here: a move
    # recorded is described once, when it is decided (``decisions.play``), on the line it is played on.
    first = position + 1 - cut.base  # index in ``states`` of the state before the first kept move
    _redescribe(records, later, states[first:])
    corrected = f"; played {len(resolutions)} later move(s) anew" if resolutions else ""
    entry = AuditEntry(
        event.originator_version,
        "amend",
        event.actor,
        event.timestamp,
        (event.version, *left),
        note=f"replaced the move of version {event.version}{corrected}; dropped {len(event.dropped)} later "
        "move(s)",
    )
    return replace(
        cut,
        **_advance(game, event),
        records=records,
        line=(*cut.line, amended.version, *later),
        redo=(),
        audit=(*game.audit, entry),
        states=states,
    )


def _redescribe(records: dict[int, MoveRecord], versions: Sequence[int], befores: Sequence[Any]) -> None:
    """Describe each move of ``versions`` again from the state before it (``befores``, in order) and keep the
    words in its record (``records`` is changed in place): what the move does on the line it now stands on."""
    for version, before in zip(versions, befores, strict=False):
        record = records[version]
        description = domain.describe(before, record.move)
        if description != record.description:
            records[version] = replace(record, description=description)


@mutate.register
def _abandoned(event: GameAbandoned, game: Game | None) -> Game:
    assert game is not None
    entry = AuditEntry(
        event.originator_version, "abandon", event.actor, event.timestamp, (), note=event.reason
    )
    return replace(game, **_advance(game, event), abandoned=entry, audit=(*game.audit, entry))


# --- snapshots --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameSnapshot(DomainEvent):
    """A game's fold at one version: the library's snapshot store keeps these so that reading a long game, or
    any past version of it, folds only the events after the nearest snapshot.

    ``state`` is the fold as JSON text, written by msgspec and kept by the library as one string. The
    library's own JSON transcoder took about 1 ms for a typical 50 KB fold (a tenth of that for msgspec), and
    snapshots are written while moves are being recorded. Snapshots written before this hold the same data as
    JSON data (a dictionary), and restore as they did."""

    topic: str
    state: dict[str, Any] | str

    @classmethod
    def take(cls, game: Game) -> GameSnapshot:
        # The engine's state holds the catalog too, the same as the game's own (its first event's): it is
        # kept once, beside the engine's state, and put back on restoring. It was a third of every snapshot,
        # and snapshots are taken while recording moves. Snapshots written before keep their copy, and so
        # does one whose engine catalog differs from the game's (none is known to).
        engine = domain.state_to_dict(game.state, catalog=not _catalog_is_the_games(game))
        fold = {
            "created_on": game.created_on,
            "setup": game.setup,
            "rules_version": game.rules_version,
            "catalog": game.catalog,
            "opening": game.opening,
            "parent": game.parent,
            # The records are frozen dataclasses: msgspec writes each as an object of its fields, with no
            # dictionary made for it (a unit test holds that equal to the earlier format's records).
            "records": list(game.records.values()),
            "line": game.line,
            "redo": game.redo,
            "audit": game.audit,
            "keys": game.keys,
            "abandoned": game.abandoned,
            "engine": engine,
            # The records' words are those of the line of play as it stands (``_redescribe``): a snapshot
            # without this mark was written before amendments said their kept moves again (see ``_restored``).
            "described_on_line": True,
        }
        return cls(
            originator_id=game.id,
            originator_version=game.version,
            timestamp=game.modified_on,
            topic="replay.game:Game",
            state=_SNAPSHOT_JSON.encode(fold).decode(),
        )

    def fold(self) -> dict[str, Any]:
        """The fold as JSON data, times as ``datetime`` (as snapshots of the earlier format read back)."""
        if isinstance(self.state, dict):
            return self.state
        data: dict[str, Any] = _SNAPSHOT_JSON_DATA.decode(self.state)
        data["created_on"] = datetime.fromisoformat(data["created_on"])
        for entry in (*data["records"], *data["audit"], data["abandoned"]):
            if entry is not None:
                entry["at"] = datetime.fromisoformat(entry["at"])
        return data


_SNAPSHOT_JSON = msgspec.json.Encoder()
_SNAPSHOT_JSON_DATA = msgspec.json.Decoder()


@mutate.register
def _restored(event: GameSnapshot, _: Game | None) -> Game:
    data = event.fold()
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
