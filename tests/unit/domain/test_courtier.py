"""The Courtier action (R-CA01..R-CA05): Audience, Ascent, arriving in a room or at the Daimyo."""

from __future__ import annotations

from dataclasses import replace

import pytest

import domain
from domain.prompts import CourtierAction

from .helpers import (
    answers_of,
    kinds,
    play,
    standard,
    table_game,
    with_board,
    with_decks,
    with_player,
    with_room,
)


def courtier_prompt(state: domain.GameState, seat: int = 0) -> domain.GameState:
    """Open a Courtier action for `seat` on top of the current state."""
    return replace(state, stack=(*state.stack, CourtierAction(seat, False, False)))


def test_R_CA01_audience_sends_the_leftmost_courtier_to_the_gate_for_two_coins() -> None:
    state = courtier_prompt(with_player(standard(), 0, coins=2, pearl=0, seals=0))
    state = play(state, {"kind": "audience", "seat": 0})
    assert (state.players[0].coins, state.players[0].courtiers, state.board.gate[0]) == (0, 4, 1)


def test_R_CA01_audience_needs_two_coins_and_a_courtier_at_home() -> None:
    poor = courtier_prompt(with_player(standard(), 0, coins=1, seals=1, pearl=0))
    assert "audience" not in kinds(poor)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(poor, {"kind": "audience", "seat": 0})
    assert error.value.rule == "R-CA01"
    empty = courtier_prompt(with_player(standard(), 0, coins=9, courtiers=0))
    with pytest.raises(domain.IllegalMove):
        domain.apply(empty, {"kind": "audience", "seat": 0})


def test_R_CA01_ascent_costs_two_pearl_per_floor_or_five_for_two() -> None:
    state = courtier_prompt(with_player(standard(), 0, pearl=5, coins=0, seals=0))
    state = with_board(state, gate=(1, 0, 0))
    moves = answers_of(state, "ascend")
    assert {(m["from"], m["to"]) for m in moves} == {
        ("gate", "steward_1"),
        ("gate", "steward_2"),
        ("gate", "steward_3"),
        ("gate", "diplomat_1"),
        ("gate", "diplomat_2"),
    }
    two = play(state, {"kind": "ascend", "seat": 0, "from": "gate", "to": "diplomat_1"})
    assert two.players[0].pearl == 0 and 0 in two.board.rooms[3].courtiers
    one = play(state, {"kind": "ascend", "seat": 0, "from": "gate", "to": "steward_3"})
    assert one.players[0].pearl == 3


def test_R_CA01_each_part_once_in_any_order_possibly_the_same_courtier() -> None:
    state = courtier_prompt(with_player(standard(), 0, pearl=4, coins=2, seals=0))
    state = play(state, {"kind": "audience", "seat": 0})
    assert "audience" not in kinds(state) and "ascend" in kinds(state)
    state = play(state, {"kind": "ascend", "seat": 0, "from": "gate", "to": "steward_1"})
    state = play(state, *_finish_arrival(state))
    # both parts done: the Courtier action is over
    assert not any(isinstance(frame, CourtierAction) for frame in state.stack)
    with pytest.raises(domain.DomainError):
        domain.apply(state, {"kind": "ascend", "seat": 0, "from": "steward_1", "to": "diplomat_1"})


def _finish_arrival(state: domain.GameState) -> list[dict[str, object]]:
    """Decline the arrival's light block if one is asked."""
    return (
        [{"kind": "done", "seat": 0}]
        if domain.prompt_of(state).get("title", "").startswith("arrival")
        else []
    )


def test_R_CA02_moves_go_one_floor_up_at_a_time_or_two_in_one_move_never_down() -> None:
    state = with_room(standard(), "steward_2", courtiers=(0,))
    state = courtier_prompt(with_player(state, 0, pearl=7))
    assert {(m["from"], m["to"]) for m in answers_of(state, "ascend")} == {
        ("steward_2", "diplomat_1"),
        ("steward_2", "diplomat_2"),
        ("steward_2", "daimyo"),
    }
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "ascend", "seat": 0, "from": "steward_2", "to": "steward_1"})
    assert error.value.rule == "R-CA02"
    with pytest.raises(domain.IllegalMove):
        domain.apply(state, {"kind": "ascend", "seat": 0, "from": "gate", "to": "steward_1"})


