"""Fixtures of the hostile-client suite: the app on real stores (SQLite in a temporary folder, the
throwaway redis-server that `make test` starts), clients that come from many addresses, exports built to be
costly or forged, and the log lines a request leaves.

Every test here plays a client that means harm, or a careless one: each must end in a clear JSON 4xx (or a
bounded cost), nothing stored wrong, nothing private logged. Nothing is timed: costs are held by counts
(events read, writes counted, bytes stored)."""

from __future__ import annotations

import copy
import io
import json
import logging
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from api.app import create_app
from api.server.observability import JsonFormatter
from replay.config import StoreConfig
from tests.api_helpers import Answer, ApiClient, flask_transport

STORES = ["sqlite", "redis"]


def store_config(kind: str, tmp_path: Path, redis_url: str | None) -> StoreConfig:
    """A store of ``kind`` of its own: a fresh SQLite file, or a fresh key prefix on the test redis-server."""
    if kind == "sqlite":
        return StoreConfig(kind="sqlite", sqlite_path=tmp_path / f"hostile-{uuid.uuid4().hex[:8]}.sqlite")
    assert redis_url is not None
    return StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"hostile-{uuid.uuid4().hex[:10]}")


AppMaker = Callable[..., Flask]


@pytest.fixture(params=STORES)
def make_app(request: pytest.FixtureRequest, tmp_path: Path) -> AppMaker:
    """Makes the app on the store of this run (SQLite, then Redis), with the settings given."""
    redis_url = request.getfixturevalue("redis_url") if request.param == "redis" else None
    store = store_config(request.param, tmp_path, redis_url)

    def make(**settings: Any) -> Flask:
        return create_app({"STORE": store, "TESTING": True, **settings})

    return make


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Flask:
    """The app on a fresh SQLite file (where a test needs one store only)."""
    return create_app({"STORE": store_config("sqlite", tmp_path, None), "TESTING": True})


def client_from(app: Flask, address: str = "127.0.0.1") -> ApiClient:
    """An API client whose requests come from ``address`` (the rate limits count by it)."""
    test_client = app.test_client()
    test_client.environ_base["REMOTE_ADDR"] = address
    return ApiClient(flask_transport(test_client))


def raw(api: ApiClient, method: str, path: str, body: bytes | str, **headers: str) -> Answer:
    """A request whose body is sent byte for byte as given (JSON that a client library would not write)."""
    data = body.encode("utf-8", "surrogatepass") if isinstance(body, str) else body
    return api.send(method, path, data, {"Content-Type": "application/json", **headers})


# --- exports ----------------------------------------------------------------------------------------------


def played_export(api: ApiClient, moves: int = 6, **setup: Any) -> tuple[str, str, dict[str, Any]]:
    """A game recorded through the API (its owner plays ``moves`` moves; Ann is noted at version 2) and its
    export: (game id, owner token, export)."""
    body = {"players": ["Ann", "Ben"], "seed": 5, **setup}
    answer = api.post("/api/games", body)
    assert answer.status == 201, answer.body
    game_id, token = answer.body["game"]["game_id"], answer.body["owner_token"]
    for _ in range(moves):
        legal = api.legal(game_id, token).body
        played = api.play(game_id, legal["moves"][0], token, legal["version"])
        assert played.status == 201, played.body
    note = api.post(f"/api/games/{game_id}/annotations", {"version": 2, "text": "well played"}, token=token)
    assert note.status == 201, note.body
    exported = api.get(f"/api/games/{game_id}/export", token)
    assert exported.status == 200
    return game_id, token, dict(exported.body)


def padded(document: dict[str, Any], extra: int) -> dict[str, Any]:
    """``document`` with ``extra`` more events: its last move undone and redone, again and again (each event
    legal: the padding of a costly import, as a hostile client would write it)."""
    padded_document = copy.deepcopy(document)
    events = padded_document["events"]
    last = max(entry["version"] for entry in events if entry["type"] == "MovePlayed")
    version, at = events[-1]["version"], events[-1]["at"]
    for index in range(extra):
        version += 1
        kind = "MovesUndone" if index % 2 == 0 else "MovesRedone"
        data = {"versions": [last], "actor": "owner", "idempotency_key": None}
        events.append({"type": kind, "version": version, "at": at, "data": data})
    return padded_document


def body_bytes(document: Any) -> int:
    return len(json.dumps(document).encode())


# --- logs ---------------------------------------------------------------------------------------------------


@pytest.fixture
def log_lines() -> Iterator[io.StringIO]:
    """Every log line written while the test runs, as `heronlog serve` writes them (JSON, with tracebacks)."""
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    previous = root.level
    root.setLevel(logging.DEBUG)
    try:
        yield out
    finally:
        root.removeHandler(handler)
        root.setLevel(previous)
