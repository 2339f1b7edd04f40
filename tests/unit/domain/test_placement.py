"""Placing the die and paying (R-P01..R-P07), stacking (decision C.6)."""

from __future__ import annotations

import random

import pytest

import domain
from domain.turn import refusal, space_ids

from .helpers import answers_of, die, eager, kinds, play, standard, table_game, with_player, with_room

TAKE_WHITE_RIGHT = {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"}


def spaces(state: domain.GameState) -> set[str]:
    return {m["space"] for m in answers_of(state, "place_die")}


def test_R_P01_a_die_goes_where_its_colour_is_allowed() -> None:
    state = play(standard(), TAKE_WHITE_RIGHT)  # white 6
    assert spaces(state) == {
        "steward_1",
        "steward_3",
        "diplomat_2",
        "outside_1",
        "outside_2",
        "well",
        "domain",
    }
    state = play(standard(), {"kind": "take_die", "seat": 0, "bridge": "black", "end": "right"})  # black 6
    assert spaces(state) == {
        "steward_1",
        "steward_2",
        "steward_3",
        "diplomat_1",
        "outside_1",
        "outside_2",
        "well",
        "domain",
    }


def test_R_P01_unknown_spaces_are_malformed() -> None:
    state = play(standard(), TAKE_WHITE_RIGHT)
    with pytest.raises(domain.InvalidMove):
        domain.apply(state, {"kind": "place_die", "seat": 0, "space": "kitchen"})


def test_R_P02_the_reference_is_the_die_on_top_or_the_printed_value() -> None:
    state = with_room(standard(), "steward_1", dice=(die("coral", 5, 1),))
    state = play(state, TAKE_WHITE_RIGHT, {"kind": "place_die", "seat": 0, "space": "steward_1"})
    assert state.players[0].coins == 5 + 1  # 6 on a 5, not on the printed 3


def test_R_P02_the_well_is_always_worth_one() -> None:
    state = standard()
    from dataclasses import replace

    state = replace(
        state, board=replace(state.board, well=replace(state.board.well, dice=(die("black", 6, 2),)))
    )
    state = play(state, TAKE_WHITE_RIGHT, {"kind": "place_die", "seat": 0, "space": "well"})
    assert state.players[0].coins == 5 + 5 + 1  # 6 - 1, plus the coin tile T11


@pytest.mark.parametrize(
    ("take", "space", "delta"),
    [
        ({"bridge": "white", "end": "right"}, "steward_1", +3),  # 6 on 3
        ({"bridge": "white", "end": "left"}, "steward_1", -2),  # 1 on 3
        ({"bridge": "coral", "end": "right"}, "domain", 0),  # 6 on 6
        ({"bridge": "black", "end": "left"}, "diplomat_1", -2),  # 2 on 4
    ],
)
def test_R_P03_higher_gains_lower_pays_equal_nothing(take: dict[str, str], space: str, delta: int) -> None:
    state = with_player(standard(), 0, lantern=())
    state = play(
        state, {"kind": "take_die", "seat": 0, **take}, {"kind": "place_die", "seat": 0, "space": space}
    )
    assert state.players[0].coins == 5 + delta


def test_R_P04_you_must_hold_the_coins_you_pay() -> None:
    state = with_player(standard(), 0, coins=1, seals=1)
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "black", "end": "left"})  # a 2
    assert "diplomat_1" not in spaces(state)  # 2 on 4 costs 2
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "place_die", "seat": 0, "space": "diplomat_1"})
    assert error.value.rule == "R-P04"
    assert error.value.details["cost"] == 2
    state = play(state, {"kind": "convert", "seat": 0, "to": "coin"})
    assert "diplomat_1" in spaces(state)


def test_R_P05_three_players_stack_two_dice_at_most() -> None:
    state = with_room(standard(), "steward_1", dice=(die("coral", 5, 1),))
    state = play(state, TAKE_WHITE_RIGHT)
    assert "steward_1" in spaces(state)
    full = with_room(state, "steward_1", dice=(die("coral", 5, 1), die("black", 2, 2)))
    assert "steward_1" not in spaces(full)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(full, {"kind": "place_die", "seat": 0, "space": "steward_1"})
    assert error.value.rule == "R-P05"


