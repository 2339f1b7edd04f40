"""The spectators' stream (docs/api/stream.md): server-sent events of each new event of a game.

Each open stream holds a greenlet of a ``heronlog serve`` worker (a thread on a threaded server) and, on SQLite, a
read every half second, so a process holds at most ``STREAM_MAX_OPEN`` at once, and a stream watches its socket to
give its place back as soon as the spectator leaves.
"""

from __future__ import annotations

import json
import logging
import select
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from uuid import UUID

from flask import Response, current_app, request
from flask.views import MethodView

from api.resources import present
from api.resources.analysis import analysis_progress
from api.resources.context import etag, game_log, presented_token, reader
from api.resources.errors import ApiError
from api.resources.openapi import READ, Blueprint, errors
from api.resources.schemas import StreamQuerySchema
from replay.game import MAX_VERSION, Game
from replay.watch import ChangeWatch

logger = logging.getLogger("api")

STREAMS = "heronlog.streams"
"""Where the app keeps the process's :class:`StreamSlots` (``app.extensions``)."""

blp = Blueprint(
    "stream",
    __name__,
    url_prefix="/api/games",
    description="The spectators' stream: server-sent events of a game's new events.",
)
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]


class StreamSlots:
    """How many event streams this process may hold open at once (``STREAM_MAX_OPEN``; 0: no cap): a public
    game's stream needs no token, and each open one costs the process for up to ``STREAM_MAX_SECONDS``
    (``heronlog serve``: 100 a worker)."""

    def __init__(self, limit: int) -> None:
        self.limit = max(0, limit)
        self._lock = threading.Lock()
        self.open = 0

    def take(self) -> bool:
        """Hold a slot for a new stream; False when every slot is held."""
        with self._lock:
            if self.limit and self.open >= self.limit:
                return False
            self.open += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.open = max(0, self.open - 1)


# Each server-sent event as a client's parser reads it (the schema of text/event-stream describes one event,
# as schemathesis checks it): the fields a block of the stream may set.
SSE_EVENT = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "description": "the game version after this event"},
        "event": {"type": "string", "description": "the event type: MovePlayed, MovesUndone..."},
        "data": {"type": "string", "description": "the event as JSON"},
        "retry": {"type": "integer", "description": "milliseconds to wait before reconnecting"},
    },
}

STREAM_RESPONSES = {
    200: {
        "description": "server-sent events: `id` is the game version, `event` the event type, `data` the event",
        "content": {"text/event-stream": {"schema": SSE_EVENT}},
    }
}


def _resume_point(query: Mapping[str, Any], game: Game) -> int:
    header = request.headers.get("Last-Event-ID")
    if header is not None:
        try:
            resume = max(0, int(header.strip()))
        except ValueError:
            resume = MAX_VERSION + 1
        if resume > MAX_VERSION:
            raise ApiError(
                "invalid_request",
                f"Last-Event-ID must be a game version, a whole number from 0 to {MAX_VERSION}",
                header=header[:40],
            )
        return resume
    after = query["after"]
    return game.version if after is None else int(after)


@blp.route("/<uuid:game_id>/stream")
class Stream(MethodView):
    @errors(blp, 400, *READ)
    @blp.doc(
        security=[*BEARER, {}],
        responses=STREAM_RESPONSES,
        parameters=[
            {
                "in": "header",
                "name": "Last-Event-ID",
                "required": False,
                "schema": {"type": "string"},
                "description": "resume after this version (browsers send it when they reconnect)",
            }
        ],
    )
    @blp.arguments(StreamQuerySchema, location="query", error_status_code=400)
    def get(self, query: Mapping[str, Any], game_id: UUID) -> Response:
        """Server-sent events of each new event of the game, for spectators.

        `id` is the game version, `event` the event type, `data` the event as JSON. Resumable with
        `Last-Event-ID` (or `after`); a heartbeat comment keeps proxies from closing it; the server ends it
        after `timeout` seconds (capped) and the browser reconnects."""
        game, grant = reader(game_id)
        after = _resume_point(query, game)
        config = current_app.config
        still_reads = _still_reads(game, grant is not None)
        cap = float(config["STREAM_MAX_SECONDS"])
        lifetime = min(cap, query["timeout"] if query["timeout"] is not None else cap)
        progress = analysis_progress(game_id)
        events = _event_stream(
            game_log().queries.changes_since,
            game_id,
            after,
            lifetime=lifetime,
            heartbeat=float(config["STREAM_HEARTBEAT_SECONDS"]),
            poll=float(config["STREAM_POLL_SECONDS"]),
            # an analysis under way is looked at every poll (its stream is not the game's: the watch would not
            # wake for it)
            watch=None if progress is not None else game_log().games.watch_for(game_id),
            departed=_departure_check(request.environ),
            allowed=still_reads,
            progress=progress,
        )
        slots: StreamSlots = current_app.extensions[STREAMS]
        if not slots.take():
            raise ApiError(
                "too_many_streams",
                "this server holds as many event streams open as it may: try again shortly",
                headers={"Retry-After": "5"},
                open=slots.limit,
            )
        response = Response(
            events,
            mimetype="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no", **etag(game.version)},
        )
        response.call_on_close(slots.give_back)  # the server closes every answer, started or not
        return response


