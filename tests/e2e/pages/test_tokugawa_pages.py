"""The Tokugawa clan (the solo rival with Matcha, R-TK01..R-TK07) in the pages, in a real headless Chromium
against a real `heronlog serve`: a Tokugawa game created on the new-game form, the starting choice of 1 card of
each kind as labelled buttons, the rival's panel naming the clan and its geishas, and the choices made for the
rival (R-TK03, R-TK05) shown with their own titles.

Screenshots go to HERONLOG_TEST_OUTPUT/pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api, create_on_the_form, fill_new_game
from tests.e2e.pages.test_pages_browser import click_a_move

pytestmark = pytest.mark.browser

TITLES = {
    "rival_geisha": "advance one of Rival's geishas 1 step",
    "rival_discard": "discard the top card of which deck, for Rival's geisha?",
}


def test_a_tokugawa_game_is_created_chosen_and_played_by_clicking(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    fill_new_game(page, site, ["Aiko"], 7, solo="hard", matcha=True)
    create_on_the_form(page)
    page.click("#record-link")
    page.wait_for_selector("#moves button.move:not([disabled])")
    game_id = page.url.rstrip("/").split("/")[-1].split("#")[0]
    game = api.call("GET", f"/api/games/{game_id}")
    assert game["solo"] == "hard" and game["expansions"] == ["matcha"]

    # R-TK01: the starting choice, one button per combination, each naming its cards and token.
    assert "choose 1 starting resource card, 1 starting action card and 1 ceremony token" in (
        page.locator("#prompt-title").inner_text()
    )
    first = page.locator("#moves button.move-choose_start_cards").first.inner_text()
    assert first.startswith("SR") and " + A" in first and "CT" in first
    # the rival's sheet in the place of a Personal Domain: the Tokugawa clan, its 5 geishas drawn and in words
    sheet = page.locator("#board .domains svg.rival-sheet")
    assert "Tokugawa clan" in (sheet.text_content() or "")
    assert sheet.locator("use[href='#i-geisha']").count() == 1
    words = page.locator("#board-text .board-words").text_content() or ""
    assert "5 geishas" in words
    click_a_move(page)

    # Play until a choice for the rival comes up (seeded, hard: the rival reveals Tokugawa cards soon).
    seen = ""
    for _ in range(120):
        kind = api.call("GET", f"/api/games/{game_id}")["prompt"]["kind"]
        if kind in TITLES:
            seen = kind
            break
        click_a_move(page)
    assert seen, "no choice for the rival's geishas came up"
    assert TITLES[seen] in page.locator("#prompt-title").inner_text()
    # the rival's geishas stand in the Tea Garden: geisha shapes drawn on its places
    assert page.locator("#board [data-part^='tea_garden:'] use.member[href='#i-geisha']").count() >= 1
    page.screenshot(path=str(shots / "tokugawa-record-wide.png"), full_page=True)
    click_a_move(page)
