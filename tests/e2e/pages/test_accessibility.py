"""An accessibility gate: axe-core (the copy shipped inside the axe-playwright-python wheel, nothing fetched) runs
its WCAG 2.0, 2.1 and 2.2 level A and AA rules on every page the site serves, in the states a user meets, at a
390 x 844 phone and a 1366 x 768 laptop viewport.

A violation of impact "serious" or "critical" fails the test, named by rule, impact, target selectors and help
URL. Every violation found (the moderate and minor ones too) is written to HERONLOG_TEST_OUTPUT/pages/axe/, one
JSON file per page state and viewport, beside a screenshot of what axe looked at.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api, refuse_a_score_sheet_tally
from tests.e2e.pages.test_pages_browser import PHONE, wait_shown
from tests.e2e.pages.test_usability import LAPTOP

pytestmark = pytest.mark.browser

AXE = Axe()
# The rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA (axe's tags): what the gate holds the pages to.
OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]},
    "resultTypes": ["violations"],
}
FAILING = {"serious", "critical"}

# What each page state needs: the games, made once per module through the API.
Games = dict[str, tuple[str, str]]


@pytest.fixture(scope="module")
def games(api: Api) -> Games:
    """(game id, owner token) of every game a page state shows."""
    made: Games = {
        "three": api.seeded_game(["Aiko", "Ben", "Chie"], 7, 6),
        "matcha": api.seeded_game(["Aiko", "Ben", "Chie"], 12, 4, expansions=["matcha"]),
        "solo": api.seeded_game(["Ann"], 5, 2, solo="medium"),
        "spectated": api.seeded_game(["Kai", "Lu"], 3, 4),
    }
    for key, body in (
        ("table", {"players": ["Ann", "Bo"], "mode": "table"}),
        ("private", {"players": ["Kai", "Lu"], "mode": "seeded", "seed": 3, "private": True}),
    ):
        created = api.call("POST", "/api/games", body)
        made[key] = created["game"]["game_id"], created["owner_token"]
    # a table-mode game further on, at a roll: its dice form
    created = api.call("POST", "/api/games", {"players": ["Ann", "Bo"], "mode": "table"})
    made["roll"] = created["game"]["game_id"], created["owner_token"]
    api.play_first_moves(*made["roll"], lambda legal: legal["prompt"]["kind"] == "roll")
    # an annotation on the replayed game, shown beside its move
    game_id, token = made["three"]
    version = api.call("GET", f"/api/games/{game_id}")["version"]
    note = {
        "version": version,
        "text": "a strong start",
        "glyph": "!",
        "target": {"kind": "bridge", "id": "coral"},
    }
    api.call("POST", f"/api/games/{game_id}/annotations", note, token)
    return made


def recording(key: str, ready: str, token: bool = True) -> Callable[[Any, str, Games], None]:
    """Open the recording screen of the game ``key`` (with its owner token, or as a spectator) until ``ready``
    shows."""

    def open_it(page: Any, url: str, made: Games) -> None:
        game_id, owner = made[key]
        page.goto(f"{url}/games/{game_id}" + (f"#token={owner}" if token else ""))
        page.wait_for_selector(ready)

    return open_it


def plain(path: str, ready: str) -> Callable[[Any, str, Games], None]:
    def open_it(page: Any, url: str, _made: Games) -> None:
        page.goto(url + path)
        page.wait_for_selector(ready)

    return open_it


def new_game_created(page: Any, url: str, _made: Games) -> None:
    page.goto(url + "/games/new")
    page.fill("#seat-0-name", "Aiko")
    page.fill("#seat-1-name", "Ben")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#created:not([hidden])")
    page.get_by_role("button", name="Make a link for Aiko").click()
    page.wait_for_selector(".qr-box svg.qr")


def score_sheet_refused(page: Any, url: str, _made: Games) -> None:
    page.goto(url + "/score-sheet")
    refuse_a_score_sheet_tally(page)


def replay_with_a_note(page: Any, url: str, made: Games) -> None:
    game_id, token = made["three"]
    page.goto(f"{url}/games/{game_id}/replay?version=6#token={token}")  # the move the note is on
    wait_shown(page, 6)
    page.wait_for_selector("#move-list .note")


def record_board_fitted(page: Any, url: str, made: Games) -> None:
    """The recording screen with its board fitted to the screen (the zoom switch pressed). The choice is then
    forgotten, so that the other states show the board at its default size."""
    recording("three", ".panel-player svg")(page, url, made)
    page.click("#board-zoom")
    page.wait_for_selector("#board-zoom[aria-pressed=true]")
    page.evaluate("() => localStorage.removeItem('heronlog:board-zoom')")


def replay_link_copied(page: Any, url: str, made: Games) -> None:
    """The replay after "Copy a link to this position": the message said beside the button."""
    game_id, _ = made["three"]
    page.goto(f"{url}/games/{game_id}/replay?version=4")
    wait_shown(page, 4)
    page.click("#copy-link")
    page.wait_for_selector(".replay-options + .said:not(:empty)")
    # at the top of the page, as every other state is looked at: scrolled, on a phone, controls pass under the
    # sticky step bar, which axe counts against their target size wherever the page happens to be scrolled
    page.evaluate("() => window.scrollTo(0, 0)")


def private_without_token(page: Any, url: str, made: Games) -> None:
    page.goto(f"{url}/games/{made['private'][0]}")
    page.wait_for_selector("#token-input")


STATES: dict[str, Callable[[Any, str, Games], None]] = {
    "home": plain("/", "table.games"),
    "new-game": plain("/games/new", "#new-game"),
    "new-game-created": new_game_created,
    "score-sheet": plain("/score-sheet", "#score-form"),
    "score-sheet-refused": score_sheet_refused,
    "record-3-players": recording("three", "#moves button.move:not([disabled])"),
    "record-table-card": recording("table", ".chance-form select"),
    "record-table-roll": recording("roll", ".chance-form .die-input"),
    "record-matcha": recording("matcha", ".panel-matcha svg"),
    "record-solo": recording("solo", ".panel-rival svg"),
    "record-private-no-token": private_without_token,
    "record-spectator": recording("spectated", ".panel-player svg", token=False),
    "record-board-fitted": record_board_fitted,
    "replay-annotated": replay_with_a_note,
    "replay-link-copied": replay_link_copied,
    "not-found": plain("/no-such-page", "h1"),
}

# The refusal a state shows (logged by the browser as a failed resource): its status.
REFUSED = {"score-sheet-refused": "400", "record-private-no-token": "401", "not-found": "404"}


def described(violation: dict[str, Any]) -> str:
    targets = "; ".join(" ".join(node["target"]) for node in violation["nodes"])
    return f"{violation['id']} ({violation['impact']}): {targets} — {violation['helpUrl']}"


VIEWPORTS = {"phone": PHONE, "laptop": LAPTOP}


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
@pytest.mark.parametrize("state", list(STATES))
def test_no_serious_accessibility_violation(
    page: Any, site: Served, games: Games, shots: Path, problems: list[str], *, state: str, viewport: str
) -> None:
    page.set_viewport_size(VIEWPORTS[viewport])
    STATES[state](page, site.url, games)
    violations = AXE.run(page, options=OPTIONS).response["violations"]

    name = f"{state}-{viewport}"
    folder = shots / "axe"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(violations, indent=1))
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    # The refusal a state is made of, which the browser logs as a failed resource, is expected there.
    if state in REFUSED:
        problems[:] = [p for p in problems if REFUSED[state] not in p]
    serious = [described(v) for v in violations if v["impact"] in FAILING]
    assert serious == [], "\n".join(serious)
