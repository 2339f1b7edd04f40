"""The stand-alone score sheet: the rulebook's scorer for a game that was not recorded."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask.views import MethodView

import domain
from api.resources import present
from api.resources.games import judged
from api.resources.openapi import IDEMPOTENCY_KEY, OPEN_WRITE, Blueprint, errors
from api.resources.schemas import ScoreSheetRequestSchema, ScoreSheetsSchema
from replay import text

blp = Blueprint(
    "score-sheets",
    __name__,
    url_prefix="/api/score-sheets",
    description="The rulebook's scorer: end-of-game tallies in, points line by line out.",
)


@blp.route("")
class ScoreSheets(MethodView):
    @errors(blp, *OPEN_WRITE)
    @blp.doc(parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(ScoreSheetRequestSchema, error_status_code=400)
    @blp.response(200, ScoreSheetsSchema)
    def post(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Score a finished game from each player's end-of-game tallies; nothing is stored.

        Each player is `{name, cp, coins, seals, food, iron, pearl, pot, courtiers, warriors, gardeners,
        turn_order}` (or the points of a line directly: `resource_points`, `pot_points`, `warrior_points`,
        `gardener_points`); missing counts are 0. `tie_break` is `turn_order` (default) or `shared`. With
        `expansions: ["matcha"]` a player may also give `whisks` and `geishas` (counts by place: `entrance`,
        `viewing_platform`, `path_1`, `path_2`, `tea_house_upper`, `tea_house_middle`, `tea_house_lower`) or
        `geisha_points`, and the sheet gains a geishas line."""
        players = [dict(player) for player in body["players"]]
        tallies = {"players": players, "tie_break": body["tie_break"], "expansions": list(body["expansions"])}
        # Checked before scoring: the names go on the sheet the answer carries, so they are held to the text rules
        # of a game's names (no control, bidi or invisible characters), though nothing is stored.
        names = [
            text.checked(player["name"], f"player {seat + 1}'s name", max_length=40)
            if player.get("name")
            else f"Player {seat + 1}"
            for seat, player in enumerate(players)
        ]
        scored = judged(
            lambda: domain.score_sheet(tallies), "invalid_tallies", "the scorer could not read these tallies"
        )
        return {"sheets": present.sheets_from(scored, names)}
