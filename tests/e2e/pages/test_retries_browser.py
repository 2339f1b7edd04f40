"""A write whose answer never came is sent again with the same Idempotency-Key, and recorded once.

At the table a phone's connection drops: a move's request may fail before it reaches the server, or reach it
and lose its answer on the way back. The pages send such a write again (api.js, callRetried), with the same key
and the same If-Match, and say so; the server answers a retry of a write it already made with that write's
answer. The browser's own requests are cut here with Playwright's routing, in front of a real server.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api, create_on_the_form, fill_new_game
from tests.e2e.pages.test_pages_browser import choose_another_move, version_of, wait_shown, wait_version


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

    def one_key(self, tries: int) -> bool:
        """Whether ``tries`` requests were sent, all with one key."""
        return len(self.keys) == tries and bool(self.keys[0]) and len(set(self.keys)) == 1


def cut_requests_only(problems: list[str]) -> None:
    """The browser logs each cut request as a failed load: those, and nothing else, are expected."""
    problems[:] = [problem for problem in problems if "ERR_CONNECTION_RESET" not in problem]


def wait_said(page: Any, words: str, timeout: float = 10_000) -> None:
    page.wait_for_function(
        "words => [...document.querySelectorAll('.said')].some((box) => box.textContent.includes(words))",
        arg=words,
        timeout=timeout,
    )


def moves_recorded(api: Api, game_id: str) -> int:
    return len(api.call("GET", f"/api/games/{game_id}/timeline?include_undone=1")["entries"])


def click_a_move_through(page: Any, site: Served, api: Api, cut: Cut) -> tuple[str, int, int]:
    """Open a new game's recording screen with its owner token and click a move, its POSTs routed through
    ``cut``: the game's id, its version and how many moves it had before the click."""
    created = api.call("POST", "/api/games", {"players": ["Aiko", "Ben"], "mode": "seeded", "seed": 11})
    game_id, token = created["game"]["game_id"], created["owner_token"]
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    page.wait_for_selector("#moves button.move:not([disabled])")
    version, before = version_of(page), moves_recorded(api, game_id)
    page.route("**/api/games/*/moves", cut)
    page.locator("#moves button.move:not([disabled])").first.click()
    return game_id, version, before


@pytest.mark.parametrize("lost", [("answer", 1), ("request", 2)], ids=["answer lost", "request lost twice"])
def test_a_move_whose_request_or_answer_was_lost_is_sent_again_and_recorded_once(
    page: Any, site: Served, api: Api, problems: list[str], lost: tuple[str, int]
) -> None:
    lose, times = lost
    cut = Cut(lose, times)
    game_id, version, before = click_a_move_through(page, site, api, cut)
    wait_said(page, "sending it again (1 of 3)")
    wait_version(page, version + 1)
    assert cut.one_key(times + 1)
    assert moves_recorded(api, game_id) == before + 1
    assert "sending it again" not in " ".join(page.locator(".said").all_inner_texts())
    cut_requests_only(problems)


def test_when_every_try_is_lost_the_page_says_so_and_nothing_is_recorded(
    page: Any, site: Served, api: Api, problems: list[str]
) -> None:
    cut = Cut(lose="request", times=99)
    game_id, version, before = click_a_move_through(page, site, api, cut)
    wait_said(page, "cannot be reached", timeout=20_000)
    assert cut.one_key(4)  # the first try and three more
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
    assert cut.one_key(2)
    assert api.call("GET", f"/api/games?search={title.replace(' ', '+')}")["total"] == 1
    cut_requests_only(problems)


def test_a_correction_whose_answer_was_lost_is_applied_once(
    page: Any, site: Served, api: Api, problems: list[str]
) -> None:
    game_id, token = api.seeded_game(["Aiko", "Ben"], 11, 6)
    choose_another_move(page, site, game_id, token, api.correctable_move(game_id)["version"])
    page.locator("#correct-report").wait_for()
    cut = Cut(lose="answer")
    page.route("**/api/games/*/amend", cut)
    page.get_by_role("button", name="Apply correction").click()
    page.wait_for_selector("#correct-panel", state="hidden")
    assert cut.one_key(2)
    events = api.call("GET", f"/api/games/{game_id}/changes?since=1")["events"]
    assert [event["type"] for event in events].count("MoveAmended") == 1
    cut_requests_only(problems)


def test_a_comment_and_a_branch_whose_answers_were_lost_are_made_once(
    page: Any, site: Served, api: Api, problems: list[str]
) -> None:
    game_id, token = api.seeded_game(["Aiko", "Ben"], 11, 3, title="Branched once")
    page.goto(f"{site.url}/games/{game_id}/replay?version=3#token={token}")
    wait_shown(page, 3)
    comments = Cut(lose="answer")
    page.route("**/api/games/*/annotations", comments)
    page.fill("#note-text", "a retried comment")
    page.click("#note-save")
    page.locator("#move-list li.current .note").wait_for()
    assert comments.one_key(2)
    notes = api.call("GET", f"/api/games/{game_id}/annotations")["annotations"]
    assert [note["text"] for note in notes] == ["a retried comment"]

    branches = Cut(lose="answer")
    page.route("**/api/games/*/forks", branches)
    page.click("#fork")
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    assert branches.one_key(2) and game_id not in page.url
    # the game and one branch ("Branched once — what if (from move 2)")
    assert api.call("GET", "/api/games?search=Branched+once")["total"] == 2
    cut_requests_only(problems)
