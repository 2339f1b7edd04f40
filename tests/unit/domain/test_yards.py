"""The Warrior action and the training yards (R-WA01..R-WA04)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import domain
from domain.prompts import WarriorAction

from .helpers import answers_of, kinds, play, standard, with_player

TO_OUTSIDE_2 = (
    {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"},
    {"kind": "place_die", "seat": 0, "space": "outside_2"},
    {"kind": "choose", "seat": 0, "option": "warrior"},
)


def warrior_prompt(**player: object) -> domain.GameState:
    state = with_player(standard(), 0, lantern=(), **player)
    return play(state, *TO_OUTSIDE_2)


def test_R_WA01_the_leftmost_warrior_leaves_the_domain() -> None:
    state = warrior_prompt(iron=1)
    state = play(state, {"kind": "warrior", "seat": 0, "yard": "yard_3"})
    assert state.players[0].warriors == 4
    assert state.board.yards[2].warriors == (0,)


def test_R_WA01_no_warrior_left_no_warrior_action() -> None:
    state = with_player(standard(), 0, lantern=(), iron=5, warriors=0)
    with pytest.raises(
        domain.IllegalMove
    ) as refused:  # 0.3.0: an action that could do nothing is not offered
        play(state, *TO_OUTSIDE_2)
    assert refused.value.rule == "R-WA01" and "no warrior left" in refused.value.message
    state = play(state, *TO_OUTSIDE_2[:2], {"kind": "choose", "seat": 0, "option": "courtier"})
    state = play(state, {"kind": "done", "seat": 0})
    assert domain.prompt_of(state)["seat"] == 1
    forced = replace(state, stack=(*state.stack, WarriorAction(1)))
    forced = with_player(forced, 1, warriors=0, iron=7)
    assert answers_of(forced, "warrior") == []
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(forced, {"kind": "warrior", "seat": 1, "yard": "yard_3"})
    assert error.value.rule == "R-WA01"


def test_R_WA01_the_last_warrior_on_the_domain_may_still_go() -> None:
    state = warrior_prompt(iron=1, warriors=1)
    assert [m["yard"] for m in answers_of(state, "warrior")] == ["yard_3"]
    state = play(state, {"kind": "warrior", "seat": 0, "yard": "yard_3"})
    assert state.players[0].warriors == 0
    assert state.board.yards[2].warriors == (0,)


def test_R_WA02_any_yard_paying_its_iron() -> None:
    state = warrior_prompt(iron=3, seals=0)
    assert [m["yard"] for m in answers_of(state, "warrior")] == ["yard_2", "yard_3"]
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "warrior", "seat": 0, "yard": "yard_1"})
    assert error.value.rule == "R-WA02"
    state = play(state, {"kind": "warrior", "seat": 0, "yard": "yard_2"})
    assert state.players[0].iron == 0


def test_R_WA03_a_yard_holds_any_number_of_warriors_several_of_one_player() -> None:
    state = warrior_prompt(iron=7)
    yards = list(state.board.yards)
    yards[2] = replace(yards[2], warriors=(1, 2, 0, 1))
    state = replace(state, board=replace(state.board, yards=tuple(yards)))
    state = play(state, {"kind": "warrior", "seat": 0, "yard": "yard_3"})
    assert state.board.yards[2].warriors == (1, 2, 0, 1, 0)


def test_R_WA04_the_two_token_yard_gives_its_blue_action_and_yellow_reward_in_any_order() -> None:
    state = warrior_prompt(iron=5, coins=5)
    state = play(state, {"kind": "warrior", "seat": 0, "yard": "yard_1"})
    prompt = domain.prompt_of(state)
    assert prompt["title"] == "yard:yard_1" and prompt["mandatory"]
    assert [m["option"] for m in answers_of(state, "choose")] == ["Y1:blue", "Y2:yellow"]
    assert "rest" in kinds(state) and "done" not in kinds(state)
    state = play(state, {"kind": "choose", "seat": 0, "option": "Y2:yellow"})  # PoT +2 first
    assert state.players[0].pot == 2
    assert domain.prompt_of(state)["kind"] == "courtier"  # then Y1: the Courtier action


def test_R_WA04_a_one_tile_yard_gives_its_tile() -> None:
    state = warrior_prompt(iron=1, food=0)
    state = play(state, {"kind": "warrior", "seat": 0, "yard": "yard_3"})  # Y3 yellow: 3 food
    assert state.players[0].food == 3
