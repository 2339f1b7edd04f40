"""The write guard: what every write to the API passes before its view runs (one middleware, one place).

1. **Its body is JSON** (or it has none): a body sent as text or a form is never read.
2. **The rate limit**: fixed windows of ``RATE_LIMIT_WINDOW`` seconds; at most ``RATE_LIMIT_PER_TOKEN`` writes
   per window per token for a write to a game, ``RATE_LIMIT_PER_ADDRESS`` per client address for the writes
   that take no token (creating, forking or importing a game, a score sheet). A refused write is
   ``429 rate_limited`` with ``Retry-After``. The counters are kept beside the game's events (in Redis: under
   its store's hash tag, shared by every process; on SQLite and in memory: per process). Every answer to a
   write carries the state of its window as the IETF draft "RateLimit header fields for HTTP" names it: the
   current draft's ``RateLimit-Policy: "writes";q=600;w=60`` and ``RateLimit: "writes";r=599;t=42``, and the
   earlier drafts' ``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` that many clients read.
3. **The Idempotency-Key**: checked (1 to 200 printable characters) and trimmed, then handed to the view
   (:func:`api.resources.context.idempotency_key`), which hands it to the game log: the log records it with
   the write and answers a retry from what it recorded (:mod:`replay.idempotency`). A creation's key is scoped
   by who sent it (:func:`api.resources.context.creation_key`).

Nothing is remembered here: there is no second copy of any answer.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from uuid import UUID

from flask import Flask, Response, current_app, g, request

from api.resources.context import game_log, presented_token
from api.resources.errors import ApiError, error_response

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


@dataclass(frozen=True)
class Verdict:
    """A rate-limit decision: allowed or not, and when to try again."""

    allowed: bool
    limit: int
    remaining: int
    retry_after: int


def verdict(limit: int, count: int, reset: int) -> Verdict:
    """The decision for the ``count``-th write of a window that ends in ``reset`` seconds."""
    return Verdict(count <= limit, limit, max(0, limit - count), reset)


POLICY = "writes"
"""The name of the one rate-limit policy, in ``RateLimit-Policy`` and ``RateLimit``."""


def rate_limit_headers(decided: Verdict, window: int) -> dict[str, str]:
    """A write window's state as the RateLimit header fields (the current IETF draft's and the earlier ones')."""
    return {
        "RateLimit-Policy": f'"{POLICY}";q={decided.limit};w={window}',
        "RateLimit": f'"{POLICY}";r={decided.remaining};t={decided.retry_after}',
        "RateLimit-Limit": str(decided.limit),
        "RateLimit-Remaining": str(decided.remaining),
        "RateLimit-Reset": str(decided.retry_after),
    }


def identity() -> str:
    """Whom a write is counted against: its token (hashed: tokens are never kept), else the client address.
    Only a write to one game takes a token (and refuses one that is not that game's); a token sent with any
    other write (creating or importing a game, a score sheet) is not looked at, so it is counted by address:
    else a made-up token per request would escape the address's limit."""
    token = presented_token() if isinstance((request.view_args or {}).get("game_id"), UUID) else None
    if token:
        return "token:" + hashlib.sha256(token.encode("utf-8")).hexdigest()[:32]
    return "address:" + (request.remote_addr or "unknown")


def checked_key() -> str | None:
    """The request's ``Idempotency-Key``, trimmed (a header's surrounding blanks are not part of its value:
    " k" is a retry of "k"); ``400 invalid_request`` for one that is empty, too long or not printable."""
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    key = key.strip()
    if not 1 <= len(key) <= 200 or not key.isprintable():
        raise ApiError("invalid_request", "Idempotency-Key must be 1 to 200 printable characters")
    return key


def install(app: Flask) -> None:
    """Guard every write to ``/api/`` (see the module docstring)."""

    @app.before_request
    def guard_write() -> Response | None:
        if request.method not in WRITE_METHODS or not request.path.startswith("/api/"):
            return None
        if request.content_length and not request.is_json:  # a body as text/plain or a form: never read
            return error_response(
                400,
                "invalid_request",
                "the body must be sent as JSON, with Content-Type: application/json (it was "
                f"{request.mimetype or 'not said'})",
                details={"content_type": request.content_type},
            )
        who = identity()
        key = checked_key()
        limit = int(
            current_app.config[
                "RATE_LIMIT_PER_TOKEN" if who.startswith("token:") else "RATE_LIMIT_PER_ADDRESS"
            ]
        )
        if limit > 0:
            game_id = (request.view_args or {}).get("game_id")
            window = max(1, int(current_app.config["RATE_LIMIT_WINDOW"]))
            count, reset = game_log().tally(who, window, near=game_id if isinstance(game_id, UUID) else None)
            decided = verdict(limit, count, reset)
            g.rate_limit = rate_limit_headers(decided, window)
            if not decided.allowed:
                raise ApiError(
                    "rate_limited",
                    f"too many writes: at most {decided.limit} per {window} s; try again in {decided.retry_after} s",
                    headers={"Retry-After": str(decided.retry_after)},
                    retry_after=decided.retry_after,
                    limit=decided.limit,
                )
        if key is not None:
            g.idempotency_key = key
            g.creation_key = hashlib.sha256(f"{who}\n{key}".encode("utf-8", "surrogatepass")).hexdigest()
        return None

    @app.after_request
    def tell_the_rate_limit(response: Response) -> Response:
        # every answer to a counted write, refusals included: a client paces itself before it is refused
        for name, value in g.get("rate_limit", {}).items():
            response.headers[name] = value
        return response
