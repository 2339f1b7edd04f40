"""A link never wipes the token a browser holds.

Opening ``/games/G#token=X`` replaced the stored token whatever X was: a seat's link, or garbage, silently
wiped the owner's token, which is shown only once. Now the page asks the server whose X is first: a token the
server refuses is not kept (and the page says so), and a valid one other than the token in use is kept beside
it and offered, the owner's staying in use until the person picks the link's; the access line then switches
between the two. In Debian's Chromium, against a real server.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api


def refused_lookups_only(problems: list[str]) -> None:
    """The browser logs each refused token lookup (401) as a failed load: those, and nothing else, are expected."""
    problems[:] = [problem for problem in problems if "401" not in problem]


def wait_access(page: Any, words: str) -> None:
    page.wait_for_function(
        "words => document.getElementById('access').textContent.includes(words)", arg=words, timeout=15_000
    )


def stored(page: Any, game_id: str) -> tuple[str | None, list[dict[str, Any]]]:
    """The token in use for the game, and every token kept for it, as localStorage holds them."""
    return (
        page.evaluate("id => localStorage.getItem('heronlog:token:' + id)", game_id),
        page.evaluate("id => JSON.parse(localStorage.getItem('heronlog:tokens:' + id) || '[]')", game_id),
    )


def open_link(page: Any, site: Served, game_id: str, token: str) -> None:
    """Open a shared link as a new visit (a link tapped in a chat app opens a fresh page: a page already at that
    address would only see its fragment change)."""
    page.goto("about:blank")
    page.goto(f"{site.url}/games/{game_id}#token={token}")


def new_game(api: Api) -> tuple[str, str]:
    created = api.call("POST", "/api/games", {"players": ["Aiko", "Ben"], "mode": "seeded", "seed": 29})
    return created["game"]["game_id"], created["owner_token"]


def test_a_link_with_garbage_or_another_game_s_token_keeps_the_owner_token(
    page: Any, site: Served, api: Api, problems: list[str]
) -> None:
    game_id, owner = new_game(api)
    _, elsewhere = new_game(api)
    open_link(page, site, game_id, owner)
    wait_access(page, "records as the owner")
    for link in ("garbage-from-a-mangled-link", elsewhere):
        open_link(page, site, game_id, link)
        page.wait_for_selector("#token-offer")
        assert "not valid for this game" in page.locator("#token-offer").inner_text()
        wait_access(page, "records as the owner")
        assert stored(page, game_id)[0] == owner
        assert link not in str(stored(page, game_id)[1])
        assert "token=" not in page.url, "the link's token leaves the address bar"
    refused_lookups_only(problems)


def test_a_seat_link_asks_before_the_owner_token_is_set_aside_and_keeps_both(
    page: Any, site: Served, api: Api, problems: list[str], shots: Path
) -> None:
    game_id, owner = new_game(api)
    seat = api.call("POST", f"/api/games/{game_id}/seats/1/token", {}, owner)["token"]
    open_link(page, site, game_id, owner)  # nothing held yet: the link's token is used at once
    wait_access(page, "records as the owner")
    assert page.locator("#token-offer").count() == 0

    open_link(page, site, game_id, seat)
    page.wait_for_selector("#use-link-token")
    offer = page.locator("#token-offer").inner_text()
    assert "token of seat 2" in offer and "keeps that token" in offer
    page.locator(".game-head").screenshot(path=str(shots / "link-token-offer.png"))
    wait_access(page, "records as the owner")  # nothing changed before the person answers
    in_use, kept = stored(page, game_id)
    assert in_use == owner
    assert {entry["token"]: entry["you"] for entry in kept} == {owner: "owner", seat: "seat:1"}

    page.click("#use-link-token")
    wait_access(page, "records as Ben (seat 2)")
    assert stored(page, game_id)[0] == seat
    page.get_by_role("button", name="Record as the owner (any seat, and chance)").click()
    wait_access(page, "records as the owner")
    assert stored(page, game_id)[0] == owner
    assert len(stored(page, game_id)[1]) == 2, "both tokens stay in this browser"

    # the same seat link again, answered "keep": the owner's token stays in use, and nothing is added
    open_link(page, site, game_id, seat)
    page.wait_for_selector("#keep-my-token")
    page.click("#keep-my-token")
    assert page.locator("#token-offer").count() == 0
    wait_access(page, "records as the owner")
    assert stored(page, game_id)[0] == owner and len(stored(page, game_id)[1]) == 2
