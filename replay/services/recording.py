"""Recording moves: one move, or a batch applied all or nothing, checked by the rules and by who sends it.

A seat token records its own seat's moves only (:func:`replay.access.may_act_for`); the owner, or a caller with
no token at all (the command line, a worker), records any. The check is made here, so every way in gets it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from uuid import UUID

from replay import decisions, exports
from replay.access import Grant, may_act_for
from replay.errors import StaleVersion
from replay.events import Move
from replay.game import Game, after_decided
from replay.services.repository import Played
from replay.services.writing import Writes, check_expected


class Recording(Writes):
    """Record moves (see the module docstring)."""

    def play(
        self,
        game_id: UUID,
        move: Move | Sequence[Move],
        *,
        expected_version: int | None,
        actor: str | None = None,
        idempotency_key: str | None = None,
        known: Game | None = None,
        grant: Grant | None = None,
    ) -> Played:
        """Record one move, or a batch (a list) applied all or nothing, for ``grant`` (None: a trusted caller)
        under its actor (or ``actor``). ``known`` is the game as the caller has just read it (not read again);
        if it is stale, the store's version check refuses the write as with any lost race.
        ``expected_version`` None means "whatever it is now"."""
        moves = [move] if isinstance(move, Mapping) else list(move)
        game = self.game(game_id, known)
        doer = actor if actor is not None else grant.actor if grant is not None else "owner"

        def same(before: Game, versions: tuple[int, ...], now: Game) -> bool:
            recorded = [now.records[version].move for version in versions]  # KeyError: not moves
            return exports.same_json(recorded, moves)

        may_act_for(game, grant, [move.get("seat") for move in moves], "record")
        repeated = self.repeated(game, idempotency_key, expected_version, same)
        if repeated is not None:
            return repeated
        check_expected(game, expected_version)
        decided = decisions.play(game, moves, actor=doer, idempotency_key=idempotency_key)
        after = after_decided(game, decided.events, decided.states)
        try:
            return self.games.commit(game, decided.events, after)
        except StaleVersion:
            # Lost a race. If the winner was this same request sent twice, answer as it was answered.
            now = self.games.get(game_id)
            repeated = self.repeated(now, idempotency_key, expected_version, same)
            if repeated is not None:
                return repeated
            raise
