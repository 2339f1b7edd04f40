"""The Passage of Time (R-PT01..R-PT03), milestones with decision C.3."""

from __future__ import annotations

from dataclasses import replace

import pytest

import domain
from domain.areas.passage_of_time import turn_order
from domain.engine import settle
from domain.prompts import Pot

from .helpers import play, standard, with_player


def influence(state: domain.GameState, seat: int, steps: int) -> domain.GameState:
    return settle(replace(state, stack=(*state.stack, Pot(seat, steps))))


def test_R_PT01_each_point_moves_the_marker_one_space_up_to_twenty() -> None:
    state = influence(with_player(standard(), 0, pot=1), 0, 3)
    assert state.players[0].pot == 4
    state = influence(with_player(standard(), 0, pot=18), 0, 5)
    assert state.players[0].pot == 20


def test_R_PT02_a_marker_that_cannot_pay_stops_before_the_milestone() -> None:
    for start, seals, stop in ((4, 0, 5), (9, 1, 10), (13, 2, 14)):
        state = influence(with_player(standard(), 0, pot=start, seals=seals), 0, 4)
        assert state.players[0].pot == stop, start
        assert domain.prompt_of(state)["kind"] == "take_die"  # the remaining steps are lost


def test_R_PT02_C3_a_player_who_can_pay_chooses() -> None:
    state = influence(with_player(standard(), 0, pot=9, seals=2), 0, 3)
    assert state.players[0].pot == 10
    prompt = domain.prompt_of(state)
    assert prompt == {"kind": "milestone", "seat": 0, "steps": 2, "space": 11, "seals": 2}
    paid = play(state, {"kind": "milestone", "seat": 0, "pay": True})
    assert (paid.players[0].pot, paid.players[0].seals) == (12, 0)
    stopped = play(state, {"kind": "milestone", "seat": 0, "pay": False})
    assert (stopped.players[0].pot, stopped.players[0].seals) == (10, 2)


def test_R_PT02_milestone_costs_are_one_two_three_seals() -> None:
    state = standard()
    assert dict(state.catalog.milestones) == {6: 1, 11: 2, 15: 3}
    state = influence(with_player(state, 0, pot=14, seals=3), 0, 1)
    state = play(state, {"kind": "milestone", "seat": 0, "pay": True})
    assert (state.players[0].pot, state.players[0].seals) == (15, 0)


def test_C3_option_must_pay_takes_the_choice_away() -> None:
    state = standard()
    state = replace(state, options=replace(state.options, milestones="must_pay"))
    state = influence(with_player(state, 0, pot=5, seals=1), 0, 2)
    assert (state.players[0].pot, state.players[0].seals) == (7, 0)


def test_R_PT02_a_seal_converted_away_during_the_choice_means_stopping() -> None:
    state = influence(with_player(standard(), 0, pot=5, seals=1), 0, 1)
    assert domain.prompt_of(state)["kind"] == "milestone"
    state = play(state, {"kind": "convert", "seat": 0, "to": "coin"})
    assert state.players[0].pot == 5 and domain.prompt_of(state)["kind"] == "take_die"
    with pytest.raises(domain.IllegalMove):
        domain.apply(state, {"kind": "milestone", "seat": 0, "pay": True})


def test_R_PT03_a_marker_ending_on_an_occupied_space_goes_on_top() -> None:
    state = with_player(standard(), 1, pot=3)
    state = with_player(state, 2, pot=3)
    assert turn_order(state)[:2] == (1, 2)  # 1 was higher in the starting stack
    state = influence(with_player(state, 0, pot=1), 0, 2)
    assert turn_order(state) == (0, 1, 2)  # 0 arrived last: on top


def test_R_PT03_a_marker_that_does_not_move_keeps_its_height() -> None:
    state = with_player(standard(), 0, pot=5, seals=0)
    state = with_player(state, 1, pot=5)
    before = turn_order(state)
    state = influence(state, 0, 1)  # blocked by the milestone: no move
    assert turn_order(state) == before
