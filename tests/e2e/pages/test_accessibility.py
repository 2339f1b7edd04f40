"""An accessibility gate: axe-core (the copy shipped inside the axe-playwright-python wheel, nothing fetched) runs
its WCAG 2.0, 2.1 and 2.2 level A and AA rules on every page the site serves, in the states a user meets, at a
390 x 844 phone and a 1366 x 768 laptop viewport.

A violation of impact "serious" or "critical" fails the test, named by rule, impact, target selectors and help
URL. Every violation found (the moderate and minor ones too) is written to HERONLOG_TEST_OUTPUT/pages/axe/, one
JSON file per page state and viewport, beside a screenshot of what axe looked at.

The text contrast axe cannot decide itself (its `color-contrast` results "incomplete", needs review: text over
the SVG board, a gradient, another element) is judged by contrast.py from the pixels rendered behind each text,
at 4.5:1, or 3:1 for large text; a text below fails the test too, named by state, selector, text, colours and
ratio. Every judged node, and the ones skipped as not seen (hidden, zero-size, offscreen) with their counts, go
to the same folder as <state>-<viewport>-contrast.json. Two more tests hold the judge itself to failing pale
text and to skipping what is not seen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from tests.e2e.conftest import Served
from tests.e2e.pages import contrast
from tests.e2e.pages.conftest import Api, refuse_a_score_sheet_tally
from tests.e2e.pages.test_corrections_browser import recorded_scenario
from tests.e2e.pages.test_pages_browser import PHONE, wait_shown
from tests.e2e.pages.test_usability import LAPTOP

pytestmark = pytest.mark.browser

AXE = Axe()
# The rules of WCAG 2.0, 2.1 and 2.2 at levels A and AA (axe's tags): what the gate holds the pages to.
OPTIONS = {
    "runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"]},
    # "incomplete": what axe could not decide itself, of which the gate judges the text contrast (contrast.py)
    "resultTypes": ["violations", "incomplete"],
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
    # a finished game whose move 10 is corrected so that move 14 no longer fits (the correction scenario)
    made["misfit"] = recorded_scenario(api)[:2]
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


def new_game_card_picker(page: Any, url: str, _made: Games) -> None:
    """The table setup's picker open on the first castle card, after one card was picked for the walk to go on."""
    page.goto(url + "/games/new")
    page.get_by_role("button", name="3 players").click()
    page.wait_for_selector("#layout-fields[data-choices=fresh]")
    page.locator(".card-slot .slot").first.click()
    page.locator("#picker .pick-card").nth(3).click()
    page.wait_for_selector("#picker[data-field='castle.steward_2']")


def score_sheet_refused(page: Any, url: str, _made: Games) -> None:
    page.goto(url + "/score-sheet")
    refuse_a_score_sheet_tally(page)


def replay_with_a_note(page: Any, url: str, made: Games) -> None:
    game_id, token = made["three"]
    page.goto(f"{url}/games/{game_id}/replay?version=6#token={token}")  # the move the note is on
    wait_shown(page, 6)
    page.wait_for_selector("#move-list .note")


def record_whole_board(page: Any, url: str, made: Games) -> None:
    """The recording screen showing the whole board: on a phone, pressed in the region bar (the page opens on the
    region the prompt is about); a laptop shows the whole board, without the bar."""
    recording("three", "#board .domains svg")(page, url, made)
    whole = page.locator("#board .region-bar .region[data-region=all]")
    if whole.is_visible():
        whole.click()
        page.wait_for_selector("#board[data-region=all]")


def replay_correct_misfit(page: Any, url: str, made: Games) -> None:
    """The replay's correction at a later move that no longer fits: the question, the moves legal there, and the
    board where it stood with those moves' parts lit as buttons."""
    game_id, token = made["misfit"]
    page.goto(f"{url}/games/{game_id}/replay?version=11#token={token}")
    wait_shown(page, 11)
    page.get_by_role("button", name="Correct this move…").click()
    page.locator("#correct-moves button.move", has_text=re.compile("steward room 1", re.IGNORECASE)).click()
    page.wait_for_selector("#correct-misfit:not([hidden])")
    page.wait_for_selector("#board .part.target")


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


def a_player(page: Any, url: str, _made: Games) -> None:
    """The page of the player listed first (most games): their record, charts, rivals and games."""
    page.goto(url + "/players")
    page.locator("table.players a.title").first.click()
    page.wait_for_selector("#games table")


def game_players(page: Any, url: str, made: Games) -> None:
    """Who sat in each seat of a game, as its owner sees it (a form per seat)."""
    game_id, owner = made["three"]
    page.goto(f"{url}/games/{game_id}/players#token={owner}")
    page.wait_for_selector(".seat-players form")


STATES: dict[str, Callable[[Any, str, Games], None]] = {
    "home": plain("/", "table.games"),
    "new-game": plain("/games/new", "#new-game"),
    "new-game-created": new_game_created,
    "new-game-card-picker": new_game_card_picker,
    "score-sheet": plain("/score-sheet", "#score-form"),
    "score-sheet-refused": score_sheet_refused,
    "record-3-players": recording("three", "#moves button.move:not([disabled])"),
    "record-table-card": recording("table", "#prompt-bar .reveal-picker .pick-card"),
    "record-table-roll": recording("roll", ".chance-form .die-input"),
    "record-matcha": recording("matcha", "#board svg [data-region=matcha]"),
    "record-solo": recording("solo", "#board .domains svg"),
    "record-private-no-token": private_without_token,
    "record-spectator": recording("spectated", "#board .domains svg", token=False),
    "record-whole-board": record_whole_board,
    "replay-annotated": replay_with_a_note,
    "replay-correct-misfit": replay_correct_misfit,
    "replay-link-copied": replay_link_copied,
    "not-found": plain("/no-such-page", "h1"),
    "players": plain("/players", "table.players"),
    "player": a_player,
    "game-players": game_players,
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
    response = AXE.run(page, options=OPTIONS).response
    violations = response["violations"]

    name = f"{state}-{viewport}"
    folder = shots / "axe"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(violations, indent=1))
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    # the text contrast axe left for review, judged from the pixels behind each text
    judged = contrast.judge(page, response["incomplete"])
    (folder / f"{name}-contrast.json").write_text(json.dumps(contrast.summary(judged), indent=1))
    # The refusal a state is made of, which the browser logs as a failed resource, is expected there.
    if state in REFUSED:
        problems[:] = [p for p in problems if REFUSED[state] not in p]
    serious = [described(v) for v in violations if v["impact"] in FAILING]
    serious += [f"{name}: color-contrast (judged): {j.described()}" for j in judged if j.failed]
    assert serious == [], "\n".join(serious)