def test_R_P05_two_players_never_stack() -> None:
    state = table_game(2, answers={"dice:white": [1, 2, 6]})
    seat = state.turn_order[0]
    state = with_room(state, "steward_1", dice=(die("coral", 5, 1),))
    from dataclasses import replace

    outside = tuple(replace(space, dice=(die("coral", 1, 1),)) for space in state.board.outside)
    state = replace(state, board=replace(state.board, outside=outside))
    state = play(state, {"kind": "take_die", "seat": seat, "bridge": "white", "end": "right"})
    assert not spaces(state) & {"steward_1", "outside_1", "outside_2"}
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "place_die", "seat": seat, "space": "outside_1"})
    assert error.value.rule == "R-P05"


def test_R_P05_the_domain_row_takes_one_die_only() -> None:
    state = with_player(standard(), 0, domain=(None, None, die("white", 3)))
    state = play(state, TAKE_WHITE_RIGHT)
    assert "domain" not in spaces(state)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "place_die", "seat": 0, "space": "domain"})
    assert error.value.rule == "R-D01"


@pytest.mark.parametrize(
    ("option", "players", "stacks"), [("never", 3, False), ("any_player_count", 2, True)]
)
def test_C6_stacking_option(option: str, players: int, stacks: bool) -> None:
    state = table_game(players, options={"stacking": option})
    seat = state.turn_order[0]
    state = with_room(state, "steward_1", dice=(die("coral", 1, 1),))
    state = play(state, {"kind": "take_die", "seat": seat, "bridge": "coral", "end": "right"})
    assert ("steward_1" in spaces(state)) is stacks


def test_R_P06_the_well_takes_any_number_of_dice_side_by_side() -> None:
    state = standard()
    from dataclasses import replace

    crowd = tuple(die("coral", v, 1) for v in (6, 5, 4, 3))
    state = replace(state, board=replace(state.board, well=replace(state.board.well, dice=crowd)))
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"})
    assert "well" in spaces(state)
    state = play(state, {"kind": "place_die", "seat": 0, "space": "well"})
    assert len(state.board.well.dice) == 5
    assert state.players[0].coins == 5 + 0 + 1  # a 1 gains nothing; the coin tile still pays


def test_R_P07_a_space_actions_are_optional_and_in_any_order() -> None:
    # S12 in steward_2 (coral tiles face its middle "1 seal + 1 CP" and bottom "pay 1 seal -> Gardener")
    state = with_player(standard(steward_2="S12"), 0, seals=0, food=5)
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"})
    state = play(state, {"kind": "place_die", "seat": 0, "space": "steward_2"})
    assert domain.prompt_of(state)["title"] == "castle:steward_2"
    assert [m["option"] for m in answers_of(state, "choose")] == ["middle"]  # bottom needs a seal
    assert "done" in kinds(state)
    state = play(state, {"kind": "choose", "seat": 0, "option": "middle"})
    assert (state.players[0].seals, state.players[0].cp) == (1, 1)
    assert [m["option"] for m in answers_of(state, "choose")] == ["bottom"]
    declined = play(state, {"kind": "done", "seat": 0})
    assert declined.players[0].seals == 1 and domain.prompt_of(declined)["seat"] == 1
    state = play(state, {"kind": "choose", "seat": 0, "option": "bottom"})
    assert state.players[0].seals == 0 and domain.prompt_of(state)["kind"] == "gardener"


@pytest.mark.parametrize(
    "setup",
    [
        {"players": 2},
        {"players": 4},
        {"players": 1, "solo": "medium"},
        {"players": 3, "expansions": ("matcha",)},
    ],
    ids=["2 players", "4 players", "solo", "matcha"],
)
def test_R_P01_a_placement_is_accepted_exactly_when_it_is_listed_and_refused_with_its_rule(
    setup: dict,
) -> None:
    """Listing the placements asks only whether each space may take the die (`turn.refusal`); applying one asks
    about its own space, and a refusal puts the same rule in words (`turn.why_not_place`): over random games,
    every space (and two that are none) is accepted exactly when it is listed."""
    rng = random.Random(3)
    state = domain.new_game(seed=3, **setup)
    placements = 0
    while not domain.is_over(state):
        moves = domain.legal_moves(state)
        if domain.prompt_of(state)["kind"] == "place_die":
            placements += 1
            seat = moves[0]["seat"]
            for space in [*space_ids(state), "daimyo", "nowhere"]:
                move = {"kind": "place_die", "seat": seat, "space": space}
                try:
                    domain.apply(state, move)
                except domain.DomainError as error:
                    assert move not in moves, (space, error)
                    if space in space_ids(state):
                        assert state.held is not None
                        assert error.rule == refusal(state, seat, state.held, space)
                else:
                    assert move in moves, space
        state = domain.apply(state, eager(rng, moves))
    assert placements >= 9  # every turn of the player (the solo rival places its own dice)
