"""A spectator's recording screen keeps up when the server has no event stream to spare.

Each open event stream holds one of a served process's threads, so a process holds at most
`STREAM_MAX_OPEN` of them and refuses one more (`503 too_many_streams`, `Retry-After`). A page refused so does
not go blind: it reads the events it missed with one `changes` request each time it tries again, and says it
is following by asking (api.js, `follow`). Here a server whose one stream is held by another tab serves a
spectator's page, and a move recorded meanwhile appears on it.
"""

from __future__ import annotations

import json
import socket
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.conftest import Served, open_tab, serve
from tests.e2e.pages.conftest import Api
from tests.e2e.pages.test_pages_browser import version_of, wait_version


@pytest.fixture(scope="module")
def busy_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`heronlog serve` with one worker that may hold one event stream at a time."""
    folder = tmp_path_factory.mktemp("spectating")
    env = {
        "HERONLOG_DATA": str(folder / "data"),
        "REDIS_URL": "",
        "HERONLOG_STORE": "",
        "HERONLOG_WORKERS": "1",
        "HERONLOG_STREAM_MAX_OPEN": "1",
    }
    yield from serve(folder, env)


def hold_the_one_stream(served: Served, game_id: str) -> socket.socket:
    """Another tab's stream, open and waiting for news: the process's only one (once a page of an earlier test,
    closed, has given it back)."""
    deadline = time.monotonic() + 30
    while True:
        tab, received = open_tab(served, f"/api/games/{game_id}/stream?timeout=300")
        if b"retry:" in received:
            return tab
        tab.close()
        assert time.monotonic() < deadline, "the one stream was never given back"
        time.sleep(0.5)


def test_a_spectator_refused_a_stream_follows_by_asking_and_sees_the_next_move(
    page: Any, busy_site: Served, problems: list[str]
) -> None:
    api = Api(busy_site.url)
    created = api.call("POST", "/api/games", {"players": ["Aiko", "Ben"], "mode": "seeded", "seed": 5})
    game_id, token = created["game"]["game_id"], created["owner_token"]
    other_tab = hold_the_one_stream(busy_site, game_id)
    try:
        page.goto(f"{busy_site.url}/games/{game_id}")  # no token: a spectator
        page.wait_for_function("() => document.getElementById('live').dataset.state === 'polling'")
        assert "asking every few seconds" in page.locator("#live").inner_text()
        version = version_of(page)
        legal = api.call("GET", f"/api/games/{game_id}/legal-moves")
        api.call("POST", f"/api/games/{game_id}/moves", legal["moves"][0], token, legal["version"])
        wait_version(page, version + 1)  # within a Retry-After (5 s) and a changes request
    finally:
        other_tab.close()
    # the stream refused is logged by the browser as a failed load: that, and nothing else, is expected
    problems[:] = [problem for problem in problems if "503" not in problem]
    with urllib.request.urlopen(f"{busy_site.url}/api/games/{game_id}", timeout=10) as answer:
        assert json.loads(answer.read())["version"] == version + 1


def test_the_held_stream_given_back_the_page_follows_live_again(
    page: Any, busy_site: Served, problems: list[str]
) -> None:
    api = Api(busy_site.url)
    created = api.call("POST", "/api/games", {"players": ["Aiko", "Ben"], "mode": "seeded", "seed": 6})
    game_id = created["game"]["game_id"]
    other_tab = hold_the_one_stream(busy_site, game_id)
    page.goto(f"{busy_site.url}/games/{game_id}")
    page.wait_for_function("() => document.getElementById('live').dataset.state === 'polling'")
    other_tab.close()
    page.wait_for_function("() => document.getElementById('live').dataset.state === 'live'", timeout=30_000)
    problems[:] = [problem for problem in problems if "503" not in problem]
