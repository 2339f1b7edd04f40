"""What every view needs from a request: the game log, who is calling, and which version a write expects.

Views stay thin: they ask here for the log, check access with :func:`reader` / :func:`writer` / :func:`owner`, and
read the expected version and the write's ``Idempotency-Key``.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from flask import Flask, Response, current_app, g, request
from werkzeug.http import unquote_etag

import domain
from api.resources.errors import ApiError
from api.server.observability import note
from replay.access import Grant
from replay.application import GameLog
from replay.game import Game

EXTENSION = "heronlog"
BEARER = re.compile(r"^\s*Bearer\s+(\S+)\s*$", re.IGNORECASE)
ETAG = re.compile(r'^\s*(?:W/)?"?(\d{1,18})"?\s*$')


@dataclass
class Services:
    """Everything :func:`api.app.create_app` builds once per process: the game log on its store."""

    log: GameLog
    store_kind: str


class LazyServices:
    """Builds the services on first use, once (thread-safe). A store that is down when the app starts (Redis
    not up yet) then costs a ``503 store_unavailable`` per request until it answers, instead of a worker that
    cannot start; ``/healthz`` answers meanwhile."""

    def __init__(self, build: Callable[[], Services]) -> None:
        self._build = build
        self._lock = threading.Lock()
        self._built: Services | None = None

    @property
    def built(self) -> Services | None:
        """The services if they are built already (None otherwise: asking never builds them)."""
        return self._built

    def get(self) -> Services:
        built = self._built
        if built is None:
            with self._lock:
                if self._built is None:
                    self._built = self._build()
                built = self._built
        return built


def services() -> Services:
    box: LazyServices = current_app.extensions[EXTENSION]
    return box.get()


def game_log() -> GameLog:
    return services().log


# --- who is calling ---------------------------------------------------------------------------------------


def presented_token() -> str | None:
    """The bearer token of the request, if it sent one (a malformed Authorization header is a 401)."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    match = BEARER.match(header)
    if match is None:
        raise ApiError(
            "unauthorized",
            "the Authorization header must be 'Bearer <token>'",
            headers={"WWW-Authenticate": 'Bearer realm="heronlog"'},
        )
    return match.group(1)


def caller(game_id: UUID) -> Grant | None:
    """The grant of the token the request sent for this game; None without a token; 401 for a token that is
    not one of this game's."""
    token = presented_token()
    if token is None:
        return None
    return _granted(game_log().authenticate(game_id, token))


def _granted(grant: Grant | None) -> Grant:
    if grant is None:
        raise ApiError(
            "unauthorized",
            "this token is not valid for this game",
            headers={"WWW-Authenticate": 'Bearer realm="heronlog", error="invalid_token"'},
        )
    note(actor=grant.actor)
    return grant


def game_and_caller(game_id: UUID) -> tuple[Game, Grant | None]:
    """The game (404 first, whatever the token) and the caller's grant as :func:`caller` has it. With a token,
    the game and its access stream are read together (one round trip to Redis instead of two), or taken as
    the write guard read them ahead with its count, for this request only (``g.read_ahead``, used once)."""
    header = request.headers.get("Authorization")
    match = BEARER.match(header) if header is not None else None
    if match is None:  # no token, or a malformed header: refused by caller() once the game is found
        return game_log().get_game(game_id), caller(game_id)
    game, grant = game_log().game_and_grant(game_id, match.group(1), g.pop("read_ahead", None))
    return game, _granted(grant)


def reader(game_id: UUID) -> tuple[Game, Grant | None]:
    """The game, if the caller may read it: anyone who knows a public game's id; a private game needs one of
    its tokens."""
    game, grant = game_and_caller(game_id)
    if game.setup.get("private") and grant is None:
        raise ApiError(
            "unauthorized",
            "this game is private: send one of its tokens",
            headers={"WWW-Authenticate": 'Bearer realm="heronlog"'},
        )
    return game, grant


def writer(game_id: UUID, needing: str = "writing to a game needs") -> tuple[Game, Grant]:
    """The game and the caller's grant: every write needs a token of this game (so does reading who holds
    tokens: ``needing`` says what the request was, in the refusal)."""
    game, grant = game_and_caller(game_id)
    if grant is None:
        raise ApiError(
            "unauthorized",
            f"{needing} one of its tokens (Authorization: Bearer <token>)",
            headers={"WWW-Authenticate": 'Bearer realm="heronlog"'},
        )
    return game, grant


def owner(game_id: UUID) -> tuple[Game, Grant]:
    game, grant = writer(game_id)
    if grant.role != "owner":
        raise ApiError("forbidden", "only the game's owner may do this", actor=grant.actor)
    return game, grant


