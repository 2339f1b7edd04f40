"""The web pages in a real headless Chromium against a real `heronlog serve`: record a seeded game by clicking,
undo and redo, replay it (steps, slider, keyboard, deep links, undone moves), annotate, see the score chart,
fork; table-mode chance forms; private games and shared links; the score sheet; the QR encoder.

Screenshots go to HERONLOG_TEST_OUTPUT/pages (wide and 390-pixel phone viewports).
"""

from __future__ import annotations

import json
import re
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

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def version_of(page: Any) -> int:
    """The game's version as the page last drew it (kept on the board; the page's words speak of moves)."""
    page.wait_for_selector("#board[data-version]")
    return int(page.get_attribute("#board", "data-version"))


def wait_version(page: Any, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.getElementById('board').dataset.version) === v"
        " && !document.querySelector('#app[aria-busy=true]')",
        arg=version,
    )


def click_a_move(page: Any, last: bool = False) -> None:
    """Click a move button (not a free seal conversion when another move exists) and wait for the answer."""
    before = version_of(page)
    buttons = page.locator("#moves button.move:not([disabled]):not(.free)")
    if buttons.count() == 0:
        buttons = page.locator("#moves button.move:not([disabled])")
    (buttons.last if last else buttons.first).click()
    wait_version(page, before + 1)


def shown_version(page: Any) -> int:
    return int(page.locator("#board").get_attribute("data-version") or "0")


def wait_shown(page: Any, version: int) -> None:
    page.wait_for_function("v => document.getElementById('board').dataset.version === String(v)", arg=version)


def choose_another_move(page: Any, site: Served, game_id: str, token: str, version: int) -> None:
    """Open the replay at the move of ``version`` with ``token``, open "Correct this move…" and choose the first
    move other than the one recorded; its dry run follows, and the confirmation (the rest dropped from the first
    later move that no longer fits, if one does)."""
    page.goto(f"{site.url}/games/{game_id}/replay?version={version}#token={token}")
    wait_shown(page, version)
    page.get_by_role("button", name="Correct this move…").click()
    page.locator("#correct-moves button.move:not(:has(.tag))").first.click()
    to_the_confirmation(page)


def to_the_confirmation(page: Any) -> bool:
    """After a dry run of a correction: drop the rest if a later move no longer fits (the flow then asks about
    it), and wait for the confirmation. Whether a misfit was dropped."""
    page.wait_for_selector("#correct-report:not([hidden]), #correct-misfit:not([hidden])")
    misfit = page.locator("#correct-misfit").is_visible()
    if misfit:
        page.get_by_role("button", name="Drop the rest from here").click()
    page.locator("#correct-report").wait_for()
    return bool(misfit)


