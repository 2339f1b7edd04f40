"""The domain events of a game's stream and of its annotation stream (docs/architecture/events.md).

Events are frozen, past-tense, module-level dataclasses with plain JSON payloads. Their class names and module
path are stored with every event, so they are a contract: change one only with a new ``class_version`` and an
``upcast_vN_vN+1`` static method.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

Move = dict[str, Any]
"""A move as the rules engine takes it: a small JSON object with ``kind`` and ``seat``."""


def no_key_before_v2(state: dict[str, Any]) -> None:
    """The upcaster of the version 1 of every event of a write that a client may send again. Since version 2
    they carry ``idempotency_key``: the client's ``Idempotency-Key``, when it sent one, by which a retry finds
    the write (:mod:`replay.idempotency`). Version 1 had none: read it as "no key"."""
    state["idempotency_key"] = None


def now() -> datetime:
    """The only clock of the replay layer, read when an event is decided (never when one is folded)."""
    return datetime.now(tz=UTC)


@dataclass(frozen=True)
class DomainEvent:
    """Base of every heronlog event: which stream, which position in it, and when it was decided."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime


# --- the game stream -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameCreated(DomainEvent):
    """A game began: everything needed to rebuild its opening state without the packaged catalog.

    ``setup`` holds the seats (names, colours), the mode (``table`` or ``seeded``), the seed, the rules options
    and the game's labels (title, private). ``catalog`` is the full component catalog the game is played with
    and ``rules_version`` the rules engine's version, so later edits of either never change a recorded game.
    ``opening`` holds the chance outcomes drawn for the setup in seeded mode (empty in table mode, where the
    recorder enters them as moves). ``parent`` names the game and version a branch was forked from.
    """

    setup: dict[str, Any]
    rules_version: str
    catalog: dict[str, Any]
    opening: list[Move]
    parent: dict[str, Any] | None


@dataclass(frozen=True)
class MovePlayed(DomainEvent):
    """A legal move was recorded.

    ``chance`` holds the outcomes the engine drew right after it in seeded mode (dice rolled, cards revealed),
    so a replay never needs a random generator. ``seat`` is the seat the move was for (None for chance moves
    entered at a table), ``actor`` who recorded it, ``description`` the readable line of the log, and
    ``idempotency_key`` the client's key that makes a retried submission safe.
    """

    move: Move
    chance: list[Move]
    seat: int | None
    actor: str
    description: str
    idempotency_key: str | None

    class_version = 2

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Version 1 of this event had no idempotency key: read it as "no key"."""
        state["idempotency_key"] = None


@dataclass(frozen=True)
class MovesUndone(DomainEvent):
    """Effective moves were taken back, never deleted: ``versions`` lists the moves undone in the order they
    had been played; they stay in the log and can be redone until a new move is played."""

    versions: list[int]
    actor: str

    idempotency_key: str | None = None  # see no_key_before_v2

    class_version = 2
    upcast_v1_v2 = staticmethod(no_key_before_v2)


@dataclass(frozen=True)
class MovesRedone(DomainEvent):
    """Moves undone earlier were played again, exactly as recorded (same move, same chance outcomes)."""

    versions: list[int]
    actor: str

    idempotency_key: str | None = None  # see no_key_before_v2

    class_version = 2
    upcast_v1_v2 = staticmethod(no_key_before_v2)


@dataclass(frozen=True)
class MoveResolved(DomainEvent):
    """A move really played in place of a later recorded move that no longer fitted after an amendment (a
    *resolution*, docs/api/amend.md): written in the same atomic write as its ``MoveAmended``, just before it.

    ``replaces`` is the version of the recorded move it stands in for (which stays in the log). Folding this
    event only records the move (with its own version, words, seat and chance outcomes); the ``MoveAmended``
    that follows puts it on the line of play, where the amendment decided it goes.
    """

    replaces: int
    move: Move
    chance: list[Move]
    seat: int | None
    actor: str
    description: str
    idempotency_key: str | None = None
    """The amendment's ``Idempotency-Key`` (every event of one write carries it): :mod:`replay.idempotency`."""