def may_act_for(game: Game, grant: Grant, seats: Iterable[Any], what: str) -> None:
    """A seat token acts for its own seat only; the owner acts for anyone (chance moves included). ``what``
    is the verb: "record", "undo", "redo", "amend". The message names the seats as people count them: "Aiko's
    token (seat 1) may only record its own seat's moves, not Ben's (seat 2)"."""
    if grant.role == "owner":
        return
    strangers = {str(seat): seat for seat in seats if seat != grant.seat}
    if strangers:
        # the seats as the moves name them (indexes from 0, null for chance), in a stable order
        others = [strangers[key] for key in sorted(strangers, key=lambda key: (strangers[key] is None, key))]
        assert grant.seat is not None  # a seat grant always names its seat
        state = game.state
        token = domain.seat_text(state, grant.seat, "'s token")
        whose = " or ".join(_whose(state, seat) for seat in others)
        raise ApiError(
            "forbidden",
            f"{token} may only {what} its own seat's moves, not {whose}",
            actor=grant.actor,
            seats=others,
        )


def _whose(state: Any, seat: Any) -> str:
    """Whose moves a seat token may not make, in words: "Ben's (seat 2)", "chance's", or "those of seat 'x'"
    for a seat that is no index at all (the rules engine refuses such a move anyway)."""
    if seat is None:
        return "chance's"
    if isinstance(seat, int) and not isinstance(seat, bool):
        return domain.seat_text(state, seat, "'s")
    return f"those of seat {seat!r}"


# --- versions ---------------------------------------------------------------------------------------------


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


def not_modified(response: Response) -> Response:
    """A read whose ``If-None-Match`` names the answer's ETag (the game's version) is ``304 Not Modified``,
    with that ETag and no body (RFC 9110 13.1.2): a client polling a game learns that nothing changed in a few
    bytes. ``*`` matches any ETag; weak comparison, as the RFC says for ``If-None-Match``."""
    if request.method not in ("GET", "HEAD") or response.status_code != 200 or not request.if_none_match:
        return response
    tag = response.headers.get("ETag")
    if not tag or not request.if_none_match.contains_weak(unquote_etag(tag)[0] or ""):
        return response
    answer = Response(status=304)
    for name in ("ETag", "Cache-Control", "Vary", "Content-Location"):
        if name in response.headers:
            answer.headers[name] = response.headers[name]
    response.close()
    return answer


def install_conditional_reads(app: Flask) -> None:
    """Answer conditional reads of ``/api/`` (:func:`not_modified`)."""

    @app.after_request
    def conditional(response: Response) -> Response:
        return not_modified(response) if request.path.startswith("/api/") else response


def expected_version(body: Mapping[str, Any]) -> int | None:
    """The version a write expects: ``If-Match`` (an ETag) or ``expected_version`` in the body; None for ``*``
    ("whatever it is now": the store still refuses a write that loses a race). Neither is 428. A version that
    is no longer the game's is refused by the game log: ``412 stale_version`` (RFC 9110's Precondition Failed),
    with ``details.current_version``."""
    header = request.headers.get("If-Match")
    from_body = body.get("expected_version")
    if header is not None and header.strip() == "*":
        if from_body is not None:
            raise ApiError(
                "invalid_request", "If-Match: * and expected_version disagree", expected_version=from_body
            )
        return None
    from_header: int | None = None
    if header is not None:
        match = ETAG.match(header)
        if match is None:
            raise ApiError(
                "invalid_request",
                'If-Match must be a game version, such as "12", or * unquoted ("whatever it is now")',
                header=header,
            )
        from_header = int(match.group(1))
    if from_header is not None and from_body is not None and from_header != from_body:
        raise ApiError(
            "invalid_request",
            "If-Match and expected_version disagree",
            if_match=from_header,
            expected_version=from_body,
        )
    chosen = from_header if from_header is not None else from_body
    if chosen is None:
        raise ApiError(
            "precondition_required",
            "a write must name the version it expects: send If-Match (the ETag) or expected_version",
        )
    return int(chosen)


def idempotency_key() -> str | None:
    """The write's ``Idempotency-Key`` as the write guard read it (trimmed), or None: a write to a game
    records it with the write's events (:mod:`replay.idempotency`)."""
    key: str | None = g.get("idempotency_key")
    return key


def creation_key() -> str | None:
    """The ``Idempotency-Key`` of a write that creates something (a game, a branch, an import, a seat token),
    scoped by who sent it: such a write has no game of its own yet to scope its key, and its answer holds a
    token, so two callers' keys must never meet."""
    key: str | None = g.get("creation_key")
    return key


def retried(game: Game, key: str | None) -> bool:
    """Whether the log already holds a write made with this key (the view then leaves its checks of the
    write's content to the log, which answers the retry as the first attempt was answered)."""
    return key is not None and key in game.keys
