"""One error shape for every answer that is not a success, and the one table from error codes to statuses.

Every error is an RFC 9457 problem document with a stable ``error_code``, the ``rule`` a move broke and
``details`` (docs/api/errors.md); nothing a client sends may produce a 500.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app, jsonify
from werkzeug.exceptions import HTTPException

from api.server.observability import observe
from domain.errors import DomainError
from replay.errors import ReplayError, store_unavailable

logger = logging.getLogger("api")

STATUS: Mapping[str, int] = {
    # 400: the request cannot be understood as sent
    "invalid_request": 400,
    "invalid_move": 400,
    "invalid_setup": 400,
    "invalid_annotation": 400,
    "invalid_seat": 400,
    "invalid_tallies": 400,
    "invalid_position": 400,  # POST /api/analyse: no engine state, or one the engine cannot play on
    # 401 / 403: who you are, and what you may do
    "unauthorized": 401,
    "forbidden": 403,
    "amend_reaches_other_seats": 403,  # a seat token's amendment that takes other seats' moves off the line
    # 404: nothing there
    "not_found": 404,
    "game_not_found": 404,
    "annotation_not_found": 404,
    "player_not_found": 404,
    "unknown_version": 404,
    "method_not_allowed": 405,
    # 412: the write named a version (If-Match or expected_version) that is no longer the game's (RFC 9110)
    "stale_version": 412,
    "weak_etag": 412,  # If-Match compares strongly (RFC 9110 13.1.1): a weak tag never matches
    # 409: the game is not in a state where this write can happen; reload and decide again
    "nothing_to_undo": 409,
    "nothing_to_redo": 409,
    "game_closed": 409,
    "token_superseded": 409,  # a retried seat-token issuance whose token was replaced or withdrawn since
    "player_already_seated": 409,  # a link that would seat one player in two seats of a game
    "game_unfinished": 409,  # an export that needs a finished game (the BG Stats link): finish the game first
    "analysis_running": 409,  # an analysis of another version of the game is under way: one at a time per game
    "nothing_to_analyse": 409,  # no move of the game was chosen by a player yet
    "request_timeout": 408,  # said by the server itself (api.server.slow_clients): a body not whole in time
    "payload_too_large": 413,
    "import_too_large": 413,  # an import holding more events than IMPORT_MAX_EVENTS
    # 422: well-formed, but the rules (or the log's own consistency) refuse it
    "illegal_move": 422,
    "not_your_turn": 422,
    "game_over": 422,
    "invalid_log": 422,
    "invalid_layout": 422,  # a table setup's layout the rules refuse: every problem by field, with its rule
    "nothing_to_evaluate": 422,  # POST /api/analyse: the position waits for chance, or the game is over
    "rules_version_unsupported": 422,
    "idempotency_key_reused": 422,
    "amend_unchanged": 422,  # an amendment to the very move already recorded: it would change nothing
    "invalid_correction": 422,  # a correction that cannot be made as asked (a setup not laid out, no such seat)
    # an amendment's resolutions (the moves really played where later moves no longer fit) that do not fit it
    "invalid_resolution": 400,  # not readable as {index, move} (the schema says so first, over HTTP)
    "resolution_not_later": 422,  # its index is not a move after the corrected one
    "resolution_repeated": 422,  # two resolutions for one index
    "resolution_not_needed": 422,  # the recorded move there still fits
    "resolution_unused": 422,  # never reached: an earlier misfit has none, so the rest is dropped before it
    "precondition_required": 428,
    "rate_limited": 429,
    "internal_error": 500,
    # a game whose stored events are damaged (they fail their integrity check or do not fold): the server's
    # fault, for that game only; it names the game and the version, and is logged as an error
    "game_corrupt": 500,
    "store_unavailable": 503,
    "too_many_streams": 503,  # every event stream this process may hold is open: a spectator tries again later
    "too_many_imports": 503,  # this process refolds as many heavy imports as it may at once: try again shortly
    "too_many_analyses": 503,  # this process evaluates as many positions for bots as it may at once
    "analysis_unavailable": 503,  # no job queue for analyses on this deployment (a cluster without one)
    "server_unavailable": 503,  # said by the proxy in front (docker/nginx.conf): the API behind it did not answer
}
"""Every error code the API answers with, and its HTTP status."""

TITLES: Mapping[str, str] = {
    "invalid_request": "The request does not fit its schema",
    "invalid_move": "Malformed move",
    "invalid_setup": "Invalid game setup",
    "invalid_annotation": "Invalid annotation",
    "invalid_seat": "No such seat",
    "invalid_tallies": "Invalid score-sheet tallies",
    "unauthorized": "A token is needed",
    "forbidden": "This token may not do this",
    "amend_reaches_other_seats": "The amendment takes other seats' moves off the line",
    "not_found": "Not found",
    "game_not_found": "No such game",
    "annotation_not_found": "No such annotation",
    "player_not_found": "No such player",
    "player_already_seated": "The player sits in another seat of this game",
    "unknown_version": "No such version",
    "method_not_allowed": "Method not allowed",
    "stale_version": "The game has moved on",
    "weak_etag": "If-Match needs a strong tag",
    "nothing_to_undo": "Nothing to undo",
    "nothing_to_redo": "Nothing to redo",
    "game_closed": "The game is closed",
    "token_superseded": "The token was replaced or withdrawn",
    "game_unfinished": "The game is not finished",
    "payload_too_large": "The body is too large",
    "illegal_move": "Illegal move",
    "not_your_turn": "Not your turn",
    "game_over": "The game is over",
    "invalid_log": "Invalid game log",
    "rules_version_unsupported": "Unsupported rules version",
    "idempotency_key_reused": "Idempotency-Key reused for another request",
    "amend_unchanged": "The amendment changes nothing",
    "invalid_correction": "The correction cannot be made",
    "invalid_resolution": "Malformed resolution",
    "resolution_not_later": "The resolution is not after the corrected move",
    "resolution_repeated": "Two resolutions for one move",
    "resolution_not_needed": "The recorded move still fits",
    "resolution_unused": "The resolution is never reached",
    "precondition_required": "The write names no version",
    "rate_limited": "Too many writes",
    "internal_error": "Unexpected error",
    "store_unavailable": "The event store did not answer",
    "too_many_streams": "Too many event streams open",
    "analysis_running": "An analysis of the game is under way",
    "nothing_to_analyse": "Nothing to analyse yet",
    "invalid_position": "Not a position the engine can play on",
    "nothing_to_evaluate": "No decision to evaluate",
    "too_many_analyses": "Too many analyses at once",
    "analysis_unavailable": "Analyses are not available here",
    "server_unavailable": "The server did not answer",
}
"""Each problem type's title (RFC 9457 ``title``): the same words for every problem of that type."""

