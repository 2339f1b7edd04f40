"""The full log as JSON, and its import: every event of a game and of its annotations, refolded on the way in.

An import is untrusted: it is folded again with every check, and nothing is taken from the file that the API would
not take from a client (docs/api/resources.md#imports).
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import msgspec

import domain
from replay import annotations as annotation
from replay import corrections, decisions, rules, text
from replay.errors import ImportTooLarge, ReplayError
from replay.events import (
    ANNOTATION_EVENTS,
    GAME_EVENTS,
    AnnotationAdded,
    AnnotationDeleted,
    AnnotationEdited,
    CorrectionRedone,
    CorrectionUndone,
    DomainEvent,
    GameAbandoned,
    GameCreated,
    LineCorrected,
    MoveAmended,
    MovePlayed,
    MoveResolved,
    MovesRedone,
    MovesUndone,
    RulesUpgraded,
    now,
)
from replay.game import MAX_VERSION, Game, mutate

FORMAT = "heronlog.game"
FORMAT_VERSION = 1
_HEADER = {"originator_id", "originator_version", "timestamp"}
_GAME_TYPES = {cls.__name__: cls for cls in GAME_EVENTS}
_NOTE_TYPES = {cls.__name__: cls for cls in ANNOTATION_EVENTS}


def event_to_dict(event: DomainEvent) -> dict[str, Any]:
    """One event as plain JSON: its type, its version in its stream, its time, and its payload (``data``)."""
    return {
        "type": type(event).__name__,
        "version": event.originator_version,
        "at": event.timestamp.isoformat(),
        "data": {key: value for key, value in vars(event).items() if key not in _HEADER},
    }


def export_document(
    game_events: Sequence[DomainEvent], annotation_events: Sequence[DomainEvent]
) -> dict[str, Any]:
    """The export of one game: its first event's contents at the top, then every later event."""
    created = game_events[0]
    assert isinstance(created, GameCreated)
    setup = created.setup
    if not setup.get(decisions.CATALOG_OVERRIDE) and _own_catalog(created):
        # A game played with a catalog of its own (or with what this build packaged once, changed since):
        # the export says so, or an import here would refuse the catalog as a forgery.
        setup = {**setup, decisions.CATALOG_OVERRIDE: True}
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game_id": str(created.originator_id),
        "rules_version": created.rules_version,
        "created_at": created.timestamp.isoformat(),
        "setup": setup,
        "catalog": created.catalog,
        "opening": created.opening,
        "parent": created.parent,
        "events": [event_to_dict(event) for event in game_events[1:]],
        "annotations": [event_to_dict(event) for event in annotation_events],
    }


def _own_catalog(created: GameCreated) -> bool:
    """Whether a game was played with another catalog than the one this build packages for its setup and
    rules. A build whose engine no longer knows the game's rules packages none for them and cannot tell: the
    setup is exported as recorded (an archive is never locked by an upgrade)."""
    try:
        packaged = rules.packaged_catalog(created.setup, created.rules_version)
    except domain.DomainError:
        return False
    return not same_json(created.catalog, packaged)


def json_text(document: Mapping[str, Any]) -> str:
    """An export as text: what ``heronlog export --format json`` prints and what a backup stores per game
    (:mod:`replay.backups`), one spelling so that the two never drift apart."""
    return json.dumps(document, indent=2, ensure_ascii=False, default=str) + "\n"


@dataclass
class ImportedLog:
    """A log that refolded without a problem: the events to write, and the game they fold to."""

    game: Game
    game_events: list[DomainEvent]
    annotation_events: list[DomainEvent]


class _Problems:
    def __init__(self) -> None:
        self.items: list[dict[str, Any]] = []

    def add(self, position: str, message: str, **details: Any) -> None:
        self.items.append({"position": position, "message": message, **details})


class _Stream:
    """Where a stream's replay stands. Entry ``i`` must be version ``first + i`` (said of every entry, on its
    own). Each entry is replayed on the state the entries before it made, so after a refused entry the later
    ones cannot be: they are not checked against the rules (their shape and version still are), and one
    problem says so, rather than a refusal of each against a state it was never played on."""

    def __init__(self, name: str, first: int, problems: _Problems) -> None:
        self.name = name
        self.first = first
        self.problems = problems
        self.stopped_at: str | None = None
        self.unchecked: list[int] = []

    def refused(self, position: str, message: str, **details: Any) -> None:
        self.problems.add(position, message, **details)
        self.unread(position)

    def unread(self, position: str) -> None:
        """The entry at ``position`` could not be read (its problem is said already): the replay stops there."""
        self.stopped_at = self.stopped_at or position

    def checks(self, index: int, position: str, version: int) -> bool:
        """Whether the entry at ``index``, read without a problem, is in its place and can be replayed."""
        if version != self.first + index:
            self.refused(position, f"version {version} should be {self.first + index}")
            return False
        if self.stopped_at is None:
            return True
        self.unchecked.append(index)
        return False

    def close(self) -> None:
        if self.unchecked:
            first, last = self.unchecked[0], self.unchecked[-1]
            span = f"{self.name}[{first}]" if first == last else f"{self.name}[{first}..{last}]"
            self.problems.add(span, f"not replayed by the rules: they come after {self.stopped_at}")


def _time(value: Any) -> datetime:
    if not isinstance(value, str) or len(value) > 40:
        raise ValueError("a time must be an ISO 8601 text")
    parsed = datetime.fromisoformat(value)
    if parsed.tzinfo is None:
        raise ValueError("a time must carry its UTC offset")
    return parsed


