"""What people read names places as the board does, counts from 1 and names players: the prompts' questions
(`domain.prompt_text`), the log's lines (`domain.describe`) and the turn errors, over whole random games in
table mode (every chance outcome entered by hand, so every chance prompt is asked)."""

from __future__ import annotations

import functools
import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

import domain
from domain.state import GameState
from domain.turn import space_ids

from . import hypothesis_support as support
from .helpers import eager

INTERNAL = re.compile(
    r"\b[a-z]+_[a-z0-9_]+\b"  # a snake_case id: yard_tiles, offer_0, steward_2
    r"|\w:\w"  # an id with a part: yard_1:blue, offer_0:resource, castle:steward_2
    r"|\b(?:seat|pair|room|space|yard|spot) 0\b"  # counted from 0
    r"|\bpile\b|\(\d+, \d+\)"  # the engine's words for a deck, a raw tuple
)
"""What must never show in the words: the engine's ids, numbers counted from 0, raw tuples."""

TABLE_GAMES = [
    {"players": ["Aiko", "Ben", "Chloé"]},
    {"players": ["Aiko", "Ben", "Chloé", "Dan"], "expansions": ("matcha",)},
    {"players": ["Aiko", "Ben"], "options": {"first_game": True}},
    {"players": ["Aiko", "Ben"], "options": {"first_game": True}, "expansions": ("matcha",)},
    {"players": ["Aiko"], "solo": "hard"},
    {"players": ["Aiko"], "solo": "easy", "expansions": ("matcha",)},
]


def table_game(setup: dict) -> GameState:
    setup = dict(setup)
    return domain.new_game(setup.pop("players"), mode="table", **setup)


@functools.cache
def positions() -> tuple[GameState, ...]:
    """Every state of 12 random table-mode games of every variant, a pool to draw from."""
    games = ((seed, table_game(TABLE_GAMES[seed % len(TABLE_GAMES)])) for seed in range(12))
    return support.states_of_games(games, bias=0.7)


@support.settings_with(max_examples=300)
@given(support.drawn_from(positions), st.data())
def test_no_question_or_log_line_shows_an_internal_id(state: GameState, data: st.DataObject) -> None:
    question = domain.prompt_text(state)
    assert not INTERNAL.search(question), question
    if not domain.is_over(state):
        move = support.draw_legal_move(state, data)
        line = domain.describe(state, move)
        assert not INTERNAL.search(line), line


@pytest.mark.parametrize(
    "setup", TABLE_GAMES, ids=["base", "matcha", "first", "matcha-first", "solo", "tokugawa"]
)
def test_every_question_of_a_whole_table_game_is_in_words(setup: dict) -> None:
    rng, state = random.Random(3), table_game(setup)
    asked = []
    while not domain.is_over(state):
        asked.append(domain.prompt_text(state))
        state = domain.apply(state, eager(rng, domain.legal_moves(state), 0.7))
    assert [text for text in asked if INTERNAL.search(text)] == []
    assert asked[-1] != domain.prompt_text(state) == "The game is over"


def until(state: GameState, kind: str, pick: int = 0) -> GameState:
    """`state` advanced (by the `pick`-th legal move each time) to the first prompt of `kind`."""
    while domain.prompt_of(state)["kind"] != kind:
        state = domain.apply(state, domain.legal_moves(state)[pick])
    return state


def questions_until(state: GameState, stop: str) -> list[str]:
    asked = []
    while domain.prompt_of(state)["kind"] != stop:
        asked.append(domain.prompt_text(state))
        state = domain.apply(state, domain.legal_moves(state)[0])
    return asked


def test_the_setup_deals_name_their_places_counted_from_1() -> None:
    asked = questions_until(table_game({"players": ["Aiko", "Ben"]}), "choose_start")
    assert "Chance: which steward card was revealed for steward room 1?" in asked
    assert "Chance: which yard tile was revealed for the blue tile space of yard 1 (5 iron)?" in asked
    assert "Chance: which yard tile was revealed for the yellow tile space of yard 3 (1 iron)?" in asked
    assert "Chance: which plant garden card was revealed for the coral plant garden?" in asked
    assert "Chance: which Starting Resource card was revealed for starting pair 1?" in asked
    assert "Chance: which Starting Action card was revealed for starting pair 3?" in asked
    assert not any("pair 0" in text or "pair 4" in text for text in asked)


def test_each_die_tile_question_names_the_castle_space_it_fills() -> None:
    asked = questions_until(table_game({"players": ["Aiko", "Ben"]}), "choose_start")
    tiles = [text for text in asked if "die tile was drawn" in text]
    assert (
        tiles[0] == "Chance: which colour of die tile was drawn for the castle's ♦ space in steward room 1?"
    )
    assert "Chance: which colour of die tile was drawn for the castle's space 4, in diplomat room 1?" in tiles
    assert len(tiles) == len(set(tiles))  # each asks for its own space, never the same question twice


def test_a_revealed_card_reads_as_the_board_names_its_place() -> None:
    state = until(table_game({"players": ["Aiko", "Ben"]}), "reveal")
    while domain.prompt_of(state).get("target") != "yard_3:yellow":
        state = domain.apply(state, domain.legal_moves(state)[0])
    move = domain.legal_moves(state)[0]
    assert domain.describe(state, move) == (
        f"Chance: yard tile {move['card']} is revealed for the yellow tile space of yard 3 (1 iron)"
    )


