"""The board stays where the table looks (docs/pages/recording.md), in a real Chromium: a whole round recorded on
the board, on a 1366 x 768 laptop and on a 390 x 844 phone, needs no scroll between moves (the page's scroll
position is counted: it never changes); every move is a click on a lit part of the board (or on an answer in the bar
over it, for a question with no place on the board), each one on the screen when it is clicked. On a phone a
4-player game's page is at most 390 px wide and every lit part of the board at least 44 x 44 px.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api, no_horizontal_scroll

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
VERSION = "Number(document.getElementById('board').dataset.version)"

ON_SCREEN = """
() => {
  // the lowest pixel a person sees: above the phone's quick bar, fixed to the bottom
  const bar = document.getElementById('quick-bar');
  const bottom = getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().top : innerHeight;
  const seen = (node) => {
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height || r.top < 0 || r.left < 0 || r.bottom > bottom || r.right > innerWidth) return null;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    return hit && (node === hit || node.contains(hit)) ? {x, y, w: r.width, h: r.height} : null;
  };
  const parts = [...document.querySelectorAll('#board [data-part].target')];
  const answers = [...document.querySelectorAll('#prompt-bar-moves button:not([disabled])')];
  return {
    parts: parts.map((node) => ({part: node.dataset.part, at: seen(node)})),
    answers: answers.map((node) => ({words: node.textContent, at: seen(node)})),
  };
}
"""


def count_scrolls(page: Any) -> None:
    page.evaluate(
        "() => { window.scrolls = 0; let y = scrollY;"
        " addEventListener('scroll', () => { if (scrollY !== y) { window.scrolls += 1; y = scrollY; } }); }"
    )


def settled(page: Any, api: Api, game_id: str) -> dict[str, Any]:
    legal = api.call("GET", f"/api/games/{game_id}/legal-moves")
    page.wait_for_function(
        f"v => !document.querySelector('#app[aria-busy=true]') && {VERSION} === v", arg=legal["version"]
    )
    return dict(legal)


def record_on_the_board(page: Any, api: Api, game_id: str, until: Any) -> list[str]:
    """Each move clicked where a person sees it: the first lit part of the board on the screen, else the first
    answer in the bar over it. Fails if neither is on the screen (the person would have had to scroll)."""
    clicked = []
    for _ in range(300):
        legal = settled(page, api, game_id)
        if until(legal):
            return clicked
        shown = page.evaluate(ON_SCREEN)
        lit = [item for item in shown["parts"] if item["at"]]
        answers = [item for item in shown["answers"] if item["at"]]
        if shown["parts"] and not lit:
            raise AssertionError(f"no lit part on the screen: {legal['prompt']['text']} ({shown['parts']})")
        choice = lit[0] if lit else answers[0] if answers else None
        assert choice, f"nothing to click on the screen: {legal['prompt']['text']} ({shown})"
        page.mouse.click(choice["at"]["x"], choice["at"]["y"])
        clicked.append(choice.get("part") or choice.get("words"))
        page.wait_for_function(f"v => {VERSION} > v", arg=legal["version"])
    raise AssertionError("the round never ended")


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366x768", "390x844"])
def test_a_round_recorded_on_the_board_needs_no_scroll_between_moves(
    page: Any, site: Served, api: Api, viewport: dict[str, int]
) -> None:
    game_id, token = api.seeded_game(["Aiko", "Ben", "Chie"], 3512, 0)
    page.set_viewport_size(viewport)
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    page.wait_for_selector("#board [data-part].target")
    # the person settles the page once, the board at the top of the screen; then records the whole round
    page.evaluate("document.querySelector('.board-area').scrollIntoView({block: 'start'})")
    record_on_the_board(page, api, game_id, lambda legal: legal["prompt"]["kind"] == "take_die")
    count_scrolls(page)
    moves = record_on_the_board(
        page, api, game_id, lambda legal: api.call("GET", f"/api/games/{game_id}")["coordinates"]["round"] > 1
    )
    assert len(moves) > 20, moves  # a whole round: every player's turns, the round's end
    assert page.evaluate("window.scrolls") == 0
    print(f"\n{viewport['width']}x{viewport['height']}: {len(moves)} moves on the board, 0 scrolls")


PLAYERS = [f"Player {seat}" for seat in range(1, 5)]


@pytest.mark.parametrize("expansions", [[], ["matcha"]], ids=["base", "matcha"])
def test_on_a_phone_a_four_player_game_is_390_px_wide_and_every_lit_part_44_px(
    page: Any, site: Served, api: Api, expansions: list[str]
) -> None:
    game_id, token = api.seeded_game(PLAYERS, 3513, 0, expansions=expansions)
    page.set_viewport_size(PHONE)
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    page.wait_for_selector("#board [data-part].target")
    measured = 0
    for _ in range(60):
        legal = settled(page, api, game_id)
        assert no_horizontal_scroll(page), legal["prompt"]["text"]
        sizes = page.evaluate(
            """() => [...document.querySelectorAll('#board [data-part].target')].flatMap((node) => {
                 const r = node.getBoundingClientRect();
                 const svg = node.ownerSVGElement.getBoundingClientRect();
                 const shown = r.right > svg.left && r.left < svg.right && r.bottom > svg.top && r.top < svg.bottom;
                 return shown ? [{part: node.dataset.part, w: r.width, h: r.height}] : [];
               })"""
        )
        small = [size for size in sizes if size["w"] < 44 or size["h"] < 44]
        assert not small, (legal["prompt"]["text"], small)
        measured += len(sizes)
        api.call("POST", f"/api/games/{game_id}/moves", legal["moves"][0], token, legal["version"])
    assert measured > 60


@pytest.mark.parametrize("players", [1, 2, 3], ids=["solo", "2", "3"])
def test_on_a_phone_no_game_is_wider_than_390_px(page: Any, site: Served, api: Api, players: int) -> None:
    setup = {"solo": "easy"} if players == 1 else {}
    game_id, token = api.seeded_game(PLAYERS[:players], 3514, 6, **setup)
    page.set_viewport_size(PHONE)
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    page.wait_for_selector("#board [data-part].target")
    assert no_horizontal_scroll(page)


@pytest.mark.parametrize("width", [1280, 1366, 1600, 1920])
def test_the_four_player_score_table_fits_its_column_on_a_laptop(
    page: Any, site: Served, api: Api, width: int
) -> None:
    game_id, token = api.seeded_game(PLAYERS, 3515, 8, expansions=["matcha"])
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    table = page.locator("#score-now table.sheet")
    table.wait_for()
    fits = table.evaluate(
        "(t) => { const box = t.closest('.controls').getBoundingClientRect(); const r = t.getBoundingClientRect();"
        " return r.left >= box.left && r.right <= box.right + 0.5 && t.scrollWidth <= t.clientWidth + 1; }"
    )
    assert fits, width
    last = page.locator("#score-now thead th").last
    assert last.inner_text() == "Player 4" and last.is_visible()


def test_the_phones_jump_goes_to_the_board_while_the_moves_are_on_the_screen(
    page: Any, site: Served, api: Api
) -> None:
    game_id, token = api.seeded_game(PLAYERS[:3], 3517, 3)
    page.set_viewport_size(PHONE)
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    page.wait_for_selector("#board[data-version]")
    jump = page.locator("#jump .jump-word")
    page.evaluate("() => window.scrollTo(0, 0)")  # the board fills the screen, the moves are under it
    page.wait_for_function("() => document.querySelector('#jump .jump-word').textContent === 'Moves'")
    page.evaluate("() => document.getElementById('prompt-title').scrollIntoView({block: 'center'})")
    page.wait_for_function("() => document.querySelector('#jump .jump-word').textContent === 'Board'")
    assert jump.inner_text() == "Board" and page.locator("#jump .jump-arrow").inner_text().strip() == "↑"
