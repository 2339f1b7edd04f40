"""api.server.slow_clients: a request's body read whole before the app sees it, within its deadline; an answer
written in pieces. The deadline is a gevent timeout, tested on gevent's own sockets (a socket pair whose writer
drips), without patching this process."""

from __future__ import annotations

import contextlib
import io
import json
import logging
import sys
from collections.abc import Iterable, Iterator
from typing import Any

import gevent
import gevent.socket
import pytest

from api.server import slow_clients
from api.server.slow_clients import PIECE_BYTES, BodyTimedOut, in_pieces, read_body, whole_bodies


def call(app: Any, environ: dict[str, Any]) -> tuple[str, bytes, dict[str, Any]]:
    """Run a WSGI app: (status, body, the environ the inner app saw)."""
    said: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], *_: Any) -> None:
        said["status"] = status

    body = b"".join(app(environ, start_response))
    return said["status"], body, environ


def echo(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
    """An app that answers the body it reads, by its Content-Length, as Flask reads it."""
    length = int(environ.get("CONTENT_LENGTH") or 0)
    data = environ["wsgi.input"].read(length)
    start_response("200 OK", [("Content-Type", "application/octet-stream")])
    return [data]


def test_a_body_is_read_whole_and_the_app_reads_it_from_a_buffer() -> None:
    environ = {"CONTENT_LENGTH": "5", "wsgi.input": io.BytesIO(b"hello and more")}
    status, body, seen = call(whole_bodies(echo, body_limit=100), environ)
    assert (status, body) == ("200 OK", b"hello")
    assert isinstance(seen["wsgi.input"], io.BytesIO) and seen["CONTENT_LENGTH"] == "5"


def test_a_chunked_body_is_read_to_its_end_and_given_its_length() -> None:
    environ = {"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input": io.BytesIO(b"x" * 40)}
    status, body, seen = call(whole_bodies(echo, body_limit=100), environ)
    assert (status, body) == ("200 OK", b"x" * 40)
    assert seen["CONTENT_LENGTH"] == "40" and "HTTP_TRANSFER_ENCODING" not in seen


def test_a_chunked_body_over_the_limit_is_read_one_byte_past_it_only() -> None:
    source = io.BytesIO(b"x" * 500)
    environ = {"HTTP_TRANSFER_ENCODING": "chunked", "wsgi.input": source}
    assert read_body(environ, body_limit=100) == b"x" * 101  # the app sees more than it takes: 413
    assert source.tell() == 101


def test_a_body_announced_over_the_limit_is_left_unread_for_the_app_to_refuse() -> None:
    source = io.BytesIO(b"x" * 500)
    environ = {"CONTENT_LENGTH": "500", "wsgi.input": source}
    assert read_body(environ, body_limit=100) is None
    assert source.tell() == 0


def test_a_body_that_cannot_be_read_is_400_in_the_api_error_shape() -> None:
    class Broken(io.RawIOBase):
        def read(self, size: int = -1) -> bytes:
            raise OSError("the client went away")

    status, body, _ = call(whole_bodies(echo, 100), {"CONTENT_LENGTH": "10", "wsgi.input": Broken()})
    assert status.startswith("400 ")
    assert json.loads(body)["error_code"] == "invalid_request"


def test_an_answer_is_written_in_pieces_and_the_apps_answer_is_closed() -> None:
    closed = []

    class Answer(list[bytes]):
        def close(self) -> None:
            closed.append(True)

    pieces = list(in_pieces(Answer([b"a" * (PIECE_BYTES * 2 + 10), b"tail"])))
    assert [len(piece) for piece in pieces] == [PIECE_BYTES, PIECE_BYTES, 10, 4]
    assert b"".join(pieces) == b"a" * (PIECE_BYTES * 2 + 10) + b"tail"
    assert closed == [True]


@pytest.fixture
def cooperative(monkeypatch: pytest.MonkeyPatch) -> None:
    """As in a `heronlog serve` worker: the deadline is a gevent timeout (the sockets below are gevent's)."""
    monkeypatch.setattr(slow_clients, "_cooperative", lambda: True)
    monkeypatch.setattr(slow_clients, "BODY_SECONDS", 0.3)


@contextlib.contextmanager
def dripping(total: bytes, every: float) -> Iterator[Any]:
    """A gevent socket pair whose far end sends ``total`` a byte every ``every`` seconds; yields the reading end's
    file, and closes everything afterwards."""
    near, far = gevent.socket.socketpair()

    def drip() -> None:
        for byte in total:
            far.sendall(bytes([byte]))
            gevent.sleep(every)

    dripper = gevent.spawn(drip)
    reader = near.makefile("rb")
    try:
        yield reader
    finally:
        dripper.kill()
        reader.close()
        near.close()
        far.close()


def test_a_body_that_drips_past_its_deadline_times_out(cooperative: None) -> None:
    # 1 s for 20 bytes; the deadline is 0.3 s and a little
    with dripping(b"x" * 20, every=0.05) as reader, pytest.raises(BodyTimedOut):
        read_body({"CONTENT_LENGTH": "20", "wsgi.input": reader}, body_limit=100)


def test_a_body_that_arrives_in_time_is_read(cooperative: None) -> None:
    with dripping(b"y" * 5, every=0.01) as reader:
        assert read_body({"CONTENT_LENGTH": "5", "wsgi.input": reader}, body_limit=100) == b"yyyyy"


def test_a_body_not_in_time_is_refused_408_by_the_wrapper(cooperative: None) -> None:
    with dripping(b"z" * 20, every=0.05) as reader:
        status, body, _ = call(whole_bodies(echo, 100), {"CONTENT_LENGTH": "20", "wsgi.input": reader})
    assert status.startswith("408 ")
    problem = json.loads(body)
    assert problem["error_code"] == "request_timeout" and problem["status"] == 408


def test_an_answer_not_taken_in_time_is_logged_as_information_not_as_an_error() -> None:
    try:
        raise TimeoutError("timed out")
    except TimeoutError:
        record = logging.LogRecord(
            "gunicorn.error", logging.ERROR, "x", 1, "Socket error processing request.", (), sys.exc_info()
        )
    assert slow_clients.UntakenAnswers().filter(record)
    assert record.levelno == logging.INFO and record.exc_info is None
    assert "did not take its answer" in record.getMessage()
    other = logging.LogRecord("gunicorn.error", logging.ERROR, "x", 1, "Worker failed", (), None)
    assert slow_clients.UntakenAnswers().filter(other) and other.levelno == logging.ERROR
