"""The replay page's corrections as a table uses them, in a real headless Chromium against a real
`heronlog serve`: a misfit answered with the first suggestion in one tap; answers kept across a stale write (the
game read again and the same answers checked on it); the dice form of a roll starting from the dice recorded.

Screenshots go to HERONLOG_TEST_OUTPUT/pages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api, no_horizontal_scroll
from tests.e2e.pages.test_corrections_browser import recorded_scenario
from tests.e2e.pages.test_pages_browser import PHONE, wait_shown, wait_version

pytestmark = pytest.mark.browser


def open_misfit(page: Any, site: Served, game_id: str, token: str) -> Any:
    """The scenario's move 10 corrected to steward room 1 on the replay page: move 14's question is shown."""
    page.goto(f"{site.url}/games/{game_id}/replay?version=11#token={token}")
    wait_shown(page, 11)
    page.get_by_role("button", name="Correct this move…").click()
    page.locator("#correct-moves button.move", has_text=re.compile("steward room 1", re.IGNORECASE)).click()
    page.locator("#correct-misfit").wait_for()
    return page.locator("#correct-suggestions button.primary")


def test_a_misfit_is_answered_with_the_first_suggestion_in_one_tap(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    game_id, token, version = recorded_scenario(api)
    first = open_misfit(page, site, game_id, token)
    assert first.inner_text().startswith("Yes: ") and "keeps" in first.inner_text()
    assert "Ben places the black 1 on the Well" in first.inner_text()
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)
    page.locator("#correct-area").screenshot(path=str(shots / "replay-correct-suggestion-phone.png"))
    page.set_viewport_size({"width": 1366, "height": 900})
    first.click()
    report = page.locator("#correct-report")
    report.wait_for()
    assert "55 of the 56 later moves kept, 1 corrected." in report.inner_text()
    page.screenshot(path=str(shots / "replay-correct-suggestion-confirm.png"), full_page=True)
    page.get_by_role("button", name="Apply correction").click()
    wait_version(page, version + 2)
    assert api.call("GET", f"/api/games/{game_id}")["status"] == "finished"


def test_the_answers_given_are_kept_across_a_stale_write(
    page: Any, site: Served, api: Api, problems: list[str]
) -> None:
    game_id, token, version = recorded_scenario(api)
    open_misfit(page, site, game_id, token).click()
    page.locator("#correct-report").wait_for()
    # meanwhile another device takes back the last move and plays it again: the game moved on, its line did not
    undone = api.call("POST", f"/api/games/{game_id}/undo", {}, token, version)
    api.call("POST", f"/api/games/{game_id}/redo", {}, token, undone["game"]["version"])
    page.get_by_role("button", name="Apply correction").click()
    error = page.locator("#correct-error")
    error.wait_for()
    page.wait_for_function(
        "() => document.getElementById('correct-error').textContent.includes('checked again')"
    )
    report = page.locator("#correct-report")
    page.wait_for_function(
        "() => document.getElementById('correct-report-body').textContent.includes('later moves kept')"
        " && document.getElementById('correct-panel').getAttribute('aria-busy') === 'false'"
    )
    # not back at the first step: the same answer, checked again on the game as it is now
    assert "55 of the 56 later moves kept, 1 corrected." in report.inner_text()
    # the browser logs the API's refusal (412) as a failed resource: expected here
    assert problems and all("412" in problem for problem in problems)
    problems.clear()
    assert page.locator("#correct-misfit").is_hidden()
    assert api.call("GET", f"/api/games/{game_id}")["version"] == version + 2  # nothing written yet
    page.get_by_role("button", name="Apply correction").click()
    wait_version(page, version + 4)
    assert api.call("GET", f"/api/games/{game_id}")["status"] == "finished"


def test_the_dice_form_of_a_roll_starts_from_the_dice_recorded(page: Any, site: Served, api: Api) -> None:
    created = api.call("POST", "/api/games", {"players": ["Aiko", "Ben"], "mode": "table"})
    game_id, token = created["game"]["game_id"], created["owner_token"]
    legal = api.play_first_moves(game_id, token, lambda listing: listing["prompt"]["kind"] == "roll")
    roll = next(move for move in legal["moves"] if len(set(move["dice"])) > 1)
    api.call("POST", f"/api/games/{game_id}/moves", roll, token, legal["version"])
    api.play_moves(game_id, token, 3)
    version = legal["version"] + 1
    page.goto(f"{site.url}/games/{game_id}/replay?version={version}#token={token}")
    wait_shown(page, version)
    page.get_by_role("button", name="Correct this move…").click()
    dice = page.locator("#correct-moves .chance-form input.die-input")
    dice.first.wait_for()
    assert [dice.nth(i).input_value() for i in range(dice.count())] == [str(value) for value in roll["dice"]]
    # one die read wrong: only that one is typed again
    last = dice.nth(dice.count() - 1)
    last.fill("6" if roll["dice"][-1] != 6 else "5")
    page.locator("#correct-moves .chance-form button[type=submit]").click()
    page.locator("#correct-report").wait_for()
    assert "becomes" in page.locator("#correct-report").inner_text()


def test_a_misfit_that_still_does_not_fit_after_its_answer_is_counted_once(
    page: Any, site: Served, api: Api
) -> None:
    """Move 14 happened too, after a conversion, and still does not fit; the rest is dropped: the summary counts
    56 later moves, move 14 once (it is both the answered misfit and the first move dropped)."""
    game_id, token, _ = recorded_scenario(api)
    open_misfit(page, site, game_id, token)
    page.locator("#correct-keep").check()
    page.locator("#correct-misfit-moves details.conversions summary").click()
    page.locator("#correct-misfit-moves button.move-convert").first.click()
    page.wait_for_function(
        "() => document.getElementById('correct-misfit-title').textContent === 'Move 14 still does not fit'"
    )
    assert "3 of the 56 later moves are kept" in page.locator("#correct-progress").inner_text()
    page.get_by_role("button", name="Drop the rest from here").click()
    words = page.locator("#correct-report").inner_text()
    assert "3 of the 56 later moves kept, 1 corrected, 53 no longer fit." in words