def _still_reads(game: Game, with_token: bool) -> Callable[[], bool]:
    """Whether the stream's client may still read the game. A public game: always. A private game's stream
    was opened with a token that may be withdrawn or replaced while it is open: it then ends, at its next
    event or heartbeat, rather than serve the game's events until its timeout (its reconnection is 401)."""
    token = presented_token() if with_token else None
    if not game.setup.get("private") or token is None:
        return lambda: True
    log, game_id = game_log(), game.id
    return lambda: log.authenticate(game_id, token) is not None


def _event_stream(
    changes_since: Callable[[UUID, int], list[dict[str, Any]]],
    game_id: UUID,
    after: int,
    *,
    lifetime: float,
    heartbeat: float,
    poll: float,
    watch: ChangeWatch | None = None,
    departed: Callable[[], bool] = lambda: False,
    allowed: Callable[[], bool] = lambda: True,
    progress: Callable[[], dict[str, Any] | None] | None = None,
) -> Iterator[str]:
    """The stream's lines. With a ``watch`` (Redis) the stream sleeps until its game changes (or the next
    heartbeat); without one, or while the watch cannot start, it looks every ``poll`` seconds. While it
    waits it asks ``departed`` whether the client has gone, and ends if so. Before it sends events or a
    heartbeat it asks ``allowed`` whether its client may still read the game (a private game's token may
    have been withdrawn since), and ends if not. With ``progress`` (an analysis of the game under way), each
    change of its progress is sent as an ``AnalysisProgressed`` event with no ``id`` (it is no game version)."""
    started = time.monotonic()
    deadline = started + lifetime
    next_beat = started + heartbeat
    yield f"retry: 2000\n: game {game_id} after version {after}\n\n"
    said: dict[str, Any] | None = None
    while True:
        mark = _mark(watch)  # before the read: a change committed after the read is above it
        try:
            changes = changes_since(game_id, after)
            if (changes or time.monotonic() >= next_beat) and not allowed():
                return  # its token no longer works: nothing more is sent, and a reconnection is refused
        except Exception:  # the store went away mid-stream: end it, the client reconnects and resumes
            logger.warning("stream of game %s ended: the store did not answer", game_id, exc_info=True)
            return
        for event in changes:
            after = int(event["version"])
            data = json.dumps(present.plain(event), ensure_ascii=False)
            yield f"id: {after}\nevent: {event['type']}\ndata: {data}\n\n"
        if progress is not None:
            try:
                now_at = progress()
            except Exception:  # the store went away mid-stream, as above
                logger.warning("stream of game %s ended: the store did not answer", game_id, exc_info=True)
                return
            if now_at is not None and now_at != said:
                said = now_at
                yield f"event: AnalysisProgressed\ndata: {json.dumps(now_at)}\n\n"
        now = time.monotonic()
        if now >= deadline:
            return
        if now >= next_beat:
            yield ": heartbeat\n\n"
            next_beat = now + heartbeat
        if watch is None or mark is None:
            time.sleep(max(0.0, min(poll, deadline - now)))
            if departed():
                return
        elif not _wait_for_change(watch, game_id, mark, min(deadline, next_beat), departed):
            return


DEPARTURE_CHECK_SECONDS = 1.0
"""How often a stream waiting on the watch looks whether its client has gone: a closed tab gives its place back
within about this long, not at the next heartbeat (the first write that fails)."""


def _wait_for_change(
    watch: ChangeWatch, game_id: UUID, mark: int, until: float, departed: Callable[[], bool]
) -> bool:
    """Sleep until the game changes after ``mark``, ``until`` comes or the watch stops (the caller then reads
    the game again); False when the client left meanwhile."""
    while True:
        now = time.monotonic()
        if now >= until:
            return True
        if watch.wait(game_id, mark, min(until - now, DEPARTURE_CHECK_SECONDS)) or not watch.following:
            return True
        if departed():
            return False


def _departure_check(environ: Mapping[str, Any]) -> Callable[[], bool]:
    """Whether this request's client has closed its connection: a look at the socket, where the server
    hands it to the application (gunicorn's ``gunicorn.socket``, werkzeug's ``werkzeug.socket``), that reads
    nothing. A spectator sends nothing after its request, so an end of file means it has gone."""
    sock = environ.get("gunicorn.socket") or environ.get("werkzeug.socket")
    if not isinstance(sock, socket.socket):
        return lambda: False

    def departed() -> bool:
        # Asked with poll() first: a cooperative (gevent) socket's recv waits for data even when told not to.
        try:
            poller = select.poll()
            poller.register(sock, select.POLLIN)
            if not poller.poll(0):
                return False  # still connected, nothing sent
            return sock.recv(1, socket.MSG_PEEK) == b""
        except (BlockingIOError, InterruptedError):
            return False
        except ValueError:  # a TLS socket takes no flags: it cannot tell; the heartbeat's write will
            return False
        except OSError:  # reset, or already closed
            return True

    return departed


def _mark(watch: ChangeWatch | None) -> int | None:
    """The watch's mark, or None (poll this time) when there is no watch or it could not start."""
    if watch is None:
        return None
    try:
        return watch.mark()
    except Exception:  # the store did not answer; the read that follows says whether the stream goes on
        logger.debug("the change watch could not start", exc_info=True)
        return None
