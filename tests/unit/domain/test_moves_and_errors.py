"""Moves are small JSON dictionaries; malformed, out-of-turn, illegal and post-game moves raise precise errors
(InvalidMove, NotYourTurn, IllegalMove with its rule, GameOver) and leave the state untouched."""

from __future__ import annotations

import json
from typing import Any

import pytest

import domain

from .helpers import random_playout, standard

TAKE = {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"}


@pytest.mark.parametrize(
    "move",
    [
        "take_die",
        ["take_die"],
        {"seat": 0},
        {"kind": "fly", "seat": 0},
        {"kind": "take_die", "seat": 0, "bridge": "coral"},
        {**TAKE, "extra": 1},
        {**TAKE, "seat": True},
        {**TAKE, "seat": "0"},
        {**TAKE, "seat": -1},
        {**TAKE, "seat": 7},
        {**TAKE, "bridge": 3},
        {**TAKE, "seat": None},
        {"kind": "roll", "seat": 0, "bridge": "coral", "dice": [1, 2, 3, 4]},
        {"kind": "roll", "seat": None, "bridge": "coral", "dice": [1, "2"]},
        {"kind": "milestone", "seat": 0, "pay": 1},
    ],
)
def test_malformed_moves_are_invalid(move: Any) -> None:
    state = standard()
    with pytest.raises(domain.InvalidMove) as error:
        domain.apply(state, move)
    assert error.value.code == "invalid_move"
    assert json.dumps(error.value.to_dict())


def test_a_move_for_another_seat_is_not_your_turn() -> None:
    state = standard()
    with pytest.raises(domain.NotYourTurn) as error:
        domain.apply(state, {**TAKE, "seat": 1})
    assert error.value.to_dict()["code"] == "not_your_turn"
    assert error.value.details == {"waiting_for": 0, "seat": 1}


def test_a_player_move_while_chance_is_pending_is_not_your_turn() -> None:
    state = domain.new_game(3, mode="table")
    with pytest.raises(domain.NotYourTurn):
        domain.apply(state, {"kind": "done", "seat": 0})


def test_a_chance_move_while_a_player_is_asked_is_illegal() -> None:
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(standard(), {"kind": "reveal", "seat": None, "pool": "steward", "card": "S1"})
    assert error.value.code == "illegal_move"


def test_a_move_of_another_prompt_is_illegal_with_R_T02() -> None:
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(standard(), {"kind": "place_die", "seat": 0, "space": "well"})
    assert error.value.rule == "R-T02"
    assert error.value.to_dict() == {
        "code": "illegal_move",
        "rule": "R-T02",
        "message": error.value.message,
        "details": {"prompt": "take_die", "expected": ["take_die"]},
    }


def test_nothing_applies_after_the_end() -> None:
    state, _ = random_playout(2, seed=11)
    with pytest.raises(domain.GameOver) as error:
        domain.apply(state, TAKE)
    assert error.value.code == "game_over"


def test_a_rejected_move_leaves_the_state_unchanged() -> None:
    state = standard()
    before = domain.state_to_dict(state)
    for move in ({**TAKE, "end": "middle"}, {**TAKE, "seat": 2}, {"kind": "done", "seat": 0}):
        with pytest.raises(domain.DomainError):
            domain.apply(state, move)
    assert domain.state_to_dict(state) == before


def test_legal_moves_pass_through_json_unchanged_and_apply() -> None:
    state, record = random_playout(4, seed=2)
    replay = domain.new_game(4, seed=2, draw=False)
    for move in record:
        text = json.loads(json.dumps(move))
        assert text == move
        replay = domain.apply(replay, text, draw=False)
    assert replay == state


def test_describe_gives_one_line_for_every_move() -> None:
    _, record = random_playout(3, seed=4)
    state = domain.new_game(3, seed=4, draw=False)
    kinds = set()
    for move in record:
        line = domain.describe(state, move)
        assert line and "\n" not in line and not line.endswith(move["kind"])
        kinds.add(move["kind"])
        state = domain.apply(state, move, draw=False)
    assert {"reveal", "roll", "take_die", "place_die", "choose_start"} <= kinds


def test_step_returns_the_chance_moves_drawn_after_the_move() -> None:
    state = domain.new_game(2, seed=3)
    while domain.prompt_of(state)["kind"] == "choose_start":
        state = domain.apply(state, domain.legal_moves(state)[0])
    # play until a move ends a round: the step carries the rerolls
    while True:
        move = next(m for m in domain.legal_moves(state) if m["kind"] not in ("convert",))
        step = domain.step(state, move)
        state = step.state
        if step.chance:
            assert {m["kind"] for m in step.chance} == {"roll"} and len(step.chance) == 3
            assert all(m["seat"] is None for m in step.chance)
            break


def test_check_false_gives_the_same_state_as_check_true() -> None:
    state = standard()
    for move in (TAKE, {"kind": "place_die", "seat": 0, "space": "well"}):
        assert domain.apply(state, move, check=False) == domain.apply(state, move)
        state = domain.apply(state, move)


@pytest.mark.parametrize("seed", range(12))
def test_recorded_games_reapply_without_checks_to_the_same_states(seed: int) -> None:
    state, record = random_playout(2 + seed % 3, seed=100 + seed)
    trusted = domain.new_game(2 + seed % 3, seed=100 + seed, draw=False)
    for move in record:
        trusted = domain.apply(trusted, json.loads(json.dumps(move)), check=False, draw=False)
    assert trusted == state
