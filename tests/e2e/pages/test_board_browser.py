"""The board is the input: in real Chromium, games recorded by clicking only on the board's parts (and
on the prompt bar's buttons where a prompt has no place on the board), a die taken and placed in two clicks, the
list's moves lighting their part, keyboard activation, the phone's view of one region, and the end announced."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api


def open_recording(page: Any, site: Served, game_id: str, token: str, width: int = 1366) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    page.wait_for_selector("#board[data-version] svg")


def board_version(page: Any) -> int:
    return int(page.get_attribute("#board", "data-version"))


def wait_past(page: Any, version: int) -> None:
    """Wait until the page shows the game after `version` (the answer to the move drawn)."""
    page.wait_for_function(
        "v => Number(document.getElementById('board').dataset.version) > v "
        "&& document.getElementById('app').getAttribute('aria-busy') === 'false'",
        arg=version,
    )


def play_on_the_board(page: Any) -> str:
    """Make one move as a player at the table does: click a lit part of the board, or (where the prompt has no
    place on the board) a button of the prompt bar; a part several moves act on asks which in the prompt bar.
    Returns what was clicked: "board" or "bar"."""
    version = board_version(page)
    targets = page.locator("#board .part.target")
    if targets.count():
        targets.first.click()
        clicked = "board"
        page.wait_for_function(
            "v => Number(document.getElementById('board').dataset.version) > v "
            "|| document.getElementById('prompt-bar-text').textContent.includes('which one')",
            arg=version,
        )
        if board_version(page) == version:  # several moves on that part: the prompt bar asks which one
            page.locator("#prompt-bar-moves button.move").first.click()
    else:
        page.locator("#prompt-bar-moves button.move:not([disabled]):visible").first.click()
        clicked = "bar"
    wait_past(page, version)
    return clicked


def test_a_whole_seeded_two_player_game_is_recorded_by_clicking_on_the_board(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    game_id, token = api.seeded_game(["Aiko", "Ben"], seed=24, moves=0, title="Board night")
    open_recording(page, site, game_id, token)
    clicks = {"board": 0, "bar": 0}
    shot_taken = False
    for _ in range(400):
        if page.locator("#end-banner:not([hidden])").count():
            break
        on_a_bridge = page.locator("#board .part.target[data-part^='bridge:']").count()
        if not shot_taken and on_a_bridge and board_version(page) > 20:
            page.screenshot(path=str(shots / "board-wide.png"), full_page=True)
            shot_taken = True
        clicks[play_on_the_board(page)] += 1
    banner = page.locator("#end-banner")
    assert banner.is_visible()
    score = api.call("GET", f"/api/games/{game_id}/score")
    winners = [sheet["player"] for sheet in score["sheets"] if sheet["rank"] == 1]
    assert score["over"] and all(name in banner.inner_text() for name in winners)
    assert banner.locator("table.sheet").count() == 1
    assert (
        banner.get_by_role("link", name="Replay the whole game").get_attribute("href")
        == f"/games/{game_id}/replay"
    )
    # most moves were made on the board itself; the rest were answers with no place on it (Done, a resource)
    assert clicks["board"] > clicks["bar"] > 0
    assert shot_taken
    # the pages speak of moves, rounds and turns: never of the log's internal versions, nor of "Chance: over"
    text = page.inner_text("body")
    assert "version" not in text.lower() and "Chance: over" not in text
    page.screenshot(path=str(shots / "board-end-wide.png"), full_page=True)


def test_a_die_is_taken_and_placed_with_two_clicks_on_the_board(page: Any, site: Served, api: Api) -> None:
    game_id, token = api.seeded_game(["Aiko", "Ben"], seed=5, moves=0)
    api.play_first_moves(game_id, token, lambda legal: legal["prompt"]["kind"] == "take_die")
    open_recording(page, site, game_id, token)
    before = api.call("GET", f"/api/games/{game_id}/timeline")["entries"]
    end = page.locator("#board .part.target[data-part^='bridge:']").first
    part = end.get_attribute("data-part")
    end.click()
    wait_past(page, api.call("GET", f"/api/games/{game_id}")["version"] - 1)
    page.wait_for_selector("#board .part.target[data-part^='room:'], #board .part.target[data-part='well:']")
    version = board_version(page)
    page.locator(
        "#board .part.target[data-part^='room:'], #board .part.target[data-part='well:']"
    ).first.click()
    wait_past(page, version)
    entries = api.call("GET", f"/api/games/{game_id}/timeline")["entries"][len(before) :]
    assert [entry["kind"] for entry in entries[:2]] == ["take_die", "place_die"]
    assert part is not None and part.split(":")[1] in entries[0]["description"]


def test_a_move_of_the_list_lights_its_part_and_a_part_answers_the_keyboard(
    page: Any, site: Served, api: Api
) -> None:
    game_id, token = api.seeded_game(["Aiko", "Ben"], seed=6, moves=0)
    api.play_first_moves(game_id, token, lambda legal: legal["prompt"]["kind"] == "take_die")
    open_recording(page, site, game_id, token)
    listed = page.locator("#moves button.move-take_die").nth(1)
    target = listed.get_attribute("data-target")
    listed.hover()
    lit = page.locator(f'#board [data-part="{target}"]')
    assert "lit" in (lit.get_attribute("class") or "")
    page.mouse.move(1, 1)
    listed.focus()
    assert "lit" in (lit.get_attribute("class") or "")
    # the part is a button: named by its move's words, focused and pressed with the keyboard
    assert lit.get_attribute("role") == "button" and lit.get_attribute("tabindex") == "0"
    assert lit.get_attribute("aria-label") == listed.inner_text().strip()
    version = board_version(page)
    lit.focus()
    page.keyboard.press("Enter")
    wait_past(page, version)
    last = api.call("GET", f"/api/games/{game_id}/timeline")["entries"][-1]
    assert last["kind"] == "take_die" and target.split(":")[1] in last["description"]
    # the undo says what it undid
    page.click("#undo")
    page.wait_for_function(
        "() => document.querySelector('.history-buttons ~ .said, .history-buttons + *') !== null"
    )
    page.wait_for_function("() => document.body.innerText.includes('Undone: move')")


def test_a_move_seals_pay_for_says_how_and_the_conversions_wait_folded(
    page: Any, site: Served, api: Api
) -> None:
    """Rules 0.3.0: a move that seal conversions make affordable is listed and lit like any other, its words
    saying how it is paid; the conversions themselves wait folded under "Convert seals…" (in the list and in the
    prompt bar); one click on its part of the board converts and plays it."""
    game_id, token = api.seeded_game(["Aiko", "Ben"], seed=3, moves=0)
    for _ in range(100):  # the first moves that are not conversions, until a move needs seals converted
        legal = api.call("GET", f"/api/games/{game_id}/legal-moves")
        if any("convert" in move for move in legal["moves"]):
            break
        plain = next(move for move in legal["moves"] if move["kind"] != "convert")
        api.call("POST", f"/api/games/{game_id}/moves", plain, token, legal["version"])
    else:
        raise AssertionError("no move needed a seal converted")
    index = next(i for i, move in enumerate(legal["moves"]) if "convert" in move)
    choice, note = legal["choices"][index], legal["notes"][index]
    assert note.startswith("pay ") and choice["words"].endswith(f" — {note}"), choice
    assert choice["target"] and not choice["group"].startswith("Convert seals")
    open_recording(page, site, game_id, token)
    # the list: the move's button says how it is paid ("Diplomat room 2 (pay 3 coins) — pay 2 coins + 1 seal")
    listed = page.locator("#moves button.move", has_text=choice["words"])
    assert (
        listed.count() == 1
        and listed.is_visible()
        and listed.get_attribute("data-target") == choice["target"]
    )
    # the conversions: one group, folded, opened for a conversion made for its own sake
    folded = page.locator("#moves details.move-group.conversions")
    assert folded.count() == 1 and folded.get_attribute("open") is None
    assert folded.locator("summary").inner_text().startswith("Convert seals…")
    conversions = folded.locator("button.move")
    assert conversions.count() == sum(move["kind"] == "convert" for move in legal["moves"]) > 0
    assert not conversions.first.is_visible()
    folded.locator("summary").click()
    assert conversions.first.is_visible()
    assert page.locator("#prompt-bar-moves details.conversions:not([open])").count() == 1
    # the board: its part lit, a button named by the same words; one click converts and plays
    part = page.locator(f'#board .part.target[data-part="{choice["target"]}"]')
    assert part.get_attribute("role") == "button" and part.get_attribute("aria-label") == choice["words"]
    version = board_version(page)
    part.click()
    wait_past(page, version)
    last = api.call("GET", f"/api/games/{game_id}/timeline")["entries"][-1]
    assert last["kind"] == legal["moves"][index]["kind"] and " converts " in last["description"], last


def play_until_round(page: Any, round_number: int, most: int = 300) -> int:
    moves = 0
    for _ in range(most):
        coordinates = page.inner_text("#game-meta")
        if f"round {round_number}," in coordinates or page.locator("#end-banner:not([hidden])").count():
            break
        play_on_the_board(page)
        moves += 1
    return moves


def test_a_matcha_game_is_recorded_through_the_board(page: Any, site: Served, api: Api, shots: Path) -> None:
    game_id, token = api.seeded_game(["Aiko", "Ben"], seed=31, moves=0, expansions=["matcha"])
    open_recording(page, site, game_id, token)
    assert play_until_round(page, 2) > 20
    # Matcha's parts are drawn, never shown as codes: the Tea Room, Himeji's decks, the Tea Garden and Tea House
    for part in (
        "tea_room:tea_room_left",
        "himeji:deck:ikebana",
        "tea_garden:entrance",
        "tea_house:tea_house_upper",
    ):
        assert page.locator(f'#board [data-part="{part}"]').count() == 1
    assert "round 2," in page.inner_text("#game-meta")
    page.screenshot(path=str(shots / "board-matcha-wide.png"), full_page=True)


def test_a_solo_game_is_recorded_through_the_board(page: Any, site: Served, api: Api, shots: Path) -> None:
    created = api.call(
        "POST", "/api/games", {"players": ["Aiko"], "solo": "medium", "mode": "seeded", "seed": 8}
    )
    game_id, token = created["game"]["game_id"], created["owner_token"]
    open_recording(page, site, game_id, token)
    assert play_until_round(page, 3) > 10
    assert page.locator("#board .domains svg").count() == 2  # the player's domain and the rival's sheet
    page.screenshot(path=str(shots / "board-solo-wide.png"), full_page=True)


def test_on_a_phone_the_board_shows_the_region_the_prompt_is_about_at_a_readable_size(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    game_id, token = api.seeded_game(["Aiko", "Ben"], seed=5, moves=0)
    api.play_first_moves(game_id, token, lambda legal: legal["prompt"]["kind"] == "place_die")
    open_recording(page, site, game_id, token, width=390)
    page.wait_for_selector("#board.narrow")
    assert page.get_attribute("#board", "data-region") == "castle"
    # no text of the region shown is drawn under 10 px
    # no text of the region shown (nor of the players' boards) is drawn under 10 px
    smallest = page.evaluate(
        """() => {
          const board = document.getElementById('board');
          const shown = [...board.querySelectorAll('svg text')].filter((t) => {
            const region = t.closest('[data-region]');
            return !region || region.getAttribute('data-region') === board.dataset.region;
          });
          const px = (t) => parseFloat(getComputedStyle(t).fontSize) * t.closest('svg').getScreenCTM().a;
          return Math.min(...shown.map(px));
        }"""
    )
    assert smallest >= 10
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 5000
    page.screenshot(path=str(shots / "board-phone.png"), full_page=False)
    # a die placed from the phone's board
    version = board_version(page)
    page.locator("#board .part.target").first.click()
    wait_past(page, version)
    # and the whole board a tap away
    page.get_by_role("button", name="Whole board").click()
    assert page.get_attribute("#board", "data-region") == "all"
