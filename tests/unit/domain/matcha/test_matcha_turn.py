"""Matcha turns and spaces (R-M02..R-M05, with R-T05, R-E01, R-P05/C.6): 4 turns per player per round, green
dice, the Tea Room and the Himeji Principality."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import domain
from domain.prompts import GeishaAction
from domain.state import Die, Space
from domain.vocabulary import Colour, MatchaColour

from ..helpers import answers_of, at_turn, play, with_bridge, with_player
from .helpers import board, matcha_game, matcha_standard, menu_ids, prompt, with_matcha

TAKE_GREEN = {"kind": "take_die", "seat": 0, "bridge": "green", "end": "left"}


def place(space: str, seat: int = 0) -> dict[str, object]:
    return {"kind": "place_die", "seat": seat, "space": space}


def test_R_M02_four_turns_per_player_per_round_and_the_round_ends_at_four_dice() -> None:
    rng = random.Random(5)
    state = domain.new_game(3, seed=5, expansions=["matcha"])
    turns: Counter[tuple[int, int]] = Counter()
    while not domain.is_over(state):
        legal = domain.legal_moves(state)
        move = rng.choice(legal)
        if move["kind"] == "take_die":
            turns[(state.round, move["seat"])] += 1
        before = state.round
        state = domain.apply(state, move)
        if state.round != before:
            assert turns[(before, 0)] == 4
    assert turns == {(r, s): 4 for r in (1, 2, 3) for s in range(3)}
    assert sum(bridge.count() for bridge in state.board.bridges) == 4  # R-E01 with Matcha: 4 dice left
    assert domain.coordinates(state).turn == 4


def test_R_T05_a_die_from_the_green_bridges_left_end_gives_the_lantern_reward() -> None:
    state = matcha_standard()
    pearl = state.players[0].pearl
    state = play(state, TAKE_GREEN, place("well"))  # SR3's lantern icon: 1 pearl
    assert state.players[0].pearl == pearl + 1
    right = play(matcha_standard(), {**TAKE_GREEN, "end": "right"}, place("well"))
    assert right.players[0].pearl == pearl


def test_R_M03_green_dice_never_go_to_a_castle_room() -> None:
    state = play(matcha_standard(), TAKE_GREEN)
    spaces = [move["space"] for move in answers_of(state, "place_die")]
    assert spaces == [
        "outside_1",
        "outside_2",
        "tea_room_left",
        "tea_room_right",
        "himeji_upper",
        "himeji_lower",
        "well",
        "domain",
    ]
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, place("steward_1"))
    assert error.value.rule == "R-M03"


def test_R_M03_any_colour_may_use_the_tea_room_and_himeji() -> None:
    state = play(matcha_standard(), {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"})
    spaces = {move["space"] for move in answers_of(state, "place_die")}
    assert {"tea_room_left", "tea_room_right", "himeji_upper", "himeji_lower"} <= spaces


def test_R_M04_a_die_in_the_tea_room_is_settled_against_its_value_then_the_geisha_action() -> None:
    state = with_player(matcha_standard(), 0, coins=5)
    state = play(state, {**TAKE_GREEN, "end": "right"}, place("tea_room_left"))  # a 6 on the space showing 1
    assert state.players[0].coins == 10
    assert prompt(state)["kind"] == "geisha"
    assert isinstance(state.stack[-1], GeishaAction)
    assert board(state).tea_room[0].dice == (Die(MatchaColour.GREEN, 6, 0),)


def test_R_M04_mas_example_a_black_1_on_a_white_4_pays_3_then_lantern_then_geisha() -> None:
    state = matcha_standard()
    white_4 = Space("tea_room_left", (Die(Colour.WHITE, 4, 1),))
    state = with_matcha(state, tea_room=(white_4, board(state).tea_room[1]))
    state = with_bridge(state, "black", [1, 3, 5, 6])
    state = with_player(state, 0, coins=3, pearl=0, seals=2)
    state = play(
        state, {"kind": "take_die", "seat": 0, "bridge": "black", "end": "left"}, place("tea_room_left")
    )
    player = state.players[0]
    assert (player.coins, player.pearl) == (0, 1)  # paid 3; SR3's Lantern Reward: 1 pearl
    assert prompt(state)["kind"] == "geisha"  # 2 seals can still become the 2 coins of Part A
    assert [die.value for die in board(state).tea_room[0].dice] == [4, 1]
    broke = with_player(state, 0, seals=0)
    assert domain.legal_moves(broke) == [{"kind": "done", "seat": 0}]


def test_R_M04_C6_one_die_on_top_at_three_or_four_players_never_at_two() -> None:
    state = at_turn(play(matcha_standard(), TAKE_GREEN, place("tea_room_right")), 1, 1)
    state = domain.apply(state, {"kind": "take_die", "seat": 1, "bridge": "green", "end": "left"})
    assert "tea_room_right" in {move["space"] for move in answers_of(state, "place_die")}
    state = play(state, place("tea_room_right", 1))
    state = at_turn(state, 2, 2)
    state = domain.apply(state, {"kind": "take_die", "seat": 2, "bridge": "green", "end": "left"})
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, place("tea_room_right", 2))
    assert error.value.rule == "R-M04"
    two = matcha_game(2)
    seat = prompt(two)["seat"]
    two = play(
        two, {"kind": "take_die", "seat": seat, "bridge": "green", "end": "left"}, place("himeji_upper", seat)
    )
    two = at_turn(two, 1 - seat, 1)
    two = domain.apply(two, {"kind": "take_die", "seat": 1 - seat, "bridge": "green", "end": "left"})
    assert "himeji_upper" not in {move["space"] for move in answers_of(two, "place_die")}
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(two, place("himeji_upper", 1 - seat))
    assert error.value.rule == "R-M05"


def test_R_M05_himeji_gives_the_two_curtains_opposite_the_space_in_any_order() -> None:
    # MA's example: a coral 2 on the lower space showing 5 pays 3, then 1 seal -> Gardener, and 2 iron.
    state = with_bridge(matcha_standard(), "coral", [2, 3, 5, 6])
    state = with_player(state, 0, coins=3, seals=1, iron=0, food=3)
    state = play(
        state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"}, place("himeji_lower")
    )
    assert state.players[0].coins == 0
    assert menu_ids(state) == ["calligraphy:yellow", "calligraphy:blue"]
    assert prompt(state)["options"][1]["cost"] == {"seal": 1}
    state = play(state, {"kind": "choose", "seat": 0, "option": "calligraphy:blue"})
    assert prompt(state)["kind"] == "gardener" and state.players[0].seals == 0
    state = play(state, {"kind": "gardener", "seat": 0, "garden": "coral_stone"})
    # the yellow curtain left is a free gain: it is taken without asking, and the turn ends
    assert state.players[0].iron == 2 and state.players[0].gardeners == 4
    assert prompt(state) == {"kind": "take_die", "seat": 1}


def test_R_M05_the_curtains_are_optional_and_the_blue_one_needs_its_seal() -> None:
    state = with_player(matcha_standard(), 0, seals=0, coins=9)
    state = play(state, TAKE_GREEN, place("himeji_upper"))
    assert menu_ids(state) == ["ikebana:yellow", "ikebana:blue"]
    assert {m.get("option") for m in answers_of(state, "choose")} == {"ikebana:yellow"}
    assert "done" in {m["kind"] for m in domain.legal_moves(state)}
    state = play(state, {"kind": "done", "seat": 0})
    assert prompt(state)["kind"] == "take_die"
