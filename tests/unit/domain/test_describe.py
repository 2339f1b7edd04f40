"""The log's words: every chosen option says where it came from in the rulebook's terms, never a menu id."""

from __future__ import annotations

import random
import re

import pytest

import domain
from domain.names import source_text


@pytest.mark.parametrize(
    ("title", "option", "words"),
    [
        ("castle:steward_2", "bottom", "steward room 2, bottom block"),
        ("castle:diplomat_1", "middle+bottom", "diplomat room 1, middle and bottom block"),
        ("light", "steward_3:middle", "a light-background action: steward room 3, middle block"),
        ("yard:yard_1", "blue", "the tiles of yard 1"),
        ("ceremony:tea_house_upper", "whisk:2", "the ceremony token of the upper Tea House room: 2 whisks"),
        ("arrival:steward_1", "top", "arriving in steward room 1: top block"),
        ("card:gardeners", "all", "their Action card, gardeners row"),
        ("outside:outside_1", "gardener", "Outside the Walls 1"),
        ("garden:white_plant", "white_plant", "the white plant garden"),
        ("tile:coral", "steward_1:top", "a coral die tile's action: steward room 1, top block"),
    ],
)
def test_a_chosen_option_names_its_source_in_words(title: str, option: str, words: str) -> None:
    assert source_text(title, option) == words


@pytest.mark.parametrize(
    ("title", "words"),
    [
        ("castle:steward_2", "steward room 2"),
        ("card:gardeners", "their Action card"),
        ("lantern", "the Lantern Reward"),
        ("ceremony:own", "their own ceremony token"),
        ("tile:any", "a die tile's action"),
    ],
)
def test_a_menu_alone_reads_as_its_place(title: str, words: str) -> None:
    assert source_text(title) == words


GAMES = [
    {"players": 3, "seed": 11},
    {"players": 4, "seed": 12, "expansions": ("matcha",)},
    {"players": ["Ana"], "seed": 13, "solo": "hard"},
]


@pytest.mark.parametrize("setup", GAMES, ids=["base", "matcha", "solo"])
def test_no_log_line_of_a_random_game_shows_a_menu_id(setup: dict) -> None:
    rng = random.Random(setup["seed"])
    setup = dict(setup)
    state = domain.new_game(setup.pop("players"), **setup)
    lines = []
    while not domain.is_over(state):
        move = rng.choice(domain.legal_moves(state))
        lines.append(domain.describe(state, move))
        state = domain.apply(state, move)
    machine_ids = re.compile(r"\b(castle|arrival|card|outside|garden|tile|himeji|yard|domain):[a-z]")
    assert [line for line in lines if machine_ids.search(line)] == []