@dataclass(frozen=True)
class MoveAmended(DomainEvent):
    """The move recorded at ``version`` was replaced by ``move`` and every later effective move re-applied.

    ``dropped`` lists the later moves that no longer fitted and had no resolution (the first such misfit and
    everything after it): they leave the effective line of play, and stay in the log. ``chance`` holds the
    outcomes drawn after the amended move in seeded mode; ``redrawn`` maps the version of a later move (as a
    string, for JSON) to the outcomes drawn after it again when the amendment changed what chance had to
    decide there (seeded mode).

    ``resolutions`` (version 2) lists, in the order of the line of play, each later move that no longer fitted
    and the moves really played in its place: ``{"index": I, "version": V, "moves": [W, ...], "kept": bool}``
    where ``I`` is the recorded move's position in the line of play as it stood (from 1), ``V`` its version,
    ``W`` the versions of the ``MoveResolved`` events written just before this one, and ``kept`` whether the
    recorded move stays on the line right after them (it was played too, after moves left out of the record).
    """

    version: int
    move: Move
    chance: list[Move]
    actor: str
    description: str
    dropped: list[int]
    redrawn: dict[str, list[Move]]
    resolutions: list[dict[str, Any]]
    idempotency_key: str | None = None
    """The client's ``Idempotency-Key``, when it sent one: a retry finds this write by it
    (:mod:`replay.idempotency`)."""
    rewritten: dict[str, Move] = field(default_factory=dict)
    """(Version 3.) The later moves kept but said anew on the corrected line, by version (as a string): the same
    move by the other seat (a resolution that swaps two seats), or the same die taken from the other end of its
    bridge (a table game: the die the table saw taken). The fold puts each in place of the recorded move."""

    class_version = 3

    @staticmethod
    def upcast_v1_v2(state: dict[str, Any]) -> None:
        """Version 1 of this event had no resolutions (every misfit dropped the rest of the line) and no
        idempotency key."""
        state["resolutions"] = []
        state["idempotency_key"] = None

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """Version 2 of this event said no kept move anew."""
        state["rewritten"] = {}


CORRECTIONS = ("replace", "insert", "remove", "swap_seats", "setup")
"""The kinds of :class:`LineCorrected` (docs/api/amend.md): moves played in place of one, moves forgotten before
it, a move that never happened, two seats swapped from it on, the setup's layout."""


@dataclass(frozen=True)
class LineCorrected(DomainEvent):
    """A correction of the line of play other than one move replaced by one (that is :class:`MoveAmended`):
    ``correction`` is one of :data:`CORRECTIONS`, at the move recorded at ``version`` (1: the setup).

    What happens at ``version`` is a resolution of that move (an entry of ``resolutions`` at its index): the
    moves played there (``MoveResolved`` events written just before, in the same atomic write) and whether the
    recorded move stays after them; a swap also says the two seats (``swap_seats``; ``seats`` too), from there
    on. A correction of the setup (``version`` 1: its layout, or two seats swapped from the start) gives the
    setup's chance outcomes anew (``opening``, in place of ``GameCreated.opening``) and plays the whole line
    again on them. ``dropped``, ``redrawn``, ``rewritten`` and the later ``resolutions``
    are as in :class:`MoveAmended`.
    """

    correction: str
    version: int
    opening: list[Move] | None
    seats: list[int] | None
    actor: str
    description: str
    dropped: list[int]
    redrawn: dict[str, list[Move]]
    rewritten: dict[str, Move]
    resolutions: list[dict[str, Any]]
    idempotency_key: str | None = None
    """The amendment's ``Idempotency-Key``: :mod:`replay.idempotency`."""


