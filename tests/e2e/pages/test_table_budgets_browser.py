"""A table already laid out, entered as a person at the table enters it, in a real Chromium, every click and key
press counted: from the home page's "New game" to the first die taken, within the budgets of the pages docs
(docs/pages/new-game.md): a 3-player base game in at most 90 inputs, a 2-player Matcha game in at most 130, a solo
game in at most 70; and a card revealed mid-game in at most 2.

Each table is the deal of a seed no other test uses, read off the board the engine lays out for it (so the layout
is one the rules take); the person enters it field by field: the dice typed, the turn order tapped, each card
picked by its picture as the picker walks from field to field, each die tile's colour tapped (none where the
rules leave one colour), then creates the game, opens the recording screen, takes the starting pairs on the board
and the first die.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import domain
from tests.e2e.conftest import Served
from tests.e2e.pages.conftest import Api, no_horizontal_scroll

pytestmark = pytest.mark.browser

WIDE = {"width": 1366, "height": 900}
BUDGETS = {"base-3": 90, "matcha-2": 130, "solo": 70}
"""The most inputs each table may take from "New game" to its first die taken (docs/pages/new-game.md)."""
REVEAL_BUDGET = 2
VERSION = "Number(document.getElementById('board').dataset.version)"
"""The version of the game the recording screen shows (JavaScript)."""


class Person:
    """A person at the table: each click and each key press is one input, counted."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.log: list[str] = []

    def click(self, locator: Any, what: str) -> None:
        locator.click()
        self.log.append(what)

    def keys(self, text: str, what: str) -> None:
        for key in text:
            self.page.keyboard.press(key)
            self.log.append(f"{what}: {key}")

    def select(self, locator: Any, value: str, what: str) -> None:
        """A native select: opened with one click, an option chosen with another."""
        locator.select_option(value)
        self.log.extend([f"{what}: open", f"{what}: {value}"])

    @property
    def count(self) -> int:
        return len(self.log)


def dealt_layout(players: list[str], seed: int, **setup: Any) -> dict[str, Any]:
    """The layout the engine deals for this seed: a table as it lies before anyone opens a laptop."""
    state = domain.new_game(players, mode="table", seed=seed, draw=False, **setup)
    return dict(domain.layout_of(domain.lay_out(state, {}, draw_rest=True).state))


def value_at(layout: dict[str, Any], field: str) -> Any:
    value: Any = layout
    for key in field.split("."):
        value = value[int(key)] if isinstance(value, list) else value[key]
    return value


def choices_settled(page: Any) -> None:
    page.wait_for_selector("#layout-fields[data-choices=fresh]")


def enter_dice_and_stack(page: Any, person: Person, layout: dict[str, Any], names: list[str]) -> None:
    colours = [colour for colour in ("coral", "black", "white", "green") if colour in layout["dice"]]
    person.click(page.locator(f"#f-dice-{colours[0]}"), "the first bridge's dice")
    for colour in colours:  # a full bridge hands the typing to the next one
        person.keys("".join(map(str, layout["dice"][colour])), f"{colour} dice")
    if "stack" in layout:
        stack = page.locator(".stack-field")
        for seat in layout["stack"][:-1]:  # the last one follows by itself
            person.click(stack.get_by_role("button", name=names[seat], exact=True), f"stack: {names[seat]}")
        first = names[layout["stack"][0]]
        assert page.locator(".stack-field .chosen").inner_text().startswith(f"First to play: {first}")


def enter_cards(page: Any, person: Person, layout: dict[str, Any]) -> None:
    """The first card slot tapped, then each card picked by its picture as the picker walks on to the next field."""
    person.click(page.locator(".card-slot .slot").first, "open the picker")
    dialog = page.locator("#picker")
    while dialog.evaluate("d => d.open"):
        field = dialog.get_attribute("data-field")
        card = value_at(layout, field)
        person.click(dialog.locator(f".pick-card[data-id='{card}']"), f"{field}: {card}")
        page.wait_for_function(
            "f => !document.getElementById('picker').open || document.getElementById('picker').dataset.field !== f",
            arg=field,
        )
    choices_settled(page)


def enter_die_tiles(page: Any, person: Person, layout: dict[str, Any]) -> None:
    for room, colours in layout["die_tiles"].items():
        for position, colour in enumerate(colours):
            choices_settled(page)
            space = page.locator(f"[data-field='die_tiles.{room}'] .space[data-space='{position}']")
            button = space.locator(f"button[data-colour='{colour}']")
            if button.get_attribute("aria-pressed") == "true":
                continue  # the rules left this colour only: it is laid already
            person.click(button, f"{room} tile {position + 1}: {colour}")
    choices_settled(page)


def create_and_open(page: Any, person: Person, api: Api, layout: dict[str, Any]) -> str:
    person.click(page.get_by_role("button", name="Create the game"), "Create the game")
    page.wait_for_selector("#created:not([hidden]), #form-error:not(:empty)")
    assert page.locator("#form-error").inner_text() == ""
    person.click(page.locator("#record-link"), "Open the recording screen")
    page.wait_for_selector("#board[data-version]")
    game_id = page.url.rstrip("/").split("/")[-1].split("#")[0]
    laid = api.call("GET", f"/api/games/{game_id}/layout")
    assert laid["complete"]
    for section, value in layout.items():  # the table as it lies, entered whole
        assert laid["layout"][section] == value, section
    return game_id


def settled(page: Any, api: Api, game_id: str) -> dict[str, Any]:
    legal = api.call("GET", f"/api/games/{game_id}/legal-moves")
    page.wait_for_function(
        f"v => !document.querySelector('#app[aria-busy=true]') && {VERSION} === v", arg=legal["version"]
    )
    return dict(legal)


