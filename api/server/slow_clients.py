"""Slow clients bounded in time (docs/operations/slow-clients.md): a request's body is read whole before the app
runs, within :func:`body_deadline` (else ``408 request_timeout``), and an answer is written in pieces, each of which
the client must take within :data:`PIECE_SECONDS` (else its connection is closed). gevent's worker gives a slow
client a greenlet, not a thread; these bounds keep it from holding even that for ever."""

from __future__ import annotations

import io
import json
import logging
import socket
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from api.resources.errors import PROBLEM_JSON, envelope

BODY_SECONDS = 10.0
"""How long any body may take beyond its size's share."""

BODY_BYTES_PER_SECOND = 16 * 1024
"""The slowest average rate a body may arrive at (128 kbit/s, a poor mobile connection): a 2 MiB import has
128 s more than :data:`BODY_SECONDS`."""

PIECE_BYTES = 64 * 1024
"""The size of the pieces an answer is written in."""

PIECE_SECONDS = 30.0
"""How long a client may take to take one piece of an answer (at least about 2 KiB/s) before its connection is
closed."""

READ_BYTES = 64 * 1024
"""The most one read of a body takes."""

logger = logging.getLogger("heronlog.server")

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


class BodyTimedOut(Exception):
    """A body that did not arrive whole within its deadline."""


def body_deadline(length: int) -> float:
    """The seconds a body of ``length`` bytes may take to arrive."""
    return BODY_SECONDS + length / BODY_BYTES_PER_SECOND


def _cooperative() -> bool:
    """Whether gevent has made this process's sockets cooperative (a ``heronlog serve`` worker)."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency; without it nothing is cooperative
        return False
    return bool(monkey.is_module_patched("socket"))


def _read_all(stream: Any, limit: int) -> bytes:
    """Up to ``limit`` bytes of ``stream``, to its end."""
    parts = []
    taken = 0
    while taken < limit:
        data = stream.read(min(READ_BYTES, limit - taken))
        if not data:
            break
        parts.append(data)
        taken += len(data)
    return b"".join(parts)


def read_body(environ: dict[str, Any], body_limit: int) -> bytes | None:
    """The request's whole body (at most ``body_limit + 1`` bytes: one more says it is too large), read within
    its deadline; None when it announces more than ``body_limit`` (the app refuses it, unread). Raises
    :class:`BodyTimedOut` when it does not arrive in time, or another exception when it cannot be read."""
    chunked = "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower()
    text = environ.get("CONTENT_LENGTH") or ""
    length = int(text) if text.isdigit() and len(text) < 19 else 0
    if length > body_limit:
        return None
    if not chunked and length == 0:
        return b""
    limit = body_limit + 1 if chunked else length
    stream = environ["wsgi.input"]
    if not _cooperative():
        return _read_all(stream, limit)
    from gevent import Timeout

    with Timeout(body_deadline(body_limit if chunked else length), BodyTimedOut):
        try:
            return _read_all(stream, limit)
        except TimeoutError:  # a socket timeout left by the last answer (PIECE_SECONDS) between two reads
            raise BodyTimedOut from None


def refusal(status: str, code: str, message: str, start_response: Callable[..., Any]) -> list[bytes]:
    """A refusal in the API's error shape (a problem document), written by the server itself: the request
    never reached the app."""
    number = int(status.split(" ", 1)[0])
    body = json.dumps(envelope(number, code, message)).encode()
    start_response(
        status,
        [
            ("Content-Type", PROBLEM_JSON),
            ("Content-Length", str(len(body))),
            ("X-Content-Type-Options", "nosniff"),
        ],
    )
    count_refusal(code)
    return [body]


def in_pieces(answer: Iterable[bytes]) -> Iterator[bytes]:
    """The answer's bytes, in pieces of at most :data:`PIECE_BYTES` (each written, and timed, on its own)."""
    try:
        for part in answer:
            if len(part) <= PIECE_BYTES:
                yield part
                continue
            view = memoryview(part)
            for start in range(0, len(view), PIECE_BYTES):
                yield bytes(view[start : start + PIECE_BYTES])
    finally:
        close = getattr(answer, "close", None)
        if callable(close):
            close()


def whole_bodies(app: WsgiApp, body_limit: int) -> WsgiApp:
    """``app`` behind the bounds of the module's docstring: each request's body read whole before the app
    sees it (``wsgi.input`` then a buffer of it, with its ``Content-Length``), each answer written in timed
    pieces."""

    def bounded(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        try:
            body = read_body(environ, body_limit)
        except BodyTimedOut:
            logger.info(
                "refused a request from %s: its body did not arrive in time", environ.get("REMOTE_ADDR")
            )
            return refusal(
                "408 Request Timeout",
                "request_timeout",
                f"the request's body did not arrive whole in time ({BODY_SECONDS:g} s, and a second per "
                f"{BODY_BYTES_PER_SECOND // 1024} KiB): send it again",
                start_response,
            )
        except (
            Exception
        ) as error:  # a client gone, or chunks that cannot be read: nothing to serve either way
            logger.info(
                "refused a request from %s: %s", environ.get("REMOTE_ADDR"), error or type(error).__name__
            )
            return refusal(
                "400 Bad Request",
                "invalid_request",
                "the request's body cannot be read (it ended early, or its chunks are malformed)",
                start_response,
            )
        if body is not None:
            environ["wsgi.input"] = io.BytesIO(body)
            environ["CONTENT_LENGTH"] = str(len(body))
            environ.pop("HTTP_TRANSFER_ENCODING", None)
            environ.pop("wsgi.input_terminated", None)
        sock = environ.get("gunicorn.socket")
        if isinstance(sock, socket.socket) and _cooperative():
            sock.settimeout(PIECE_SECONDS)  # each piece of the answer must be taken within it
        return in_pieces(app(environ, start_response))

    return bounded


class UntakenAnswers(logging.Filter):
    """A filter of gunicorn's error log: gunicorn reports a connection closed because its client did not take an
    answer's piece within :data:`PIECE_SECONDS` (a socket timeout) as an error with a traceback; it is a client's
    doing, and becomes one line of information."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, TimeoutError) and record.levelno >= logging.ERROR:
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg = (
                f"closed a connection whose client did not take its answer within {PIECE_SECONDS:g} s"
            )
            record.args = ()
            record.exc_info = record.exc_text = None
        return True


_refused: Any = None


def count_refusal(code: str) -> None:
    """Count a request refused before it reached the app, by its error code, in ``/metrics``
    (``heronlog_requests_refused_total``); the app's own metrics count the rest. Made on first use, in the
    worker: ``prometheus_client`` must first be imported after ``heronlog serve`` has set its multi-process
    folder (api.server.observability.serving)."""
    global _refused  # noqa: PLW0603  # made once per worker process, on first use
    try:
        if _refused is None:
            from prometheus_client import Counter

            _refused = Counter(
                "heronlog_requests_refused",
                "Requests the server refused before they reached the app (408 a body not whole in time, 400 a "
                "body that cannot be read), by error code.",
                ["error_code"],
            )
        _refused.labels(code).inc()
    except Exception:  # a metrics failure must never fail the request
        return