def test_R_CA03_a_courtier_in_a_room_swaps_action_cards_performs_a_light_block_and_the_room_refills() -> None:
    state = courtier_prompt(with_player(standard(), 0, pearl=2, coins=0, seals=0, iron=0))
    state = with_board(state, gate=(1, 0, 0))
    state = play(state, {"kind": "ascend", "seat": 0, "from": "gate", "to": "steward_1"})  # S2
    player = state.players[0]
    assert player.action_card == "S2" and player.lantern == ("SR3", "A1")
    prompt = domain.prompt_of(state)
    assert prompt["title"] == "arrival:steward_1"
    assert [m["option"] for m in answers_of(state, "choose")] == ["middle", "bottom"]  # light blocks only
    assert prompt["picks"] == 1
    state = play(state, {"kind": "choose", "seat": 0, "option": "bottom"})  # 2 iron
    assert state.players[0].iron == 2
    # table mode: the recorder enters the card revealed to refill the room
    prompt = domain.prompt_of(state)
    assert prompt == {"kind": "reveal", "seat": None, "pool": "steward", "target": "steward_1"}
    state = play(state, {"kind": "reveal", "seat": None, "pool": "steward", "card": "S13"})
    assert state.board.rooms[0].card == "S13"


def test_R_CA03_with_an_empty_deck_the_card_stays_and_only_its_light_block_is_performed() -> None:
    state = courtier_prompt(with_player(standard(), 0, pearl=2, coins=0))
    state = with_decks(with_board(state, gate=(1, 0, 0)), steward=())
    state = play(state, {"kind": "ascend", "seat": 0, "from": "gate", "to": "steward_1"})
    assert state.players[0].action_card == "A1" and state.board.rooms[0].card == "S2"
    state = play(state, {"kind": "choose", "seat": 0, "option": "middle"})  # PoT +1
    assert state.players[0].pot == 1


def test_R_CA03_only_the_final_room_counts_on_a_two_floor_move() -> None:
    state = courtier_prompt(with_player(standard(), 0, pearl=5, cp=0))
    state = with_board(state, gate=(1, 0, 0))
    state = play(state, {"kind": "ascend", "seat": 0, "from": "gate", "to": "diplomat_2"})  # D7
    assert state.players[0].action_card == "D7" and state.players[0].lantern == ("SR3", "A1")


def test_R_CA04_the_daimyo_gives_the_lantern_reward_then_a_free_favour_spot() -> None:
    state = with_room(standard(), "diplomat_1", courtiers=(0,))
    state = courtier_prompt(with_player(state, 0, pearl=2, food=0))
    state = play(state, {"kind": "ascend", "seat": 0, "from": "diplomat_1", "to": "daimyo"})
    # the Lantern Reward (SR3: 1 pearl) came first, then the spot choice (Dm1: Well / 2 food / PoT +2)
    assert state.players[0].pearl == 1
    assert domain.prompt_of(state)["kind"] == "daimyo_spot"
    assert [m["spot"] for m in answers_of(state, "daimyo_spot")] == [0, 1, 2]
    state = play(state, {"kind": "daimyo_spot", "seat": 0, "spot": 1})
    assert state.players[0].food == 2
    assert state.board.daimyo.spots == (None, 0, None)


def test_R_CA04_with_no_free_spot_the_courtier_stays_without_a_bonus() -> None:
    state = with_room(standard(), "diplomat_1", courtiers=(0,))
    state = with_board(state, daimyo=replace(state.board.daimyo, spots=(1, 2, 1)))
    state = courtier_prompt(with_player(state, 0, pearl=2, food=0))
    state = play(state, {"kind": "ascend", "seat": 0, "from": "diplomat_1", "to": "daimyo"})
    assert state.board.daimyo.extra == (0,)
    assert state.players[0].food == 0


def test_R_CA05_base_ascents_always_cost_pearl_the_free_climb_is_a_matcha_token() -> None:
    state = courtier_prompt(with_player(standard(), 0, pearl=1, coins=0, seals=0))
    state = with_board(state, gate=(1, 0, 0))
    assert answers_of(state, "ascend") == []


def test_a_two_player_table_game_refills_from_its_own_deck() -> None:
    state = table_game(2)
    assert all(card not in state.board.decks.steward for card in ("S1", "S3"))