def test_record_a_seeded_game_by_clicking_then_replay_annotate_and_fork(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    # New game: two seats, seeded mode, the first-game layout off, public.
    fill_new_game(page, site, ["Aiko", "Ben <i>"], 7)
    page.select_option("#seat-1-colour", "orange")
    page.fill("#title", "Club night")
    create_on_the_form(page)
    token = page.input_value("#owner-token")
    assert len(token) > 20
    page.get_by_role("button", name="Make a link for Aiko").click()
    link = page.locator("#seat-link-0")
    link.wait_for()
    assert "#token=" in link.input_value()
    assert page.locator(".qr-box svg.qr").count() == 1
    page.screenshot(path=str(shots / "new-game-created.png"), full_page=True)

    # The recording screen: the board, the prompt's moves as buttons.
    page.click("#record-link")
    page.wait_for_selector("#moves button.move:not([disabled])")
    game_id = page.url.rstrip("/").split("/")[-1].split("#")[0]
    # the board as printed, its castle among its regions, and one Personal Domain per player under it
    assert page.locator("#board svg.board-main [data-region=castle]").count() == 1
    domains = page.locator("#board .domains svg")
    assert domains.evaluate_all("nodes => nodes.map(n => n.getAttribute('aria-label'))") == [
        "Aiko's Personal Domain",
        "Ben <i>'s Personal Domain",
    ]
    assert "Ben <i>" in page.locator("#game-meta").inner_text()  # shown as text, never as markup
    assert page.locator("#game-meta i").count() == 0
    # Each move's answer carries the game and its next legal moves: the page reads them from there, not
    # again (a read may still follow when the event stream tells of the move before its answer arrives).
    reads: list[str] = []

    def note_read(request: Any) -> None:
        if request.method == "GET":
            reads.append(request.url)

    page.on("request", note_read)
    for _ in range(14):
        click_a_move(page)
    page.remove_listener("request", note_read)
    assert sum(url.endswith("/legal-moves") for url in reads) <= 7, reads
    page.screenshot(path=str(shots / "record-wide.png"), full_page=True)

    # The board drawn is the API's state.
    game = api.call("GET", f"/api/games/{game_id}")
    words = page.locator("#board-text .board-words").text_content() or ""
    for player in game["state"]["players"]:
        assert f"{player['cp']} CP, {player['coins']} coins, {player['seals']} seals" in words

    # Undo and redo, by button and by keyboard.
    last_move = page.locator("#recent li").first.inner_text()
    version = version_of(page)
    page.click("#undo")
    wait_version(page, version + 1)
    assert page.locator("#recent li").first.inner_text() != last_move
    page.click("#redo")
    wait_version(page, version + 2)
    assert page.locator("#recent li").first.inner_text() == last_move
    page.locator("body").press("Control+z")
    wait_version(page, version + 3)
    page.locator("body").press("Control+y")
    wait_version(page, version + 4)
    # Undo once more and play another move instead: the undone move stays in the log.
    page.click("#undo")
    wait_version(page, version + 5)
    click_a_move(page, last=True)
    for _ in range(6):
        click_a_move(page)

    # Replay: step, slider, keyboard.
    page.click("#replay-link")
    page.wait_for_selector(".line-chart")
    timeline = api.call("GET", f"/api/games/{game_id}/timeline")["entries"]
    assert shown_version(page) == timeline[-1]["version"]
    page.locator("body").press("Home")
    wait_shown(page, 1)
    assert page.locator("#position").inner_text().startswith("Start of the game")
    page.locator("body").press("ArrowRight")
    wait_shown(page, timeline[0]["version"])
    assert page.locator("#position").inner_text().startswith("Move 1 of")
    page.click("[data-step=next-turn]")
    page.wait_for_function(
        "v => Number(document.getElementById('board').dataset.version) > v", arg=timeline[0]["version"]
    )
    page.locator("#slider").evaluate("(el) => { el.value = '10'; el.dispatchEvent(new Event('input')); }")
    wait_shown(page, timeline[9]["version"])
    page.locator("body").press("End")
    wait_shown(page, timeline[-1]["version"])

    # Undone moves are hidden by default and shown on request.
    assert page.locator("#move-list li.undone").count() == 0
    page.check("#show-undone")
    page.wait_for_selector("#move-list li.undone")
    page.uncheck("#show-undone")
    page.wait_for_function("() => document.querySelectorAll('#move-list li.undone').length === 0")

    # The chart: one line per player, after every turn.
    assert page.locator(".line-chart path.series").count() == 2
    page.screenshot(path=str(shots / "replay-wide.png"), full_page=True)

    # Deep links: to a version, and to a round and turn; the board shown is the API's state there.
    page.goto(f"{site.url}/games/{game_id}/replay?version=6")
    wait_shown(page, 6)
    assert "version 6" in page.locator("#position").inner_text()
    at_six = api.call("GET", f"/api/games/{game_id}/states/6")["state"]
    words = page.locator("#board-text .board-words").text_content() or ""
    for player in at_six["players"]:
        assert (
            f"{player['cp']} CP, {player['coins']} coins, {player['seals']} seals, {player['food']} food"
            in words
        )
    located = api.call("GET", f"/api/games/{game_id}/states?round=1&turn=2")["version"]
    page.goto(f"{site.url}/games/{game_id}/replay?round=1&turn=2")
    wait_shown(page, located)
    assert page.url.endswith(f"?version={located}")

    # Annotate the move shown: the text stays text; edit it; its glyph shows.
    page.fill("#note-text", "<img src=x onerror=alert(1)> a bold start")
    page.select_option("#note-glyph", "!?")
    page.click("#note-save")
    note = page.locator("#move-list li.current .note")
    note.wait_for()
    assert note.locator(".note-text").inner_text() == "<img src=x onerror=alert(1)> a bold start"
    assert note.locator(".glyph").inner_text() == "!?"
    assert page.locator("#move-list img").count() == 0
    note.get_by_role("button", name="Edit").click()
    page.fill("#note-text", "a bold start, on reflection")
    page.click("#note-save")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.note-text')].some(n => n.textContent === 'a bold start, on reflection')"
    )
    notes = api.call("GET", f"/api/games/{game_id}/annotations")["annotations"]
    assert [(n["version"], n["text"], n["glyph"]) for n in notes] == [
        (located, "a bold start, on reflection", "!?")
    ]

    # The phone: nothing wider than the screen.
    page.set_viewport_size(PHONE)
    page.goto(f"{site.url}/games/{game_id}/replay?version={located}")
    wait_shown(page, located)
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(shots / "replay-phone.png"), full_page=True)
    page.goto(f"{site.url}/games/{game_id}")
    page.wait_for_selector("#moves button.move")
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(shots / "record-phone.png"))
    page.screenshot(path=str(shots / "record-phone-full.png"), full_page=True)

    # What if: fork from the position shown, and play on in the branch.
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site.url}/games/{game_id}/replay?version={located}")
    wait_shown(page, located)
    page.click("#fork")
    page.wait_for_url(re.compile(r"/games/[0-9a-f-]{36}$"))
    assert game_id not in page.url
    page.wait_for_selector("#moves button.move:not([disabled])")
    assert "what-if branch" in page.locator("#game-meta").inner_text()
    click_a_move(page)

    # Home: the games, searchable.
    page.goto(site.url + "/")
    assert page.locator("table.games tbody tr").count() == 2
    page.fill("#search", "aiko")
    page.press("#search", "Enter")
    page.wait_for_url(re.compile(r"search=aiko"))
    assert page.locator("table.games tbody tr").count() == 2
    page.fill("#search", "nobody")
    page.press("#search", "Enter")
    page.wait_for_selector(".empty")
    page.screenshot(path=str(shots / "home-search.png"))


