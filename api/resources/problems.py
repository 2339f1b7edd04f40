"""The problem types of the API's errors: ``GET /api/problems/{error_code}`` describes one."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.resources.errors import PROBLEM_TYPE, STATUS, ApiError, title_of
from api.resources.openapi import MEANINGS, Blueprint, errors
from api.resources.schemas import ProblemTypeSchema

blp = Blueprint(
    "problems",
    __name__,
    url_prefix="/api/problems",
    description="Problem types: what each error_code of an error answer means.",
)


@blp.route("/<string:error_code>")
class ProblemType(MethodView):
    @errors(blp, 404)
    @blp.response(200, ProblemTypeSchema)
    def get(self, error_code: str) -> dict[str, Any]:
        """What a problem type means.

        An error answer's `type` is `/api/problems/<error_code>`: this answers its title, its status and what
        a client does about it. `404 not_found` for a code the API never answers with."""
        if error_code not in STATUS:
            raise ApiError("not_found", f"no problem type {error_code!r}: see GET /api/openapi.json")
        status = STATUS[error_code]
        return {
            "type": PROBLEM_TYPE + error_code,
            "title": title_of(error_code),
            "status": status,
            "error_code": error_code,
            "meaning": MEANINGS.get(status, ""),
        }
