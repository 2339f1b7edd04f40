"""The Gardener action (R-GA01, R-GA02)."""

from __future__ import annotations

from dataclasses import replace

import pytest

import domain
from domain.prompts import GardenerAction

from .helpers import answers_of, play, standard, with_player

TO_OUTSIDE_1 = (
    {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"},
    {"kind": "place_die", "seat": 0, "space": "outside_1"},
    {"kind": "choose", "seat": 0, "option": "gardener"},
)


def with_gardeners(state: domain.GameState, garden: str, seats: tuple[int, ...]) -> domain.GameState:
    gardens = tuple(replace(s, gardeners=seats) if s.id == garden else s for s in state.board.gardens)
    return replace(state, board=replace(state.board, gardens=gardens))


def test_R_GA01_a_garden_with_your_gardener_is_closed_to_you_others_do_not_matter() -> None:
    state = with_player(standard(), 0, lantern=(), food=7, seals=0)
    state = with_gardeners(state, "coral_stone", (0,))
    state = with_gardeners(state, "black_stone", (1, 2))
    state = play(state, *TO_OUTSIDE_1)
    gardens = {m["garden"] for m in answers_of(state, "gardener")}
    assert gardens == {"coral_plant", "black_plant", "black_stone", "white_plant", "white_stone"}
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "gardener", "seat": 0, "garden": "coral_stone"})
    assert error.value.rule == "R-GA01"


def test_R_GA01_no_gardener_left_no_gardener_action() -> None:
    state = with_player(standard(), 0, lantern=(), food=7, gardeners=0)
    with pytest.raises(
        domain.IllegalMove
    ) as refused:  # 0.3.0: an action that could do nothing is not offered
        play(state, *TO_OUTSIDE_1)
    assert refused.value.rule == "R-GA01" and "no gardener left" in refused.value.message
    state = play(state, *TO_OUTSIDE_1[:2], {"kind": "choose", "seat": 0, "option": "courtier"})
    state = play(state, {"kind": "done", "seat": 0})
    assert domain.prompt_of(state)["seat"] == 1
    forced = with_player(replace(state, stack=(*state.stack, GardenerAction(1))), 1, gardeners=0, food=7)
    assert answers_of(forced, "gardener") == []
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(forced, {"kind": "gardener", "seat": 1, "garden": "coral_stone"})
    assert error.value.rule == "R-GA01"


def test_R_GA01_the_last_gardener_on_the_domain_may_still_go() -> None:
    state = with_player(standard(), 0, lantern=(), food=1, seals=0, gardeners=1)
    state = play(state, *TO_OUTSIDE_1)
    assert {m["garden"] for m in answers_of(state, "gardener")} == {"coral_stone"}
    state = play(state, {"kind": "gardener", "seat": 0, "garden": "coral_stone"})
    assert state.players[0].gardeners == 0


def test_R_GA01_the_leftmost_gardener_goes_paying_the_food() -> None:
    state = with_player(standard(), 0, lantern=(), food=2, seals=0)
    state = play(state, *TO_OUTSIDE_1)
    # coral_stone SG1 (1 food), black_stone SG3 (2 food) only
    assert {m["garden"] for m in answers_of(state, "gardener")} == {"coral_stone", "black_stone"}
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "gardener", "seat": 0, "garden": "white_stone"})
    assert error.value.rule == "R-GA01"
    state = play(state, {"kind": "gardener", "seat": 0, "garden": "black_stone"})
    assert (state.players[0].food, state.players[0].gardeners) == (0, 4)
    assert state.board.gardens[3].gardeners == (0,)


def test_R_GA02_then_the_card_action_with_its_coin_cost() -> None:
    state = with_player(standard(), 0, lantern=(), food=4, coins=5, pearl=0)
    state = play(state, *TO_OUTSIDE_1, {"kind": "gardener", "seat": 0, "garden": "coral_plant"})
    prompt = domain.prompt_of(state)
    assert prompt["title"] == "garden:coral_plant"  # PG2: pay 3 coins -> Courtier action
    assert {m["kind"] for m in domain.legal_moves(state)} >= {"choose", "done"}
    coins = state.players[0].coins
    state = play(state, {"kind": "choose", "seat": 0, "option": "coral_plant"})
    assert state.players[0].coins == coins - 3
    assert domain.prompt_of(state)["kind"] == "courtier"


def test_R_GA02_a_stone_garden_gain_is_immediate() -> None:
    state = with_player(standard(), 0, lantern=(), food=1, coins=0, seals=0)
    state = play(state, *TO_OUTSIDE_1, {"kind": "gardener", "seat": 0, "garden": "coral_stone"})
    assert state.players[0].coins == 1 + 3  # the die's coin (6 on 5), then SG1's 3 coins


def test_R_GA02_an_unaffordable_card_action_is_not_offered() -> None:
    state = with_player(standard(), 0, lantern=(), food=4, coins=0, seals=0)
    state = play(state, *TO_OUTSIDE_1)  # 6 on 5: 1 coin, and PG2 asks 3
    state = play(state, {"kind": "gardener", "seat": 0, "garden": "coral_plant"})
    assert domain.prompt_of(state)["seat"] == 1