def test_a_table_mode_castle_dealt_again_is_said_on_the_recording_screen(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    """R-S03: five castle cards with the same dark action (S1, S2, S3, D1, D2: a Courtier action each) are dealt
    again; the screen says so under the prompt and in the last moves, instead of asking for steward room 1 again
    without a word."""
    created = api.call("POST", "/api/games", {"players": ["Aiko", "Ben", "Chie"], "mode": "table"})
    game_id, token = created["game"]["game_id"], created["owner_token"]
    version = created["game"]["version"]
    for pool, card in [("steward", "S1"), ("steward", "S2"), ("steward", "S3"), ("diplomat", "D1")]:
        move = {"kind": "reveal", "seat": None, "pool": pool, "card": card}
        version = api.call("POST", f"/api/games/{game_id}/moves", move, token, version)["game"]["version"]
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    picker = page.locator("#prompt-bar .reveal-picker")
    picker.wait_for()
    assert page.locator("#prompt-help").inner_text() == ""
    picker.locator(".pick-card[data-id='D2']").click()  # the diplomat card, by its picture
    wait_version(page, version + 1)
    assert (
        page.locator("#prompt-title").inner_text()
        == "Chance: which steward card was revealed for steward room 1?"
    )
    help_ = page.locator("#prompt-help").inner_text()
    assert help_.startswith("The castle is dealt again (R-S03)"), help_
    assert "same dark-background action" in help_
    assert "the castle is dealt again (R-S03)" in page.locator("#recent li").first.inner_text()
    page.screenshot(path=str(shots / "record-table-castle-dealt-again.png"), full_page=False)


def test_table_mode_chance_prompts_are_forms(page: Any, site: Served, api: Api, shots: Path) -> None:
    created = api.call("POST", "/api/games", {"players": ["Ann", "Bo"], "mode": "table"})
    game_id, token = created["game"]["game_id"], created["owner_token"]
    # A shared link: the token comes in the fragment and leaves the address bar at once.
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    picker = page.locator("#prompt-bar .reveal-picker")
    picker.wait_for()
    assert "token" not in page.url
    version = version_of(page)
    third = picker.locator(".pick-card").nth(2)
    card = third.get_attribute("data-id")
    third.click()  # one tap records the card revealed
    wait_version(page, version + 1)
    assert card in page.locator("#recent li").first.inner_text()

    legal = api.play_first_moves(game_id, token, lambda answer: answer["prompt"]["kind"] == "roll")
    page.reload()
    inputs = page.locator(".chance-form .die-input")
    inputs.first.wait_for()
    assert inputs.count() == len(legal["moves"][0]["dice"])
    roll = legal["moves"][-1]["dice"]
    for index in range(inputs.count()):
        inputs.nth(index).fill("7")
    page.click(".chance-form button[type=submit]")
    assert "1 to 6" in page.locator(".chance-form .error").inner_text()
    for index, value in enumerate(reversed(roll)):  # typed in any order
        inputs.nth(index).fill(str(value))
    page.screenshot(path=str(shots / "record-table-roll.png"), full_page=True)
    version = version_of(page)
    page.click(".chance-form button[type=submit]")
    wait_version(page, version + 1)
    bridge = legal["prompt"]["context"]["bridge"]
    state = api.call("GET", f"/api/games/{game_id}")["state"]
    laid = next(b for b in state["board"]["bridges"] if b["colour"] == bridge)
    assert sorted([laid["left"], *laid["middle"], laid["right"]]) == sorted(roll)


def test_a_private_game_needs_its_token(page: Any, site: Served, api: Api, problems: list[str]) -> None:
    created = api.call(
        "POST", "/api/games", {"players": ["Kai", "Lu"], "mode": "seeded", "seed": 3, "private": True}
    )
    game_id, token = created["game"]["game_id"], created["owner_token"]
    page.goto(f"{site.url}/games/{game_id}/replay")
    page.wait_for_function("() => /private/.test(document.getElementById('position').textContent)")
    # The game and its catalog are asked for together: the second refusal may land after the first is shown.
    page.wait_for_load_state("networkidle")
    # The browser logs the API's refusal (401) as a failed resource: expected here.
    assert problems and all("401" in problem for problem in problems)
    problems.clear()
    page.fill("#token-input", token)
    page.click(".token-form button")
    page.wait_for_selector(".line-chart, #chart p")
    assert "records as the owner" in page.locator("#access").inner_text()
    page.goto(site.url + "/")
    assert game_id not in page.content()


def test_the_score_sheet_page_scores_the_rulebooks_example(page: Any, site: Served, shots: Path) -> None:
    page.goto(site.url + "/score-sheet")
    tallies = {
        "name": "Aiko",
        "cp": "8",
        "coins": "5",
        "food": "3",
        "iron": "3",
        "pearl": "3",
        "pot": "11",
        "gate": "2",
        "steward": "1",
        "daimyo": "2",
        "yard_1": "3",
        "gardener_points": "15",
    }
    for key, value in tallies.items():
        page.fill(f"#p0-{key}", value)
    page.fill("#p1-name", "Ben")
    page.click("#score-form button[type=submit]")
    table = page.locator("#score-table table")
    table.wait_for()
    totals = table.locator("tr.total td").all_inner_texts()
    assert totals == ["76", "0"]
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)
    page.screenshot(path=str(shots / "score-sheet-phone.png"), full_page=True)


