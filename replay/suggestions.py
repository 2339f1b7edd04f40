"""Suggested resolutions of a misfit: what probably happened where a recorded move no longer fits a correction.

The candidates come from what the table knows (docs/api/amend.md#suggestions), in this order: the moves of the
two seats swapped from here on, or the recorded move by the seat now asked (a turn order entered wrong, a die
the correction freed); the recorded move after an answer to the question the correction opened; the recorded
move never happened; the legal move most like it. Each is tried with a dry run of the later moves, and ranked by
how many of them it keeps.

The work is bounded: at most :data:`MOST_TRIED` candidates are tried for one misfit, each dry run plays at most
:data:`HORIZON` later moves (a ``keeps`` of that many is "at least": ``capped``), and at most
:data:`QUESTION_PROBES` legal moves are probed as answers to a new question.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import domain
from replay import rules
from replay.game import Game, MoveRecord
from replay.seats import SeatMap, reseated

MOST_TRIED = 8
"""How many candidates are tried (each a dry run) for one misfit."""
HORIZON = 60
"""How many later moves one dry run plays at most."""
QUESTION_PROBES = 48
"""How many moves are tried as answers to the questions a correction opened, for one misfit."""
QUESTION_DEPTH = 3
"""How many questions in a row a suggestion answers before the recorded move."""
KINDS = ("swap_seats", "other_seat", "after_question", "skipped", "most_like")
"""The kinds of suggestion, in the order a tie in ``keeps`` is broken."""

Move = dict[str, Any]


class Replaying(Protocol):
    """The line being corrected, as a correction plays it again (``replay.corrections.Line``)."""

    game: Game
    seats: SeatMap

    def refit(self, state: Any, record: MoveRecord, index: int, seats: SeatMap | None = None) -> Any: ...


@dataclass(frozen=True)
class Candidate:
    kind: str
    moves: tuple[Move, ...] = ()
    keep_recorded: bool = False
    swap_seats: tuple[int, int] | None = None
    words: str = ""

    def resolution(self, index: int, before: tuple[Move, ...]) -> dict[str, Any]:
        """As a client sends it, whole: after ``before``, the moves the request already gave there."""
        if self.swap_seats is not None:
            return {"index": index, "swap_seats": list(self.swap_seats)}
        moves = [dict(move) for move in (*before, *self.moves)]
        if len(moves) == 1 and not self.keep_recorded:
            return {"index": index, "move": moves[0]}
        return {"index": index, "moves": moves, "keep_recorded": self.keep_recorded}


def suggest(
    line: Replaying,
    state: Any,
    at: int,
    misfit: Mapping[str, Any],
    corrected: MoveRecord | None,
    *,
    earlier: tuple[Move, ...] | None = None,
    may_swap: bool = True,
) -> list[dict[str, Any]]:
    """The suggestions for the misfit at line position ``at`` (from 0) on ``state``, best first: each a
    resolution as a client sends it (whole: after ``earlier``, the moves of the resolution the request already
    gave there, which it replaces), its words, its kind, and ``keeps``: how many later recorded moves stay on the
    line with it, up to the next misfit (this one included when it stays). ``corrected`` is the corrected move
    as it was recorded (None for the setup)."""
    record = line.game.records[line.game.line[at]]
    recorded = reseated(record.move, line.seats)
    seat = misfit.get("seat")
    legal: list[Move] = list(misfit.get("legal_moves") or [])
    index = at + 1
    before = earlier or ()
    tried: list[tuple[int, int, int, Candidate, bool]] = []
    seen: list[dict[str, Any]] = []
    for order, candidate in enumerate(
        _candidates(state, recorded, seat, legal, corrected, may_swap and not before)
    ):
        resolution = candidate.resolution(index, before)
        if resolution in seen:
            continue
        seen.append(resolution)
        counted = dry_run(line, state, at, record, candidate)
        if counted is not None:
            tried.append((counted[0], KINDS.index(candidate.kind), order, candidate, counted[1]))
        if len(seen) >= MOST_TRIED:
            break
    tried.sort(key=lambda entry: (-entry[0], entry[1], entry[2]))
    return [
        {
            "kind": candidate.kind,
            "resolution": candidate.resolution(index, before),
            "words": candidate.words,
            "keeps": keeps,
            "capped": capped,
        }
        for keeps, _, _, candidate, capped in tried
    ]


def _candidates(  # noqa: PLR0917  (each says what the candidates come from)
    state: Any,
    recorded: Move,
    seat: Any,
    legal: Sequence[Move],
    corrected: MoveRecord | None,
    may_swap: bool,
) -> Iterable[Candidate]:
    """The candidates, in the order of :data:`KINDS` (each kind's best first)."""
    players = [player.name for player in state.players]

    def name(one: Any) -> str:
        return players[one] if isinstance(one, int) and 0 <= one < len(players) else "chance"

    mine = recorded.get("seat")
    other_seat = isinstance(seat, int) and isinstance(mine, int) and mine != seat
    if other_seat and may_swap:
        assert isinstance(mine, int) and isinstance(seat, int)
        yield Candidate(
            "swap_seats",
            swap_seats=(mine, seat),
            words=f"From here on, the moves recorded for {name(mine)} were {name(seat)}'s, and {name(seat)}'s "
            f"were {name(mine)}'s",
        )
    if other_seat:
        theirs = {**recorded, "seat": seat}
        yield Candidate("other_seat", (theirs,), words=f"{name(seat)} played it: {_words(state, theirs)}")
    if corrected is not None and isinstance(seat, int) and isinstance(corrected.move.get("seat"), int):
        # The move the correction replaced, by the seat asked now: a die (or a space, a card) the correction
        # freed was the one this seat took.
        freed = {**corrected.move, "seat": seat}
        if freed != recorded:
            whose = corrected.move.get("seat")
            said = (
                f"{name(seat)} played the move the correction replaced"
                if whose == seat
                else f"{name(seat)} played what was recorded for {name(whose)}"
            )
            yield Candidate("other_seat", (freed,), words=f"{said}: {_words(state, freed)}")
    for answers in _answers(state, recorded, legal):
        yield Candidate(
            "after_question",
            answers,
            keep_recorded=True,
            words=f"{_said(state, answers)}, then the recorded move",
        )
    yield Candidate("skipped", words="The recorded move never happened")
    for move in sorted(legal, key=lambda move: -likeness(move, recorded))[:2]:
        yield Candidate("most_like", (move,), words=_words(state, move))


def _answers(state: Any, recorded: Move, legal: Sequence[Move]) -> list[tuple[Move, ...]]:
    """The answers to the questions asked now after which the recorded move fits (the questions the correction
    opened: an action's choice, a reward, a conversion): sequences of at most :data:`QUESTION_DEPTH` moves,
    found breadth first within :data:`QUESTION_PROBES` moves tried; at most three, the shortest first."""
    found: list[tuple[Move, ...]] = []
    frontier: list[tuple[tuple[Move, ...], Any, Sequence[Move]]] = [((), state, legal)]
    probes = 0
    for _ in range(QUESTION_DEPTH):
        deeper: list[tuple[tuple[Move, ...], Any, Sequence[Move]]] = []
        for answers, before, moves in frontier:
            for move in sorted(moves, key=lambda move: -likeness(move, recorded)):
                if move == recorded or probes >= QUESTION_PROBES:
                    continue
                probes += 1
                try:
                    after, _ = rules.decide(before, move)
                except domain.DomainError:
                    continue
                try:
                    domain.apply(after, recorded, check=True, draw=False)
                except domain.DomainError:
                    if not domain.is_over(after):
                        deeper.append(((*answers, move), after, domain.legal_moves(after)))
                    continue
                found.append((*answers, move))
                if len(found) >= 3:
                    return found
        frontier = deeper
    return found


def likeness(move: Mapping[str, Any], recorded: Mapping[str, Any]) -> float:
    """How alike two moves are: the same kind first, then each field with the same value (a space of the same
    room, "steward_1" and "steward_2", counts half)."""
    if move.get("kind") != recorded.get("kind"):
        return 0.0
    score = 4.0
    for key, value in recorded.items():
        if key in ("kind", "seat"):
            continue
        theirs = move.get(key)
        if theirs == value:
            score += 1.0
        elif (
            isinstance(theirs, str) and isinstance(value, str) and theirs.split("_")[0] == value.split("_")[0]
        ):
            score += 0.5
    return score + (0.5 if move.get("seat") == recorded.get("seat") else 0.0)


def dry_run(
    line: Replaying, state: Any, at: int, record: MoveRecord, candidate: Candidate
) -> tuple[int, bool] | None:
    """How many later recorded moves stay with ``candidate`` at line position ``at``, up to the next misfit or
    :data:`HORIZON` moves (and whether it stopped there); None when the candidate's own moves are refused, or
    the recorded move it keeps does not fit."""
    seats = line.seats
    kept = 0
    try:
        if candidate.swap_seats is not None:
            seats = seats.swapped(*candidate.swap_seats)
        for move in candidate.moves:
            state, _ = rules.decide(state, move)
    except domain.DomainError:
        return None
    if candidate.swap_seats is not None or candidate.keep_recorded:
        refit = line.refit(state, record, at + 1, seats)
        if isinstance(refit, domain.DomainError):
            return None
        state, kept = refit[0], 1
    game = line.game
    for position in range(at + 1, min(len(game.line), at + 1 + HORIZON)):
        refit = line.refit(state, game.records[game.line[position]], position + 1, seats)
        if isinstance(refit, domain.DomainError):
            return kept, False
        state = refit[0]
        kept += 1
    return kept, at + 1 + HORIZON < len(game.line)


def _said(state: Any, moves: Sequence[Move]) -> str:
    """Moves played in a row, in words."""
    words = []
    for move in moves:
        words.append(_words(state, move))
        try:
            state, _ = rules.decide(state, move)
        except domain.DomainError:
            break
    return "; ".join(words)


def _words(state: Any, move: Move) -> str:
    try:
        return str(domain.describe(state, move))
    except Exception:  # words are a courtesy: a move the rules would refuse may not be sayable
        return str(move.get("kind"))