def play_to_the_first_die(page: Any, person: Person, api: Api, game_id: str) -> None:
    """The starting choices taken on the board (or in the bar over it, for a question with no place there), then
    the first die taken from a bridge."""
    for _ in range(20):
        legal = settled(page, api, game_id)
        if legal["prompt"]["kind"] == "take_die":
            break
        target = page.locator("#board [data-part].target").first
        if target.count():
            person.click(target, f"{legal['prompt']['kind']}: on the board")
        else:
            answer = page.locator("#prompt-bar-moves button:not([disabled])").first
            person.click(answer, f"{legal['prompt']['kind']}: in the bar")
        page.wait_for_function(f"v => {VERSION} > v", arg=legal["version"])
    else:
        raise AssertionError("the starting choices never ended")
    person.click(page.locator("#board [data-part^='bridge:'].target").first, "the first die")
    page.wait_for_function(f"v => {VERSION} > v", arg=legal["version"])
    assert api.call("GET", f"/api/games/{game_id}/legal-moves")["prompt"]["kind"] == "place_die"


def enter_a_laid_out_table(
    page: Any, site: Served, api: Api, table: tuple[list[str], dict[str, Any]], choose: Any
) -> Person:
    names, layout = table
    person = Person(page)
    page.goto(site.url + "/")
    person.click(page.locator("header.site").get_by_role("link", name="New game"), "New game")
    page.wait_for_selector("#layout-fields[data-choices=fresh]")
    choose(person)
    choices_settled(page)
    assert page.is_checked("#mode-table")
    enter_dice_and_stack(page, person, layout, names)
    enter_cards(page, person, layout)
    enter_die_tiles(page, person, layout)
    assert no_horizontal_scroll(page)
    game_id = create_and_open(page, person, api, layout)
    play_to_the_first_die(page, person, api, game_id)
    return person


def test_a_three_player_base_table_already_laid_out_is_entered_within_90_inputs(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    names = ["Player 1", "Player 2", "Player 3"]
    layout = dealt_layout(names, 3501)
    page.set_viewport_size(WIDE)

    def three(person: Person) -> None:
        person.click(page.get_by_role("button", name="3 players"), "3 players")
        page.wait_for_selector("#layout-fields[data-query='players=3']")

    person = enter_a_laid_out_table(page, site, api, (names, layout), three)
    print(
        f"\n3-player base table, New game to the first die: {person.count} inputs (budget {BUDGETS['base-3']})"
    )
    assert person.count <= BUDGETS["base-3"], json.dumps(person.log)


def test_a_two_player_matcha_table_already_laid_out_is_entered_within_130_inputs(
    page: Any, site: Served, api: Api
) -> None:
    names = ["Player 1", "Player 2"]
    layout = dealt_layout(names, 3502, expansions=["matcha"])
    page.set_viewport_size(WIDE)

    def two_with_matcha(person: Person) -> None:
        person.click(page.get_by_role("button", name="2 players"), "2 players")
        person.click(page.get_by_label("Matcha"), "Matcha")
        page.wait_for_selector("#layout-fields[data-query='players=2&expansions=matcha']")

    person = enter_a_laid_out_table(page, site, api, (names, layout), two_with_matcha)
    print(
        f"\n2-player Matcha table, New game to the first die: {person.count} inputs (budget {BUDGETS['matcha-2']})"
    )
    assert person.count <= BUDGETS["matcha-2"], json.dumps(person.log)


def test_a_solo_table_already_laid_out_is_entered_within_70_inputs(page: Any, site: Served, api: Api) -> None:
    names = ["Player 1"]
    layout = dealt_layout(names, 3503, solo="easy")
    page.set_viewport_size(WIDE)

    def solo(person: Person) -> None:
        person.select(page.locator("#solo"), "easy", "solo")
        page.wait_for_selector("#layout-fields[data-query='players=1&solo=easy']")

    person = enter_a_laid_out_table(page, site, api, (names, layout), solo)
    print(f"\nsolo table, New game to the first die: {person.count} inputs (budget {BUDGETS['solo']})")
    assert person.count <= BUDGETS["solo"], json.dumps(person.log)


def test_a_card_revealed_mid_game_is_picked_by_its_picture_in_at_most_2_inputs(
    page: Any, site: Served, api: Api, shots: Path
) -> None:
    created = api.call(
        "POST",
        "/api/games",
        {"players": ["Aiko", "Ben", "Chie"], "mode": "table", "layout": {}, "draw_rest": True, "seed": 3511},
    )
    game_id, token = created["game"]["game_id"], created["owner_token"]
    legal = api.play_first_moves(game_id, token, lambda legal: legal["prompt"]["kind"] == "reveal")
    assert legal["prompt"]["kind"] == "reveal" and legal["version"] > 2, legal["prompt"]
    offered = [move["card"] for move in legal["moves"]]
    card = offered[len(offered) // 2]
    page.set_viewport_size(WIDE)
    page.goto(f"{site.url}/games/{game_id}#token={token}")
    picker = page.locator("#prompt-bar .reveal-picker")
    picker.wait_for()
    assert picker.locator(".pick-card").count() == len(offered)  # only the cards that may be revealed
    assert picker.locator(".pick-card svg.card-picture").count() == len(offered)  # each drawn
    page.screenshot(path=str(shots / "record-table-card-picker.png"))
    person = Person(page)
    person.click(picker.locator(f".pick-card[data-id='{card}']"), f"the card revealed: {card}")
    page.wait_for_function(f"v => {VERSION} > v", arg=legal["version"])
    after = api.call("GET", f"/api/games/{game_id}/timeline")["entries"][-1]
    assert card in after["description"]
    assert person.count <= REVEAL_BUDGET, person.log
