"""The write guard: what every write to the API passes before its view (docs/api/limits.md, docs/api/idempotency.md).

Its body must be JSON (a chunked one is read here, up to ``MAX_CONTENT_LENGTH``); it is counted in its rate-limit
window (per token for a write to a game, per address for the rest and for every creation), every answer carrying
the RateLimit header fields; its ``Idempotency-Key`` is checked, and claimed in the count's round trip for this kind
of write, so the same client sending it with another kind is ``422 idempotency_key_reused`` at once. A write to
one game is counted by :func:`counted` on its view, before its body is read: the count reads the game and its grants
in the same round trip (Redis), and the view is handed that read (``admitted``), so the request reads its game once.
A move to a game this process holds warm is counted by its append instead (:func:`counted_with_append`), in one round
trip; anything that does not answer with a stored write is made again the ordinary way. A costly write is weighed
by its view (:func:`weigh`, :func:`count_source`, :func:`heavy_import`).
"""

from __future__ import annotations

import contextlib
import functools
import io
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar
from uuid import UUID

from flask import Flask, Response, current_app, g, request
from werkzeug.exceptions import RequestEntityTooLarge

from api.resources.context import address, checked_key, game_log, key_scope
from api.resources.errors import ApiError, error_response
from api.server.observability import observe
from replay.errors import store_unavailable
from replay.idempotency import key_use, used_for_another
from replay.one_trip import CountedAppend, NotAsHeld
from replay.services.repository import OneTrip, ReadAhead

F = TypeVar("F", bound=Callable[..., Any])

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


def _limit(name: str) -> int:
    return int(current_app.config[name])


def _own_limit(who: str) -> int:
    """The limit of a request's own count: per token, or per address."""
    return _limit("RATE_LIMIT_PER_TOKEN" if who.startswith("token:") else "RATE_LIMIT_PER_ADDRESS")


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
    read_ahead: bool = False,
) -> ReadAhead | None:
    """Count ``weight`` writes of ``who`` in the window; ``429 rate_limited`` when they go past ``limit``.
    ``costly``: the weight of a costly write whose first write the guard counted already (``weight`` is the
    rest); refused, it gives that rest back (the attempt counted; work refused never costs the rest of the
    window) and says what it weighs (``details.weight``). ``said``: this is the request's own count: its
    window's state goes on the answer (the RateLimit header fields), refused or not, and its
    ``Idempotency-Key`` is claimed for this kind of write (``422 idempotency_key_reused`` when the client
    used it for another). ``read_ahead``: a write to the game ``near``, whose game and grants the count reads
    in the same round trip where the store can (returned, else None)."""
    if limit <= 0 and not said:
        return None
    window = _window()
    key = checked_key() if said else None
    kind = write_kind()
    claim = (key_use(address(), key), kind, game_log().creation.receipt_seconds) if key is not None else None
    counted = game_log().games.count_write(
        who, window, near=near, weight=weight, claim=claim, read_ahead=read_ahead
    )
    decided = verdict(limit, counted.count, counted.seconds_left)
    if said and limit > 0:
        g.rate_limit = rate_limit_headers(decided, window)
    if limit > 0 and not decided.allowed:
        if costly and counted.seconds_left > 1:  # a give-back in the next window would lend it writes instead
            game_log().games.count_write(who, window, near=near, weight=-weight)
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
    if counted.first_use is not None and counted.first_use != kind:
        raise used_for_another(counted.first_use, kind)
    return counted.ahead


WRITE_KINDS = {
    "games.Games POST": "creating a game",
    "games.Import POST": "an import",
    "games.Forks POST": "a fork",
    "games.Moves POST": "a move",
    "games.Undo POST": "an undo",
    "games.Redo POST": "a redo",
    "games.Amend POST": "an amendment",
    "games.Abandon POST": "abandoning a game",
    "games.SeatToken POST": "issuing a seat token",
    "games.SeatToken DELETE": "withdrawing a seat token",
    "annotations.Annotations POST": "an annotation",
    "annotations.OneAnnotation PATCH": "editing an annotation",
    "annotations.OneAnnotation DELETE": "deleting an annotation",
    "score-sheets.ScoreSheets POST": "a score sheet",
    "players.GamePlayers POST": "linking a seat to a player",
    "players.Merge POST": "merging players",
    "players.Split POST": "splitting a player",
    "players.BgStats POST": "a BG Stats file's players",
    "analysis.GameAnalysis POST": "asking for a game's analysis",
    "analysis.Analyse POST": "an analysis of a position",
}
"""Each kind of write in words, by its route and method: what an ``Idempotency-Key`` is claimed for."""


def write_kind() -> str:
    """The kind of write this request is (:data:`WRITE_KINDS`; any other, by its route and method)."""
    name = f"{request.endpoint} {request.method}"
    return WRITE_KINDS.get(name, name)


