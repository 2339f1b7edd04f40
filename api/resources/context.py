"""What every view needs from a request: the game log, who is calling, and which version a write expects.

Views stay thin: they ask here for the log, read the game and the caller's grant once with :func:`reader` /
:func:`writer` / :func:`owner` (a write's from what the write guard read with its count), and read the expected
version and the write's ``Idempotency-Key``; the services check what the token may do.
"""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from flask import Flask, Response, current_app, request
from werkzeug.http import unquote_etag

from api.resources.errors import ApiError
from api.server.observability import observe
from replay.access import Access, Grant
from replay.application import GameLog
from replay.game import Game
from replay.services.repository import ReadAhead

EXTENSION = "heronlog"
BEARER = re.compile(r"^\s*Bearer\s+(\S+)\s*$", re.IGNORECASE)
ETAG = re.compile(r'^\s*(W/)?"?(\d{1,18})"?\s*$')


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
    observe(actor=grant.actor)
    return grant


def game_access_and_caller(
    game_id: UUID, ahead: ReadAhead | None = None
) -> tuple[Game, Access | None, Grant | None]:
    """The game (404 first, whatever the token), its grants when a token was sent, and the caller's grant as
    :func:`caller` has it. With a token the game and its grants are read together (one round trip to Redis
    instead of two), or taken as the write guard read them with its count (``ahead``: this request's only)."""
    header = request.headers.get("Authorization")
    match = BEARER.match(header) if header is not None else None
    if match is None:  # no token, or a malformed header: refused by caller() once the game is found
        return game_log().get_game(game_id), None, caller(game_id)
    game, access = game_log().games.game_and_access(game_id, ahead)
    return game, access, _granted(access.match(match.group(1)))


def game_and_caller(game_id: UUID, ahead: ReadAhead | None = None) -> tuple[Game, Grant | None]:
    """The game and the caller's grant (see :func:`game_access_and_caller`)."""
    game, _, grant = game_access_and_caller(game_id, ahead)
    return game, grant


def reader(game_id: UUID, ahead: ReadAhead | None = None) -> tuple[Game, Grant | None]:
    """The game, if the caller may read it: anyone who knows a public game's id; a private game needs one of
    its tokens."""
    game, grant = game_and_caller(game_id, ahead)
    if game.setup.get("private") and grant is None:
        raise ApiError(
            "unauthorized",
            "this game is private: send one of its tokens",
            headers={"WWW-Authenticate": 'Bearer realm="heronlog"'},
        )
    return game, grant


def writer(
    game_id: UUID, needing: str = "writing to a game needs", ahead: ReadAhead | None = None
) -> tuple[Game, Grant]:
    """The game and the caller's grant: every write needs a token of this game (so does reading who holds
    tokens: ``needing`` says what the request was, in the refusal)."""
    game, grant = game_and_caller(game_id, ahead)
    return game, needed(grant, needing)


def needed(grant: Grant | None, needing: str) -> Grant:
    """The caller's grant, or ``401 unauthorized`` saying what the request needed a token for."""
    if grant is None:
        raise ApiError(
            "unauthorized",
            f"{needing} one of its tokens (Authorization: Bearer <token>)",
            headers={"WWW-Authenticate": 'Bearer realm="heronlog"'},
        )
    return grant


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


STATIC_ANSWERS = frozenset(
    {
        "api-docs.openapi_json",
        "api-docs.openapi_swagger_ui",
        "problems.ProblemType",
        "games.LayoutForm",
        "games.LayoutChoices",
    }
)
"""The endpoints whose answers depend on the request's URL and the server's release alone: each gets a strong
ETag of its bytes, so that a client revalidates (``304``) instead of fetching the document again."""


