"""The history of a game's line of play: undo, redo, amend and abandon, each an appended event (nothing deleted).

Which moves a write takes off the line (or puts back) is decided once, in :mod:`replay.decisions`; the seat
check reads it from the decided event. A seat token undoes, redoes and amends its own seat's moves only, and an
amendment it sends may not take another seat's moves off the line either (``403 amend_reaches_other_seats``,
dry run or not): the owner writes such a correction. Every amendment is decided here (:meth:`History.amend`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import UUID

import domain
from replay import corrections, decisions
from replay.access import (
    OWNER,
    Forbidden,
    Grant,
    ReachesOtherSeats,
    may_act_for,
    owner_only,
    strangers,
    whose_moves,
)
from replay.corrections import AmendReport, Correction, Resolution
from replay.events import CorrectionRedone, CorrectionUndone, DomainEvent, Move, MovesRedone, MovesUndone
from replay.game import Game
from replay.services.repository import Played
from replay.services.writing import Writes, check_expected


def _actor(actor: str | None, grant: Grant | None) -> str:
    return actor if actor is not None else grant.actor if grant is not None else OWNER


class History(Writes):
    """Undo, redo, amend and abandon (see the module docstring)."""

    def undo(
        self,
        game_id: UUID,
        *,
        to_version: int | None = None,
        expected_version: int | None,
        actor: str | None = None,
        idempotency_key: str | None = None,
        known: Game | None = None,
        grant: Grant | None = None,
    ) -> Played:
        """Undo the last move, or every move after ``to_version``: an appended event, nothing deleted."""
        game = self.game(game_id, known)
        doer = _actor(actor, grant)

        def decide(on: Game) -> DomainEvent:
            return decisions.undo(on, actor=doer, to_version=to_version, idempotency_key=idempotency_key)

        def authorise(on: Game, events: Sequence[DomainEvent]) -> None:
            undone = events[0]
            if isinstance(undone, CorrectionUndone):
                may_act_for(on, grant, _changed_seats(on), "undo")
                return
            assert isinstance(undone, MovesUndone)
            may_act_for(on, grant, [on.records[version].seat for version in undone.versions], "undo")

        def kept(events: Sequence[DomainEvent]) -> int:  # the moves that stay: the game needs states to there
            undone = events[0]
            if isinstance(undone, CorrectionUndone):
                return 0
            assert isinstance(undone, MovesUndone)
            return len(game.line) - len(undone.versions)

        return self.decide_one(
            game, expected_version, idempotency_key, decide, reach=kept, authorise=authorise
        )

    def redo(
        self,
        game_id: UUID,
        *,
        count: int = 1,
        expected_version: int | None,
        actor: str | None = None,
        idempotency_key: str | None = None,
        known: Game | None = None,
        grant: Grant | None = None,
    ) -> Played:
        """Redo the next ``count`` undone moves, exactly as they were recorded."""
        doer = _actor(actor, grant)

        def decide(on: Game) -> DomainEvent:
            return decisions.redo(on, actor=doer, count=count, idempotency_key=idempotency_key)

        def authorise(on: Game, events: Sequence[DomainEvent]) -> None:
            redone = events[0]
            if isinstance(redone, CorrectionRedone):
                may_act_for(on, grant, _changed_seats(on), "redo")
                return
            assert isinstance(redone, MovesRedone)
            may_act_for(on, grant, [on.records[version].seat for version in redone.versions], "redo")

        game = self.game(game_id, known)
        return self.decide_one(game, expected_version, idempotency_key, decide, authorise=authorise)

    def abandon(
        self,
        game_id: UUID,
        *,
        expected_version: int | None,
        actor: str | None = None,
        reason: str = "",
        idempotency_key: str | None = None,
        known: Game | None = None,
        grant: Grant | None = None,
    ) -> Played:
        """Close a game in progress; it can still be read, replayed, forked and exported. The owner's write:
        :class:`Forbidden` for another token's ``grant``."""
        owner_only(grant, "abandon the game")
        doer = _actor(actor, grant)

        def decide(on: Game) -> DomainEvent:
            return decisions.abandon(on, actor=doer, reason=reason, idempotency_key=idempotency_key)

        return self.decide_one(self.game(game_id, known), expected_version, idempotency_key, decide)

    def amend(
        self,
        game_id: UUID,
        version: int,
        move: Move,
        *,
        expected_version: int | None,
        actor: str | None = None,
        dry_run: bool = False,
        resolutions: Sequence[Any] = (),
        idempotency_key: str | None = None,
        known: Game | None = None,
        grant: Grant | None = None,
    ) -> tuple[Played, AmendReport]:
        """Replace the move recorded at ``version`` by ``move`` (:meth:`correct`)."""
        return self.correct(
            game_id,
            Correction.replacing(version, move),
            expected_version=expected_version,
            actor=actor,
            dry_run=dry_run,
            resolutions=resolutions,
            idempotency_key=idempotency_key,
            known=known,
            grant=grant,
        )

    def correct(
        self,
        game_id: UUID,
        correction: Correction,
        *,
        expected_version: int | None,
        actor: str | None = None,
        dry_run: bool = False,
        resolutions: Sequence[Any] = (),
        idempotency_key: str | None = None,
        known: Game | None = None,
        grant: Grant | None = None,
    ) -> tuple[Played, AmendReport]:
        """Correct the move recorded at ``correction.version`` (or the setup); the report says which later moves
        still fit, and suggests what happened at the first that does not. ``resolutions`` give the moves really
        played where later moves no longer fit (:func:`replay.corrections.correct`). ``dry_run``: decide and
        report, write nothing (a seat token is refused all the same, so that it learns before writing that
        only the owner may)."""
        doer = _actor(actor, grant)
        reports: list[AmendReport] = []
        # A correction plays the line again from the corrected move: the game needs every state (cached, so
        # that a correction after its dry run rebuilds nothing).
        game = self.games.reaching(self.game(game_id, known), 0)
        owner = grant is None or grant.role == OWNER
        if game.keys.get(idempotency_key or "") is None or dry_run:
            if not owner and _swaps(correction, resolutions):
                raise Forbidden(
                    "only the owner swaps the seats of moves (a seat token corrects its own seat's moves)",
                    actor=doer,
                )
            may_act_for(game, grant, _touched_seats(game, correction, resolutions), "amend")

        def decide(on: Game) -> Sequence[DomainEvent]:
            events, report = corrections.correct(
                on,
                correction,
                actor=doer,
                resolutions=resolutions,
                idempotency_key=None if dry_run else idempotency_key,
                may_swap=owner,
            )
            reports.append(report)
            return events

        def authorise(on: Game, events: Sequence[DomainEvent]) -> None:
            _keeps_to_its_seat(on, grant, reports[-1], dry_run)

        if dry_run:
            check_expected(game, expected_version)
            authorise(game, decide(game))
            return Played(game, ()), reports[-1]
        played = self.decide_one(game, expected_version, idempotency_key, decide, authorise=authorise)
        return played, reports[-1]


