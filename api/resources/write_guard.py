"""The write guard: what every write to the API passes before its view runs (one middleware, one place).

1. **Its body is JSON** (or it has none): a body sent as text or a form is never read, whether its length is
   given (``Content-Length``) or not (``Transfer-Encoding: chunked``). A chunked body is read here, up to
   ``MAX_CONTENT_LENGTH``: one longer is ``413 payload_too_large``, as a body whose length says so.
2. **The rate limit**: fixed windows of ``RATE_LIMIT_WINDOW`` seconds; at most ``RATE_LIMIT_PER_TOKEN`` writes
   per window per token for a write to a game, ``RATE_LIMIT_PER_ADDRESS`` per client address for the writes
   that take no token and for every **creation** (a game, a fork, an import, a score sheet): a fork is counted
   by the address that asks for it whatever token it sends, so the tokens of the games it makes cannot make
   more. A refused write is ``429 rate_limited`` with ``Retry-After``. The counters are kept beside the game's
   events (in Redis: under its store's hash tag, shared by every process; on SQLite and in memory: per
   process). Every answer to a write carries the state of its window as the IETF draft "RateLimit header
   fields for HTTP" names it: the current draft's ``RateLimit-Policy: "writes";q=600;w=60`` and
   ``RateLimit: "writes";r=599;t=42``, and the earlier drafts' ``RateLimit-Limit``, ``RateLimit-Remaining`` and
   ``RateLimit-Reset`` that many clients read.
3. **The Idempotency-Key**: checked (1 to 200 printable characters) and trimmed, then handed to the view
   (:func:`api.resources.context.idempotency_key`), which hands it to the game log: the log records it with
   the write and answers a retry from what it recorded (:mod:`replay.idempotency`). A creation's key is scoped
   by who sent it (:func:`api.resources.context.creation_key`).

What a view knows only once it has read the body is weighed by the view, here too: :func:`weigh` charges a
costly write (an import weighs one write per ``IMPORT_EVENTS_PER_WRITE`` of its events) to its address,
:func:`count_source` counts a fork or an import against the game it comes from (``RATE_LIMIT_PER_SOURCE``),
and :func:`heavy_import` lets a process refold only ``IMPORTS_AT_ONCE`` heavy imports at a time
(``503 too_many_imports``), so that a flood of them cannot starve the requests of everyone else.

Nothing is remembered here: there is no second copy of any answer.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from uuid import UUID

from flask import Flask, Response, current_app, g, request
from werkzeug.exceptions import RequestEntityTooLarge

from api.resources.context import game_log, presented_token
from api.resources.errors import ApiError, error_response

WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CREATIONS = frozenset({"games.Games", "games.Import", "games.Forks", "score-sheets.ScoreSheets"})
"""The endpoints of the writes that create something of their own (counted by address, whatever token)."""
HEAVY_IMPORT = 500
"""Events beyond which an import is heavy: it needs one of the process's ``IMPORTS_AT_ONCE`` slots."""
IMPORT_SLOTS = "heronlog.import_slots"


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
    else a made-up token per request would escape the address's limit. A fork takes a token (to read a private
    game) but creates a game, with a token of its own: it is counted by address too, or each fork's token
    would make as many forks again."""
    return address() if request.endpoint in CREATIONS else key_scope()


def key_scope() -> str:
    """Whose ``Idempotency-Key`` a write's is: the token it sent for one game (a fork's retry from a phone that
    changed networks is still the same caller), else its address. Not whom it is counted against: a fork is
    counted by address (:func:`identity`)."""
    token = presented_token() if isinstance((request.view_args or {}).get("game_id"), UUID) else None
    if token:
        return "token:" + hashlib.sha256(token.encode("utf-8")).hexdigest()[:32]
    return address()


def address() -> str:
    """The rate limit's name for the client address of the request."""
    return "address:" + (request.remote_addr or "unknown")


def _limit(name: str) -> int:
    return int(current_app.config[name])


def _window() -> int:
    return max(1, _limit("RATE_LIMIT_WINDOW"))


def _count(
    who: str,
    limit: int,
    *,
    weight: int = 1,
    near: UUID | None = None,
    what: str = "writes",
    costly: int = 0,
    said: bool = False,
    ahead: bool = False,
) -> None:
    """Count ``weight`` writes of ``who`` in the window; ``429 rate_limited`` when they go past ``limit``.
    ``costly``: the weight of a costly write whose first write the guard counted already (``weight`` is the
    rest); refused, it gives that rest back (the attempt counted; work refused never costs the rest of the
    window) and says what it weighs (``details.weight``). ``said``: the window's state goes on the answer
    (the RateLimit header fields), refused or not. ``ahead``: a write to the game ``near``, which its view
    reads: the count reads it ahead, in the same round trip where the store can (``g.read_ahead``, taken by
    :func:`api.resources.context.game_and_caller`)."""
    if limit <= 0:
        return
    window = _window()
    if ahead and near is not None:
        count, reset, g.read_ahead = game_log().tally_ahead(who, window, near, weight=weight)
    else:
        count, reset = game_log().tally(who, window, near=near, weight=weight)
    decided = verdict(limit, count, reset)
    if said:
        g.rate_limit = rate_limit_headers(decided, window)
    if decided.allowed:
        return
    if costly and reset > 1:  # a give-back that could land in the next window would lend it writes instead
        game_log().tally(who, window, near=near, weight=-weight)
    error = ApiError(
        "rate_limited",
        f"too many {what}: at most {decided.limit} per {window} s; try again in {decided.retry_after} s",
        headers={"Retry-After": str(decided.retry_after)},
        retry_after=decided.retry_after,
        limit=decided.limit,
    )
    if costly:
        error.details["weight"] = costly
    raise error


