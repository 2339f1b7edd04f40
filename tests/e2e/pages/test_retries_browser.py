"""A write whose answer never came is sent again with the same Idempotency-Key, and recorded once.

At the table a phone's connection drops: a move's request may fail before it reaches the server, or reach it
and lose its answer on the way back. The pages send such a write again (api.js, callRetried), with the same key
and the same If-Match, and say so; the server answers a retry of a write it already made with that write's
answer. The browser's own requests are cut here with Playwright's routing, in front of a real server.
"""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api, create_on_the_form, fill_new_game
from tests.e2e.pages.test_pages_browser import version_of, wait_shown, wait_version


class Cut:
    """Routes a path's POSTs: the first ``times`` are cut, before the server (``lose="request"``) or after it
    answered (``lose="answer"``); every request's Idempotency-Key is kept."""

    def __init__(self, lose: str, times: int = 1) -> None:
        self.lose, self.times = lose, times
        self.keys: list[str | None] = []

    def __call__(self, route: Any) -> None:
        request = route.request
        if request.method != "POST":
            route.continue_()
            return
        self.keys.append(request.headers.get("idempotency-key"))
        if len(self.keys) > self.times:
            route.continue_()
            return
        if self.lose == "answer":
            route.fetch()  # the server makes the write; its answer never reaches the page
        route.abort("connectionreset")


def cut_requests_only(problems: list[str]) -> None:
    """The browser logs each cut request as a failed load: those, and nothing else, are expected."""
    problems[:] = [problem for problem in problems if "ERR_CONNECTION_RESET" not in problem]


def moves_recorded(api: Api, game_id: str) -> int:
    return len(api.call("GET", f"/api/games/{game_id}/timeline?include_undone=1")["entries"])


def open_recording(page: Any, site: Served, api: Api) -> tuple[str, int]:
    created = api.call("POST", "/api/games", {"players": ["Aiko", "Ben"], "mode": "seeded", "seed": 11})
    game_id, token = created["game"]["game_id"], created["owner_token"]
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    page.wait_for_selector("#moves button.move:not([disabled])")
    return game_id, version_of(page)


def test_a_move_whose_answer_was_lost_is_sent_again_and_recorded_once(
    page: Any, site: Served, api: Api, problems: list[str]
) -> None:
    game_id, version = open_recording(page, site, api)
    before = moves_recorded(api, game_id)
    cut = Cut(lose="answer")
    page.route("**/api/games/*/moves", cut)
    page.locator("#moves button.move:not([disabled])").first.click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.said')].some((box) => box.textContent.includes('again (1 of 3)'))"
    )
    wait_version(page, version + 1)
    assert len(cut.keys) == 2 and cut.keys[0] and cut.keys[0] == cut.keys[1]
    assert moves_recorded(api, game_id) == before + 1
    assert "sending it again" not in " ".join(page.locator(".said").all_inner_texts())
    cut_requests_only(problems)


def test_a_move_whose_request_was_lost_is_sent_again_and_recorded(
    page: Any, site: Served, api: Api, problems: list[str]
) -> None:
    game_id, version = open_recording(page, site, api)
    before = moves_recorded(api, game_id)
    cut = Cut(lose="request", times=2)
    page.route("**/api/games/*/moves", cut)
    page.locator("#moves button.move:not([disabled])").first.click()
    wait_version(page, version + 1)
    assert len(cut.keys) == 3 and len(set(cut.keys)) == 1
    assert moves_recorded(api, game_id) == before + 1
    cut_requests_only(problems)


def test_when_every_try_is_lost_the_page_says_so_and_nothing_is_recorded(
    page: Any, site: Served, api: Api, problems: list[str]
) -> None:
    game_id, version = open_recording(page, site, api)
    before = moves_recorded(api, game_id)
    cut = Cut(lose="request", times=99)
    page.route("**/api/games/*/moves", cut)
    page.locator("#moves button.move:not([disabled])").first.click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('.said')].some((box) => box.textContent.includes('cannot be reached'))",
        timeout=20_000,
    )
    assert len(cut.keys) == 4  # the first try and three more
    assert moves_recorded(api, game_id) == before and version_of(page) == version
    cut_requests_only(problems)


def test_a_new_game_whose_answer_was_lost_is_made_once(
    page: Any, site: Served, api: Api, problems: list[str]
) -> None:
    title = "Retried creation"
    cut = Cut(lose="answer")
    page.route("**/api/games", cut)
    fill_new_game(page, site, ["Aiko", "Ben"], 23)
    page.fill("#title", title)
    create_on_the_form(page)
    assert len(cut.keys) == 2 and cut.keys[0] and cut.keys[0] == cut.keys[1]
    found = api.call("GET", f"/api/games?search={title.replace(' ', '+')}")
    assert found["total"] == 1
    cut_requests_only(problems)


def test_a_correction_whose_answer_was_lost_is_applied_once(
    page: Any, site: Served, api: Api, problems: list[str]
) -> None:
    game_id, token = api.seeded_game(["Aiko", "Ben"], 11, 6)
    entries = api.call("GET", f"/api/games/{game_id}/timeline")["entries"]
    target = next(
        entry
        for entry in entries[2:]
        if len(api.call("GET", f"/api/games/{game_id}/legal-moves?before={entry['version']}")["moves"]) > 1
    )
    page.goto(f"{site.url}/games/{game_id}/replay?version={target['version']}#token={token}")
    wait_shown(page, target["version"])
    page.get_by_role("button", name="Correct this move…").click()
    page.locator("#correct-moves button.move:not(:has(.tag))").first.click()
    page.locator("#correct-report").wait_for()
    cut = Cut(lose="answer")
    page.route("**/api/games/*/amend", cut)
    page.get_by_role("button", name="Apply correction").click()
    page.wait_for_selector("#correct-panel", state="hidden")
    assert len(cut.keys) == 2 and cut.keys[0] and cut.keys[0] == cut.keys[1]
    events = api.call("GET", f"/api/games/{game_id}/changes?since=1")["events"]
    assert [event["type"] for event in events].count("MoveAmended") == 1
    cut_requests_only(problems)
