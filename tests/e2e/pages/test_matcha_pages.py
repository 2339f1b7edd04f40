"""The Matcha expansion in the pages, in a real headless Chromium against a real `heronlog serve`: a Matcha game
created on the new-game form, its expansion board drawn (the green bridge, the Tea Room and Himeji with their
curtains, the Tea Garden, each clan board's whisks, geishas and green row), moves played by clicking (a die to
the Tea Room, then the Geisha action), a table-mode Matcha prompt (a ceremony token face) as a form, and
annotations pointing at the expansion's parts of the board (offered in the replay page's form and outlined).

Screenshots go to HERONLOG_TEST_OUTPUT/pages (wide and 390-pixel phone viewports).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import (
    Api,
    create_on_the_form,
    fill_new_game,
    no_horizontal_scroll,
    save_annotation,
)
from tests.e2e.pages.test_pages_browser import PHONE, click_a_move, version_of, wait_shown, wait_version

pytestmark = pytest.mark.browser


def click(page: Any, button: Any) -> None:
    before = version_of(page)
    button.click()
    wait_version(page, before + 1)


def test_a_matcha_game_is_created_drawn_and_played_by_clicking(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    fill_new_game(page, site, ["Aiko", "Ben", "Chie"], 12, matcha=True)
    create_on_the_form(page)
    page.click("#record-link")
    page.wait_for_selector("#moves button.move:not([disabled])")
    game_id = page.url.rstrip("/").split("/")[-1].split("#")[0]
    game = api.call("GET", f"/api/games/{game_id}")
    assert game["expansions"] == ["matcha"]

    # The expansion board is drawn: the green bridge, the Tea Room, Himeji and its decks, the Tea Garden.
    board = page.locator("#board svg.board-main")
    drawn = board.locator("[data-part]").evaluate_all("nodes => nodes.map((n) => n.dataset.part)")
    assert {
        "bridge:green:left",
        "bridge:green:right",
        "tea_room:tea_room_left",
        "himeji:himeji_upper",
        "himeji:deck:ikebana",
        "himeji:deck:calligraphy",
        "tea_garden:viewing_platform",
        "tea_garden:entrance",
        "tea_house:tea_house_upper",
    } <= set(drawn)
    drawn_words = board.text_content() or ""
    assert "Green bridge" in drawn_words and "Viewing Platform" in drawn_words
    # each clan's Personal Domain: its green row of geishas, and its whisks counted
    domains = page.locator("#board .domains svg")
    assert domains.count() == 3
    first = page.locator(
        "#board .domains svg:has([data-part='domain:0'])"
    )  # the player to play's comes first
    assert first.locator("[data-part='domain:0:row:geishas'] use[href='#i-geisha']").count() >= 1
    assert first.locator("title", has_text="0 whisk").count() == 1
    words = page.locator("#board-text .board-words").text_content() or ""
    assert "Matcha: the Tea Garden" in words and "Ikebana deck" in words
    # the Viewing Platform's ceremony token, said in words (what it does) where it lies
    matcha = game["state"]["board"]["matcha"]
    catalog_words = api.call("GET", f"/api/games/{game_id}/catalog")["words"]
    platform = board.locator("[data-part='tea_garden:viewing_platform']")
    assert catalog_words["cards"][matcha["platform_token"]] in (platform.text_content() or "")
    page.screenshot(path=str(shots / "matcha-record-wide.png"), full_page=True)

    # Play by clicking until a die can go to the Tea Room, put it there, then the Geisha action.
    for _ in range(40):
        tea_room = page.locator("#moves button.move-place_die:not([disabled])", has_text="Tea Room")
        if tea_room.count():
            break
        click_a_move(page)
    else:
        raise AssertionError("no Tea Room placement offered")
    assert "tea room and himeji" in page.locator("#moves").inner_text().lower()
    click(page, tea_room.first)
    for _ in range(10):  # the Lantern Reward may come first (a die from the left end)
        title = page.locator("#prompt-title").inner_text()
        if "Geisha action" in title or "take a die" in title:
            break
        click_a_move(page)
    send = page.locator("#moves button.move-send_geisha:not([disabled])")
    if send.count():
        click(page, send.first)
        page.wait_for_selector("#board [data-part='tea_garden:entrance'] use.member[href='#i-geisha']")
        state = api.call("GET", f"/api/games/{game_id}")["state"]
        assert state["board"]["matcha"]["entrance"]
    timeline = api.call("GET", f"/api/games/{game_id}/timeline")["entries"]
    assert any("Tea Room" in entry["description"] for entry in timeline)
    page.screenshot(path=str(shots / "matcha-geisha-wide.png"), full_page=True)

    page.set_viewport_size(PHONE)
    page.reload()
    page.wait_for_selector("#board .domains svg")
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(shots / "matcha-record-phone.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})


def test_a_table_mode_matcha_game_asks_for_the_ceremony_tokens(page: Any, site: Served, api: Api) -> None:
    created = api.call(
        "POST", "/api/games", {"players": ["Ann", "Bo"], "mode": "table", "expansions": ["matcha"]}
    )
    game_id, token = created["game"]["game_id"], created["owner_token"]
    api.play_first_moves(game_id, token, lambda answer: answer["prompt"]["context"].get("pool") == "ceremony")
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    picker = page.locator("#prompt-bar .reveal-picker")
    picker.wait_for()
    # the question names the ceremony tokens, and the picker shows them, each named by what it does
    assert "which ceremony token was revealed" in page.locator("#prompt-title").inner_text()
    options = picker.locator(".pick-card").evaluate_all(
        "(list) => list.map((b) => b.getAttribute('aria-label'))"
    )
    assert options and all(text.startswith("CT") for text in options)
    assert picker.locator(".pick-card svg.card-picture").count() == len(options)
    version = version_of(page)
    picker.locator(".pick-card").nth(1).click()
    wait_version(page, version + 1)


def test_an_annotation_points_at_a_part_of_the_matcha_board_and_outlines_it(
    page: Any, site: Served, api: Api
) -> None:
    game_id, token = api.seeded_game(["Aiko", "Ben"], 5, 4, expansions=["matcha"])
    version = api.call("GET", f"/api/games/{game_id}")["version"]
    page.goto(f"{site.url}/games/{game_id}/replay?version={version}#token={token}")
    wait_shown(page, version)

    # The form offers parts the board draws (so each can be outlined), Matcha's included.
    part = page.get_by_label("Points at")
    offered = part.locator("option").evaluate_all("nodes => nodes.map((n) => n.value).filter(Boolean)")
    drawn = page.locator("#board [data-part]").evaluate_all("nodes => nodes.map((n) => n.dataset.part)")
    assert offered and set(offered) <= set(drawn), set(offered) - set(drawn)
    kinds = ("tea_room", "himeji", "tea_garden", "tea_house")
    assert {key for key in offered if key.split(":")[0] in kinds} == {
        "tea_room:tea_room_left",
        "tea_room:tea_room_right",
        "himeji:himeji_upper",
        "himeji:himeji_lower",
        "tea_garden:entrance",
        "tea_garden:viewing_platform",
        "tea_garden:path_1",
        "tea_garden:path_2",
        "tea_house:tea_house_upper",
        "tea_house:tea_house_middle",
        "tea_house:tea_house_lower",
    }
    assert "bridge:green" in offered
    words = {"The left Tea Room space", "The upper Himeji space", "The Tea Garden entrance", "Path space 1"}
    assert words <= set(part.locator("option").all_inner_texts())

    # Saved pointing at the Viewing Platform, the annotation outlines exactly that part of the Tea Garden.
    note, stored = save_annotation(
        page, api, game_id, "one more CP for each clan up here", "The Viewing Platform"
    )
    assert [n["target"] for n in stored] == [{"kind": "tea_garden", "id": "viewing_platform"}]
    assert note.locator(".note-target").inner_text().strip() == "→ the Viewing Platform"
    note.get_by_role("button", name="Show the Viewing Platform on the board").focus()
    shown = page.locator("#board .target-shown")
    assert shown.count() == 1
    assert shown.get_attribute("data-part") == "tea_garden:viewing_platform"
    assert "tea-place" in (shown.locator("rect").first.get_attribute("class") or "")

    # Pointed at a Tea House room instead, it outlines that room.
    page.locator("#note-text").focus()
    note.get_by_role("button", name="Edit").click()
    part.select_option(label="The middle Tea House room")
    page.click("#note-save")
    page.wait_for_function(
        "() => document.querySelector('.note-target')?.textContent.includes('middle Tea House room')"
    )
    note.hover()
    assert page.locator("#board .target-shown").get_attribute("data-part") == "tea_house:tea_house_middle"
    assert page.locator("#board .target-shown").count() == 1


def test_the_score_sheet_page_scores_mas_geisha_example(page: Any, site: Served, shots: Path) -> None:
    """MA's 24 points: a geisha on the Viewing Platform (2), one on path space 1 (2), two in the upper room with 3
    gardeners placed (12), one in the lower room with 3 courtiers in the castle and 1 at the Gate (8)."""
    page.goto(site.url + "/score-sheet")
    tallies = {
        "name": "Aiko",
        "gate": "1",
        "steward": "2",
        "daimyo": "1",
        "gardener_points": "9",
        "gardeners_placed": "3",
        "whisks": "7",
        "viewing_platform": "1",
        "path_1": "1",
        "tea_house_upper": "2",
        "tea_house_lower": "1",
    }
    page.check("#matcha")  # the Matcha rows show once it is ticked
    for key, value in tallies.items():
        page.fill(f"#p0-{key}", value)
    page.click("#score-form button[type=submit]")
    table = page.locator("#score-table table")
    table.wait_for()
    assert "24" in table.locator("tr", has_text="geishas").inner_text()
    assert "2" in table.locator("tr", has_text="resources").inner_text()  # 7 whisks (R-F03)
    assert table.locator("tr.total td").all_inner_texts() == [str(1 + 6 + 10 + 9 + 2 + 24)]
    page.screenshot(path=str(shots / "matcha-score-sheet.png"), full_page=True)