def _swaps(correction: Correction, resolutions: Sequence[Any]) -> bool:
    """Whether a correction swaps seats (itself, or one of its resolutions)."""
    return correction.kind == "swap_seats" or any(
        (isinstance(resolution, Mapping) and "swap_seats" in resolution)
        or (isinstance(resolution, Resolution) and resolution.swap_seats is not None)
        for resolution in resolutions
    )


def _changed_seats(game: Game) -> list[Any]:
    """The seats of the moves a correction's undo (or redo) puts on the line, takes off it, or changes in place:
    a seat token takes back (or writes again) only a correction of its own seat's moves."""
    change = game.corrected or game.uncorrected
    assert change is not None
    moved = set(change.before.line) ^ set(change.after.line) | set(change.before.moves)
    seats: list[Any] = [game.records[version].seat for version in moved]
    seats.extend(move.get("seat") for move, _, _ in change.before.moves.values())
    if change.before.opening != change.after.opening:
        seats.append(None)  # the setup is chance's
    return seats


def _touched_seats(game: Game, correction: Correction, resolutions: Sequence[Any]) -> list[Any]:
    """The seats whose moves a correction plays or replaces: its own moves and the move recorded at its version
    (unless it stays: moves inserted before it), the setup's chance, each resolution's moves and the recorded
    move it stands in for (indexes from 1 along the line)."""
    seats: list[Any] = [move.get("seat") for move in correction.moves]
    record = game.records.get(correction.version)
    if correction.kind == "setup":
        seats.append(None)
    elif correction.kind != "insert" and record is not None:
        seats.append(record.seat)
    for resolution in resolutions:
        if isinstance(resolution, Resolution):
            resolution = resolution.stored()  # noqa: PLW2901  (read as the client sends it)
        if not isinstance(resolution, Mapping):
            continue  # refused as malformed when it is decided
        played = resolution.get("moves") or ([resolution["move"]] if "move" in resolution else [])
        seats.extend(one.get("seat") for one in played if isinstance(one, Mapping))
        index = resolution.get("index")
        if isinstance(index, int) and not isinstance(index, bool) and 1 <= index <= len(game.line):
            seats.append(game.records[game.line[index - 1]].seat)
    return seats


def _keeps_to_its_seat(game: Game, grant: Grant | None, report: AmendReport, dry_run: bool) -> None:
    """A seat token's amendment may not take another seat's moves off the line of play (the report's
    ``dropped``): :class:`ReachesOtherSeats`, naming whose moves and which versions."""
    if grant is None or grant.role == OWNER:
        return
    dropped = [
        version
        for version in (*report.dropped, *report.rewritten)
        if game.records[version].seat != grant.seat
    ]
    if not dropped:
        return
    assert grant.seat is not None  # a seat grant always names its seat
    seats = strangers(grant, [game.records[version].seat for version in dropped])
    state = game.state
    token = domain.seat_text(state, grant.seat, "'s token")
    wrote = "this dry run wrote nothing" if dry_run else "nothing was written"
    raise ReachesOtherSeats(
        f"{token} may not write this correction: it takes {whose_moves(state, seats)} moves off the line of "
        f"play (versions {', '.join(str(version) for version in dropped)}); only the owner may ({wrote})",
        actor=grant.actor,
        seats=seats,
        versions=dropped,
        dry_run=dry_run,
    )
