"""The blueprint class of the JSON API, and the error answers each operation documents beside the envelope
every operation has as its default."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import flask_smorest

from api.resources.fastjson import FastFlaskParser
from api.resources.schemas import ErrorSchema

F = TypeVar("F", bound=Callable[..., Any])

MEANINGS = {
    400: "malformed: the body, query or headers do not fit (invalid_request), or a malformed move (invalid_move)",
    401: "no token, or not one of this game's (unauthorized); private games need one even to read",
    403: "the token may not do this (forbidden): a seat acting for another seat, or an owner-only action",
    404: "no such game, version or annotation",
    409: "the game moved on (stale_version, with details.current_version), or nothing to undo or redo, or "
    "the game is closed; or a retried seat-token request whose token was replaced or withdrawn since "
    "(token_superseded)",
    413: "the body is larger than the limit (payload_too_large)",
    422: "refused by the rules (illegal_move with its rule, not_your_turn, game_over), a table setup's layout "
    "(invalid_layout: details.errors lists each field with its rule), an invalid log, an "
    "amendment to the move already recorded (amend_unchanged), or an amendment's resolution that does not fit it "
    "(resolution_not_later, resolution_repeated, resolution_not_needed, resolution_unused)",
    428: "the write names no version: send If-Match or expected_version (precondition_required)",
    429: "too many writes (rate_limited), with Retry-After",
    503: "the event store did not answer (store_unavailable), with Retry-After",
}


class Blueprint(flask_smorest.Blueprint):  # type: ignore[misc]  # flask-smorest ships no type hints
    """flask-smorest's blueprint, reading JSON bodies with msgspec (:mod:`api.resources.fastjson`)."""

    ARGUMENTS_PARSER = FastFlaskParser()


# Every write honours it (api.app checks it before the write): documented on every write operation.
IDEMPOTENCY_KEY = {
    "in": "header",
    "name": "Idempotency-Key",
    "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 200},
    "description": "1 to 200 printable characters (blanks around it are not part of it): a retried write "
    "with the same key answers as the first one did, writing nothing; the same key with another body is 422",
}

READ = (401, 404, 503)
WRITE = (400, 401, 403, 404, 409, 413, 422, 428, 429, 503)
OPEN_WRITE = (400, 413, 429, 503)


def errors(blp: Blueprint, *statuses: int) -> Callable[[F], F]:
    """Document these error statuses (all in the one envelope) on a view.

    flask-smorest documents an alternative answer by wrapping the view in a function that only calls it; a
    write documents ten, and each wrapper cost a call and a coroutine check on every request. The documentation
    (the wrapper's ``_apidoc``) is kept on the view itself instead, and the view is left unwrapped."""

    def decorate(func: F) -> F:
        for status in sorted(statuses, reverse=True):
            documented = blp.alt_response(status, schema=ErrorSchema, description=MEANINGS[status])(func)
            func._apidoc = documented._apidoc  # type: ignore[attr-defined]
        return func

    return decorate