EARLIEST = datetime(2000, 1, 1, tzinfo=UTC)
"""No game of The White Castle (2023) was recorded before this: an earlier date is made up."""
CLOCK_GRACE = timedelta(minutes=10)
"""How far the clocks of two installations (or of two servers of one) may disagree: a date up to this much
after the import, or an event this much before its game's first, is still taken as written."""
MAX_KEY = 200
"""The longest ``Idempotency-Key``, as the API's header takes it."""
MAX_ID = 64
"""The longest annotation id (heronlog's are UUIDs: 36 characters)."""


@dataclass(frozen=True)
class Limits:
    """What an import is held to beyond the rules (see the module docstring). ``now``: the moment of the
    import; ``max_events``: the most events it may hold (0: no cap); ``parent_version``: the version a game of
    this installation is at, or None when there is no such game (None: parents are not looked up: a restore
    of a whole backup keeps a branch's link whatever its parent)."""

    now: datetime
    max_events: int = 0
    parent_version: Callable[[UUID], int | None] | None = None


def event_count(document: Any) -> int:
    """How many events an export holds (its game's and its annotations'), without reading any: what an
    import's size is held to and weighed by."""
    if not isinstance(document, Mapping):
        return 0
    return sum(
        len(document[name]) for name in ("events", "annotations") if isinstance(document.get(name), list)
    )


def check_size(document: Any, max_events: int) -> int:
    """The number of events of an export; :class:`ImportTooLarge` when it holds more than ``max_events``
    (0: no cap)."""
    count = event_count(document)
    if max_events > 0 and count > max_events:
        raise ImportTooLarge(
            f"this export holds {count} events (of its game and its annotations); an import here holds at "
            f"most {max_events}",
            events=count,
            limit=max_events,
        )
    return count


def source_game(document: Any) -> UUID | None:
    """The game an export was taken from (its ``game_id``), if it names one."""
    if not isinstance(document, Mapping) or not isinstance(document.get("game_id"), str):
        return None
    try:
        return UUID(document["game_id"])
    except ValueError:
        return None


def _lone_surrogate(document: Any) -> str | None:
    """Where a string of the document holds a lone surrogate (no store can write one), or None. msgspec
    writes the whole document at C speed when it is clean (nearly always); only a failure walks it."""
    try:
        msgspec.json.encode(document)
        return None
    except (TypeError, ValueError, OverflowError, UnicodeError):
        pass
    stack: list[tuple[str, Any]] = [("document", document)]
    while stack:
        path, item = stack.pop()
        if isinstance(item, str):
            if text.has_surrogate(item):
                return path
        elif isinstance(item, Mapping):
            for key, child in item.items():
                if isinstance(key, str) and text.has_surrogate(key):
                    return path
                stack.append((f"{path}.{key}" if path != "document" else str(key), child))
        elif isinstance(item, list):
            stack.extend((f"{path}[{index}]", child) for index, child in enumerate(item))
    return None


_HINTS: dict[type[DomainEvent], dict[str, Any]] = {}

_ADDED: dict[type[DomainEvent], dict[str, Any]] = {
    MoveAmended: {"resolutions": [], "rewritten": {}},
    AnnotationAdded: {"author_grant": None},
}
"""Fields an event type gained after format 1 was fixed, and what an export written before reads as (the
events' own upcasters say the same for stored events): an amendment had no resolutions and said no kept move
anew, a comment did not say which grant wrote it."""