def import_weight(events: int) -> int:
    """What an import of ``events`` events weighs in its address's rate limit: one write per
    ``IMPORT_EVENTS_PER_WRITE`` of them, at least one, at most the whole limit (so that the largest import
    allowed can always be made, in a window of its own)."""
    per_write = max(1, _limit("IMPORT_EVENTS_PER_WRITE"))
    weight = max(1, -(-events // per_write))
    limit = _limit("RATE_LIMIT_PER_ADDRESS")
    return min(weight, limit) if limit > 0 else weight


def weigh(
    weight: int,
    what: str = "writes for this import (it weighs one per IMPORT_EVENTS_PER_WRITE of its events)",
) -> None:
    """Charge a costly creation to its address, beyond the one write the guard counted already
    (``429 rate_limited``, with ``details.weight``, when it does not fit in what is left of the window)."""
    if weight > 1:
        _count(address(), _limit("RATE_LIMIT_PER_ADDRESS"), weight=weight - 1, what=what, costly=weight)


def count_source(game_id: UUID) -> None:
    """Count a fork or an import against the game it comes from (``RATE_LIMIT_PER_SOURCE`` a window,
    whoever asks): a game cannot be copied in bulk from many addresses either."""
    _count(
        f"source:{game_id}",
        _limit("RATE_LIMIT_PER_SOURCE"),
        near=game_id,
        what="forks and imports of this game",
    )


class ImportSlots:
    """The heavy imports one process may refold at once (``IMPORTS_AT_ONCE``; 0: no cap)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._free = threading.BoundedSemaphore(capacity) if capacity > 0 else None

    @contextlib.contextmanager
    def held(self) -> Iterator[None]:
        if self._free is None:
            yield
            return
        if not self._free.acquire(blocking=False):
            raise ApiError(
                "too_many_imports",
                f"this server refolds {self.capacity} large import(s) at a time and is busy: try again in a "
                "few seconds",
                headers={"Retry-After": "2"},
                retry_after=2,
                at_once=self.capacity,
            )
        try:
            yield
        finally:
            self._free.release()


@contextlib.contextmanager
def heavy_import(events: int) -> Iterator[None]:
    """Hold one of the process's import slots while an import of more than ``HEAVY_IMPORT`` events is
    refolded (``503 too_many_imports`` with ``Retry-After`` when none is free: a waiting import would hold a
    thread that reads and moves need). A lighter import costs no more than a few moves, and needs none."""
    if events <= HEAVY_IMPORT:
        yield
        return
    slots: ImportSlots = current_app.extensions[IMPORT_SLOTS]
    with slots.held():
        yield


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


def chunked() -> bool:
    """Whether the request's body comes in chunks, its length untold."""
    return "chunked" in request.headers.get("Transfer-Encoding", "").lower()


def _read_chunked() -> bytes:
    """A chunked body, read here whole, up to ``MAX_CONTENT_LENGTH``: a longer one is
    ``413 payload_too_large``, as a body whose ``Content-Length`` says it is too long (werkzeug would stop
    reading at the limit and hand on what it had: "Invalid JSON body"). What was read is put back as a body of
    known length, for the view to read as any other."""
    limit = int(current_app.config["MAX_CONTENT_LENGTH"])
    source = request.environ["wsgi.input"]
    parts: list[bytes] = []
    size = 0
    try:
        while size <= limit:
            part = source.read(min(64 * 1024, limit + 1 - size))
            if not part:
                break
            parts.append(part)
            size += len(part)
    except (OSError, ValueError) as error:  # a stream cut short or malformed: what it holds is not a body
        raise ApiError("invalid_request", "the chunked body could not be read whole") from error
    if size > limit:
        raise RequestEntityTooLarge()
    data = b"".join(parts)
    request.environ["wsgi.input"] = io.BytesIO(data)
    request.environ["CONTENT_LENGTH"] = str(len(data))
    request.environ.pop("HTTP_TRANSFER_ENCODING", None)  # read whole: it is now a body of known length
    request.environ.pop("wsgi.input_terminated", None)
    return data


def install(app: Flask) -> None:
    """Guard every write to ``/api/`` (see the module docstring)."""
    app.extensions[IMPORT_SLOTS] = ImportSlots(int(app.config["IMPORTS_AT_ONCE"]))

    @app.before_request
    def guard_write() -> Response | None:
        if request.method not in WRITE_METHODS or not request.path.startswith("/api/"):
            return None
        has_body = bool(request.content_length) or (chunked() and bool(_read_chunked()))
        if has_body and not request.is_json:  # a body as text/plain or a form: never read
            return error_response(
                400,
                "invalid_request",
                "the body must be sent as JSON, with Content-Type: application/json (it was "
                f"{request.mimetype or 'not said'})",
                details={"content_type": request.content_type},
            )
        who = identity()
        key = checked_key()
        limit = _limit("RATE_LIMIT_PER_TOKEN" if who.startswith("token:") else "RATE_LIMIT_PER_ADDRESS")
        game_id = (request.view_args or {}).get("game_id")
        to_game = isinstance(game_id, UUID)
        _count(who, limit, near=game_id if to_game else None, said=True, ahead=to_game)
        if key is not None:
            g.idempotency_key = key
            scope = key_scope()
            g.creation_key = hashlib.sha256(f"{scope}\n{key}".encode("utf-8", "surrogatepass")).hexdigest()
        return None

    @app.after_request
    def tell_the_rate_limit(response: Response) -> Response:
        # every answer to a counted write, refusals included: a client paces itself before it is refused
        for name, value in g.get("rate_limit", {}).items():
            response.headers[name] = value
        return response
