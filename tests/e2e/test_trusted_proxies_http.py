"""Behind a proxy (`HERONLOG_TRUSTED_PROXIES=1`, as the compose files set for their nginx) the rate limits and the
request log count the client the proxy names in `X-Forwarded-For`, not the proxy; without it the header is never
believed. Over real HTTP to a real `heronlog serve`."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import Served, serve


def server(tmp_path: Path, trusted: str) -> Iterator[Served]:
    env = {
        "HERONLOG_DATA": str(tmp_path / "data"),
        "REDIS_URL": "",
        "HERONLOG_STORE": "",
        "HERONLOG_RATE_LIMIT_PER_ADDRESS": "2",
        "HERONLOG_TRUSTED_PROXIES": trusted,
    }
    yield from serve(tmp_path, env)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[Served]:
    yield from server(tmp_path, "1")


@pytest.fixture
def direct(tmp_path: Path) -> Iterator[Served]:
    yield from server(tmp_path, "0")


def create(served: Served, forwarded_for: str) -> int:
    """POST a new game as the proxy would for the client ``forwarded_for``; the answer's status."""
    request = urllib.request.Request(
        served.url + "/api/games",
        data=json.dumps({"players": 2}).encode(),
        headers={"Content-Type": "application/json", "X-Forwarded-For": forwarded_for},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def test_behind_a_trusted_proxy_each_client_has_its_own_rate_limit(proxied: Served) -> None:
    assert [create(proxied, "203.0.113.7") for _ in range(3)] == [201, 201, 429]
    assert create(proxied, "198.51.100.9") == 201  # another client behind the same proxy
    logged = [json.loads(line) for line in proxied.output().splitlines() if '"heronlog.request"' in line]
    assert {entry["client"] for entry in logged if entry["route"] == "/api/games"} == {
        "203.0.113.7",
        "198.51.100.9",
    }


def test_without_a_trusted_proxy_the_header_is_never_believed(direct: Served) -> None:
    assert [create(direct, f"203.0.113.{index}") for index in range(3)] == [201, 201, 429]