PROBLEM_TYPE = "/api/problems/"
"""The prefix of every problem's ``type``; the error code follows (``/api/problems/stale_version``)."""

PROBLEM_JSON = "application/problem+json"

HTTP_CODES: Mapping[int, str] = {
    400: "invalid_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    429: "rate_limited",
}
"""Error codes of the statuses that Flask and werkzeug raise on their own (unknown route, body too large...)."""


class ApiError(Exception):
    """An error raised by the HTTP layer itself (authentication, preconditions, limits, malformed input)."""

    def __init__(
        self,
        code: str,
        message: str,
        *,
        rule: str | None = None,
        headers: Mapping[str, str] | None = None,
        **details: Any,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule
        self.details = details
        self.headers = dict(headers or {})

    @property
    def status(self) -> int:
        return STATUS.get(self.code, 400)


def title_of(code: str) -> str:
    """A problem type's title: from :data:`TITLES`, else the code in words ("some_code" is "Some code")."""
    return TITLES.get(code) or code.replace("_", " ").capitalize()


def envelope(
    status: int, code: str, message: str, rule: str | None = None, details: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The problem document (RFC 9457) of an error, with heronlog's extension members."""
    return {
        "type": PROBLEM_TYPE + code,
        "title": title_of(code),
        "status": status,
        "detail": message,
        "error_code": code,
        "rule": rule,
        "details": dict(details or {}),
    }


def error_response(
    status: int,
    code: str,
    message: str,
    *,
    rule: str | None = None,
    details: Mapping[str, Any] | None = None,
    headers: Mapping[str, str] | None = None,
) -> Response:
    observe(error_code=code)
    response = jsonify(envelope(status, code, message, rule, _plain(details or {})))
    response.status_code = status
    response.mimetype = PROBLEM_JSON
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def _plain(value: Any) -> Any:
    """Details as JSON can carry them (tuples and sets become lists, unknown objects their text)."""
    if isinstance(value, Mapping):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(item) for item in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def status_of(code: str, default: int) -> int:
    return STATUS.get(code, default)


def from_http_exception(error: HTTPException) -> Response:
    """werkzeug's and flask-smorest's errors (unknown route, wrong method, body too large, webargs' validation
    errors) in the one envelope. webargs reports a body that does not fit its schema as 422; here that is
    ``400 invalid_request`` (422 is kept for moves the rules refuse)."""
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    details: dict[str, Any] = {}
    if status == 422 or "messages" in data:
        status = 400
        details["fields"] = data.get("messages") or data.get("errors") or {}
        said = details["fields"].get("json") if isinstance(details["fields"], Mapping) else None
        if isinstance(said, list) and said and str(said[0]).startswith("Invalid JSON body"):
            message = "the body is not JSON text: " + str(said[0]).removeprefix("Invalid JSON body").strip(
                ":. "
            )
            message = message.rstrip(": ")
        else:
            message = "the request does not match its schema: see details.fields"
    else:
        message = data.get("message") or error.description or error.name
    code = HTTP_CODES.get(status, (error.name or "error").lower().replace(" ", "_"))
    headers = dict(data.get("headers") or {})
    if status == 405 and error.get_response().headers.get("Allow"):
        headers["Allow"] = error.get_response().headers["Allow"]
    if status == 413:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        message = f"the request body is larger than {limit} bytes"
        details["limit"] = limit
    return error_response(status, code, str(message), details=details, headers=headers)


def from_exception(error: Exception) -> Response:
    """Any other exception: the API's own, the game log's, the rules engine's, the store's, or a bug."""
    if isinstance(error, HTTPException):
        return from_http_exception(error)
    if isinstance(error, ApiError):
        return error_response(
            error.status,
            error.code,
            error.message,
            rule=error.rule,
            details=error.details,
            headers=error.headers,
        )
    if isinstance(error, DomainError):
        status = status_of(error.code, 400 if isinstance(error, ReplayError) else 422)
        if status >= 500:  # stored data damaged: the operator must hear of it (heronlog verify)
            logger.error("%s: %s", error.code, error.message)
        return error_response(status, error.code, error.message, rule=error.rule, details=error.details)
    if store_unavailable(error):
        logger.warning("store unavailable: %s", error)
        return error_response(
            503,
            "store_unavailable",
            "the event store did not answer: try again shortly",
            headers={"Retry-After": "5"},
        )
    logger.exception("unexpected error")
    return error_response(500, "internal_error", "unexpected error: it was logged")


def register(app: Flask) -> None:
    """Route every exception through :func:`from_exception` (flask-smorest's own handler is replaced in
    :class:`api.app.HeronApi`)."""
    app.register_error_handler(Exception, from_exception)
