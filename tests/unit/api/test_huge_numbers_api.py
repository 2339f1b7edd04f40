"""Every integer a client sends, however large, is answered without a 5xx on the SQLite store (whose INTEGER
is 64-bit signed: a version of 2**63 once reached it and answered 500). Versions are bounded by the schemas
(0 to 2**63-1, 400 invalid_request naming the field); the replay layer guards its reads too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from api.app import create_app
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport

BIG = 2**63  # one more than SQLite's largest INTEGER
HUGE = 10**30


@pytest.fixture
def sqlite_app(tmp_path: Path) -> Iterator[Flask]:
    yield create_app(
        {"STORE": StoreConfig(kind="sqlite", sqlite_path=tmp_path / "heronlog.sqlite"), "TESTING": True}
    )


def _calls(game: str, n: int) -> list[tuple[str, str, Any, dict[str, str]]]:
    """(method, path, body or None, headers) of every route with a client-sent integer set to ``n``."""
    g = f"/api/games/{game}"
    return [
        ("GET", f"{g}/changes?since={n}", None, {}),
        ("GET", f"{g}/legal-moves?before={n}", None, {}),
        ("GET", f"{g}/states/{n}", None, {}),
        ("GET", f"{g}/states/{n}?current_line=1", None, {}),
        ("GET", f"{g}/states?round={n}&turn={n}&seat={n}", None, {}),
        ("GET", f"{g}/stream?after={n}&timeout=0", None, {}),
        ("GET", f"{g}/stream?timeout=0", None, {"Last-Event-ID": str(n)}),
        ("GET", f"/api/games?limit={n}&offset={n}", None, {}),
        ("GET", f"/games?page={n}", None, {}),
        ("POST", "/api/games", {"players": ["A", "B"], "seed": n}, {}),
        ("POST", "/api/games", {"players": n}, {}),
        ("POST", f"{g}/moves", {"kind": "take_die", "seat": n}, {"If-Match": "*"}),
        ("POST", f"{g}/moves", {"kind": "take_die", "seat": 0, "expected_version": n}, {}),
        ("POST", f"{g}/moves", {"kind": "take_die", "seat": 0}, {"If-Match": f'"{n}"'}),
        ("POST", f"{g}/undo", {"to_version": n}, {"If-Match": "*"}),
        ("POST", f"{g}/undo", {"expected_version": n}, {}),
        ("POST", f"{g}/redo", {"count": n}, {"If-Match": "*"}),
        ("POST", f"{g}/amend", {"version": n, "move": {"kind": "x"}}, {"If-Match": "*"}),
        ("POST", f"{g}/amend", {"version": 1, "move": {"kind": "x"}, "expected_version": n}, {}),
        ("POST", f"{g}/forks", {"version": n}, {}),
        ("POST", f"{g}/abandon", {"expected_version": n}, {}),
        ("POST", f"{g}/seats/{n}/token", None, {}),
        ("DELETE", f"{g}/seats/{n}/token", None, {}),
        ("POST", f"{g}/annotations", {"version": n, "text": "x"}, {}),
        ("GET", f"{g}/annotations/{n}", None, {}),
        ("PATCH", f"{g}/annotations/{n}", {"text": "x"}, {}),
        ("POST", "/api/score-sheets", {"players": [{"name": "A", "cp": n, "coins": n}]}, {}),
        ("POST", "/api/games/import", {"format": "heronlog.game", "format_version": n}, {}),
    ]


@pytest.mark.parametrize("n", [BIG, -BIG, HUGE, 2**63 - 1], ids=["2**63", "-2**63", "10**30", "2**63-1"])
@pytest.mark.parametrize("index", range(len(_calls("x", 0))))
def test_no_integer_a_client_sends_makes_a_5xx_on_sqlite(sqlite_app: Flask, n: int, index: int) -> None:
    api = ApiClient(flask_transport(sqlite_app.test_client()))
    game, token, _ = api.create(2, seed=3)
    method, path, body, headers = _calls(game, n)[index]
    sent = {"Authorization": f"Bearer {token}", **headers}
    answer = api.send(method, path, body if body is not None else b"", sent)
    assert answer.status < 500, (method, path, answer.body)


def test_a_version_beyond_the_store_is_400_naming_the_field(sqlite_app: Flask) -> None:
    """The reviewer's 500: since=2**63 on SQLite. Redis answered 200; both now refuse it the same way."""
    api = ApiClient(flask_transport(sqlite_app.test_client()))
    game, _, _ = api.create(2, seed=3)
    answer = api.get(f"/api/games/{game}/changes?since={BIG}")
    assert answer.error() == (400, "invalid_request")
    assert "since" in answer.body["details"]["fields"]["query"]
    assert api.get(f"/api/games/{game}/changes?since={BIG - 1}").status == 200
    stream = api.get(f"/api/games/{game}/stream?timeout=0", **{"Last-Event-ID": str(BIG)})
    assert stream.error() == (400, "invalid_request")
    assert "Last-Event-ID" in stream.body["detail"]
