"""Over a real keep-alive connection to `heronlog serve`: after a body refused unread (413) the client's next
request down the same connection is answered (the worker reads past the refused body first), and an ordinary
answer keeps the connection."""

from __future__ import annotations

import contextlib
import http.client
import json
from collections.abc import Iterator
from urllib.parse import urlsplit

from tests.e2e.conftest import Served

TOO_LARGE = 3 * 1024 * 1024  # over the 2 MiB MAX_CONTENT_LENGTH


@contextlib.contextmanager
def connected(served: Served) -> Iterator[http.client.HTTPConnection]:
    address = urlsplit(served.url)
    connection = http.client.HTTPConnection(address.hostname or "127.0.0.1", address.port, timeout=10)
    try:
        yield connection
    finally:
        connection.close()


def new_game_body(padding: int) -> bytes:
    return b'{"players": [' + b" " * padding + b'{"name": "Aiko"}, {"name": "Ben"}]}'


def test_after_a_body_refused_unread_the_next_request_on_the_connection_is_answered(
    sqlite_server: Served,
) -> None:
    with connected(sqlite_server) as connection:
        headers = {"Content-Type": "application/json"}
        connection.request("POST", "/api/games", body=new_game_body(TOO_LARGE), headers=headers)
        answer = connection.getresponse()
        assert answer.status == 413
        assert json.loads(answer.read())["error_code"] == "payload_too_large"
        # http.client reuses the connection unless told to close; either way the next request is answered.
        connection.request("POST", "/api/games", body=new_game_body(0), headers=headers)
        answer = connection.getresponse()
        assert answer.status == 201, answer.read()
        answer.read()


def test_an_ordinary_answer_keeps_the_connection(sqlite_server: Served) -> None:
    with connected(sqlite_server) as connection:
        connection.request(
            "POST", "/api/games", body=new_game_body(1000), headers={"Content-Type": "application/json"}
        )
        answer = connection.getresponse()
        assert answer.status == 201
        answer.read()
        assert answer.getheader("Connection") == "keep-alive"
        socket_before = connection.sock
        connection.request("GET", "/healthz")
        second = connection.getresponse()
        assert second.status == 200
        second.read()
        assert connection.sock is socket_before
