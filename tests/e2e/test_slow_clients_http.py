"""Slow clients never stop a real ``heronlog serve`` from answering (stock gevent workers, api.server.runtime, and
api.server.slow_clients), over real sockets on loopback.

Slowloris-style clients open connections and send their request a header line (or a body byte) at a time. With
gunicorn's threaded worker, eight of them held every thread of the default server: every ``/healthz`` timed out.
Each check here is functional: a generous client timeout tells "answered" from "frozen", and no latency is
asserted (tests/hostile/test_slow_clients.py holds the one-second guarantee; bench/bench_servers.py measures).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest

from api.server.slow_clients import BODY_SECONDS
from tests.api_helpers import ApiClient, http_transport
from tests.e2e.conftest import Served, open_tab

ANSWERED_WITHIN = 5.0
"""The client timeout that tells a server that answers from one whose threads are all held (a generous one: the
server answers such a request in milliseconds, and a frozen one never does)."""


def address(served: Served) -> tuple[str, int]:
    host, port = served.url.removeprefix("http://").split(":")
    return host, int(port)


@contextlib.contextmanager
def slow_clients(served: Served, count: int, *, bodies: bool = False) -> Iterator[list[socket.socket]]:
    """``count`` connections that send their request slowly: a header line every second (or, with ``bodies``,
    a whole head announcing a body, then the body a byte a second), until the block ends."""
    host, _ = address(served)
    sockets = []
    for index in range(count):
        slow = socket.create_connection(address(served), timeout=30)
        if bodies:
            slow.sendall(
                f"POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
                f"Content-Length: 500\r\n\r\n{{".encode()
            )
        else:
            slow.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\nX-Slow: {index}\r\n".encode())
        sockets.append(slow)
    stop = threading.Event()

    def drip() -> None:
        line = 0
        while not stop.wait(1.0):
            line += 1
            for slow in sockets:
                with contextlib.suppress(OSError):  # refused and closed by the server: what the test looks at
                    slow.sendall(b" " if bodies else f"X-Line-{line}: x\r\n".encode())

    dripping = threading.Thread(target=drip, daemon=True)
    dripping.start()
    try:
        yield sockets
    finally:
        stop.set()
        dripping.join(timeout=5)
        for slow in sockets:
            slow.close()


def healthz(served: Served) -> int:
    with urllib.request.urlopen(served.url + "/healthz", timeout=ANSWERED_WITHIN) as answer:
        return int(answer.status)


def answer_of(slow: socket.socket) -> bytes:
    """Everything the server sends down a connection until it closes it. A close that finds a dripped line
    still unread on the server's side arrives as a reset: the end of the connection all the same."""
    received = b""
    slow.settimeout(BODY_SECONDS + 10)
    with contextlib.suppress(ConnectionResetError):
        while chunk := slow.recv(4096):
            received += chunk
    return received


@pytest.mark.timeout(120)
def test_twenty_slow_connections_leave_healthz_and_a_move_answering(sqlite_server: Served) -> None:
    api = ApiClient(http_transport(sqlite_server.url, timeout=ANSWERED_WITHIN))
    with slow_clients(sqlite_server, 10) as heads, slow_clients(sqlite_server, 10, bodies=True) as bodies:
        time.sleep(2.5)  # every slow connection accepted, and dripping
        assert healthz(sqlite_server) == 200
        game_id, owner, game = api.create(2, seed=5)
        move = api.legal(game_id).body["moves"][0]
        assert api.play(game_id, move, owner, game["version"]).status == 201
        # A head not whole in time is closed without an answer; a body not whole in time is refused in the API's
        # error shape.
        assert answer_of(heads[0]) == b""
        answer = answer_of(bodies[0])
        assert answer.startswith(b"HTTP/1.1 408 "), answer[:200]
        assert json.loads(answer.partition(b"\r\n\r\n")[2])["error_code"] == "request_timeout"
        assert healthz(sqlite_server) == 200
    # The refused bodies never reached the app; the server counts them in the metrics all the same.
    metrics = api.get("/metrics").body
    refused = [line for line in metrics.splitlines() if line.startswith("heronlog_requests_refused_total{")]
    assert refused and 'error_code="request_timeout"' in refused[0] and float(refused[0].split()[-1]) >= 1


@pytest.mark.timeout(120)
def test_six_open_event_streams_and_two_slow_connections_leave_the_api_answering(
    sqlite_server: Served,
) -> None:
    api = ApiClient(http_transport(sqlite_server.url, timeout=ANSWERED_WITHIN))
    game_id, owner, game = api.create(2, seed=6)
    tabs = [open_tab(sqlite_server, f"/api/games/{game_id}/stream?timeout=120") for _ in range(6)]
    try:
        assert all(received.startswith(b"HTTP/1.1 200") for _, received in tabs)
        with slow_clients(sqlite_server, 2):
            time.sleep(1.5)
            assert healthz(sqlite_server) == 200
            move = api.legal(game_id).body["moves"][0]
            assert api.play(game_id, move, owner, game["version"]).status == 201
    finally:
        for tab, _ in tabs:
            tab.close()


def test_a_body_over_the_limit_is_refused_without_being_read(sqlite_server: Served) -> None:
    host, _ = address(sqlite_server)
    with socket.create_connection(address(sqlite_server), timeout=10) as client:
        client.sendall(
            f"POST /api/games/import HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {64 * 1024 * 1024}\r\nExpect: 100-continue\r\n\r\n".encode()
        )
        answer = answer_of(client)
    # gunicorn tells the client to go on (100 Continue) before heronlog reads the head and refuses the body unread
    answer = answer.removeprefix(b"HTTP/1.1 100 Continue\r\n\r\n")
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413 ")
    refused = json.loads(body)
    assert refused["error_code"] == "payload_too_large" and refused["details"]["limit"] == 2 * 1024 * 1024


@pytest.mark.timeout(120)
def test_a_large_body_sent_slowly_but_steadily_is_served(sqlite_server: Served) -> None:
    """A phone uploading over a poor connection: 320 KiB at about 24 KiB/s takes over 13 s, longer than a head may
    take, and is served (a body has time by its size: 16 KiB/s or faster)."""
    host, _ = address(sqlite_server)
    body = b'{"players": [' + b" " * (320 * 1024) + b'{"name": "Aiko"}, {"name": "Ben"}]}'
    with socket.create_connection(address(sqlite_server), timeout=30) as client:
        client.sendall(
            f"POST /api/games HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
        )
        for start in range(0, len(body), 6 * 1024):
            client.sendall(body[start : start + 6 * 1024])
            time.sleep(0.25)
        answer = answer_of(client)
    assert answer.startswith(b"HTTP/1.1 201 "), answer[:300]
