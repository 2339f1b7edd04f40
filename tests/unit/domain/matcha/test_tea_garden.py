"""The Geisha action and the Tea Garden (R-M06..R-M10, R-M13): Part A and Part B, directions, capacities,
the Viewing Platform's Pond action and the Tea House; MA's three examples."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import domain
from domain.prompts import GeishaAction
from domain.state import GameState

from ..helpers import answers_of, kinds, play, with_player
from .helpers import board, matcha_standard, menu_ids, prompt, with_matcha

SEND = {"kind": "send_geisha", "seat": 0}
DONE = {"kind": "done", "seat": 0}


def advance(origin: str, to: str, seat: int = 0) -> dict[str, Any]:
    return {"kind": "advance_geisha", "seat": seat, "from": origin, "to": to}


def geisha_prompt(state: GameState, seat: int = 0, **player: Any) -> GameState:
    """Open a Geisha action for `seat` on top of the current state."""
    state = with_player(state, seat, **player) if player else state
    return replace(state, stack=(*state.stack, GeishaAction(seat, False, False)))


def board_with(state: GameState, **changes: Any) -> Any:
    return with_matcha(state, **changes).board


def with_tea_house(state: GameState, **rooms: tuple[int, ...]) -> GameState:
    tea_house = tuple(
        replace(room, geishas=rooms.get(room.id, room.geishas)) for room in board(state).tea_house
    )
    return with_matcha(state, tea_house=tea_house)


def test_R_M06_both_parts_in_either_order_each_once_same_or_different_geishas() -> None:
    state = geisha_prompt(matcha_standard(), coins=4, whisks=4, seals=0)
    state = play(state, SEND)
    assert "send_geisha" not in kinds(state)  # Part A at most once
    state = play(state, advance("entrance", "path_1"))  # the same geisha
    assert prompt(state)["kind"] == "himeji_card"
    state = play(state, {"kind": "himeji_card", "seat": 0, "deck": "calligraphy"})
    assert prompt(state)["kind"] != "geisha"  # both parts done: the action is over
    # Part B first, then Part A, with different geishas
    state = geisha_prompt(
        with_matcha(matcha_standard(), entrance=(0,)), coins=4, whisks=4, seals=0, geishas=4
    )
    state = play(state, advance("entrance", "viewing_platform"), {"kind": "done", "seat": 0})
    assert "send_geisha" in kinds(state) and "advance_geisha" not in kinds(state)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, advance("entrance", "path_1"))
    assert error.value.rule == "R-M06"
    state = play(state, SEND)
    assert board(state).entrance == (0,) and board(state).platform == (0,)


def test_R_M07_part_a_sends_the_leftmost_geisha_to_the_entrance_for_two_coins() -> None:
    state = geisha_prompt(matcha_standard(), coins=2, seals=0, whisks=0)
    state = play(state, SEND)
    assert (state.players[0].coins, state.players[0].geishas, board(state).entrance) == (0, 4, (0,))
    poor = geisha_prompt(matcha_standard(), coins=1, seals=0, whisks=0)
    assert domain.legal_moves(poor) == [DONE]
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(poor, SEND)
    assert error.value.rule == "R-M07"
    nobody = geisha_prompt(matcha_standard(), coins=9, geishas=0, whisks=0)
    assert "send_geisha" not in kinds(nobody)


def test_R_M07_the_entrance_takes_any_number_of_geishas_of_any_clans() -> None:
    state = with_matcha(matcha_standard(), entrance=(0, 0, 1, 1, 2))
    state = play(geisha_prompt(state, coins=2, geishas=3, whisks=0), SEND)
    assert board(state).entrance == (0, 0, 0, 1, 1, 2)


def test_R_M08_one_step_costs_two_whisks_two_steps_five_by_one_geisha() -> None:
    state = with_matcha(matcha_standard(), entrance=(0,))
    state = geisha_prompt(state, whisks=4, coins=0, seals=0)
    assert {(m["from"], m["to"]) for m in answers_of(state, "advance_geisha")} == {
        ("entrance", "viewing_platform"),
        ("entrance", "path_1"),
    }
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, advance("entrance", "path_2"))
    assert error.value.rule == "R-M08" and "5 whisks" in error.value.message
    state = play(with_player(state, 0, whisks=5), advance("entrance", "path_2"))
    assert state.players[0].whisks == 0 and board(state).path == ((), (0,))


def test_R_M08_whisks_can_come_from_seals_while_the_action_waits_R_M15() -> None:
    state = geisha_prompt(with_matcha(matcha_standard(), entrance=(0,)), whisks=1, coins=0, seals=2)
    assert "advance_geisha" not in kinds(state)
    state = play(state, {"kind": "convert", "seat": 0, "to": "whisk"})
    assert state.players[0].whisks == 2 and "advance_geisha" in kinds(state)


def test_R_M09_directions_the_platform_is_a_dead_end_and_the_path_goes_on() -> None:
    state = with_matcha(matcha_standard(), entrance=(0,), platform=(1,), path=((0,), (0,)))
    state = with_tea_house(state, tea_house_upper=(0,))
    moves = {
        (m["from"], m["to"])
        for m in answers_of(geisha_prompt(state, whisks=5, coins=0, seals=0), "advance_geisha")
    }
    assert moves == {
        ("entrance", "viewing_platform"),
        ("entrance", "path_1"),
        ("entrance", "path_2"),
        ("path_1", "path_2"),
        *(("path_1", room) for room in ("tea_house_upper", "tea_house_middle", "tea_house_lower")),
        *(("path_2", room) for room in ("tea_house_upper", "tea_house_middle", "tea_house_lower")),
    }
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(geisha_prompt(state, whisks=5), advance("path_2", "path_1"))
    assert error.value.rule == "R-M09"
    on_platform = geisha_prompt(with_matcha(matcha_standard(), platform=(0,)), whisks=5, coins=0, seals=0)
    assert "advance_geisha" not in kinds(on_platform)


def test_R_M09_the_viewing_platform_holds_one_geisha_per_clan_the_path_spaces_any_number() -> None:
    state = with_matcha(matcha_standard(), entrance=(0, 0), platform=(0, 1), path=((0, 1, 2), ()))
    state = geisha_prompt(state, whisks=2, coins=0, seals=0)
    assert {(m["from"], m["to"]) for m in answers_of(state, "advance_geisha")} == {
        ("entrance", "path_1"),
        ("path_1", "path_2"),
    }
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, advance("entrance", "viewing_platform"))
    assert error.value.rule == "R-M09"
    state = play(
        state, advance("entrance", "path_1"), {"kind": "himeji_card", "seat": 0, "deck": "calligraphy"}
    )
    assert board(state).path[0] == (0, 0, 1, 2)


def test_R_M09_only_the_place_where_the_geisha_stops_acts() -> None:
    # food: CA1's blue curtain (1 seal -> Gardener action) can be done, so the curtains are asked (0.3.0)
    state = geisha_prompt(with_matcha(matcha_standard(), entrance=(0,)), whisks=5, coins=0, seals=1, food=5)
    state = play(state, advance("entrance", "path_2"))  # passes path space 1 without taking a card
    assert prompt(state)["kind"] == "actions" and prompt(state)["title"] == "path_2"
    assert [deck.top for deck in board(state).decks] == ["IK1", "CA1"]


def test_R_M10_the_pond_action_is_three_lily_pads_or_three_coins_for_the_platform_token() -> None:
    state = geisha_prompt(
        with_matcha(matcha_standard(), entrance=(0, 0)), whisks=2, coins=3, seals=0, geishas=3
    )
    state = play(state, advance("entrance", "viewing_platform"))
    assert menu_ids(state) == ["lily_pads", "ceremony"] and prompt(state)["options"][1]["cost"] == {"coin": 3}
    pads = play(state, {"kind": "choose", "seat": 0, "option": "lily_pads"})
    assert (pads.players[0].coins, pads.players[0].whisks, pads.players[0].food) == (5, 1, 1)  # LP1-LP3
    token = play(state, {"kind": "choose", "seat": 0, "option": "ceremony"})  # CT13: a free step
    assert token.players[0].coins == 0 and prompt(token)["kind"] == "geisha"
    assert prompt(token)["free_step"] is True
    assert [(m["from"], m["to"]) for m in answers_of(token, "advance_geisha")] == [("entrance", "path_1")]
    stuck = play(
        replace(state, board=board_with(state, entrance=())),
        {"kind": "choose", "seat": 0, "option": "ceremony"},
    )
    assert prompt(stuck)["kind"] == "take_die"  # no geisha can step: nothing to ask


def test_R_M10_mas_first_example_two_geishas_at_the_entrance_then_the_platform_and_the_lily_pads() -> None:
    # "You do not have 3 coins ... so you decide to gain 2 coins, 1 whisk and 1 Iron": the pond holds LP1, LP2, LP4.
    state = with_matcha(matcha_standard(pond_3="LP4"), entrance=(0,))
    state = geisha_prompt(state, geishas=4, coins=2, whisks=2, seals=0, iron=0)
    state = play(state, SEND)
    assert board(state).entrance == (0, 0)
    state = play(state, advance("entrance", "viewing_platform"))
    assert [m.get("option") for m in answers_of(state, "choose")] == ["lily_pads"]  # 3 coins are out of reach
    state = play(state, {"kind": "choose", "seat": 0, "option": "lily_pads"})
    player = state.players[0]
    assert (player.coins, player.whisks, player.iron, player.geishas) == (2, 1, 1, 3)
    assert board(state).platform == (0,) and board(state).entrance == (0,)


def test_R_M11_mas_second_example_part_b_only_along_the_path_and_an_ikebana_card() -> None:
    state = with_matcha(matcha_standard(), entrance=(0,), platform=(0,))
    state = geisha_prompt(state, geishas=3, coins=0, whisks=2, seals=0)
    assert [(m["from"], m["to"]) for m in answers_of(state, "advance_geisha")] == [("entrance", "path_1")]
    state = play(state, advance("entrance", "path_1"), {"kind": "himeji_card", "seat": 0, "deck": "ikebana"})
    assert state.players[0].coins == 4 and state.players[0].lantern[-1] == "IK1"
    assert prompt(state)["kind"] == "reveal" and prompt(state)["target"] == "himeji:ikebana"
    assert [m["card"] for m in domain.legal_moves(state)] == [f"IK{i}" for i in range(2, 9)]


def test_R_M13_mas_third_example_two_steps_into_the_tea_house_and_a_full_room() -> None:
    state = with_tea_house(with_matcha(matcha_standard(), path=((0,), ())), tea_house_lower=(0, 0))
    state = geisha_prompt(state, whisks=5, coins=0, seals=0, iron=0, food=0)
    assert {m["to"] for m in answers_of(state, "advance_geisha")} == {
        "path_2",
        "tea_house_upper",
        "tea_house_middle",
    }
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, advance("path_1", "tea_house_lower"))
    assert error.value.rule == "R-M13"
    state = play(state, advance("path_1", "tea_house_upper"))
    # CT6 in the upper room: one light-background block on each of 2 different castle cards
    assert prompt(state)["title"] == "light:2"
    state = play(state, {"kind": "choose", "seat": 0, "option": "steward_1:bottom"})  # S2: 2 iron
    assert not any(
        option.startswith("steward_1:")
        for option in (m.get("option", "") for m in answers_of(state, "choose"))
    )
    state = play(state, {"kind": "choose", "seat": 0, "option": "steward_3:bottom"})  # S7: 2 food
    assert (state.players[0].iron, state.players[0].food, state.players[0].whisks) == (2, 2, 0)
    assert board(state).tea_house[0].geishas == (0,)


def test_R_M13_each_room_holds_two_geishas_per_clan_and_performs_its_token() -> None:
    state = with_tea_house(with_matcha(matcha_standard(), path=((), (0, 1))), tea_house_middle=(1, 1))
    state = geisha_prompt(state, whisks=2, coins=0, seals=0)
    state = play(state, advance("path_2", "tea_house_middle"))  # CT12: 7 coins
    assert state.players[0].coins == 7 and board(state).tea_house[1].geishas == (0, 1, 1)