def _hints(cls: type[DomainEvent]) -> dict[str, Any]:
    """The declared type of each of an event's fields (the events module's annotations, resolved once)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS.setdefault(cls, typing.get_type_hints(cls))
    return hints


def _kind(hint: Any) -> str:
    """A declared type in a reader's words, for the import's report."""
    options = [option for option in typing.get_args(hint) if option is not type(None)]
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return " or ".join([*(_kind(option) for option in options), "null"])
    if typing.get_origin(hint) is list:
        return f"a list of {_kind(options[0]).split(' ', 1)[1]}s"
    names = {int: "a whole number", str: "a text", bool: "a boolean", dict: "an object"}
    return names.get(typing.get_origin(hint) or hint, "a value")


def _fits(value: Any, hint: Any) -> bool:
    """Whether JSON data ``value`` has the shape of the declared type ``hint``. An import is untrusted: a
    field of the wrong kind (a number where the undone versions' list belongs) would otherwise reach the rules
    and fail there as a TypeError, a 500, instead of a problem reported with its position."""
    if hint is Any:
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, option) for option in typing.get_args(hint))
    if hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if origin is list:
        [item] = typing.get_args(hint)
        return isinstance(value, list) and all(_fits(element, item) for element in value)
    if origin is dict:
        _, item = typing.get_args(hint)
        return isinstance(value, dict) and all(
            isinstance(k, str) and _fits(v, item) for k, v in value.items()
        )
    return isinstance(value, hint)


def _misfits(cls: type[DomainEvent], data: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """What is wrong with the fields among ``names`` whose value does not have the type ``cls`` declares."""
    hints = _hints(cls)
    return [f"{name} must be {_kind(hints[name])}" for name in names if not _fits(data[name], hints[name])]


def _build(cls: type[DomainEvent], entry: Mapping[str, Any], originator: UUID) -> DomainEvent:
    """An event of class ``cls`` from its exported form; raises ValueError on a missing or extra field, or on
    a field of the wrong type."""
    names = {field.name for field in fields(cls)} - _HEADER
    data = entry.get("data")
    if not isinstance(data, Mapping):
        raise ValueError("data must be an object")
    added = {name: value for name, value in _ADDED.get(cls, {}).items() if name not in data}
    data = {**data, **added}
    given = set(data)
    if names - given:
        raise ValueError(f"missing field(s): {', '.join(sorted(names - given))}")
    if given - names:
        raise ValueError(f"unknown field(s): {', '.join(sorted(given - names))}")
    version = entry.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ValueError("version must be an integer")
    misfits = _misfits(cls, data, sorted(names))
    if misfits:
        raise ValueError("; ".join(misfits))
    payload = {name: data[name] for name in names}
    return cls(
        originator_id=originator, originator_version=version, timestamp=_time(entry.get("at")), **payload
    )


def same_json(a: Any, b: Any) -> bool:
    """Equality after a JSON round trip (tuples and lists compare equal)."""
    return bool(domain_json(a) == domain_json(b))


def domain_json(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(key): domain_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [domain_json(item) for item in value]
    return value


def refold(document: Any, *, game_id: UUID, limits: Limits | None = None) -> ImportedLog:
    """Check an exported document event by event; return what to write, or raise ``InvalidLog`` listing
    every problem with its position (``events[12]``, ``annotations[3]``, ``setup``...), or
    :class:`ImportTooLarge` before reading any event when it holds more than ``limits.max_events``."""
    from replay.errors import InvalidLog

    limits = limits or Limits(now=now())
    problems = _Problems()
    if not isinstance(document, Mapping):
        raise InvalidLog([{"position": "document", "message": "an export is a JSON object"}])
    check_size(document, limits.max_events)
    if document.get("format") != FORMAT or document.get("format_version") != FORMAT_VERSION:
        raise InvalidLog(
            [{"position": "format", "message": f"not a {FORMAT} document of version {FORMAT_VERSION}"}]
        )
    broken = _lone_surrogate(document)
    if broken is not None:
        raise InvalidLog(
            [{"position": broken, "message": "a text holds a lone surrogate, which is not a character"}]
        )
    rules_version = document.get("rules_version")
    if not isinstance(rules_version, str) or not (rules.is_supported(rules_version) or _upgraded(document)):
        problems.add(
            "rules_version",
            f"recorded under rules {str(rules_version)[:40]}; this build replays "
            f"{', '.join(sorted(rules.COMPATIBLE))}",
        )
        raise InvalidLog(problems.items)
    if rules.is_supported(rules_version):
        game = _created(document, game_id, problems, limits)
    else:
        # Recorded under rules this build no longer replays, and moved to ones it does (``heronlog upgrade``):
        # the moves before the move are read as recorded, and checked all at once under the new rules when
        # the RulesUpgraded event is met (what the upgrade checked before writing it).
        game = _created_as_recorded(document, game_id, problems, limits)
    if game is None:
        raise InvalidLog(problems.items)
    created = game[1]
    current = game[0]
    written: list[DomainEvent] = [created]
    entries = document.get("events")
    if not isinstance(entries, list):
        problems.add("events", "events must be a list")
        entries = []
    stream = _Stream("events", current.version + 1, problems)
    held = _Held()
    checks = _Checks(current, limits, created.timestamp)
    for index, entry in enumerate(entries):
        position = f"events[{index}]"
        event = _parse(entry, _GAME_TYPES, game_id, position, problems)
        if event is None:
            stream.unread(position)
            continue
        if not stream.checks(index, position, event.originator_version):
            continue
        try:
            checks.of_game(current, event, held)
            decided = _recheck(current, event, held)
        except (ReplayError, domain.DomainError) as error:
            stream.refused(position, error.message, error=error.to_dict(), version=event.originator_version)
            continue
        for each in decided:
            current = mutate(each, current)
            written.append(each)
    if held.events and stream.stopped_at is None:
        stream.refused(
            f"events[{len(entries) - 1}]",
            "the log ends with moves of a resolution that no amendment follows (they are written together)",
        )
    stream.close()
    annotation_events = _annotations(document, game_id, current, problems, checks)
    if problems.items:
        raise InvalidLog(problems.items)
    return ImportedLog(game=current, game_events=written, annotation_events=annotation_events)


class _Checks:
    """What the API would have refused in an event, beyond the rules (see the module docstring): who acted and
    whether such a token may do that, its texts, its key, its time."""

    def __init__(self, game: Game, limits: Limits, began: datetime) -> None:
        players = game.setup["players"]
        self.seats = {
            f"seat:{seat}": seat for seat, player in enumerate(players) if not player.get("automatic")
        }
        self.latest = limits.now + CLOCK_GRACE
        self.began = began
        self.keys: dict[str, int] = {}
        """Each key of the game's stream, and the version of the last event that carried it."""
        self.note_keys: set[str] = set()

    def actor(self, actor: str, what: str = "the actor") -> int | None:
        """The seat an actor acts for (None: the owner); a :class:`ReplayError` for one the game has not."""
        if actor == "owner":
            return None
        seat = self.seats.get(actor)
        if seat is None:
            shown = actor if len(actor) <= 40 else f"{actor[:40]}... ({len(actor)} characters)"
            raise ReplayError(
                f"{what} must be owner or seat:N of a seat of this game that takes a token "
                f"({', '.join(['owner', *self.seats])}), not {shown!r}"
            )
        return seat

    @staticmethod
    def for_seats(seat: int | None, seats: Sequence[Any], what: str) -> None:
        """A seat's token acts for its own seat only (the API's rule): refuse an event that says otherwise."""
        if seat is not None and any(other != seat for other in seats):
            raise ReplayError(f"seat:{seat} may {what} its own seat's moves only, as its token may")

    def when(self, at: datetime) -> None:
        if at < EARLIEST or at > self.latest:
            raise ReplayError(
                f"its time {at.isoformat()} is not a real one (before 2000, or after this import)"
            )
        if at < self.began - CLOCK_GRACE:
            raise ReplayError(f"its time {at.isoformat()} comes before the game began")

    def key(self, key: str | None, version: int, keys: dict[str, int]) -> None:
        """An event's ``idempotency_key``: the header's 1 to 200 printable characters, trimmed, naming one
        write (the events of one write are written together: one key is never found on two writes)."""
        if key is None:
            return
        if (
            not isinstance(key, str)
            or not 1 <= len(key) <= MAX_KEY
            or not key.isprintable()
            or key != key.strip()
        ):
            raise ReplayError("an idempotency_key is 1 to 200 printable characters, as the header takes it")
        last = keys.get(key)
        if last is not None and last != version - 1:
            raise ReplayError("this idempotency_key names an earlier write too: a key names one write")
        keys[key] = version

    def of_game(self, game: Game, event: DomainEvent, held: _Held) -> None:
        """Refuse what no token could have written through the API in this event of the game's stream."""
        self.when(event.timestamp)
        self.key(getattr(event, "idempotency_key", None), event.originator_version, self.keys)
        if isinstance(event, RulesUpgraded):
            return  # written by whoever runs ``heronlog upgrade``, never by a token: checked against the rules
        seat = self.actor(str(getattr(event, "actor", "")))
        if isinstance(event, MovePlayed | MoveResolved):
            self.for_seats(seat, [event.move.get("seat")], "record")
        elif isinstance(event, MovesUndone):
            self.for_seats(seat, [_seat_of(game, version) for version in event.versions], "undo")
        elif isinstance(event, MovesRedone):
            self.for_seats(seat, [_seat_of(game, version) for version in event.versions], "redo")
        elif isinstance(event, MoveAmended | LineCorrected):
            resolved = [(move.seat, _seat_of(game, move.replaces)) for move in held.events]
            if any(move.actor != event.actor for move in held.events):
                raise ReplayError("the moves of a resolution are recorded by the actor of their amendment")
            if seat is not None and (
                (isinstance(event, LineCorrected) and event.seats is not None)
                or any("swap_seats" in entry for entry in event.resolutions if isinstance(entry, Mapping))
            ):
                raise ReplayError("only the owner swaps the seats of moves")
            own = [event.move.get("seat")] if isinstance(event, MoveAmended) else []
            seats = [
                *own,
                _seat_of(game, event.version) if event.version != 1 else None,
                *(s for pair in resolved for s in pair),
                *(_seat_of(game, int(version)) for version in event.rewritten if version.isdigit()),
            ]
            self.for_seats(seat, seats, "amend")
        elif isinstance(event, CorrectionUndone | CorrectionRedone):
            change = game.corrected if isinstance(event, CorrectionUndone) else game.uncorrected
            if change is not None:
                moved = set(change.before.line) ^ set(change.after.line) | set(change.before.moves)
                self.for_seats(seat, [_seat_of(game, version) for version in moved], "undo")
        elif isinstance(event, GameAbandoned):
            if seat is not None:
                raise ReplayError("only the owner abandons a game")
            reason(event.reason)

    def of_annotation(self, stream: annotation.Annotations, event: DomainEvent) -> None:
        """Refuse what no token could have written through the API in an event of the annotation stream."""
        self.when(event.timestamp)
        key = getattr(event, "idempotency_key", None)
        if key is not None:
            self.key(key, event.originator_version, {})
            if key in self.note_keys:
                raise ReplayError("this idempotency_key names an earlier comment too: a key names one write")
            self.note_keys.add(key)
        if isinstance(event, AnnotationAdded):
            self.actor(event.author, "the author")
            if not _an_id(event.annotation_id) or event.annotation_id in stream.items:
                raise ReplayError("an annotation_id is a new id of at most 64 letters, digits and dashes")
        elif isinstance(event, AnnotationEdited | AnnotationDeleted):
            actor = event.editor if isinstance(event, AnnotationEdited) else event.actor
            seat = self.actor(actor, "who changed it")
            author = stream.get(event.annotation_id).author
            if seat is not None and actor != author:
                raise ReplayError(f"{actor} may change its own comments only, not those of {author}")


def reason(said: str) -> str:
    """An abandonment's reason as a game keeps it (the text rules, at most 500 characters, several lines)."""
    return text.checked(said, "the reason", max_length=decisions.MAX_REASON, multiline=True, allow_empty=True)


def _seat_of(game: Game, version: int) -> Any:
    record = game.records.get(version)
    return record.seat if record is not None else None


def _an_id(value: str) -> bool:
    return 1 <= len(value) <= MAX_ID and all(
        char.isascii() and (char.isalnum() or char == "-") for char in value
    )


def _a_parent(parent: Any) -> bool:
    """Whether ``parent`` is what a fork records: null, or the parent game's id and the version it branched at."""
    if parent is None:
        return True
    if not isinstance(parent, Mapping) or set(parent) != {"game_id", "version"}:
        return False
    version = parent["version"]
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= MAX_VERSION:
        return False
    try:
        return bool(str(UUID(str(parent["game_id"]))) == parent["game_id"])
    except ValueError:
        return False


def _created(
    document: Mapping[str, Any], game_id: UUID, problems: _Problems, limits: Limits
) -> tuple[Game, GameCreated] | None:
    given: dict[str, Any] = {"setup": {}, "catalog": None, "opening": [], "parent": None}
    given.update((name, document[name]) for name in given if name in document)
    misfits = _misfits(GameCreated, {**given, "catalog": given["catalog"] or {}}, sorted(given))
    for misfit in misfits:
        problems.add(misfit.split(" ", 1)[0], misfit)
    if misfits:
        return None
    if not _a_parent(given["parent"]):
        # the pages link a branch to its parent by these two fields: anything else is not a game's parent
        problems.add("parent", "parent must be null or {game_id: a game's id, version: a version from 1}")
        return None
    if not _parent_here(given["parent"], document, game_id, problems, limits):
        return None
    rules_version = str(document["rules_version"])  # one of rules.COMPATIBLE: the caller checked it
    try:
        event, _ = decisions.create(
            given["setup"],
            catalog=given["catalog"],
            game_id=game_id,
            parent=given["parent"],
            opening=given["opening"],
            rules_version=rules_version,
        )
    except (ReplayError, domain.DomainError) as error:
        problems.add("setup", error.message, error=error.to_dict())
        return None
    declared = isinstance(given["setup"], Mapping) and given["setup"].get(decisions.CATALOG_OVERRIDE) is True
    if event.setup.get(decisions.CATALOG_OVERRIDE) and not declared:
        problems.add(
            "catalog",
            f"the catalog is not the one this build packages for such a game (rules {rules_version}"
            f"{_first_difference(event.catalog, rules.packaged_catalog(event.setup, rules_version))}): an "
            "export declares a catalog of its own with setup.catalog_override: true, and the game is then "
            "marked as played with it",
        )
        return None
    if not same_json(event.setup, document.get("setup")) and not same_json(
        event.setup, _tidied(document.get("setup"))
    ):
        problems.add(
            "setup",
            "the setup is not in its stored form (players, mode, seed, options, title, private, expansions)",
        )
        return None
    if event.setup["mode"] == "seeded":
        _, drawn = rules.draw_opening(rules.fresh_state(event.setup, event.catalog, event.rules_version))
        if not same_json(drawn, document.get("opening")):
            problems.add("opening", "the setup's chance outcomes are not what the seed draws")
            return None
    at = _created_at(document, problems, limits)
    if at is None:
        return None
    created = GameCreated(
        originator_id=game_id,
        originator_version=1,
        timestamp=at,
        setup=event.setup,
        rules_version=event.rules_version,
        catalog=event.catalog,
        opening=event.opening,
        parent=event.parent,
    )
    return mutate(created, None), created


def _created_at(document: Mapping[str, Any], problems: _Problems, limits: Limits) -> datetime | None:
    """When the exported game was created, if it is a real date (from 2000 to this import, give or take the
    clock's grace); else a problem at ``created_at`` and None."""
    try:
        at = _time(document.get("created_at"))
    except ValueError as error:
        problems.add("created_at", str(error))
        return None
    if at < EARLIEST or at > limits.now + CLOCK_GRACE:
        problems.add("created_at", f"{at.isoformat()} is not a real date (before 2000, or after this import)")
        return None
    return at


def _upgraded(document: Mapping[str, Any]) -> bool:
    """Whether the exported log moves the game to rules this build replays (a ``RulesUpgraded`` event)."""
    entries = document.get("events")
    return isinstance(entries, list) and any(
        isinstance(entry, Mapping)
        and entry.get("type") == RulesUpgraded.__name__
        and isinstance(entry.get("data"), Mapping)
        and rules.is_supported(str(entry["data"].get("rules_version")))
        for entry in entries
    )


def _created_as_recorded(
    document: Mapping[str, Any], game_id: UUID, problems: _Problems, limits: Limits
) -> tuple[Game, GameCreated] | None:
    """The first event of a log recorded under rules this build does not replay, checked for its form, its
    parent and its date only (the rules cannot decide it here); the game it starts has no states until its
    RulesUpgraded event."""
    given: dict[str, Any] = {"setup": {}, "catalog": {}, "opening": [], "parent": None}
    given.update((name, document[name]) for name in given if name in document)
    misfits = _misfits(GameCreated, given, sorted(given))
    for misfit in misfits:
        problems.add(misfit.split(" ", 1)[0], misfit)
    if misfits or not _a_parent(given["parent"]):
        if not misfits:
            problems.add("parent", "parent must be null or {game_id: a game's id, version: a version from 1}")
        return None
    if not _parent_here(given["parent"], document, game_id, problems, limits):
        return None
    at = _created_at(document, problems, limits)
    if at is None:
        return None
    created = GameCreated(
        originator_id=game_id,
        originator_version=1,
        timestamp=at,
        setup=given["setup"],
        rules_version=str(document["rules_version"]),
        catalog=given["catalog"],
        opening=given["opening"],
        parent=given["parent"],
    )
    return mutate(created, None), created


def _recheck_upgrade(game: Game, event: RulesUpgraded) -> None:
    """A RulesUpgraded event must move the game from its own rules to rules this build replays, and its whole
    line of play so far must pass them (what ``heronlog upgrade`` checks before writing it)."""
    if not rules.is_supported(event.rules_version):
        raise ReplayError(
            f"it moves the game to rules {event.rules_version}, which this build does not replay"
        )
    if event.previous != game.rules_version:
        raise ReplayError(
            f"it moves the game from rules {event.previous}, but the game is under {game.rules_version}"
        )
    line = [(v, game.records[v].move, game.records[v].chance) for v in game.line]
    refused = rules.first_refusal(game.setup, game.catalog, game.opening, line, event.rules_version)
    if refused is not None:
        version, _, error = refused
        raise ReplayError(
            f"the line of play does not pass rules {event.rules_version}: version {version}: {error.message}"
        )


def _tidied(setup: Any) -> Any:
    """A setup with its names, colours and title in the form a game keeps text (:func:`replay.text.tidy`): a
    game recorded before the text rules may hold a name with a blank or an invisible character at its end, or
    a decomposed accent; its import keeps the name as the rules keep it now (anything else still differs)."""
    if not isinstance(setup, Mapping):
        return setup
    tidied = dict(setup)
    if isinstance(setup.get("title"), str):
        tidied["title"] = text.tidy(setup["title"])
    if isinstance(setup.get("players"), list):
        tidied["players"] = [
            {
                key: text.tidy(value) if key in ("name", "colour") and isinstance(value, str) else value
                for key, value in player.items()
            }
            if isinstance(player, Mapping)
            else player
            for player in setup["players"]
        ]
    return tidied


def _parent_here(
    parent: Mapping[str, Any] | None,
    document: Mapping[str, Any],
    game_id: UUID,
    problems: _Problems,
    limits: Limits,
) -> bool:
    """Whether a branch's parent is another game, one of this installation that had that version (when
    ``limits`` says which games there are): a link to nothing, or to itself, is refused."""
    if parent is None:
        return True
    parent_id = UUID(str(parent["game_id"]))
    if parent_id in (game_id, source_game(document)):
        problems.add("parent", "a game cannot be its own parent")
        return False
    if limits.parent_version is None:
        return True
    version = limits.parent_version(parent_id)
    if version is None:
        problems.add(
            "parent",
            f"the parent game {parent_id} is not here: import it first (a branch links to a game of this "
            "installation)",
        )
        return False
    if parent["version"] > version:
        problems.add(
            "parent", f"the parent game {parent_id} has versions 1 to {version}, not {parent['version']}"
        )
        return False
    return True


def _first_difference(mine: Any, packaged: Any, path: str = "catalog") -> str:
    """Where two catalogs first differ, in words (``: catalog.passage_of_time.points[0] differs``)."""
    if isinstance(mine, Mapping) and isinstance(packaged, Mapping):
        for key in sorted(set(mine) | set(packaged), key=str):
            if key not in mine or key not in packaged:
                return f": {path}.{key} is {'missing' if key not in mine else 'not packaged'}"
            found = _first_difference(mine[key], packaged[key], f"{path}.{key}")
            if found:
                return found
        return ""
    if isinstance(mine, list | tuple) and isinstance(packaged, list | tuple):
        if len(mine) != len(packaged):
            return f": {path} has {len(mine)} entries, not {len(packaged)}"
        for index, (a, b) in enumerate(zip(mine, packaged, strict=True)):
            found = _first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        return ""
    return "" if mine == packaged else f": {path} differs"


def _parse(
    entry: Any, types: Mapping[str, type[DomainEvent]], originator: UUID, position: str, problems: _Problems
) -> DomainEvent | None:
    if not isinstance(entry, Mapping) or not isinstance(entry.get("type"), str) or entry["type"] not in types:
        problems.add(
            position, f"unknown event type {entry.get('type') if isinstance(entry, Mapping) else entry!r}"
        )
        return None
    try:
        return _build(types[entry["type"]], entry, originator)
    except (TypeError, ValueError) as error:
        problems.add(position, f"malformed {entry['type']}: {error}")
        return None


@dataclass
class _Held:
    """The moves of an amendment's resolutions read so far (``MoveResolved``), awaiting the ``MoveAmended``
    that is written right after them: they are re-decided with it, as one decision, and ``before`` is the game
    as it stood before the first of them."""

    events: list[MoveResolved] = field(default_factory=list)
    before: Game | None = None


def _recheck(game: Game, event: DomainEvent, held: _Held) -> list[DomainEvent]:
    """Re-decide ``event`` against ``game``; raise if the decision differs from what the log says. Returns the
    events to write for it: the event itself, its words said again by the rules (never the file's); none
    yet for a resolution's move, written with its amendment."""
    if held.events and not isinstance(event, MoveResolved | MoveAmended | LineCorrected):
        raise ReplayError(
            "moves of a resolution must be followed by their amendment (they are written together)"
        )
    if isinstance(event, RulesUpgraded):  # an abandoned game may be moved too, as ``heronlog upgrade`` does
        _recheck_upgrade(game, event)
        return [event]
    if not game.playable:
        # Under rules this build does not replay: read as recorded (its words as the file has them: no rules
        # here say them again); the RulesUpgraded event that follows checks the whole line of play at once.
        # Only what needs no rules is checked here.
        if isinstance(event, MovesUndone | MovesRedone | MoveResolved | MoveAmended | LineCorrected):
            _recheck_line_only(game, event)
        if isinstance(event, CorrectionUndone | CorrectionRedone):
            _recheck_turn(game, event)
        if game.abandoned is not None:
            raise ReplayError("the game was already abandoned")
        return [event]
    if isinstance(event, MovePlayed):
        [decided] = decisions.play(game, [event.move], actor=event.actor).events
        if not same_json(decided.chance, event.chance):
            raise ReplayError("the chance outcomes after this move are not what the seed draws")
        if event.seat != event.move.get("seat"):
            raise ReplayError("the event's seat is not the move's seat")
        return [replace(event, description=decided.description)]
    if isinstance(event, MovesUndone):
        tail = list(game.line[len(game.line) - len(event.versions) :]) if event.versions else []
        if not event.versions or tail != list(event.versions):
            raise ReplayError("an undo must take back the last moves of the line of play, in order")
    elif isinstance(event, MovesRedone):
        if not event.versions or list(game.redo[: len(event.versions)]) != list(event.versions):
            raise ReplayError("a redo must replay the next undone moves, in order")
    elif isinstance(event, MoveResolved):
        # Checked with the amendment that follows it; here only what can be said of it alone. The game stays
        # as it stood before the first of them until the amendment: they are folded with it.
        if event.replaces not in game.line:
            raise ReplayError("a resolution's move must stand in for a move of the line of play")
        held.before = held.before or game
        held.events.append(event)
        return []
    elif isinstance(event, MoveAmended | LineCorrected):
        written = _recheck_amendment(held.before or game, event, held.events)
        held.events, held.before = [], None
        return written
    elif isinstance(event, CorrectionUndone | CorrectionRedone):
        _recheck_turn(game, event)
    if game.abandoned is not None:
        raise ReplayError("the game was already abandoned")
    if isinstance(event, GameAbandoned):  # kept as the rules keep texts now (a reason stored before them)
        return [replace(event, reason=reason(event.reason))]
    return [event]


def _recheck_line_only(game: Game, event: DomainEvent) -> None:
    """The checks of an undo, a redo or an amendment that need no rules: they must fit the line of play."""
    if isinstance(event, MovesUndone):
        tail = list(game.line[len(game.line) - len(event.versions) :]) if event.versions else []
        if not event.versions or tail != list(event.versions):
            raise ReplayError("an undo must take back the last moves of the line of play, in order")
    elif isinstance(event, MovesRedone):
        if not event.versions or list(game.redo[: len(event.versions)]) != list(event.versions):
            raise ReplayError("a redo must replay the next undone moves, in order")
    elif isinstance(event, MoveResolved | MoveAmended | LineCorrected):
        target = event.replaces if isinstance(event, MoveResolved) else event.version
        if target not in game.line and not (isinstance(event, LineCorrected) and event.opening is not None):
            raise ReplayError("an amendment must correct a move of the line of play")


def _recheck_turn(game: Game, event: CorrectionUndone | CorrectionRedone) -> None:
    """An undo of a correction takes back the correction that was the last change to the line; a redo writes
    again the one just taken back."""
    change = game.corrected if isinstance(event, CorrectionUndone) else game.uncorrected
    if change is None or change.version != event.correction:
        what = (
            "takes back the correction that was the last change"
            if isinstance(event, CorrectionUndone)
            else ("writes again the correction just taken back")
        )
        raise ReplayError(
            f"a correction's {'undo' if isinstance(event, CorrectionUndone) else 'redo'} {what}"
        )


def _recheck_amendment(
    game: Game, event: MoveAmended | LineCorrected, resolving: Sequence[MoveResolved]
) -> list[DomainEvent]:
    """Re-decide a correction with its resolutions (the moves recorded just before it) against the game as it
    stood before them; raise unless the rules decide every one of those events as the log has them. Returns
    them all, in order, each with the words the rules say for it."""
    correction, asked = _correction_asked(game, event, resolving)
    decided, _ = corrections.correct(
        game, correction, actor=event.actor, unchanged=True, resolutions=asked, suggest=False
    )
    *moves, amended = decided
    if type(amended) is not type(event):
        raise ReplayError("the correction is not the kind the rules decide for it now")
    assert isinstance(amended, MoveAmended | LineCorrected)
    if not same_json(amended.dropped, event.dropped):
        raise ReplayError("the amendment's consequences differ from what the rules decide now")
    if isinstance(amended, MoveAmended) and isinstance(event, MoveAmended):
        if not same_json(amended.chance, event.chance):
            raise ReplayError("the amendment's consequences differ from what the rules decide now")
    elif isinstance(event, LineCorrected) and not same_json(getattr(amended, "opening", None), event.opening):
        raise ReplayError("the corrected setup's chance outcomes are not what its layout deals")
    if not same_json(amended.redrawn, event.redrawn):
        raise ReplayError("the amendment's redrawn chance outcomes are not what the seed draws")
    if not same_json(amended.rewritten, event.rewritten):
        raise ReplayError("the moves the amendment says anew are not what the rules say now")
    if not same_json(amended.resolutions, event.resolutions) or len(moves) != len(resolving):
        raise ReplayError("the amendment's resolutions are not where the rules put them now")
    written: list[DomainEvent] = []
    for mine, theirs in zip(moves, resolving, strict=True):
        assert isinstance(mine, MoveResolved)
        same = (mine.originator_version, mine.replaces, mine.seat) == (
            theirs.originator_version,
            theirs.replaces,
            theirs.seat,
        )
        if not same or not same_json(mine.chance, theirs.chance):
            raise ReplayError(
                f"the resolution's move of version {theirs.originator_version} is not what the rules decide "
                "now (its seat, the move it stands in for, or the chance outcomes after it)",
                resolution_version=theirs.originator_version,
            )
        written.append(replace(theirs, description=mine.description))
    return [*written, replace(event, description=amended.description)]


def _correction_asked(
    game: Game, event: MoveAmended | LineCorrected, resolving: Sequence[MoveResolved]
) -> tuple[corrections.Correction, list[corrections.Resolution]]:
    """The correction and the resolutions an amendment was asked for, as its event and the moves recorded
    before it tell them."""
    asked = _resolutions_asked(event, resolving)
    if isinstance(event, MoveAmended):
        return corrections.Correction.replacing(event.version, event.move), asked
    if event.correction not in corrections.KINDS:
        raise ReplayError(f"a correction is one of {', '.join(corrections.KINDS)}")
    seats = tuple(event.seats) if event.seats is not None else None
    if seats is not None and len(seats) != 2:
        raise ReplayError("a swap of seats names two seats")
    if event.opening is not None:
        layout = _layout_of_opening(game, event.opening) if event.correction == "setup" else None
        return corrections.Correction(1, event.correction, seats=seats, layout=layout), asked
    head = (
        next((one for one in asked if game.line.index(event.version) + 1 == one.index), None)
        if (event.version in game.line)
        else None
    )
    if head is None:
        raise ReplayError("a correction says what happened at the move it corrects")
    return (
        corrections.Correction(
            event.version, event.correction, head.moves, seats=seats, keeps=head.keep_recorded
        ),
        [one for one in asked if one is not head],
    )


def _layout_of_opening(game: Game, opening: Sequence[Any]) -> dict[str, Any]:
    """The layout that the setup's chance outcomes ``opening`` deal (each checked by the rules)."""
    state = rules.fresh_state(game.setup, game.catalog, game.rules_version)
    try:
        for outcome in opening:
            state = domain.apply(state, outcome, check=True, draw=False)
    except (domain.DomainError, TypeError, KeyError) as error:
        raise ReplayError(f"the corrected setup's chance outcomes do not fit: {error}") from error
    return dict(domain.layout_of(state))


def _resolutions_asked(
    event: MoveAmended | LineCorrected, resolving: Sequence[MoveResolved]
) -> list[corrections.Resolution]:
    """The resolutions an amendment was asked for, as its event and the moves recorded before it tell them.
    ``keep_recorded`` was asked where the recorded move stayed after them, or where it was still the first
    misfit after them (then it is the first move dropped)."""
    moves = {resolved.originator_version: resolved.move for resolved in resolving}
    asked: list[corrections.Resolution] = []
    for entry in event.resolutions:
        if (
            not {"index", "version", "moves", "kept"}
            <= set(entry)
            <= {"index", "version", "moves", "kept", "swap_seats"}
            or not all(_fits(entry[name], int) for name in ("index", "version"))
            or not _fits(entry["moves"], list[int])
            or not isinstance(entry["kept"], bool)
            or ("swap_seats" in entry and not _fits(entry["swap_seats"], list[int]))
        ):
            raise ReplayError("a resolution of the amendment is not {index, version, moves, kept}")
        if any(version not in moves for version in entry["moves"]):
            raise ReplayError(
                "a resolution of the amendment names a move that is not recorded just before it"
            )
        if "swap_seats" in entry:
            seats = entry["swap_seats"]
            if len(seats) != 2 or entry["moves"]:
                raise ReplayError("a resolution that swaps seats names two seats, and plays no move")
            asked.append(corrections.Resolution(entry["index"], (), swap_seats=(seats[0], seats[1])))
            continue
        kept = entry["kept"] or entry["version"] in event.dropped[:1]
        asked.append(
            corrections.Resolution(
                entry["index"], tuple(moves[v] for v in entry["moves"]), keep_recorded=kept
            )
        )
    return asked


def _annotations(
    document: Mapping[str, Any], game_id: UUID, game: Game, problems: _Problems, checks: _Checks
) -> list[DomainEvent]:
    entries = document.get("annotations", [])
    if not isinstance(entries, list):
        problems.add("annotations", "annotations must be a list")
        return []
    stream = annotation.empty(game_id)
    replayed = _Stream("annotations", stream.version + 1, problems)
    written: list[DomainEvent] = []
    for index, entry in enumerate(entries):
        position = f"annotations[{index}]"
        if (
            isinstance(entry, dict)
            and entry.get("type") == "AnnotationAdded"
            and isinstance(entry.get("data"), dict)
        ):
            entry = {**entry, "data": {**entry["data"], "game_id": str(game_id)}}  # noqa: PLW2901  (re-anchored)
        event = _parse(entry, _NOTE_TYPES, stream.id, position, problems)
        if event is None:
            replayed.unread(position)
            continue
        if not replayed.checks(index, position, event.originator_version):
            continue
        try:
            checks.of_annotation(stream, event)
            if isinstance(event, AnnotationAdded):
                if not 1 <= event.version <= game.version:
                    raise ReplayError(f"anchored to version {event.version}, beyond the game")
                said, glyph, target = annotation.check_content(event.text, event.glyph, event.target)
                # The grants of the installation it was written in are not this one's: here only the owner
                # may change it (replay.annotations.Annotation.changeable_by).
                event = replace(event, text=said, glyph=glyph, target=target, author_grant=None)
            elif isinstance(event, AnnotationEdited):
                said, glyph, target = annotation.check_content(event.text, event.glyph, event.target)
                event = replace(event, text=said, glyph=glyph, target=target)
        except ReplayError as error:
            replayed.refused(position, error.message)
            continue
        stream = annotation.mutate(event, stream)
        written.append(event)
    replayed.close()
    return written