def import_weight(events: int) -> int:
    """What an import of ``events`` events weighs in its address's rate limit: one write per
    ``IMPORT_EVENTS_PER_WRITE`` of them, or per ``BODY_BYTES_PER_WRITE`` of its body when that weighs more; at
    least one, at most the whole limit (so that the largest import allowed can always be made, in a window of
    its own)."""
    per_write = max(1, _limit("IMPORT_EVENTS_PER_WRITE"))
    weight = max(1, -(-events // per_write), body_weight())
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


@dataclass(frozen=True)
class Admitted:
    """A write to a game as the write guard let it through (:func:`counted`): the game and its grants when its
    count read them in the same round trip (None when it could not), for this one request."""

    ahead: ReadAhead | None


def counted(view: F) -> F:
    """Count a write to one game as it reaches its view (outermost decorator of the view), before its body is
    read, and hand the view what the count read (``admitted``: :class:`Admitted`)."""

    @functools.wraps(view)
    def admit(*args: Any, **kwargs: Any) -> Any:
        return view(*args, admitted=Admitted(_count_own(request_game())), **kwargs)

    admit.counted_by_guard = True  # type: ignore[attr-defined]  # what guard_write and the tests look for
    return admit  # type: ignore[return-value]  # the same view, one argument more


def counted_with_append(view: F) -> F:
    """:func:`counted` for a move: when this process holds the game and its grants warm (and the store can),
    the move is decided on what it holds and counted with its append, in one round trip (replay.one_trip). A
    request that this does not answer with a stored write (the store refused what it was decided on, the count or
    the key's use would refuse it, the move itself was refused, or a retry was answered from the game) is made
    again the ordinary way, counted and read first: that answer is the one sent, so a client never sees one
    that the ordinary way would not have given."""

    @functools.wraps(view)
    def admit(*args: Any, **kwargs: Any) -> Any:
        game_id = request_game()
        trip = _one_trip(game_id)
        if trip is not None:
            with game_log().games.counting_with_append(trip) as sent:
                try:
                    answer = view(*args, admitted=Admitted(trip.ahead), **kwargs)
                except NotAsHeld:
                    answer = None
                except Exception as error:
                    if sent.appended:
                        _counted_after(sent)
                        raise
                    if store_unavailable(error):
                        # Never made again: a store that did not answer may have taken the move (its outcome
                        # unknown); made again, it would be refused as stale though stored. 503, as ever.
                        raise
                    answer = None
            if sent.appended:
                _counted_after(sent)
                return answer
            observe(one_trip="made_again")
        return view(*args, admitted=Admitted(_count_own(game_id)), **kwargs)

    admit.counted_by_guard = True  # type: ignore[attr-defined]  # what guard_write and the tests look for
    return admit  # type: ignore[return-value]  # the same view, one argument more


def _one_trip(game_id: UUID | None) -> OneTrip | None:
    """This write counted with its append (:func:`counted_with_append`), or None when it goes the ordinary way:
    no game, a body that weighs more than one write, or a game this process does not hold warm."""
    if game_id is None:
        return None
    who = identity()
    limit = _own_limit(who)
    if limit > 0 and body_weight() > 1:
        return None
    key = checked_key()
    claim = (key_use(address(), key), write_kind(), game_log().creation.receipt_seconds) if key else None
    return game_log().games.count_later(who, _window(), near=game_id, limit=max(0, limit), claim=claim)


def _counted_after(sent: CountedAppend) -> None:
    """The RateLimit header fields (and the metric) of a write counted with its append. One whose reply was lost
    (found stored afterwards) was counted by the same script: its window's count is read (a count of nothing)."""
    window = _window()
    count, left = sent.count, sent.left
    if count is None:
        counted = game_log().games.count_write(identity(), window, near=sent.game_id, weight=0)
        count, left = counted.count, counted.seconds_left
    if sent.limit > 0:
        g.rate_limit = rate_limit_headers(verdict(sent.limit, count, left), window)
    observe(one_trip="stored")


def request_game() -> UUID | None:
    """The game this request writes to (its route's ``game_id``), or None."""
    game_id = (request.view_args or {}).get("game_id")
    return game_id if isinstance(game_id, UUID) else None


def _count_own(game_id: UUID | None) -> ReadAhead | None:
    """This write's own count, against its token (or address) and near its game when it has one; a large body
    weighs more (:func:`body_weight`), before any of it is read (an import is weighed by its view)."""
    who = identity()
    limit = _own_limit(who)
    ahead = _count(who, limit, near=game_id, said=True, read_ahead=game_id is not None)
    weight = min(body_weight(), limit) if limit > 0 else 1
    if weight > 1 and request.endpoint != "games.Import":
        what = "writes for this body (it weighs one per BODY_BYTES_PER_WRITE of its bytes)"
        _count(who, limit, weight=weight - 1, near=game_id, what=what, costly=weight)
    return ahead


def body_weight() -> int:
    """What a write's body weighs in its rate limit: one write per ``BODY_BYTES_PER_WRITE`` of its bytes, at
    least one. Reading and checking a body costs in proportion to its length (every check does: see
    docs/api/limits.md), so a body that costs a hundred small writes counts as many, refused or not."""
    per_write = max(1, _limit("BODY_BYTES_PER_WRITE"))
    return max(1, -(-(request.content_length or 0) // per_write))


def counted_by_its_view() -> bool:
    """Whether this request's view counts it (:func:`counted`)."""
    view = current_app.view_functions.get(request.endpoint or "")
    method = getattr(getattr(view, "view_class", None), request.method.lower(), None)
    return bool(getattr(method, "counted_by_guard", False))


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
        checked_key()
        if not counted_by_its_view():
            _count_own(request_game())
        return None

    @app.after_request
    def tell_the_rate_limit(response: Response) -> Response:
        # every answer to a counted write, refusals included: a client paces itself before it is refused
        for name, value in g.get("rate_limit", {}).items():
            response.headers[name] = value
        return response
