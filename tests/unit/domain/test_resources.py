"""Seals, resources, coins and Clan Points (R-R01..R-R07)."""

from __future__ import annotations

import pytest

import domain
from domain.resources import add, gain_icon
from domain.vocabulary import parse_icon

from .helpers import answers_of, play, standard, with_player


def test_R_R01_seals_stop_at_five_and_the_excess_is_lost() -> None:
    player = standard().players[0]
    assert gain_icon(player.__class__(**{**_fields(player), "seals": 4}), parse_icon("seal:2")).seals == 5
    state = with_player(standard(), 0, seals=5, lantern=())
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "well"},
    )
    assert state.players[0].seals == 5


def _fields(player: object) -> dict[str, object]:
    from dataclasses import fields

    return {f.name: getattr(player, f.name) for f in fields(player)}  # type: ignore[arg-type]


def test_R_R02_two_seals_buy_a_resource_one_seal_a_coin() -> None:
    state = with_player(standard(), 0, seals=3, pearl=0, coins=0)
    state = play(state, {"kind": "convert", "seat": 0, "to": "pearl"})
    assert (state.players[0].seals, state.players[0].pearl) == (1, 1)
    assert [m["to"] for m in answers_of(state, "convert")] == ["coin"]
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "convert", "seat": 0, "to": "food"})
    assert error.value.rule == "R-R02"
    with pytest.raises(domain.InvalidMove):
        domain.apply(state, {"kind": "convert", "seat": 0, "to": "cp"})


def test_R_R03_resources_stop_at_seven_and_are_never_spent_below_zero() -> None:
    player = standard().players[0]
    assert add(player, "food", 9).food == 7
    state = with_player(standard(), 0, lantern=(), iron=0, seals=0)
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "outside_2"},
    )
    # no iron, nothing to convert: no yard could be paid, so the Warrior action is not even offered (0.3.0)
    warrior = {"kind": "choose", "seat": 0, "option": "warrior"}
    assert warrior not in domain.legal_moves(state)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, warrior)
    assert error.value.rule == "R-WA02"
    state = with_player(standard(), 0, seals=2, food=7)
    state = play(state, {"kind": "convert", "seat": 0, "to": "food"})
    assert (state.players[0].food, state.players[0].seals) == (7, 0)  # legal, and the food is lost


def test_R_R04_coins_never_go_negative() -> None:
    state = with_player(standard(), 0, coins=0, seals=0, lantern=())
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "white", "end": "left"})  # a 1
    assert {m["space"] for m in answers_of(state, "place_die")} == {"well"}


def test_R_R05_a_red_cost_must_be_paid_to_get_what_it_buys() -> None:
    state = with_player(standard(steward_2="S12"), 0, seals=0, lantern=(), food=5)
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "steward_2"},
    )
    assert "bottom" not in {m["option"] for m in answers_of(state, "choose")}


def test_R_R06_clan_points_score_at_once_and_pass_forty_freely() -> None:
    state = with_player(standard(), 0, cp=39, lantern=("SR3", "D2", "D7"))
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"},
        {"kind": "place_die", "seat": 0, "space": "well"},
    )
    assert state.players[0].cp == 41  # two red fans from the diplomat cards; +40 is only the tile shown
    assert domain.score(state)[0].in_game_cp == 41


def test_R_R07_any_resource_means_food_iron_or_pearl() -> None:
    from domain.prompts import AnyRes

    state = standard()
    from dataclasses import replace

    state = replace(state, stack=(*state.stack, AnyRes(0, 3)))
    moves = answers_of(state, "resources")
    assert len(moves) == 10
    assert all(set(m) == {"kind", "seat", "food", "iron", "pearl"} for m in moves)
    assert all(m["food"] + m["iron"] + m["pearl"] == 3 for m in moves)
    with pytest.raises(domain.IllegalMove):
        domain.apply(state, {"kind": "resources", "seat": 0, "food": 4, "iron": 0, "pearl": -1})
    state = play(state, {"kind": "resources", "seat": 0, "food": 1, "iron": 0, "pearl": 2})
    assert (state.players[0].food, state.players[0].pearl) == (1, 3)


def test_R_R07_no_choice_when_every_track_is_full() -> None:
    from dataclasses import replace

    from domain.prompts import AnyRes

    state = with_player(standard(), 0, food=7, iron=7, pearl=7)
    state = domain.engine.settle(replace(state, stack=(*state.stack, AnyRes(0, 2))))
    assert domain.prompt_of(state)["kind"] == "take_die"