def install_conditional_reads(app: Flask) -> None:
    """Answer conditional reads of ``/api/`` (:func:`not_modified`), the static answers with validators of
    their own (:data:`STATIC_ANSWERS`)."""

    @app.after_request
    def conditional(response: Response) -> Response:
        return not_modified(response) if request.path.startswith("/api/") else response

    # registered after `conditional`, so run before it (Flask runs after-request hooks last first)
    @app.after_request
    def validated(response: Response) -> Response:
        if (
            request.endpoint in STATIC_ANSWERS
            and response.status_code == 200
            and "ETag" not in response.headers
        ):
            response.add_etag()
            response.headers.setdefault("Cache-Control", "no-cache")  # kept, revalidated on each use
        return response


def if_match_versions(header: str) -> list[tuple[int, bool]]:
    """The members of an ``If-Match`` list, each a game version and whether its tag is weak (``W/"12"``);
    ``400 invalid_request`` for a member that is no version."""
    members: list[tuple[int, bool]] = []
    for member in header.split(","):
        match = ETAG.match(member)
        if match is None:
            raise ApiError(
                "invalid_request",
                'If-Match must be game versions, such as "12" (a list: "11", "12"), or * unquoted '
                '("whatever it is now")',
                header=header,
            )
        members.append((int(match.group(2)), bool(match.group(1))))
    return members


def expected_version(body: Mapping[str, Any], current: int) -> int | None:
    """The version a write expects: ``If-Match`` (an ETag) or ``expected_version`` in the body; None for ``*``
    ("whatever it is now": the store still refuses a write that loses a race). Neither is 428. A version that
    is no longer the game's is refused by the game log: ``412 stale_version`` (RFC 9110's Precondition Failed),
    with ``details.current_version``.

    ``If-Match`` compares strongly (RFC 9110 13.1.1): a weak tag never matches (``412 weak_etag``, whatever
    its number); a list matches if any strong member does, so the one that is ``current`` (the version the
    view read) is chosen, and the store still refuses it if the game moves on before the write."""
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
        strong = [version for version, weak in if_match_versions(header) if not weak]
        if not strong:
            raise ApiError(
                "weak_etag",
                'If-Match compares strongly: a weak tag (W/"12") never matches; send the ETag as it was '
                'given ("12")',
                header=header,
                current_version=current,
            )
        if from_body is not None and from_body not in strong:
            raise ApiError(
                "invalid_request",
                "If-Match and expected_version disagree",
                if_match=header,
                expected_version=from_body,
            )
        from_header = current if current in strong else strong[0]
    chosen = from_header if from_header is not None else from_body
    if chosen is None:
        raise ApiError(
            "precondition_required",
            "a write must name the version it expects: send If-Match (the ETag) or expected_version",
        )
    return int(chosen)


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


def idempotency_key() -> str | None:
    """The write's ``Idempotency-Key`` (trimmed; the write guard refused a malformed one), or None: a write to a
    game records it with the write's events (:mod:`replay.idempotency`)."""
    return checked_key()


def creation_key() -> str | None:
    """The ``Idempotency-Key`` of a write that creates something (a game, a branch, an import, a seat token),
    scoped by who sent it (:func:`key_scope`): such a write has no game of its own yet to scope its key, and
    its answer holds a token, so two callers' keys must never meet."""
    key = checked_key()
    if key is None:
        return None
    return hashlib.sha256(f"{key_scope()}\n{key}".encode("utf-8", "surrogatepass")).hexdigest()


def key_scope() -> str:
    """Whose ``Idempotency-Key`` a write's is: the token it sent for one game (a fork's retry from a phone that
    changed networks is still the same caller), else its address."""
    token = presented_token() if isinstance((request.view_args or {}).get("game_id"), UUID) else None
    if token:
        return "token:" + hashlib.sha256(token.encode("utf-8")).hexdigest()[:32]
    return address()


def address() -> str:
    """The rate limit's name for the client address of the request."""
    return "address:" + (request.remote_addr or "unknown")


def bearer_token() -> str | None:
    """The bearer token sent, if any (a malformed Authorization header counts as none): for a write that
    takes no token of its own but may use one (an import naming a private parent)."""
    match = BEARER.match(request.headers.get("Authorization") or "")
    return match.group(1) if match else None