@dataclass(frozen=True)
class CorrectionUndone(DomainEvent):
    """The correction written at version ``correction`` (a ``MoveAmended`` or ``LineCorrected``) was taken back
    right after it: the line of play, the setup and the moves it said anew are again as they stood before it.
    Nothing is deleted; a redo writes the correction again (:class:`CorrectionRedone`)."""

    correction: int
    actor: str
    idempotency_key: str | None = None


@dataclass(frozen=True)
class CorrectionRedone(DomainEvent):
    """The correction at version ``correction``, just taken back (:class:`CorrectionUndone`), holds again: the
    line of play is again as that correction left it."""

    correction: int
    actor: str
    idempotency_key: str | None = None


@dataclass(frozen=True)
class GameAbandoned(DomainEvent):
    """The game was closed before its end; it can still be read, replayed, forked and exported."""

    actor: str
    reason: str

    idempotency_key: str | None = None  # see no_key_before_v2

    class_version = 2
    upcast_v1_v2 = staticmethod(no_key_before_v2)


@dataclass(frozen=True)
class RulesUpgraded(DomainEvent):
    """The game was moved to another rules version (``heronlog upgrade``), after its whole line of play was
    checked again under that version: from here on it is replayed, and played on, under ``rules_version``.
    ``previous`` is the version it was recorded under (or last moved to), ``actor`` who moved it."""

    rules_version: str
    previous: str
    actor: str


# --- the annotation stream (one per game, separate from the game's stream) --------------------------------


@dataclass(frozen=True)
class AnnotationAdded(DomainEvent):
    """A comment anchored to a version of a game, with an optional glyph and board target."""

    annotation_id: str
    game_id: str
    version: int
    author: str
    text: str
    glyph: str | None
    target: dict[str, Any] | None

    idempotency_key: str | None = None  # see no_key_before_v2

    author_grant: str | None = None
    """The id of the grant whose token wrote it (version 3): its author is that token's holder, not whoever
    holds the seat later (a seat's new token is a new grant). None for a comment written before, or imported:
    only the owner may change those."""

    class_version = 3
    upcast_v1_v2 = staticmethod(no_key_before_v2)

    @staticmethod
    def upcast_v2_v3(state: dict[str, Any]) -> None:
        """Version 2 of this event did not say which grant wrote it."""
        state["author_grant"] = None


@dataclass(frozen=True)
class AnnotationEdited(DomainEvent):
    """An annotation's text, glyph or target changed; ``editor`` says who changed it."""

    annotation_id: str
    editor: str
    text: str
    glyph: str | None
    target: dict[str, Any] | None

    idempotency_key: str | None = None  # see no_key_before_v2

    class_version = 2
    upcast_v1_v2 = staticmethod(no_key_before_v2)


@dataclass(frozen=True)
class AnnotationDeleted(DomainEvent):
    """An annotation was withdrawn; the stream keeps it for the audit."""

    annotation_id: str
    actor: str

    idempotency_key: str | None = None  # see no_key_before_v2

    class_version = 2
    upcast_v1_v2 = staticmethod(no_key_before_v2)


# --- the game index (one stream per application) ---------------------------------------------------------


@dataclass(frozen=True)
class GameIndexed(DomainEvent):
    """A game was added to the application's list of games (written in the same transaction as its
    ``GameCreated``), with what the list needs to show and search without loading the game."""

    game_id: str
    players: list[str]
    mode: str
    title: str
    private: bool
    parent: dict[str, Any] | None


GAME_EVENTS: tuple[type[DomainEvent], ...] = (
    GameCreated,
    MovePlayed,
    MovesUndone,
    MovesRedone,
    MoveResolved,
    MoveAmended,
    LineCorrected,
    CorrectionUndone,
    CorrectionRedone,
    GameAbandoned,
    RulesUpgraded,
)
ANNOTATION_EVENTS: tuple[type[DomainEvent], ...] = (AnnotationAdded, AnnotationEdited, AnnotationDeleted)
