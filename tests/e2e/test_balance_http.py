"""The workers of a real ``heronlog serve --workers 2`` take turns at accepting keep-alive connections
(api.server.balance), over real HTTP: each connection's request is matched, by its ``X-Request-ID``, with the worker
that logged it."""

from __future__ import annotations

import http.client
import json
import os
import signal
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.server.balance import SLACK
from tests.e2e.conftest import Served, serve


@pytest.fixture
def two_workers(tmp_path: Path) -> Iterator[Served]:
    env = {
        "HERONLOG_DATA": str(tmp_path / "data"),
        "REDIS_URL": "",
        "HERONLOG_STORE": "",
        "HERONLOG_REUSE_PORT": "",
    }
    yield from serve(tmp_path, env, "--workers", "2")


def open_connection(server: Served, request_id: str) -> http.client.HTTPConnection:
    """A keep-alive connection that has been answered once (so a worker holds it), left open."""
    host, port = server.url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    connection.request("GET", "/healthz", headers={"X-Request-ID": request_id})
    response = connection.getresponse()
    response.read()
    assert response.status == 200
    return connection


def worker_of(server: Served, request_ids: list[str]) -> list[int]:
    """The pid of the worker that answered each request, from the request log."""
    pids: dict[str, int] = {}
    deadline = time.monotonic() + 10
    while len(pids) < len(request_ids) and time.monotonic() < deadline:
        for line in server.output().splitlines():
            if line.startswith("{"):
                entry = json.loads(line)
                if entry.get("logger") == "heronlog.request" and entry.get("request_id") in request_ids:
                    pids[entry["request_id"]] = entry["pid"]
        time.sleep(0.05)
    return [pids[request_id] for request_id in request_ids]


@pytest.mark.timeout(120)
def test_two_workers_take_turns_and_neither_holds_more_than_its_share(two_workers: Served) -> None:
    ids = [f"turns-{index}" for index in range(30)]
    connections = [open_connection(two_workers, request_id) for request_id in ids]
    try:
        pids = worker_of(two_workers, ids)
        assert len(set(pids)) == 2
        # At every moment (after each new connection), neither worker held more than SLACK + 1 connections
        # above the other: left to a hash or to whoever wakes first, 30 connections stray much further.
        held: Counter[int] = Counter()
        for count, pid in enumerate(pids, start=1):
            held[pid] += 1
            spread = max(held.values()) - (min(held.values()) if len(held) == 2 else 0)
            assert spread <= SLACK + 1, f"after {count} connections: {dict(held)}"
    finally:
        for connection in connections:
            connection.close()


@pytest.mark.timeout(120)
def test_a_killed_worker_does_not_keep_new_connections_waiting(two_workers: Served) -> None:
    ids = [f"before-{index}" for index in range(8)]
    connections = [open_connection(two_workers, request_id) for request_id in ids]
    try:
        victim = worker_of(two_workers, ids)[0]
        os.kill(victim, signal.SIGKILL)
        # Its connections are gone with it; every new one is answered (by the survivor or the worker the
        # master starts in its place), none left waiting on a dead worker's count.
        started = time.monotonic()
        later = [f"after-{index}" for index in range(12)]
        connections += [open_connection(two_workers, request_id) for request_id in later]
        assert time.monotonic() - started < 30
        assert victim not in worker_of(two_workers, later)
    finally:
        for connection in connections:
            connection.close()
