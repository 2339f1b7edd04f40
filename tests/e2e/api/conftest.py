"""A real `heronlog serve` (gunicorn) on each store, and an API client that records what it called."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from tests.api_helpers import Answer, ApiClient, http_transport
from tests.e2e.conftest import Served, serve


class RecordingClient(ApiClient):
    """An API client over real HTTP that remembers every (method, path) it sent."""

    def __init__(self, base_url: str) -> None:
        self.calls: list[tuple[str, str]] = []
        transport = http_transport(base_url)

        def send(method: str, path: str, body: Any, headers: Mapping[str, str]) -> Answer:
            self.calls.append((method, path.split("?", 1)[0]))
            return transport(method, path, body, headers)

        super().__init__(send)
        self.base_url = base_url

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


@pytest.fixture(params=["sqlite", "redis"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Served]:
    """`heronlog serve` on the embedded SQLite store, then on Redis (a fresh key prefix)."""
    if request.param == "sqlite":
        env = {"HERONLOG_DATA": str(tmp_path / "data"), "REDIS_URL": "", "HERONLOG_STORE": ""}
    else:
        redis_url = request.getfixturevalue("redis_url")
        env = {
            "REDIS_URL": redis_url,
            "HERONLOG_STORE": "redis",
            "REDIS_KEY_PREFIX": f"e2e-{uuid.uuid4().hex[:10]}",
        }
    yield from serve(tmp_path, env)


@pytest.fixture
def web(server: Served) -> RecordingClient:
    return RecordingClient(server.url)
