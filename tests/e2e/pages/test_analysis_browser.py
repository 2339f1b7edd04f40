"""The computer analysis on the replay page, in Chromium: a finished seeded 4-player game on Redis, analysed by
two `heronlog worker` processes after a click on "Request a computer analysis"; the page then shows the
progress, the chart of expected margins, the marks in the list of moves, the best move on the board, and turns
an analysis into an annotation. On the embedded SQLite store the server runs its own local workers."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Served, serve
from tests.e2e.pages.conftest import Api

pytestmark = [pytest.mark.browser, pytest.mark.redis]


@pytest.fixture(scope="module")
def redis_site(
    tmp_path_factory: pytest.TempPathFactory, redis_url: str
) -> Iterator[tuple[Served, dict[str, str]]]:
    """`heronlog serve` on Redis (a key prefix of its own), analyses of 30 playouts per decision."""
    folder = tmp_path_factory.mktemp("analysis")
    env = {
        "HERONLOG_STORE": "redis",
        "REDIS_URL": redis_url,
        "REDIS_KEY_PREFIX": f"e2e-analysis-{uuid.uuid4().hex[:8]}",
        "HERONLOG_ANALYSIS_PLAYOUTS": "30",
    }
    for served in serve(folder, env):
        yield served, env


@pytest.fixture
def two_workers(redis_site: tuple[Served, dict[str, str]], tmp_path: Path) -> Iterator[None]:
    _, env = redis_site
    started = []
    for number in range(2):
        with (tmp_path / f"worker-{number}.log").open("wb") as out:
            started.append(
                subprocess.Popen(
                    [sys.executable, "-m", "api.server.cli", "worker", "--workers", "1"],
                    env={**os.environ, **env},
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
    yield
    for process in started:
        os.killpg(process.pid, signal.SIGTERM)
    for process in started:
        process.wait(timeout=30)


def finished_game(api: Api, seed: int) -> tuple[str, str]:
    created = api.call("POST", "/api/games", {"players": ["Aiko", "Ben", "Chie", "Dai"], "seed": seed})
    game_id, token = created["game"]["game_id"], created["owner_token"]
    rng = random.Random(seed)
    while True:
        legal = api.call("GET", f"/api/games/{game_id}/legal-moves")
        if legal["over"]:
            return game_id, token
        moves = [move for move in legal["moves"] if move["kind"] != "convert"] or legal["moves"]
        api.call("POST", f"/api/games/{game_id}/moves", rng.choice(moves), token, legal["version"])


def test_a_finished_game_is_analysed_by_two_workers_and_the_page_shows_the_chart_and_the_marks(
    redis_site: tuple[Served, dict[str, str]], two_workers: None, page: Any, shots: Path
) -> None:
    served, _ = redis_site
    api = Api(served.url)
    game_id, token = finished_game(api, seed=23)
    page.goto(f"{served.url}/games/{game_id}/replay#token={token}")
    page.get_by_role("button", name="Request a computer analysis").click()
    page.wait_for_selector("#analysis-progress:not([hidden])")
    page.wait_for_function(
        "() => document.querySelector('#analysis-status').textContent.startsWith('Analysis of moves')",
        timeout=240_000,
    )
    report = api.call("GET", f"/api/games/{game_id}/analysis")
    assert report["status"] == "finished" and report["stale"] is None
    assert all(d["status"] == "evaluated" and d["best"]["margin_se"] >= 0 for d in report["decisions"])
    marked = [d for d in report["decisions"] if d["mark"]]
    assert marked, "uniform random moves cost points: some are marked"
    assert page.locator("#analysis-chart svg .series").count() == 4
    assert page.locator("#analysis-chart .glyph-mark").count() == len(marked)
    assert page.locator("#move-list .analysis-mark").count() == len(marked)
    page.screenshot(path=str(shots / "analysis-replay-wide.png"), full_page=True)

    # a marked move: its verdict, the best move lit on the board before it, and "Annotate this"
    worst = max(marked, key=lambda d: d["played"]["cost"])
    page.goto(f"{served.url}/games/{game_id}/replay?version={worst['version']}#token={token}")
    verdict = page.locator(".analysis-verdict")
    verdict.wait_for()
    assert worst["mark"] in verdict.inner_text() and f"Move {worst['index']}" in verdict.inner_text()
    page.locator("#analysis").screenshot(path=str(shots / "analysis-detail.png"))
    page.get_by_role("button", name="Show the best move on the board").click()
    page.wait_for_function(f"() => document.querySelector('#board').dataset.version !== '{worst['version']}'")
    lit = page.locator("#board .lit")
    if lit.count():
        lit.first.wait_for()
    page.screenshot(path=str(shots / "analysis-best-move.png"))
    page.goto(f"{served.url}/games/{game_id}/replay?version={worst['version']}#token={token}")
    page.get_by_role("button", name="Annotate this").click()
    page.get_by_text("The analysis is now an annotation of this move.").wait_for()
    notes = api.call("GET", f"/api/games/{game_id}/annotations")["annotations"]
    assert [(n["version"], n["glyph"]) for n in notes] == [(worst["version"], worst["mark"])]
    assert notes[0]["text"].startswith("Computer analysis")

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{served.url}/games/{game_id}/replay?version={worst['version']}#token={token}")
    page.locator(".analysis-verdict").wait_for()
    page.locator("#analysis").scroll_into_view_if_needed()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "nothing is wider than a phone"
    controls = page.locator("#analysis button:visible, #analysis summary:visible")
    assert controls.count() >= 3
    for number in range(controls.count()):
        box = controls.nth(number).bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, (controls.nth(number).inner_text(), box)
    page.locator("#analysis").screenshot(path=str(shots / "analysis-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 900})


def test_on_the_embedded_store_the_server_runs_the_analysis_itself(site: Served, page: Any) -> None:
    api = Api(site.url)
    game_id, token = api.seeded_game(["Ann", "Bo"], seed=4, moves=8)
    page.goto(f"{site.url}/games/{game_id}/replay#token={token}")
    page.get_by_role("button", name="Request a computer analysis").click()
    page.wait_for_function(
        "() => document.querySelector('#analysis-status').textContent.startsWith('Analysis of moves')",
        timeout=180_000,
    )
    assert page.locator("#analysis-chart svg .series").count() == 2
