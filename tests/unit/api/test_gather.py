"""What the worker's loop finds in the bytes of a request so far (api.server.gather.examine): whole, not yet, or
refused before any thread sees it; and the answers it refuses with, in the API's error shape."""

from __future__ import annotations

import json

import pytest

from api.server.gather import HEAD_LIMIT, Gathered, examine, expects_continue, refusal

LIMIT = 1000
HEAD = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"


def request(body: bytes, *headers: bytes) -> bytes:
    return HEAD + b"".join(header + b"\r\n" for header in headers) + b"\r\n" + body


@pytest.mark.parametrize(
    ("data", "found"),
    [
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\n", Gathered.PARTIAL),  # a slowloris, one line at a time
        (b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", Gathered.COMPLETE),
        (request(b'{"players"', b"Content-Length: 14"), Gathered.PARTIAL),  # a body a byte at a time
        (request(b'{"players": 2}', b"Content-Length: 14"), Gathered.COMPLETE),
        (request(b'{"players": 2}GET / HTTP/1.1\r\n', b"Content-Length: 14"), Gathered.COMPLETE),  # pipelined
        (request(b"", b"Content-Length: 1001"), Gathered.BODY_TOO_LARGE),  # refused before it is sent
        (request(b"", b"content-length: 0"), Gathered.COMPLETE),
        (request(b"", b"Content-Length: twelve"), Gathered.COMPLETE),  # gunicorn's parser refuses it at once
        (b"GET / HTTP/1.1\r\nX: " + b"y" * HEAD_LIMIT, Gathered.HEAD_TOO_LARGE),
    ],
)
def test_a_request_is_whole_once_its_head_and_announced_body_are_there(data: bytes, found: Gathered) -> None:
    assert examine(data, LIMIT) is found
    assert examine(bytearray(data), LIMIT) is found


@pytest.mark.parametrize(
    ("body", "found"),
    [
        (b"5\r\nhello\r\n", Gathered.PARTIAL),
        (b"5\r\nhello\r\n0\r\n", Gathered.PARTIAL),
        (b"5\r\nhello\r\n0\r\n\r\n", Gathered.COMPLETE),
        (b"5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nTrailer: t\r\n\r\n", Gathered.COMPLETE),
        (b"5\r\nhel", Gathered.PARTIAL),
        (b"3e9\r\n" + b"x" * 1001 + b"\r\n", Gathered.BODY_TOO_LARGE),  # 1001 bytes of data, over the limit
        (b"zz\r\nhello\r\n", Gathered.MALFORMED),
        (b"5" * 2000, Gathered.MALFORMED),  # a chunk-size line that never ends
    ],
)
def test_a_chunked_body_is_whole_after_its_last_chunk_and_trailers(body: bytes, found: Gathered) -> None:
    assert examine(request(body, b"Transfer-Encoding: chunked"), LIMIT) is found


def test_a_client_that_expects_100_continue_is_recognised_by_its_head_only() -> None:
    assert expects_continue(request(b"", b"Expect: 100-continue", b"Content-Length: 5"))
    assert not expects_continue(request(b"", b"Content-Length: 5"))
    assert not expects_continue(b"POST / HTTP/1.1\r\nExpect: 100-continue\r\n")  # the head is not whole yet


@pytest.mark.parametrize(
    ("kind", "status", "code"),
    [
        (None, 408, "request_timeout"),
        (Gathered.BODY_TOO_LARGE, 413, "payload_too_large"),
        (Gathered.HEAD_TOO_LARGE, 400, "invalid_request"),
        (Gathered.MALFORMED, 400, "invalid_request"),
    ],
)
def test_the_loops_refusals_are_whole_answers_in_the_error_shape_that_close_the_connection(
    kind: Gathered | None, status: int, code: str
) -> None:
    answer = refusal(kind, LIMIT)
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    assert lines[0].startswith(f"HTTP/1.1 {status} ")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    assert headers["Connection"] == "close" and int(headers["Content-Length"]) == len(body)
    envelope = json.loads(body)
    assert (envelope["status"], envelope["error_code"], envelope["rule"]) == (status, code, None)
    assert envelope["message"]
