"""Turn structure and taking a die (R-T01..R-T07), with the bridges' physical end slots (decision C.1)."""

from __future__ import annotations

import pytest

import domain
from domain.vocabulary import Phase

from .helpers import answers_of, kinds, play, random_playout, seat_now, standard, with_bridge, with_player


def test_R_T01_three_rounds_of_three_turns_per_player_in_track_order() -> None:
    state, record = random_playout(3, seed=5)
    assert state.round == 3 and domain.is_over(state)
    replayed = domain.new_game(3, seed=5, draw=False)
    turns: dict[tuple[int, int], int] = {}
    for move in record:
        if move["kind"] == "take_die":
            coords = domain.coordinates(replayed)
            assert coords.seat == move["seat"]
            assert move["seat"] == replayed.turn_order[replayed.turn_index % 3]
            turns[(coords.round, move["seat"])] = turns.get((coords.round, move["seat"]), 0) + 1
        replayed = domain.apply(replayed, move, draw=False)
    assert turns == {(r, s): 3 for r in (1, 2, 3) for s in range(3)}


def test_R_T02_a_turn_goes_take_then_place_and_no_step_is_revisited() -> None:
    state = standard()
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"})
    assert kinds(state) - {"convert"} == {"place_die"}
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "take_die", "seat": 0, "bridge": "black", "end": "left"})
    assert error.value.rule == "R-T02"
    state = play(state, {"kind": "place_die", "seat": 0, "space": "well"})
    with pytest.raises(domain.DomainError):
        domain.apply(state, {"kind": "place_die", "seat": 0, "space": "well"})


def test_R_T02_payment_then_lantern_reward_then_the_space_actions() -> None:
    state = standard()
    # a Lantern Area whose order matters: the decree's seal can pay the milestone that the card's PoT +1
    # reaches
    state = with_player(state, 0, lantern=("SR4", "DC2", "A1"), pot=5, seals=1, coins=5)
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"})
    state = play(state, {"kind": "place_die", "seat": 0, "space": "steward_1"})  # coral 1 on value 3: pay 2
    assert state.players[0].coins == 3
    prompt = domain.prompt_of(state)
    assert prompt["kind"] == "actions" and prompt["title"] == "lantern"
    assert state.stack[-2].title == "castle:steward_1"  # type: ignore[union-attr]
    state = play(state, {"kind": "choose", "seat": 0, "option": "DC2"})
    # the rest (1 iron, PoT +1) cannot depend on order any more: it resolves itself up to the milestone
    assert state.players[0].iron == 3
    assert domain.prompt_of(state)["kind"] == "milestone"
    state = play(state, {"kind": "milestone", "seat": 0, "pay": True})
    assert state.players[0].pot == 6 and state.players[0].seals == 1
    assert domain.prompt_of(state)["title"] == "castle:steward_1"
    assert answers_of(state, "choose") == [{"kind": "choose", "seat": 0, "option": "top"}]


def test_R_T03_only_end_dice_can_be_taken() -> None:
    state = standard()
    moves = answers_of(state, "take_die")
    assert len(moves) == 6
    assert {(m["bridge"], m["end"]) for m in moves} == {
        (b, e) for b in ("coral", "black", "white") for e in ("left", "right")
    }
    state = with_bridge(state, "coral", left=None, middle=(), right=4)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"})
    assert error.value.rule == "R-T03"
    with pytest.raises(domain.InvalidMove):
        domain.apply(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "middle"})


def test_R_T04_the_nearest_middle_die_slides_into_the_freed_end() -> None:
    state = standard()
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"})
    coral = state.board.bridges[0]
    assert (coral.left, coral.middle, coral.right) == (3, (5,), 6)
    assert state.held is not None and state.held.value == 1


def test_R_T04_C1_a_lone_die_keeps_its_end() -> None:
    state = with_bridge(standard(), "coral", left=3, middle=(), right=6)
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"})
    coral = state.board.bridges[0]
    assert (coral.left, coral.middle, coral.right) == (3, (), None)
    state = play(state, {"kind": "place_die", "seat": 0, "space": "well"})
    while domain.prompt_of(state)["seat"] == 0:
        state = play(
            state, next(m for m in domain.legal_moves(state) if m["kind"] in ("done", "rest", "choose"))
        )
    assert {(m["bridge"], m["end"]) for m in answers_of(state, "take_die") if m["bridge"] == "coral"} == {
        ("coral", "left")
    }


def test_C1_option_lets_a_lone_die_be_taken_from_either_end() -> None:
    state = standard()
    state = with_bridge(state, "coral", left=None, middle=(), right=4)
    state = domain.state_from_dict(
        {
            **domain.state_to_dict(state),
            "options": {**domain.state_to_dict(state)["options"], "bridge_ends": "lone_die_both_ends"},
        }
    )
    ends = {m["end"] for m in answers_of(state, "take_die") if m["bridge"] == "coral"}
    assert ends == {"left", "right"}
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"})
    assert state.held is not None and (state.held.value, state.held.end) == (4, "left")
    assert state.board.bridges[0].count() == 0


def test_R_T05_a_left_end_die_gives_the_lantern_reward() -> None:
    state = standard()  # seat 0's Lantern Area: SR3, 1 pearl
    left = play(state, {"kind": "take_die", "seat": 0, "bridge": "black", "end": "left"})
    left = play(left, {"kind": "place_die", "seat": 0, "space": "well"})
    right = play(state, {"kind": "take_die", "seat": 0, "bridge": "black", "end": "right"})
    right = play(right, {"kind": "place_die", "seat": 0, "space": "well"})
    assert left.players[0].pearl == state.players[0].pearl + 1
    assert right.players[0].pearl == state.players[0].pearl


def test_R_T06_no_pass_the_well_always_takes_the_die() -> None:
    state = with_player(standard(), 0, coins=0, seals=0)
    assert kinds(state) == {"take_die"}
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"})  # a 1
    assert kinds(state) == {"place_die"}
    assert {"kind": "place_die", "seat": 0, "space": "well"} in domain.legal_moves(state)


def test_R_T07_seal_conversions_are_free_moves_on_your_turn() -> None:
    state = with_player(standard(), 0, seals=3, coins=0, food=7)
    moves = answers_of(state, "convert")
    assert {m["to"] for m in moves} == {"coin", "food", "iron", "pearl"}
    after = play(state, {"kind": "convert", "seat": 0, "to": "coin"})
    assert (after.players[0].seals, after.players[0].coins) == (2, 1)
    assert domain.prompt_of(after) == domain.prompt_of(state)
    after = play(after, {"kind": "convert", "seat": 0, "to": "iron"})
    assert (after.players[0].seals, after.players[0].iron) == (0, 3)
    assert answers_of(after, "convert") == []
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(after, {"kind": "convert", "seat": 0, "to": "coin"})
    assert error.value.rule == "R-R02"


def test_R_T07_C2_no_conversion_for_a_seat_not_waited_on() -> None:
    state = with_player(standard(), 1, seals=3)
    assert all(m["seat"] == 0 for m in domain.legal_moves(state))
    with pytest.raises(domain.NotYourTurn):
        domain.apply(state, {"kind": "convert", "seat": 1, "to": "coin"})


def test_the_round_has_a_coordinate_for_every_turn() -> None:
    state = standard()
    coords = domain.coordinates(state)
    assert (coords.round, coords.turn, coords.seat, coords.phase) == (1, 1, 0, Phase.TURNS)
    assert seat_now(state) == 0
