"""Rules versions: a game's line of play checked again under other rules (a dry run), and a game moved to them
when its whole line passes (a ``RulesUpgraded`` event; :mod:`replay.rules`).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import domain
from replay import rules
from replay.errors import GameCorrupt
from replay.events import RulesUpgraded, now
from replay.services.queries import Queries
from replay.services.writing import Writes


class RulesVersions(Writes):
    """Check and upgrade games' rules versions (see the module docstring)."""

    def revalidate(self, game_id: UUID, *, rules_version: str | None = None) -> dict[str, Any]:
        """Dry-run: check the game's opening and line of play again under ``rules_version`` (the current
        rules by default), with every check; report the first move they would reject, or that all pass. A
        game recorded under rules this build no longer replays is checked all the same (its moves are read
        as recorded); one whose stored events are damaged is reported, not raised (``GameNotFound`` is)."""
        target = rules_version or domain.RULES_VERSION
        report: dict[str, Any] = {"game_id": str(game_id), "rules_version": None, "checked_under": target}
        try:
            game = self.games.get(game_id)
        except GameCorrupt as error:
            return {**report, "ok": False, "version": error.details.get("version"), "error": error.to_dict()}
        report["rules_version"] = game.rules_version
        report["draw_change"] = rules.draw_change(game.setup, game.rules_version, target)
        report["draw_kept"] = rules.draw_kept(game.setup, game.rules_version, target)
        line = [(v, game.records[v].move, game.records[v].chance) for v in game.line]
        refused = rules.first_refusal(game.setup, game.catalog, game.opening, line, target)
        if refused is None:
            return {**report, "ok": True, "version": None}
        version, move, refusal = refused
        found = {**report, "ok": False, "version": version, "error": refusal.to_dict()}
        return found if move is None else {**found, "move": move}

    def revalidate_all(self, *, rules_version: str | None = None) -> list[dict[str, Any]]:
        return [
            self.revalidate(game_id, rules_version=rules_version)
            for game_id in Queries(self.games).stored_game_ids()
        ]

    def upgrade(
        self, game_id: UUID, *, to: str | None = None, apply: bool = False, actor: str = "heronlog upgrade"
    ) -> dict[str, Any]:
        """Move a game to the rules ``to`` (the current ones by default) when its whole line of play passes
        them: with ``apply``, a ``RulesUpgraded`` event is appended and the game is replayed and played on
        under them from then on; without it, only what would happen is reported. A game that does not pass is
        left as recorded (and, if this build no longer replays its rules, read as recorded and flagged). A
        seeded game whose draw they would change stays under its own rules while this build replays them
        (``draw_kept`` says why: `replay.rules.draw_kept`). ``outcome``: ``current`` (already under them),
        ``refused``, ``kept`` (that seeded game), ``would move`` or ``moved``; ``draw_change`` says how a
        seeded game that moves draws from then on."""
        target = to or domain.RULES_VERSION
        rules.ensure_supported(target)
        report = self.revalidate(game_id, rules_version=target)
        if report["rules_version"] == target:
            return {**report, "outcome": "current"}
        if not report["ok"]:
            return {**report, "outcome": "refused"}
        if report["draw_kept"]:
            return {**report, "outcome": "kept"}
        if not apply:
            return {**report, "outcome": "would move"}
        game = self.games.get(game_id)
        if game.rules_version == target:  # moved meanwhile (two upgrades at once)
            return {**report, "outcome": "current"}
        moved = RulesUpgraded(
            originator_id=game.id,
            originator_version=game.version + 1,
            timestamp=now(),
            rules_version=target,
            previous=game.rules_version,
            actor=actor,
        )
        played = self.games.commit(game, [moved])  # a move recorded meanwhile: StaleVersion, run it again
        return {**report, "outcome": "moved", "version": played.versions[0]}
