"""Browser fixtures: one real `heronlog serve` (SQLite in a temporary folder) per module, and Debian's Chromium
driven by Playwright for Python (never a downloaded browser), with a fresh profile."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import required_env
from tests.e2e.conftest import Served, serve

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`heronlog serve` on the embedded SQLite store, its data folder in a temporary directory."""
    folder = tmp_path_factory.mktemp("pages")
    env = {"HERONLOG_DATA": str(folder / "data"), "REDIS_URL": "", "HERONLOG_STORE": ""}
    yield from serve(folder, env)


@pytest.fixture(scope="module")
def browser_context(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Chromium with a fresh user-data folder, driven by Playwright (sync API)."""
    from playwright.sync_api import sync_playwright

    executable = required_env("HERONLOG_TEST_CHROMIUM")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(profile),
            executable_path=executable,
            args=CHROMIUM_ARGS,
            headless=True,
            viewport={"width": 1280, "height": 900},
        )
        context.set_default_timeout(15_000)
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def problems() -> list[str]:
    """JavaScript errors and console errors of the test's tab (a test may remove the ones it expects)."""
    return []


@pytest.fixture
def page(browser_context: Any, problems: list[str]) -> Iterator[Any]:
    """A new tab; the test fails if the page raised a JavaScript error or logged one."""
    tab = browser_context.new_page()
    tab.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    tab.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    yield tab
    tab.close()
    assert problems == []


@pytest.fixture(scope="session")
def shots(test_output: str) -> Path:
    """Where the browser tests write their screenshots."""
    folder = Path(test_output) / "pages"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Api:
    """A few direct calls to the JSON API, to set up what a test does not click through."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url

    def call(
        self, method: str, path: str, body: Any = None, token: str | None = None, version: int | None = None
    ) -> Any:
        request = urllib.request.Request(
            self.base_url + path,
            data=None if body is None else json.dumps(body).encode(),
            method=method,
            headers={"Content-Type": "application/json"},
        )
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        if version is not None:
            request.add_header("If-Match", f'"{version}"')
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.loads(response.read())

    def play_first_moves(self, game_id: str, token: str, until: Any) -> dict[str, Any]:
        """Post the first legal move until `until(legal)` holds; returns that legal-moves answer."""
        for _ in range(500):
            legal = self.call("GET", f"/api/games/{game_id}/legal-moves")
            if until(legal) or not legal["moves"]:
                return dict(legal)
            self.call("POST", f"/api/games/{game_id}/moves", legal["moves"][0], token, legal["version"])
        raise AssertionError("the condition never held")

    def seeded_game(self, players: list[str], seed: int, moves: int, **setup: Any) -> tuple[str, str]:
        """A new seeded game (`setup`: more of its settings, e.g. `expansions`) with its first `moves` legal moves
        played: (game id, owner token)."""
        body = {"players": players, "mode": "seeded", "seed": seed, **setup}
        created = self.call("POST", "/api/games", body)
        game_id, token = created["game"]["game_id"], created["owner_token"]
        self.play_moves(game_id, token, moves)
        return game_id, token

    def correctable_move(self, game_id: str) -> dict[str, Any]:
        """The timeline entry of an early move (the third or later) that had another legal move beside it: one
        a correction can change."""
        entries = self.call("GET", f"/api/games/{game_id}/timeline")["entries"]
        return dict(
            next(
                entry
                for entry in entries[2:]
                if len(
                    self.call("GET", f"/api/games/{game_id}/legal-moves?before={entry['version']}")["moves"]
                )
                > 1
            )
        )

    def play_moves(self, game_id: str, token: str, count: int) -> None:
        """Post the first legal move `count` times."""
        for _ in range(count):
            legal = self.call("GET", f"/api/games/{game_id}/legal-moves")
            self.call("POST", f"/api/games/{game_id}/moves", legal["moves"][0], token, legal["version"])


@pytest.fixture(scope="module")
def api(site: Served) -> Api:
    return Api(site.url)


def no_horizontal_scroll(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1"))


def save_annotation(
    page: Any, api: Api, game_id: str, text: str, part: str
) -> tuple[Any, list[dict[str, Any]]]:
    """On an open replay page: write ``text``, point it at the board part labelled ``part`` and save it; the
    note as the move list shows it, and the game's annotations as the API then answers them."""
    page.fill("#note-text", text)
    page.get_by_label("Points at").select_option(label=part)
    page.click("#note-save")
    note = page.locator("#move-list li.current .note")
    note.wait_for()
    return note, list(api.call("GET", f"/api/games/{game_id}/annotations")["annotations"])


def refuse_a_score_sheet_tally(page: Any) -> None:
    """On an open score sheet: name two players with an empty column between them, give the second (Ben) more
    seals than the game has, submit, and wait for the refusal to be said."""
    page.fill("#p0-name", "Aiko")
    page.fill("#p2-name", "Ben")  # the second column is left empty: Ben is the second player sent
    page.fill("#p2-seals", "9")
    page.click("#score-form button[type=submit]")
    page.wait_for_function("() => document.getElementById('score-error').textContent")


def fill_new_game(
    page: Any, site: Served, names: list[str], seed: int | str, *, solo: str = "", matcha: bool = False
) -> None:
    """Open the new-game form and fill it in as a person does: the seats' names, seeded mode with ``seed``, a
    solo game's rival and the Matcha expansion when asked. Not sent: the caller submits it (or checks it first)."""
    page.goto(site.url + "/games/new")
    for seat, name in enumerate(names):
        page.fill(f"#seat-{seat}-name", name)
    if solo:
        page.select_option("#solo", solo)
    if matcha:
        page.check("#expansion-matcha")
    page.check("#mode-seeded")
    page.fill("#seed", str(seed))


def create_on_the_form(page: Any) -> None:
    """Send the new-game form and wait for the game it made (its owner token and links shown)."""
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#created:not([hidden])")