# Two texts made hard to read on purpose: a board label drawn in a pale beige, and the game's title (24 px:
# large text, 3:1) in a light grey over a gradient from white to grey. Set through the CSS object model: the pages'
# Content-Security-Policy refuses a <style> element (page.add_style_tag).
SPOIL = """() => {
  const label = document.querySelector("#board .domains svg text.t:not([fill])");
  label.id = "spoilt-label";
  label.style.setProperty("fill", "#c8c0b0", "important");
  const title = document.getElementById("game-title");
  title.style.setProperty("color", "#b0b0b0", "important");
  title.style.setProperty("background-image", "linear-gradient(#ffffff, #cccccc)", "important");
}"""


def test_the_contrast_judge_fails_pale_text_over_the_board_and_a_gradient(
    page: Any, site: Served, games: Games, shots: Path
) -> None:
    """The judge itself: two pale texts axe leaves for review are judged failures, with their colours and ratios,
    and nothing else on the page is."""
    page.set_viewport_size(LAPTOP)
    recording("three", "#moves button.move:not([disabled])")(page, site.url, games)
    page.evaluate(SPOIL)
    judged = contrast.judge(page, AXE.run(page, options=OPTIONS).response["incomplete"])
    folder = shots / "axe"
    folder.mkdir(exist_ok=True)
    (folder / "judge-spoilt-contrast.json").write_text(json.dumps(contrast.summary(judged), indent=1))

    failed = {j.target: j for j in judged if j.failed}
    assert set(failed) == {"#spoilt-label", "#game-title"}, [j.described() for j in failed.values()]
    label, title = failed["#spoilt-label"], failed["#game-title"]
    assert (label.colour, label.needed) == ("#c8c0b0", contrast.NORMAL)
    # over the domain's ground (#fbf7ee), as drawn or faded while the prompt's targets stand out elsewhere
    hexed = label.background
    ground = (int(hexed[1:3], 16), int(hexed[3:5], 16), int(hexed[5:7], 16))
    assert contrast.ratio(ground, (251, 247, 238)) < 1.15 and label.ratio < 2, label.described()
    assert (title.colour, title.needed, title.font_px) == ("#b0b0b0", contrast.LARGE, 24)
    # judged against the gradient's darker part behind its glyphs, not its white top
    on_white = contrast.ratio((176, 176, 176), (255, 255, 255))
    assert title.worst <= title.ratio < on_white - 0.2, title.described()


# Texts a user does not see, each made through the CSS object model, and one seen: a paragraph (display: none),
# a span of font size 0, a paragraph far left of the page, one inside a visually-hidden box, and a note on the
# page; the last target matches nothing.
UNSEEN = """() => {
  const made = (id, text, styles, parent = document.querySelector("main")) => {
    const element = document.createElement(id === "clipped" ? "span" : "p");
    element.id = id;
    element.textContent = text;
    for (const [name, value] of Object.entries(styles)) element.style.setProperty(name, value);
    parent.append(element);
    return element;
  };
  made("gone", "not displayed", { display: "none" });
  made("nothing", "no size", { "font-size": "0" });
  made("away", "far away", { position: "absolute", left: "-9999px" });
  const box = made("box", "", { position: "absolute", width: "1px", height: "1px", overflow: "hidden",
    clip: "rect(0 0 0 0)" });
  made("clipped", "visually hidden", {}, box);
  made("seen", "seen and readable", { color: "#1d1b18" });
}"""


def test_the_contrast_judge_skips_text_not_seen_and_counts_why(
    page: Any, site: Served, problems: list[str]
) -> None:
    page.set_viewport_size(PHONE)
    plain("/no-such-page", "h1")(page, site.url, {})
    page.evaluate(UNSEEN)
    targets = ["#gone", "#nothing", "#away", "#clipped", "#seen", "#no-such-element"]
    incomplete = [{"id": "color-contrast", "nodes": [{"target": [t]} for t in targets]}]
    judged = {j.target: j for j in contrast.judge(page, incomplete)}

    skips = {target: judged[target].skip for target in targets}
    assert skips == {
        "#gone": "hidden",
        "#nothing": "zero-size",
        "#away": "offscreen",
        "#clipped": "offscreen",
        "#seen": None,
        "#no-such-element": "not found",
    }
    seen = judged["#seen"]
    assert not seen.failed and seen.ratio and seen.ratio > 15 and seen.glyphs, seen.described()
    counts = contrast.summary(list(judged.values()))
    assert (counts["needs_review"], counts["judged"], counts["failed"]) == (6, 1, 0)
    assert counts["skipped"] == {"hidden": 1, "not found": 1, "offscreen": 2, "zero-size": 1}
    problems[:] = [p for p in problems if REFUSED["not-found"] not in p]  # the page's own 404, logged