def test_a_die_tile_drawn_names_the_space_it_is_laid_on() -> None:
    state = until(table_game({"players": ["Aiko", "Ben"]}), "die_tile")
    move = domain.legal_moves(state)[0]
    assert domain.describe(state, move) == (
        f"Chance: a {move['colour']} die tile is drawn for the castle's ♦ space in steward room 1"
    )


def test_a_move_of_the_wrong_seat_names_both_players_counted_from_1() -> None:
    state = until(domain.new_game(["Aiko", "Ben"], seed=4), "take_die")
    waited = domain.prompt_of(state)["seat"]
    other = 1 - waited
    names = ["Aiko", "Ben"]
    with pytest.raises(domain.NotYourTurn) as error:
        domain.apply(state, {"kind": "take_die", "seat": other, "bridge": "coral", "end": "left"})
    assert error.value.message == (
        f"it is {names[waited]}'s turn (seat {waited + 1}), not {names[other]}'s (seat {other + 1})"
    )
    assert error.value.code == "not_your_turn"


def test_a_seat_in_words_is_its_player_and_its_number_counted_from_1() -> None:
    state = domain.new_game(["Aiko", "Ben"], seed=4)
    assert domain.seat_text(state, 1) == "Ben (seat 2)"
    assert domain.seat_text(state, 0, "'s turn") == "Aiko's turn (seat 1)"
    assert domain.seat_text(state, 2) == "seat 3"  # a seat the game does not have: its number alone
    assert domain.seat_text(state, 2, "'s") == "seat 3's"


def test_a_player_answering_chance_is_named_with_the_seat_counted_from_1() -> None:
    state = table_game({"players": ["Aiko", "Ben"]})
    assert domain.prompt_of(state)["seat"] is None
    with pytest.raises(domain.NotYourTurn) as error:
        domain.apply(state, {"kind": "take_die", "seat": 1, "bridge": "coral", "end": "left"})
    assert error.value.message.startswith("chance decides now, not Ben (seat 2): Chance: ")


def test_a_move_that_answers_another_prompt_quotes_the_question() -> None:
    state = until(domain.new_game(["Aiko", "Ben"], seed=4), "take_die")
    seat = domain.prompt_of(state)["seat"]
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "place_die", "seat": seat, "space": "well"})
    name = ["Aiko", "Ben"][seat]
    assert error.value.message == (
        f"this move does not answer what the game asks now: {name}: take a die from the end of a bridge"
    )
    assert error.value.rule == "R-T02" and error.value.details["prompt"] == "take_die"
    with pytest.raises(domain.IllegalMove) as chance:
        domain.apply(state, {"kind": "roll", "seat": None, "bridge": "coral", "dice": [1, 2, 3]})
    assert chance.value.message.startswith(f"it is {name}'s turn (seat {seat + 1}), not chance's: ")


def test_no_refused_placement_names_a_space_by_its_id() -> None:
    # Every space tried with the held die, in every placement of the pool: what a refusal says is in words
    # ("steward room 2 is full", never "steward_2 is full").
    placements = [state for state in positions() if domain.prompt_of(state)["kind"] == "place_die"]
    refusals = []
    for state in placements[:150]:
        seat = domain.prompt_of(state)["seat"]
        for space in space_ids(state):
            try:
                domain.apply(state, {"kind": "place_die", "seat": seat, "space": space})
            except domain.IllegalMove as error:
                refusals.append(error.message)
    assert len(set(refusals)) >= 10  # full spaces, missing tile colours, costs: enough kinds were refused
    assert [message for message in refusals if INTERNAL.search(message)] == []


def board_parts(state: GameState) -> list[tuple[str, str]]:
    """Every (kind, id) an annotation may point at on this board, as the replay page lists them."""
    board = state.board
    parts = [("passage_of_time", ""), ("daimyo", ""), ("well", "")]
    parts += [("room", room.id) for room in board.rooms]
    parts += [("bridge", str(bridge.colour)) for bridge in board.bridges]
    parts += [("garden", slot.id) for slot in board.gardens]
    parts += [("yard", yard.id) for yard in board.yards] + [("outside", spot.id) for spot in board.outside]
    parts += [("domain", str(seat)) for seat in range(len(state.players))]
    if board.matcha:
        matcha = board.matcha
        parts += [("tea_room", item.id) for item in matcha.tea_room]
        parts += [("himeji", item.id) for item in matcha.himeji]
        path = [f"path_{index + 1}" for index in range(len(matcha.path))]
        parts += [("tea_garden", spot) for spot in ("entrance", "viewing_platform", *path)]
        parts += [("tea_house", room.id) for room in matcha.tea_house]
    return parts


@pytest.mark.parametrize("expansions", [(), ("matcha",)], ids=["base", "matcha"])
def test_every_part_an_annotation_points_at_is_named_in_words(expansions: tuple[str, ...]) -> None:
    state = domain.new_game(["Aiko", "Ben", "Chloé", "Dan"], seed=3, expansions=expansions)
    words = {part: domain.part_text(state, *part) for part in board_parts(state)}
    for part, text in words.items():
        assert not INTERNAL.search(text) and "_" not in text, (part, text)
    assert len(set(words.values())) == len(words)  # no two parts read the same
    assert words[("room", "steward_1")] == "steward room 1"
    assert words[("garden", "coral_plant")] == "the coral plant garden"
    assert words[("yard", "yard_2")] == "training yard 2"
    assert words[("domain", "1")] == "Ben's domain (seat 2)"
    assert words[("bridge", "black")] == "the black bridge"
    assert domain.part_text(state, "garden", "g9") == "garden g9"  # not on this board: kept as it is
