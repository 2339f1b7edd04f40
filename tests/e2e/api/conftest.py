"""A real `heronlog serve` (gunicorn) on each store, and an API client that records what it called.

Each API test runs three times: on the embedded SQLite store, on the standalone Redis, and on the 3-master
Redis Cluster with the games spread over three shards and served by TWO `heronlog serve` processes, the
client alternating between them request by request (a game created on one is read and played on the
other; a spectator's stream on one sees the moves recorded through the other).
"""

from __future__ import annotations

import contextlib
import itertools
import re
import threading
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.api_helpers import Answer, ApiClient, http_transport
from tests.e2e.conftest import Served, serve


class RecordingClient(ApiClient):
    """An API client over real HTTP that remembers every (method, path) it sent. Given several servers, it
    sends each request to the next one in turn."""

    def __init__(self, *base_urls: str) -> None:
        self.calls: list[tuple[str, str]] = []
        self.base_urls = base_urls
        transports = [http_transport(url) for url in base_urls]
        turn = itertools.count()
        lock = threading.Lock()

        def send(method: str, path: str, body: Any, headers: Mapping[str, str]) -> Answer:
            with lock:
                self.calls.append((method, path.split("?", 1)[0]))
                transport = transports[next(turn) % len(transports)]
            return transport(method, path, body, headers)

        super().__init__(send)
        self._next_url = itertools.cycle(base_urls)

    @property
    def base_url(self) -> str:
        """A server's base URL (the next one in turn, for requests made outside the client)."""
        return next(self._next_url)

    def operations(self, document: Mapping[str, Any]) -> set[tuple[str, str]]:
        """The documented operations (method, path template) that the recorded calls exercised."""
        templates = [
            (re.compile("^" + re.sub(r"\{[^}]+\}", "[^/]+", path) + "$"), path) for path in document["paths"]
        ]
        seen = set()
        for method, path in self.calls:
            for pattern, template in templates:
                if pattern.match(path):
                    seen.add((method.lower(), template))
        return seen


def store_env(store: str, request: pytest.FixtureRequest, tmp_path: Path) -> tuple[dict[str, str], int]:
    """The environment of `heronlog serve` on ``store`` (a fresh key prefix on Redis), and how many servers
    serve it: two on the Redis Cluster with three shards, one otherwise."""
    if store == "sqlite":
        return {"HERONLOG_DATA": str(tmp_path / "data"), "REDIS_URL": "", "HERONLOG_STORE": ""}, 1
    if store == "redis":
        url = request.getfixturevalue("redis_url")
        return {
            "REDIS_URL": url,
            "HERONLOG_STORE": "redis",
            "REDIS_KEY_PREFIX": f"e2e-{uuid.uuid4().hex[:10]}",
        }, 1
    env = {
        "REDIS_URL": request.getfixturevalue("cluster_url"),
        "REDIS_CLUSTER": "yes",
        "HERONLOG_SHARDS": "3",
        "HERONLOG_STORE": "redis",
        # a cluster keeps the analyses' job queue on one plain Redis
        "HERONLOG_QUEUE_URL": request.getfixturevalue("redis_url"),
        "REDIS_KEY_PREFIX": f"e2e-{uuid.uuid4().hex[:10]}",
    }
    return env, 2


@contextlib.contextmanager
def serving(
    store: str, request: pytest.FixtureRequest, tmp_path: Path, **extra: str
) -> Iterator[list[Served]]:
    """The servers of ``store`` (:func:`store_env`, plus ``extra`` variables), stopped afterwards."""
    env, count = store_env(store, request, tmp_path)
    with contextlib.ExitStack() as stack:
        yield [
            stack.enter_context(contextlib.contextmanager(serve)(tmp_path, {**env, **extra}))
            for _ in range(count)
        ]


@pytest.fixture(params=["sqlite", "redis", "cluster"])
def servers(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[list[Served]]:
    """`heronlog serve` on the embedded SQLite store, then on Redis (a fresh key prefix), then two of them
    on the Redis Cluster with three shards."""
    with serving(request.param, request, tmp_path) as served:
        yield served


@pytest.fixture
def web(servers: list[Served]) -> RecordingClient:
    return RecordingClient(*(served.url for served in servers))
