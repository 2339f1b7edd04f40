"""The replay page's "Correct this move…" walks through the later moves that no longer fit, in a real
headless Chromium against a real `heronlog serve`: the correction scenario, a finished game whose move 10 really
went to steward room 1, resolved from the keyboard at move 14 and written in one confirmation; the game is still
finished, with 55 of its 56 later moves kept.

Screenshots go to HERONLOG_TEST_OUTPUT/pages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api, no_horizontal_scroll
from tests.e2e.pages.test_pages_browser import PHONE, wait_shown, wait_version
from tests.unit.replay.amend_support import (
    MOVE_14_RECORDED,
    MOVE_14_RESOLVED,
    SCENARIO_RULES,
    seeded_scenario_export,
)

pytestmark = pytest.mark.browser


def recorded_scenario(api: Api) -> tuple[str, str, int]:
    """The correction scenario, a finished seeded game recorded under rules 0.2.0, imported through the API: the
    game's id, its owner token and its version."""
    created = api.call("POST", "/api/games/import?new_id=1", seeded_scenario_export())
    assert created["game"]["status"] == "finished" and created["game"]["rules_version"] == SCENARIO_RULES
    return created["game"]["game_id"], created["owner_token"], created["game"]["version"]


def test_a_correction_resolves_the_misfit_it_makes_and_the_finished_game_stays_finished(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    game_id, token, version = recorded_scenario(api)
    page.goto(f"{site.url}/games/{game_id}/replay?version=11#token={token}")
    wait_shown(page, 11)
    page.get_by_role("button", name="Correct this move…").click()
    page.locator("#correct-moves button.move").first.wait_for()

    # Move 10 really went to steward room 1: the dry run finds move 14 no longer fits, and asks about it.
    page.locator("#correct-moves button.move", has_text=re.compile("steward room 1", re.IGNORECASE)).click()
    misfit = page.locator("#correct-misfit")
    misfit.wait_for()
    title = page.locator("#correct-misfit-title")
    assert title.inner_text() == "Move 14 no longer fits"
    assert page.evaluate("document.activeElement.id") == "correct-misfit-title"  # the step has the focus
    about = page.locator("#correct-misfit-about").inner_text()
    assert MOVE_14_RECORDED in about
    assert "steward room 1 is full" in about and "(R-P05)" in about
    assert page.locator("#correct-misfit-question").inner_text() == "What did Ben really do?"
    assert "3 of the 56 later moves are kept" in page.locator("#correct-progress").inner_text()
    assert page.get_by_role("button", name="Move 14 never happened").is_visible()
    assert page.get_by_role("button", name="Drop the rest from here").is_visible()
    assert page.get_by_role("button", name="Apply correction").is_hidden()  # nothing to confirm yet
    # the board shows where move 14 stood, the places the moves legal there lit as buttons named in words
    assert "where move 14 stood" in page.locator("#position-board").inner_text()
    lit = page.eval_on_selector_all(
        "#board [data-part].target",
        "nodes => nodes.map(n => [n.dataset.part, n.getAttribute('role'), n.getAttribute('aria-label')])",
    )
    named = {part: (role, name) for part, role, name in lit}
    assert named["well:"][0] == "button" and named["well:"][1].startswith("The Well"), named
    assert "room:steward_1" not in named
    assert api.call("GET", f"/api/games/{game_id}")["version"] == version  # dry runs wrote nothing
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)
    page.locator("#correct-area").screenshot(path=str(shots / "replay-correct-misfit-phone.png"))
    page.set_viewport_size({"width": 1366, "height": 900})
    page.screenshot(path=str(shots / "replay-correct-misfit-wide.png"), full_page=True)

    # Ben really placed the black 1 on the Well: chosen from the keyboard.
    well = page.locator("#correct-misfit-moves button.move", has_text=re.compile("the Well", re.IGNORECASE))
    assert well.count() == 1
    well.focus()
    page.keyboard.press("Enter")
    report = page.locator("#correct-report")
    report.wait_for()
    words = report.inner_text()
    assert "55 of the 56 later moves kept, 1 corrected." in words
    assert f"Move 14, “{MOVE_14_RECORDED}”, was “{MOVE_14_RESOLVED}”." in words
    assert misfit.is_hidden() and page.locator("#board .target").count() == 0  # the replay's board again
    page.screenshot(path=str(shots / "replay-correct-confirm.png"), full_page=True)

    page.get_by_role("button", name="Apply correction").click()
    wait_version(page, version + 2)  # one write: the resolution's move and the amendment
    said = page.locator("#correct-open + .said[role=status]")
    said.wait_for()
    assert said.inner_text() == "Move corrected: 55 of 56 later moves kept, 1 corrected."
    game = api.call("GET", f"/api/games/{game_id}")
    assert game["status"] == "finished" and game["moves"] == 66
    assert "finished" in page.locator("#game-meta").inner_text()
    entries = api.call("GET", f"/api/games/{game_id}/timeline")["entries"]
    assert entries[13]["correction"] == "resolved" and entries[13]["description"] == MOVE_14_RESOLVED
    # the move list says which moves were corrected, and what was recorded first
    fourteen = page.locator("#move-list li").nth(14)
    assert "corrected" in fourteen.inner_text()
    assert f"recorded first as: {MOVE_14_RECORDED}" in fourteen.inner_text()
    page.screenshot(path=str(shots / "replay-corrected-resolved.png"), full_page=True)


def test_a_resolution_can_be_taken_back_and_the_rest_dropped_instead(
    page: Any, site: Served, api: Api
) -> None:
    game_id, token, version = recorded_scenario(api)
    page.goto(f"{site.url}/games/{game_id}/replay?version=11#token={token}")
    wait_shown(page, 11)
    page.get_by_role("button", name="Correct this move…").click()
    page.locator("#correct-moves button.move", has_text=re.compile("steward room 1", re.IGNORECASE)).click()
    page.locator("#correct-misfit").wait_for()
    # Ben's die went to the Well: chosen on the board this time, the part lit where move 14 stood
    page.locator('#board [data-part="well:"].target').click()
    page.locator("#correct-report").wait_for()
    assert f"was “{MOVE_14_RESOLVED}”" in page.locator("#correct-report").inner_text()
    page.locator("#correct-report-back").click()  # back to move 14's question
    page.locator("#correct-misfit").wait_for()
    assert page.locator("#correct-misfit-title").inner_text() == "Move 14 no longer fits"
    page.get_by_role("button", name="Drop the rest from here").click()
    words = page.locator("#correct-report").inner_text()
    assert (
        "3 of the 56 later moves kept, 53 no longer fit." in words
        and "Would leave the line of play (53)" in words
    )
    page.get_by_role("button", name="Apply correction").click()
    wait_version(page, version + 1)
    game = api.call("GET", f"/api/games/{game_id}")
    assert game["moves"] == 13 and game["status"] == "in progress"
