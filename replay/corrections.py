"""Corrections: decide what a person says was really played, and play the later moves again on it.

A correction names one recorded move (or the setup) and what really happened there (docs/api/amend.md): another
move, several, moves forgotten before it, none, two seats swapped from it on, or the setup's layout. The later
recorded moves are played again in order on the corrected line; one that no longer fits is a *misfit*, answered
by a resolution (:class:`Resolution`) or left with the moves after it. The whole correction is one write.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import domain
from replay import rules, suggestions
from replay.errors import (
    AmendUnchanged,
    GameClosed,
    InvalidCorrection,
    InvalidResolution,
    ResolutionNotLater,
    ResolutionNotNeeded,
    ResolutionRepeated,
    ResolutionUnused,
    UnknownVersion,
)
from replay.events import LineCorrected, Move, MoveAmended, MoveResolved, now
from replay.game import Game, MoveRecord
from replay.seats import SeatMap, reseated

KINDS = ("replace", "insert", "remove", "swap_seats", "setup")
"""What a correction says happened at its move (:class:`Correction`)."""


@dataclass(frozen=True)
class Correction:
    """One correction as a client asks for it: at the move recorded at ``version`` (1: the setup),

    - ``replace``: ``moves`` were played in its place (one move, or several: a conversion, then the placement);
    - ``insert``: ``moves`` were played right before it and left out of the record (it stays, after them);
    - ``remove``: it never happened;
    - ``swap_seats``: from it on, the moves recorded for one of ``seats`` were the other's (the turn order
      entered wrong, or two players' moves recorded under each other's names);
    - ``setup``: the setup's entries lay as ``layout`` says (a table game laid out at creation): the cards,
      tiles, dice, turn order and starting pairs it names, the rest as recorded.
    """

    version: int
    kind: str = "replace"
    moves: tuple[Move, ...] = ()
    seats: tuple[int, int] | None = None
    layout: Mapping[str, Any] | None = None
    keeps: bool = True
    """(insert) Whether the recorded move stays after the moves inserted: false when a resolution of it said
    it never happened (an import reads an insertion so)."""

    @classmethod
    def replacing(cls, version: int, move: Move) -> Correction:
        return cls(version, "replace", (dict(move),))


@dataclass(frozen=True)
class Resolution:
    """What was really played where a later recorded move no longer fits after a correction.

    ``index`` is that recorded move's position in the line of play as it stands when the correction is asked
    for, counting from 1 (the timeline's ``index``, "move 14" on the replay page); the correction never
    renumbers it, so every dry run of one correction names its misfits alike. ``moves`` are played in its
    place, in order: one for the move really played instead, none when the recorded move never happened,
    several when more was played there. ``keep_recorded``: the recorded move happened too, right after
    ``moves`` (they were left out of the record); it stays on the line if it fits after them. ``swap_seats``
    (instead of moves): from this move on, the moves recorded for one of the two seats were the other's.
    """

    index: int
    moves: tuple[Move, ...]
    keep_recorded: bool = False
    swap_seats: tuple[int, int] | None = None

    @classmethod
    def read(cls, raw: Any, position: int) -> Resolution:
        """A resolution from its JSON form (``{"index": I, "move": {...}}``, or ``"moves": [...]`` with an
        optional ``"keep_recorded": true``, or ``"swap_seats": [a, b]``); ``position`` is its place in the
        list, for the error."""
        if isinstance(raw, Resolution):
            return raw
        where = {"resolution": position}
        if not isinstance(raw, Mapping):
            raise InvalidResolution("a resolution is an object: {index, move}", **where)
        index = raw.get("index")
        if not isinstance(index, int) or isinstance(index, bool):
            raise InvalidResolution(
                "a resolution's index is a whole number (a move's place in the line)", **where
            )
        unknown = set(raw) - {"index", "move", "moves", "keep_recorded", "swap_seats"}
        if unknown:
            raise InvalidResolution(
                f"unknown field(s) of a resolution: {', '.join(sorted(unknown))}", **where
            )
        if sum(name in raw for name in ("move", "moves", "swap_seats")) != 1:
            raise InvalidResolution(
                "a resolution gives its move (move), its moves (moves) or the seats swapped from there "
                "(swap_seats), one of them",
                **where,
            )
        keep = raw.get("keep_recorded", False)
        if not isinstance(keep, bool):
            raise InvalidResolution("keep_recorded is true or false", **where)
        if "swap_seats" in raw:
            if keep:
                raise InvalidResolution(
                    "a resolution that swaps seats keeps the recorded move already", **where
                )
            return cls(
                index=index, moves=(), swap_seats=_two_seats(raw["swap_seats"], InvalidResolution, where)
            )
        moves = [raw["move"]] if "move" in raw else raw["moves"]
        if not isinstance(moves, list | tuple) or not all(
            isinstance(move, Mapping) and isinstance(move.get("kind"), str) for move in moves
        ):
            raise InvalidResolution(
                "a resolution's moves are objects with a kind, as legal-moves lists them", **where
            )
        return cls(index=index, moves=tuple(dict(move) for move in moves), keep_recorded=keep)

    def stored(self) -> dict[str, Any]:
        """As a client sends it again (a suggestion's resolution)."""
        if self.swap_seats is not None:
            return {"index": self.index, "swap_seats": list(self.swap_seats)}
        if len(self.moves) == 1 and not self.keep_recorded:
            return {"index": self.index, "move": dict(self.moves[0])}
        return {
            "index": self.index,
            "moves": [dict(m) for m in self.moves],
            "keep_recorded": self.keep_recorded,
        }


def _two_seats(raw: Any, error: type[Exception], where: Mapping[str, Any]) -> tuple[int, int]:
    if (
        not isinstance(raw, list | tuple)
        or len(raw) != 2
        or not all(isinstance(seat, int) and not isinstance(seat, bool) for seat in raw)
        or raw[0] == raw[1]
    ):
        raise error("swap_seats names two different seats, as indexes from 0: [0, 1]", **where)
    return int(raw[0]), int(raw[1])


@dataclass(frozen=True)
class AmendReport:
    """What a correction did to the moves after the corrected one.

    ``kept``: the later recorded moves that stay on the line (with their versions); ``rewritten``: those of
    them said anew (the same move by the other seat, the same die from the other end). ``dropped``: the first
    later move that no longer fits and has no resolution, and every move after it. ``resolved``: each misfit
    that a resolution answered, with the words of the moves played in its place. ``first_misfit``: that
    unresolved misfit, with what a client needs to resolve it (its index, the words of the recorded move and of
    why it no longer fits, the moves legal there, the suggested resolutions); ``misfit_state`` is the engine's
    state there (for the board).
    """

    version: int
    kept: tuple[int, ...]
    dropped: tuple[int, ...]
    first_misfit: dict[str, Any] | None = None
    redrawn: dict[str, list[Move]] = field(default_factory=dict)
    resolved: tuple[dict[str, Any], ...] = ()
    over: bool = False
    """Whether the game is over at the end of the corrected line (a correction may leave a finished game waiting
    for a move nobody recorded: an action its last player now could take)."""
    misfit_state: Any = field(default=None, compare=False, repr=False)
    rewritten: tuple[int, ...] = ()
    kind: str = "replace"

    @property
    def all_fit(self) -> bool:
        """No later move is left without a place: each still fits, or was resolved."""
        return self.first_misfit is None

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "correction": self.kind,
            "all_fit": self.all_fit,
            "kept": list(self.kept),
            "rewritten": list(self.rewritten),
            "dropped": list(self.dropped),
            "first_misfit": self.first_misfit,
            "redrawn": sorted(int(version) for version in self.redrawn),
            "resolved": [dict(entry) for entry in self.resolved],
            "over": self.over,
        }


Refit = tuple[Any, list[Move] | None, Move] | domain.DomainError
"""A recorded move played again: the state it leads to, its redrawn chance outcomes (None: as recorded) and
the move as it now stands (said anew when seats were swapped or its die lies at the other end); or why it no
longer fits."""


@dataclass
class Line:
    """The line being corrected: the game with every state along it, whose line of play is replayed."""

    game: Game
    seats: SeatMap = field(default_factory=SeatMap)

    def refit(self, state: Any, record: MoveRecord, index: int, seats: SeatMap | None = None) -> Refit:
        """The recorded move at line ``index`` (from 1) played again on ``state``, its seats swapped as
        ``seats`` says (default: as the line stands): see :data:`Refit`. In a seeded game its chance outcomes
        are drawn anew when they must change; in a table game chance is what happened at the table: re-checked,
        never drawn, and a die taken is the die the table saw taken (:meth:`_same_die`)."""
        move = reseated(record.move, seats if seats is not None else self.seats)
        try:
            if self.game.mode == "seeded":
                next_state, outcomes = rules.decide(state, move)
                return next_state, (outcomes if outcomes != list(record.chance) else None), move
            next_state = rules.recheck(state, move, record.chance)
        except domain.DomainError as error:
            return error
        if state.held is None and next_state.held is not None:  # a die was taken from a bridge
            return self._same_die(state, next_state, move, record, index)
        return next_state, None, move

    def _same_die(self, state: Any, taken: Any, move: Move, record: MoveRecord, index: int) -> Refit:
        """A table game's take of a die is the die the table saw taken: when the recorded end of its bridge now
        holds another, the die recorded is taken from the other end if it lies there; else the take no longer
        fits (R-T03: a die is taken from an end of its bridge)."""
        recorded = self.game.states[index].held if index < len(self.game.states) else None
        if recorded is None or taken.held is None or taken.held.value == recorded.value:
            return taken, None, move
        other = {**move, "end": "right" if move["end"] == "left" else "left"}
        try:
            elsewhere = rules.recheck(state, other, record.chance)
        except domain.DomainError:
            elsewhere = None
        if elsewhere is not None and elsewhere.held is not None and elsewhere.held.value == recorded.value:
            return elsewhere, None, other
        return domain.IllegalMove(
            f"the {recorded.colour.value} {recorded.value} recorded as taken is no longer on the {move['bridge']} "
            f"bridge's {move['end']} end: that end holds the {taken.held.value}",
            rule="R-T03",
            details={"recorded_die": recorded.value, "die_there": taken.held.value},
        )


def correct(
    game: Game,
    correction: Correction,
    *,
    actor: str,
    resolutions: Sequence[Any] = (),
    idempotency_key: str | None = None,
    unchanged: bool = False,
    suggest: bool = True,
    may_swap: bool = True,
) -> tuple[list[MoveResolved | MoveAmended | LineCorrected], AmendReport]:
    """Decide a correction: what happened at the corrected move, then every later effective move played again.

    Each later recorded move is played again on the corrected line, in order. One that still fits is kept (its
    version, words re-said on the new line; in seeded mode the chance outcomes after it are drawn again when
    they must change). One that no longer fits is replaced by its :class:`Resolution`, if one names its line
    index; the first without one, and everything after it, leave the line of play (reported in
    :class:`AmendReport`, with suggested resolutions unless ``suggest`` is false; a swap of seats is suggested
    only when ``may_swap``). One move replaced by the very move recorded is refused (:class:`AmendUnchanged`),
    unless ``unchanged`` (an import re-deciding a log written before such amendments were refused).

    The events: one ``MoveResolved`` per move played at the corrected move or by a resolution, then the
    ``MoveAmended`` (one move replaced by one) or ``LineCorrected`` (any other correction) that says where each
    goes; all of them are written in one atomic write. Every resolution must be used where it stands
    (:class:`ResolutionNotLater`, :class:`ResolutionRepeated`, :class:`ResolutionNotNeeded`,
    :class:`ResolutionUnused`); a move that the rules refuse raises the engine's error (a resolution's with
    ``details.resolution_index``). Nothing is decided in part: an error leaves no event.
    """
    game = game.with_states_from_start()
    work = _Work(game, correction, actor, idempotency_key)
    work.head(unchanged)
    planned = _planned(resolutions, work.first_index, len(game.line), work.head_index)
    work.walk(planned)
    if planned:
        unused = sorted(planned)
        misfit = work.misfit
        reached = (
            f"move {misfit['index']} no longer fits and has no resolution" if misfit else "the line ends"
        )
        raise ResolutionUnused(
            f"the resolution for move {unused[0]} is never reached: {reached}, so the moves from it on leave "
            "the line of play",
            indexes=unused,
            first_misfit=misfit["index"] if misfit else None,
        )
    if work.misfit is not None and suggest:
        work.misfit["suggestions"] = work.suggestions(may_swap)
    return work.events(), work.report()


@dataclass
class _Work:
    """One correction being decided (:func:`correct`)."""

    game: Game
    correction: Correction
    actor: str
    idempotency_key: str | None
    line: Line = field(init=False)
    state: Any = None
    opening: list[Move] | None = None
    position: int = 0
    """The line position (from 0) of the corrected move; the setup's is 0 too, with nothing before it."""
    own: tuple[Move, list[Move], str] | None = None
    """One move replaced by one: that move, its chance outcomes and its words (``MoveAmended``'s own)."""
    played: list[MoveResolved] = field(default_factory=list)
    stored: list[dict[str, Any]] = field(default_factory=list)
    resolved: list[dict[str, Any]] = field(default_factory=list)
    kept: list[int] = field(default_factory=list)
    rewritten: dict[str, Move] = field(default_factory=dict)
    redrawn: dict[str, list[Move]] = field(default_factory=dict)
    dropped: tuple[int, ...] = ()
    misfit: dict[str, Any] | None = None
    misfit_state: Any = None
    misfit_at: int = 0
    """The line position (from 0) of the first misfit: where its suggestions are tried."""
    head_resolution: Resolution | None = None
    misfit_resolution: Resolution | None = None
    """The resolution the request gave the first misfit, if any (it still does not fit after it)."""

    def __post_init__(self) -> None:
        self.line = Line(self.game)

    @property
    def of_setup(self) -> bool:
        """Whether the correction is at the setup (version 1): every move of the line is a later move."""
        return self.correction.kind == "setup" or self.correction.version == 1

    @property
    def first_index(self) -> int:
        """The first line index (from 1) a resolution may name: the move after the corrected one (every move
        of the line, for the setup; the corrected one itself, after moves inserted before it)."""
        if self.of_setup:
            return 1
        return self.position + (1 if self.correction.kind == "insert" else 2)

    @property
    def head_index(self) -> int | None:
        return None if self.of_setup else self.position + 1

    def head(self, unchanged: bool) -> None:
        """What happened at the corrected move: the state the later moves are played on from there."""
        game, correction = self.game, self.correction
        if game.abandoned is not None:
            raise GameClosed(
                "this game was abandoned: fork it to play on", abandoned_at=game.abandoned.version
            )
        if correction.kind not in KINDS:
            raise InvalidCorrection(f"a correction is one of {', '.join(KINDS)}", correction=correction.kind)
        if correction.kind == "swap_seats":
            self._check_seats()
        if correction.kind == "setup":
            self.opening, self.state = _laid_out_again(game, correction.layout or {})
            return
        if correction.kind == "swap_seats" and correction.version == 1:
            # From the start: the turn order the setup laid out, then every move, as the other seat's.
            assert correction.seats is not None
            self.line.seats = SeatMap().swapped(*correction.seats)
            stack = recorded_layout(game).get("stack")
            if not isinstance(stack, list):
                raise InvalidCorrection(
                    "this game's setup lays out no turn order: swap the seats from a move"
                )
            self.opening, self.state = _laid_out_again(game, {"stack": [self.line.seats(s) for s in stack]})
            return
        if correction.version not in game.line:
            raise UnknownVersion(
                f"version {correction.version} is not a move of the line of play"
                + (
                    " (the setup is version 1: it is corrected with a layout, in a table game laid out at "
                    "creation)"
                    if correction.version == 1
                    else ""
                ),
                version=correction.version,
            )
        self.position = game.line.index(correction.version)
        before = game.states[self.position]
        self.state = before
        record = game.records[correction.version]
        if correction.kind == "replace" and len(correction.moves) == 1:
            move = dict(correction.moves[0])
            if not unchanged and move == record.move:
                raise AmendUnchanged(
                    f"that is the move already recorded at version {correction.version}: a correction must "
                    "change it",
                    version=correction.version,
                )
            self.state, chance = rules.decide(before, move)
            self.own = (move, chance, domain.describe(before, move))
            return
        if correction.kind in ("replace", "insert") and not correction.moves:
            raise InvalidCorrection(
                f"{correction.kind} needs the moves played there", correction=correction.kind
            )
        if correction.kind == "swap_seats":
            assert correction.seats is not None
            self.head_resolution = Resolution(self.position + 1, (), swap_seats=correction.seats)
            return
        moves = correction.moves if correction.kind != "remove" else ()
        keeps = correction.kind == "insert" and correction.keeps
        self.head_resolution = Resolution(self.position + 1, moves, keep_recorded=keeps)

    def _check_seats(self) -> None:
        seats = self.correction.seats
        count = len(self.game.setup["players"])
        if seats is None or len(set(seats)) != 2:
            raise InvalidCorrection("swap_seats names two different seats, as indexes from 0: [0, 1]")
        for seat in seats:
            if not 0 <= seat < count:
                raise InvalidCorrection(
                    f"this game has seats 0 to {count - 1}: there is no seat {seat}", seat=seat
                )

    def walk(self, planned: dict[int, Resolution]) -> None:
        """Play the later recorded moves again on the corrected line (see :func:`correct`)."""
        game = self.game
        state = self.state
        start = self.position + 1 if self.own is not None else self.position
        later = game.line[start:]
        for offset, version in enumerate(later):
            at = start + offset  # the line position (from 0) of this recorded move
            index = at + 1
            record = game.records[version]
            resolution = planned.pop(index, None)
            if index == self.head_index and self.own is None:
                resolution = self.head_resolution = self._head_with(resolution)
            refit: Refit | None = self.line.refit(state, record, at + 1)
            if resolution is not None:
                if resolution is not self.head_resolution and not isinstance(refit, domain.DomainError):
                    raise ResolutionNotNeeded(
                        f"move {index} still fits after this correction: it is kept as recorded, and needs no "
                        "resolution",
                        index=index,
                        version=version,
                    )
                state, refit = self._resolve(state, resolution, record, at)
            if refit is None:  # replaced by its resolution's moves
                continue
            if isinstance(refit, domain.DomainError):
                after = resolution is not None
                self.misfit = _misfit(state, index, record, refit, after)
                self.misfit_state, self.misfit_at = state, at
                self.misfit_resolution = resolution
                self.dropped = tuple(later[offset:])
                break
            state, outcomes, move = refit
            if outcomes is not None:
                self.redrawn[str(version)] = outcomes
            if move != record.move:
                self.rewritten[str(version)] = move
            self.kept.append(version)
        self.state = state

    def _head_with(self, asked: Resolution | None) -> Resolution:
        """What happened at the corrected move: the correction's moves, then (moves inserted before a recorded
        move that does not fit after them) what a resolution of it says happened after them."""
        head = self.head_resolution
        assert head is not None
        if asked is None:
            return head
        if asked.swap_seats is not None:
            raise InvalidResolution(
                f"move {asked.index} is the corrected move: a resolution of it says what happened after the "
                "moves inserted before it (moves), not a swap",
                index=asked.index,
            )
        return Resolution(head.index, (*head.moves, *asked.moves), keep_recorded=asked.keep_recorded)

    def _resolve(
        self, state: Any, resolution: Resolution, record: MoveRecord, at: int
    ) -> tuple[Any, Refit | None]:
        """Play a resolution at the recorded move at line position ``at``: the state after its moves, and the
        recorded move played again after them when it stays (None: it leaves the line)."""
        index = at + 1
        first = self.game.version + 1 + len(self.played)
        if resolution.swap_seats is not None:
            self.line.seats = self.line.seats.swapped(*resolution.swap_seats)
            refit: Refit | None = self.line.refit(state, record, at + 1)
        else:
            for number, resolving in enumerate(resolution.moves):
                done, state = self._resolving(
                    state, resolving, at=first + number, replaces=record.version, index=index
                )
                self.played.append(done)
            refit = self.line.refit(state, record, at + 1) if resolution.keep_recorded else None
        stays = refit is not None and not isinstance(refit, domain.DomainError)
        entry = {
            "index": index,
            "version": record.version,
            "moves": list(range(first, first + len(resolution.moves))),
            "kept": stays,
        }
        if resolution.swap_seats is not None:
            entry["swap_seats"] = list(resolution.swap_seats)
        self.stored.append(entry)
        if resolution is not self.head_resolution:
            self.resolved.append(
                {
                    "index": index,
                    "version": record.version,
                    "recorded_words": record.description,
                    "words": [done.description for done in self.played[first - self.game.version - 1 :]],
                    "kept": stays,
                    **({"swap_seats": list(resolution.swap_seats)} if resolution.swap_seats else {}),
                }
            )
        return state, refit

    def _resolving(
        self, state: Any, move: Move, *, at: int, replaces: int, index: int
    ) -> tuple[MoveResolved, Any]:
        """Decide one move played in a correction, as a move recorded on that line would be: its event, and the
        state it leads to."""
        try:
            after, chance = rules.decide(state, move)
        except domain.DomainError as error:
            if index != self.head_index:
                error.details.setdefault("resolution_index", index)
            raise
        event = MoveResolved(
            originator_id=self.game.id,
            originator_version=at,
            timestamp=now(),
            replaces=replaces,
            move=dict(move),
            chance=chance,
            seat=move.get("seat"),
            actor=self.actor,
            description=domain.describe(state, move),
            idempotency_key=self.idempotency_key,
        )
        return event, after

    def suggestions(self, may_swap: bool) -> list[dict[str, Any]]:
        """The ranked suggestions for the first misfit (:mod:`replay.suggestions`), each as a client sends it."""
        assert self.misfit is not None
        earlier = self.misfit_resolution
        if self.misfit["index"] == self.head_index and self.own is None:
            if self.correction.kind != "insert":
                return []  # the corrected move itself, its seats swapped: the correction is what to change
            earlier = None  # a resolution of it goes after the moves inserted (``_head_with``)
            may_swap = False  # ... and says moves, never a swap (``_head_with`` refuses one there)
        if earlier is not None and earlier.swap_seats is not None:
            return []  # seats swapped there and the move still does not fit: the swap is what to change
        return suggestions.suggest(
            self.line,
            self.misfit_state,
            self.misfit_at,
            self.misfit,
            None if self.of_setup else self.game.records[self.game.line[self.position]],
            earlier=earlier.moves if earlier is not None else None,
            may_swap=may_swap,
        )

    def events(self) -> list[MoveResolved | MoveAmended | LineCorrected]:
        game, correction = self.game, self.correction
        version = game.version + 1 + len(self.played)
        common: dict[str, Any] = {
            "originator_id": game.id,
            "originator_version": version,
            "timestamp": now(),
            "actor": self.actor,
            "dropped": list(self.dropped),
            "redrawn": self.redrawn,
            "resolutions": self.stored,
            "idempotency_key": self.idempotency_key,
        }
        if self.own is not None:
            move, chance, words = self.own
            amended = MoveAmended(
                version=correction.version,
                move=move,
                chance=chance,
                description=words,
                rewritten=self.rewritten,
                **common,
            )
            return [*self.played, amended]
        corrected = LineCorrected(
            correction=correction.kind,
            version=1 if self.of_setup else correction.version,
            opening=self.opening,
            seats=list(correction.seats) if correction.seats is not None else None,
            description=self.words(),
            rewritten=self.rewritten,
            **common,
        )
        return [*self.played, corrected]

    def words(self) -> str:
        """The correction in words, as the log keeps it."""
        game, correction = self.game, self.correction
        if correction.kind == "setup":
            return "the setup as it really lay: " + ", ".join(sorted(correction.layout or {}))
        if correction.kind == "swap_seats":
            assert correction.seats is not None
            names = " and ".join(game.setup["players"][seat]["name"] for seat in correction.seats)
            if self.of_setup:
                return f"the moves of {names} swapped from the start (the turn order with them)"
            return f"the moves of {names} swapped from “{game.records[correction.version].description}” on"
        record = game.records[correction.version]
        head = [event.description for event in self.played if event.replaces == correction.version]
        if correction.kind == "insert":
            return f"played before “{record.description}”: " + "; ".join(head)
        if correction.kind == "remove":
            return f"never happened: {record.description}"
        return "; ".join(head)

    def report(self) -> AmendReport:
        return AmendReport(
            version=1 if self.of_setup else self.correction.version,
            kept=tuple(self.kept),
            dropped=self.dropped,
            first_misfit=self.misfit,
            redrawn=self.redrawn,
            resolved=tuple(self.resolved),
            over=bool(domain.is_over(self.state)),
            misfit_state=self.misfit_state,
            rewritten=tuple(int(version) for version in self.rewritten),
            kind=self.correction.kind,
        )


def _planned(resolutions: Sequence[Any], first: int, length: int, head: int | None) -> dict[int, Resolution]:
    """The resolutions asked for, by line index, each checked to name a later move, once."""
    planned: dict[int, Resolution] = {}
    for number, raw in enumerate(resolutions):
        resolution = Resolution.read(raw, number)
        if not first <= resolution.index <= length:
            after = f"the corrected one (move {head})" if head is not None else "the setup"
            raise ResolutionNotLater(
                f"a resolution names move {resolution.index}: the moves after {after} are moves {first} to {length}"
                if first <= length
                else f"a resolution names move {resolution.index}: no move comes after {after}",
                index=resolution.index,
                first=first,
                last=length,
            )
        if resolution.index in planned:
            raise ResolutionRepeated(
                f"two resolutions name move {resolution.index}: give it one, with all the moves played there",
                index=resolution.index,
            )
        planned[resolution.index] = resolution
    return planned


def _misfit(
    state: Any, index: int, record: MoveRecord, error: domain.DomainError, after_resolution: bool
) -> dict[str, Any]:
    """A later move that no longer fits, as a client needs it to resolve it: where it is, what it was in words
    (as recorded: its words on the line it was played on, safe whatever the new state), why it no longer fits
    (the rules' words and number), who is asked to play there and every move legal there.
    ``after_resolution``: it was kept after the moves of its own resolution (``keep_recorded``) and still
    does not fit after them; that resolution is the one to extend."""
    seat = domain.prompt_of(state).get("seat")
    players = state.players
    return {
        "index": index,
        "version": record.version,
        "move": record.move,
        "error": error.to_dict(),
        "recorded_words": record.description,
        "reason": error.message,
        "rule": error.rule,
        "seat": seat,
        "player": players[seat].name if isinstance(seat, int) and 0 <= seat < len(players) else None,
        "legal_moves": domain.legal_moves(state),
        "after_resolution": after_resolution,
    }


def recorded_layout(game: Game) -> dict[str, Any]:
    """A laid-out table game's setup as recorded: the layout its opening deals (``domain.layout_of``)."""
    state = rules.fresh_state(game.setup, game.catalog, game.rules_version)
    for outcome in game.opening:
        state = domain.apply(state, outcome, check=False, draw=False)
    return dict(domain.layout_of(state))


def _laid_out_again(game: Game, layout: Mapping[str, Any]) -> tuple[list[Move], Any]:
    """A table game's setup laid out anew: its layout as recorded (``domain.layout_of``), with the entries
    ``layout`` gives in place of those (by section: a room's card, a bridge's dice, the turn order...), checked
    by the rules as a new game's layout is (``domain.InvalidLayout``: every problem under its field). The
    setup's chance outcomes, and the state they leave."""
    if game.mode != "table" or not game.opening:
        raise InvalidCorrection(
            "only a table game laid out at creation has a setup to correct here: in a game whose setup was "
            "entered move by move each entry is a move (correct that move); a seeded game's setup is drawn",
            mode=game.mode,
        )
    if not isinstance(layout, Mapping) or not layout:
        raise InvalidCorrection("a setup correction gives the layout's entries as they really lay")
    fresh = rules.fresh_state(game.setup, game.catalog, game.rules_version)
    recorded = recorded_layout(game)
    merged = merge_layout(recorded, layout)
    if merged == recorded:
        raise AmendUnchanged("that is the setup already recorded: a correction must change it", version=1)
    step = domain.lay_out(fresh, merged)
    return [dict(move) for move in step.chance], step.state


def merge_layout(recorded: Mapping[str, Any], given: Mapping[str, Any]) -> dict[str, Any]:
    """The recorded layout with the given entries in place of its own: a section of entries by name (the
    castle's rooms, the dice by bridge, the gardens, the yards, Matcha's parts) takes each entry given; a list
    (the turn order, the Well's tiles, the starting pairs) is given whole."""
    merged = {key: value for key, value in recorded.items()}
    for section, value in given.items():
        mine = merged.get(section)
        if isinstance(value, Mapping) and isinstance(mine, Mapping):
            merged[section] = merge_layout(mine, value) if section == "matcha" else {**mine, **value}
        else:
            merged[section] = value
    return merged