def test_the_qr_encoder_matches_an_independent_encoder(page: Any, site: Served) -> None:
    import segno
    from segno import consts

    page.goto(site.url + "/score-sheet")
    for version in (1, 2, 5, 7, 10, 14, 22, 40):
        for level in ("L", "M"):
            # Text that fills the symbol exactly: the two encoders then agree bit for bit (with room to spare,
            # segno adds a zero byte before the pad codewords; both forms decode the same).
            capacity = consts.SYMBOL_CAPACITY[version][consts.ERROR_MAPPING[level]]
            length = (capacity - 4 - (8 if version <= 9 else 16)) // 8
            text = ("heronlog/" * 400)[:length]
            mask = (version * 3 + len(level)) % 8
            ours = page.evaluate(
                """async ([text, level, mask]) => {
                    const qr = await import('/static/qr.js');
                    const code = qr.encode(text, {level, mask});
                    return {version: code.version, rows: code.modules.map(r => r.map(x => (x ? 1 : 0)))};
                }""",
                [text, level, mask],
            )
            reference = segno.make(
                text, error=level, mode="byte", version=version, mask=mask, boost_error=False
            )
            assert ours["version"] == version
            assert ours["rows"] == [list(row) for row in reference.matrix], (version, level)


def test_a_solo_game_where_the_rival_moves_by_itself_after_your_turn(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    # New game: one seat against the medium rival (it plays first), seeded.
    fill_new_game(page, site, ["Aiko"], 5, solo="medium")
    create_on_the_form(page)
    assert page.get_by_role("button", name="Make a link for Aiko").count() == 1
    assert page.get_by_role("button", name="Make a link for Rival").count() == 0

    # The recording screen: the rival's panel, its first turn already played.
    page.click("#record-link")
    page.wait_for_selector("#moves button.move:not([disabled])")
    game_id = page.url.rstrip("/").split("/")[-1].split("#")[0]
    meta = page.locator("#game-meta").inner_text()
    assert "Rival" in meta and "automatic" in meta and "solo game (medium)" in meta
    # the player's Personal Domain, and the rival's sheet in the place of its own
    domains = page.locator("#board .domains svg")
    assert domains.evaluate_all("nodes => nodes.map(n => n.getAttribute('aria-label'))") == [
        "Aiko's Personal Domain",
        "Rival, played by the rules engine",
    ]
    rival_sheet = page.locator("#board .domains svg.rival-sheet")
    first_notes = rival_sheet.text_content()
    assert "solo deck" in first_notes
    # Play until the rival has moved after one of our moves: its turn shows in the last moves, marked.
    for _ in range(40):
        click_a_move(page)
        if page.locator("#recent .automatic-line").count():
            break
    line = page.locator("#recent .automatic-line").first.inner_text()
    assert "automatic" in line and "Rival (automatic) reveals SO" in line
    assert rival_sheet.text_content() != first_notes  # the rival's sheet follows its turns
    words = page.locator("#board-text .board-words").text_content() or ""
    rival = api.call("GET", f"/api/games/{game_id}")["state"]["players"][1]
    assert f"{rival['cp']} CP, {rival['coins']} coins; Passage of Time {rival['pot']}" in words
    page.screenshot(path=str(shots / "record-solo.png"), full_page=True)

    # The replay lists the rival's turns under the moves that led to them.
    page.click("#replay-link")
    page.wait_for_selector(".line-chart")
    assert page.locator("#move-list .automatic-line").count() > 0


def test_a_table_mode_solo_game_asks_which_solo_card_was_revealed(page: Any, site: Served, api: Api) -> None:
    created = api.call("POST", "/api/games", {"players": ["Ann"], "mode": "table", "solo": "hard"})
    game_id, token = created["game"]["game_id"], created["owner_token"]
    api.play_first_moves(game_id, token, lambda answer: answer["prompt"]["kind"] == "solo_card")
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    picker = page.locator("#prompt-bar .reveal-picker")
    picker.wait_for()
    assert "solo card did Rival reveal" in page.locator("#prompt-title").inner_text()
    assert picker.locator(".pick-card svg.card-picture").count() == 9  # each solo card drawn
    version = version_of(page)
    picker.locator(".pick-card[data-id='SO9']").click()
    wait_version(page, version + 1)
    first = page.locator("#recent li").first.inner_text()
    assert first.startswith("automatic") and "Rival (automatic) reveals SO9" in first


def test_correct_a_move_from_the_replay_with_a_dry_run_first(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    game_id, token = api.seeded_game(["Aiko", "Ben"], 11, 10)
    before = api.call("GET", f"/api/games/{game_id}/timeline")["entries"]
    target = api.correctable_move(game_id)
    version = target["version"]
    alternatives = api.call("GET", f"/api/games/{game_id}/legal-moves?before={version}")
    # what the API's dry run says for each alternative (a dry run writes nothing)
    reports = {
        json.dumps(move, sort_keys=True): api.call(
            "POST",
            f"/api/games/{game_id}/amend",
            {"version": version, "move": move, "dry_run": True},
            token,
            alternatives["version"],
        )["report"]
        for move in alternatives["moves"]
        if move != alternatives["recorded"]
    }
    assert api.call("GET", f"/api/games/{game_id}")["version"] == 11

    # The owner's link: the control shows on the move, and opens from the keyboard; Escape closes it.
    page.goto(f"{site.url}/games/{game_id}/replay?version={version}#token={token}")
    wait_shown(page, version)
    opener = page.get_by_role("button", name="Correct this move…")
    opener.wait_for()
    assert opener.get_attribute("aria-expanded") == "false"
    opener.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#correct-moves button.move")
    assert opener.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Escape")
    page.wait_for_selector("#correct-panel", state="hidden")
    page.keyboard.press("Enter")  # the focus is back on the control
    buttons = page.locator("#correct-moves button.move")
    buttons.first.wait_for()
    # every legal move at that point, labelled as the recording screen labels them; the recorded one marked
    assert buttons.count() == len(alternatives["moves"])
    assert page.locator("#correct-moves button.move .tag", has_text="as recorded").count() == 1
    assert target["description"] in page.locator("#correct-about").inner_text()

    # Choose another move: the dry run's report, in words, as the API gives it.
    choice = page.locator("#correct-moves button.move:not(:has(.tag))").first
    # its words: a control shows the move's icons first, with a count beside each ("1" before "1 iron")
    icons = choice.locator(".move-icons")
    choice_label = choice.inner_text().removeprefix(icons.inner_text() if icons.count() else "").strip()
    choice.click()
    dropped = to_the_confirmation(page)
    report_box = page.locator("#correct-report")
    words = report_box.inner_text()
    assert "becomes:" in words and choice_label in words
    assert api.call("GET", f"/api/games/{game_id}")["version"] == 11  # the dry run wrote nothing
    page.set_viewport_size(PHONE)
    assert no_horizontal_scroll(page)
    page.locator("#correct-area").screenshot(path=str(shots / "replay-correct-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.screenshot(path=str(shots / "replay-correct-wide.png"), full_page=True)

    page.get_by_role("button", name="Apply correction").click()
    wait_version(page, 12)
    wait_shown(page, 12)
    assert page.locator("#correct-panel").is_hidden()

    # The API: the move at that place of the line is the one chosen, recorded at a new version that amends
    # the old one; the old move stays in the log, and the history shows the amendment.
    after = api.call("GET", f"/api/games/{game_id}/timeline")["entries"]
    amended = after[target["index"] - 1]
    assert amended["version"] == 12 and amended["amends"] == version
    assert amended["description"] != target["description"]
    chosen = api.call("GET", f"/api/games/{game_id}/legal-moves?before=12")["recorded"]
    assert chosen != alternatives["recorded"] and chosen in alternatives["moves"]
    report = reports[json.dumps(chosen, sort_keys=True)]
    later = len(report["kept"]) + len(report["dropped"])
    assert ("draws again the dice or cards" in words) == bool(report["redrawn"])
    assert dropped != report["all_fit"]
    if report["all_fit"]:
        assert f"All {later} later moves still apply" in words
        assert [e["version"] for e in after[target["index"] :]] == report["kept"]
    else:
        assert (
            "no longer fits" in words and f"Would leave the line of play ({len(report['dropped'])})" in words
        )
    full = api.call("GET", f"/api/games/{game_id}/timeline?include_undone=1")["entries"]
    assert {e["version"] for e in before} <= {e["version"] for e in full}
    assert any(e["version"] == version and e["undone"] for e in full)
    events = api.call("GET", f"/api/games/{game_id}/changes?since=1")["events"]
    assert [e["type"] for e in events].count("MoveAmended") == 1 and len(events) == 11

    # The replay shows the corrected move in its place, and the board there is the line's as it stands now.
    item = page.locator("#move-list li").nth(target["index"])
    assert amended["description"] in item.inner_text() and "current" in (item.get_attribute("class") or "")
    now = api.call("GET", f"/api/games/{game_id}/states/12?current_line=1")["state"]
    board = page.locator("#board-text .board-words").text_content() or ""
    for player in now["players"]:
        assert f"{player['cp']} CP, {player['coins']} coins, {player['seals']} seals" in board
    page.screenshot(path=str(shots / "replay-corrected.png"), full_page=True)


def test_without_a_token_or_for_another_seat_there_is_no_correction_control(
    page: Any, site: Served, api: Api
) -> None:
    game_id, owner = api.seeded_game(["Kai", "Lu"], 4, 6)
    entries = api.call("GET", f"/api/games/{game_id}/timeline")["entries"]
    page.goto(f"{site.url}/games/{game_id}/replay?version={entries[1]['version']}")
    wait_shown(page, entries[1]["version"])
    page.wait_for_selector(".line-chart")
    assert "Watching only" in page.locator("#access").inner_text()
    assert page.locator("#correct-area").is_hidden()
    assert page.get_by_role("button", name="Correct this move…").count() == 0

    # A seat token: its own moves only.
    seat = api.call("POST", f"/api/games/{game_id}/seats/1/token", token=owner)["token"]
    theirs = next(e for e in entries if e["seat"] == 0)
    mine = next(e for e in entries if e["seat"] == 1)
    page.goto(f"{site.url}/games/{game_id}/replay?version={theirs['version']}#token={seat}")
    wait_shown(page, theirs["version"])
    page.wait_for_function("() => /records as/.test(document.getElementById('access').textContent)")
    assert page.locator("#correct-area").is_hidden()
    page.goto(f"{site.url}/games/{game_id}/replay?version={mine['version']}")
    wait_shown(page, mine["version"])
    page.get_by_role("button", name="Correct this move…").wait_for()


def test_correct_a_table_mode_roll_with_its_form_and_a_stale_apply_is_explained(
    page: Any, site: Served, api: Api, shots: Path, problems: list[str]
) -> None:
    created = api.call("POST", "/api/games", {"players": ["Ann", "Bo"], "mode": "table"})
    game_id, token = created["game"]["game_id"], created["owner_token"]
    legal = api.play_first_moves(game_id, token, lambda answer: answer["prompt"]["kind"] == "roll")
    roll_version = legal["version"] + 1
    api.play_moves(game_id, token, 3)
    alternatives = api.call("GET", f"/api/games/{game_id}/legal-moves?before={roll_version}")
    assert alternatives["prompt"]["kind"] == "roll" and alternatives["recorded"]["seat"] is None
    recorded = alternatives["recorded"]["dice"]
    other = next(m for m in alternatives["moves"] if sorted(m["dice"]) != sorted(recorded))["dice"]

    page.goto(f"{site.url}/games/{game_id}/replay?version={roll_version}#token={token}")
    wait_shown(page, roll_version)
    page.get_by_role("button", name="Correct this move…").click()
    inputs = page.locator("#correct-moves .chance-form .die-input")
    inputs.first.wait_for()
    assert inputs.count() == len(recorded)
    # the form checks the dice as on the recording screen; the roll recorded is not a correction
    for index, value in enumerate(recorded):
        inputs.nth(index).fill(str(value))
    page.get_by_role("button", name="Check this correction").click()
    assert "recorded there already" in page.locator("#correct-error").inner_text()
    for index, value in enumerate(reversed(other)):  # typed in any order
        inputs.nth(index).fill(str(value))
    page.get_by_role("button", name="Check this correction").click()
    to_the_confirmation(page)
    page.screenshot(path=str(shots / "replay-correct-roll.png"), full_page=True)

    # Someone records a move meanwhile: applying is refused, in words, and nothing is corrected.
    version = api.call("GET", f"/api/games/{game_id}")["version"]
    legal = api.call("GET", f"/api/games/{game_id}/legal-moves")
    api.call("POST", f"/api/games/{game_id}/moves", legal["moves"][0], token, legal["version"])
    page.get_by_role("button", name="Apply correction").click()
    error = page.locator("#correct-error")
    # the page reads the moves again (busy meanwhile, its form drawn anew): wait until it is done
    page.wait_for_function(
        "() => /changed the game meanwhile/.test(document.getElementById('correct-error').textContent)"
        " && document.getElementById('correct-panel').getAttribute('aria-busy') === 'false'"
    )
    assert f"version {version + 1}" in error.inner_text()
    assert api.call("GET", f"/api/games/{game_id}")["version"] == version + 1
    # The browser logs the API's refusal (412) as a failed resource: expected here.
    assert problems and all("412" in problem for problem in problems)
    problems.clear()
    # the moves were read again: enter the roll once more, and apply
    for index, value in enumerate(other):
        inputs.nth(index).fill(str(value))
    page.get_by_role("button", name="Check this correction").click()
    to_the_confirmation(page)
    page.get_by_role("button", name="Apply correction").click()
    wait_version(page, version + 2)
    timeline = api.call("GET", f"/api/games/{game_id}/timeline")["entries"]
    amended = next(e for e in timeline if e["amends"] == roll_version)
    assert amended["version"] == version + 2
    assert sorted(
        api.call("GET", f"/api/games/{game_id}/legal-moves?before={version + 2}")["recorded"]["dice"]
    ) == sorted(other)


def test_an_annotation_points_at_a_part_of_the_board_and_outlines_it(
    page: Any, site: Served, api: Api
) -> None:
    game_id, token = api.seeded_game(["Aiko", "Ben"], 5, 4)
    version = api.call("GET", f"/api/games/{game_id}")["version"]
    page.goto(f"{site.url}/games/{game_id}/replay?version={version}#token={token}")
    wait_shown(page, version)

    # The form lists the parts of this game's board; the comment is saved with the part chosen.
    part = page.get_by_label("Points at")
    assert part.locator("option", has_text="Passage of Time").count() == 1
    assert part.locator("option", has_text="Aiko's domain").count() == 1
    note, stored = save_annotation(page, api, game_id, "take the coral die here", "The coral bridge")
    assert [(n["text"], n["target"]) for n in stored] == [
        ("take the coral die here", {"kind": "bridge", "id": "coral"})
    ]

    # Its words in the list; focusing it outlines exactly the coral bridge, and the outline goes with the focus.
    assert note.locator(".note-target").inner_text().strip() == "→ the coral bridge"
    show = note.get_by_role("button", name="Show the coral bridge on the board")
    show.focus()
    shown = page.locator("#board .target-shown")
    assert shown.count() == 1
    assert shown.get_attribute("data-part") == "bridge:coral"
    deck = shown.locator(":scope > path.bridge-deck.bridge-coral")  # the coral bridge's own drawing, outlined
    assert deck.count() == 1
    assert deck.evaluate("n => getComputedStyle(n).stroke") == "rgb(194, 24, 91)"
    page.locator("#note-text").focus()
    assert page.locator("#board .target-shown").count() == 0

    # Editing keeps the target unless it is changed: to a room, then to nothing.
    note.get_by_role("button", name="Edit").click()
    assert part.input_value() == "bridge:coral"
    part.select_option(label="Steward room 1")
    page.click("#note-save")
    page.wait_for_function(
        "() => document.querySelector('.note-target')?.textContent.includes('steward room 1')"
    )
    assert api.call("GET", f"/api/games/{game_id}/annotations")["annotations"][0]["target"] == {
        "kind": "room",
        "id": "steward_1",
    }
    note.hover()
    assert page.locator("#board .target-shown").get_attribute("data-part") == "room:steward_1"
    note.get_by_role("button", name="Edit").click()
    part.select_option("")
    page.click("#note-save")
    page.wait_for_function("() => !document.querySelector('.note-target')")
    assert api.call("GET", f"/api/games/{game_id}/annotations")["annotations"][0]["target"] is None


def test_a_finished_game_is_offered_to_bg_stats_as_a_link_and_a_file(
    page: Any, site: Served, api: Api
) -> None:
    from urllib.parse import parse_qs, urlsplit

    game_id, token = api.seeded_game(["Mio", "Nao"], 12, 0)
    legal = api.play_first_moves(game_id, token, lambda listing: listing["over"])
    assert legal["over"]
    page.goto(f"{site.url}/games/{game_id}/replay")
    page.wait_for_selector("#bgstats-send")
    link = urlsplit(page.locator("#bgstats-send").get_attribute("href"))
    assert (link.scheme, link.netloc, link.path) == ("https", "app.bgstatsapp.com", "/createPlay.html")
    play = json.loads(parse_qs(link.query)["data"][0])
    assert play["sourcePlayId"] == game_id and [p["name"] for p in play["players"]] == ["Mio", "Nao"]
    assert page.locator("#bgstats-send").inner_text() == "Send to BG Stats"
    file = page.locator("#bgstats-file")
    assert file.get_attribute("href") == f"/api/games/{game_id}/export?format=bgstats"
    assert file.get_attribute("download") is not None
    with page.expect_download() as downloaded:
        file.click()
    assert downloaded.value.suggested_filename == f"heronlog-{game_id}.bgsplay"
    # a game in progress is offered neither: it is not a finished play
    unfinished, _ = api.seeded_game(["Mio", "Nao"], 12, 3)
    page.goto(f"{site.url}/games/{unfinished}/replay")
    page.wait_for_selector(".line-chart, #chart p")
    assert page.locator("#bgstats a").count() == 0
