"""A.16 Seals and whisks (R-M15, with R-R02, R-R03, R-R07): 2 seals -> 1 whisk, whisks only from whisk icons and
seals, never from "any resource", the whisk track 0-7."""

from __future__ import annotations

import pytest

import domain

from ..helpers import answers_of, play, standard, with_player
from .helpers import matcha_standard, resolve


def test_R_M15_two_seals_convert_to_one_whisk_with_matcha() -> None:
    state = with_player(matcha_standard(), 0, seals=3, whisks=0)
    assert {m["to"] for m in answers_of(state, "convert")} == {"coin", "food", "iron", "pearl", "whisk"}
    state = play(state, {"kind": "convert", "seat": 0, "to": "whisk"})
    assert (state.players[0].seals, state.players[0].whisks) == (1, 1)
    assert domain.describe(state, {"kind": "convert", "seat": 0, "to": "whisk"}).endswith(
        "2 seals into 1 whisk"
    )


def test_R_M15_no_whisks_without_matcha() -> None:
    state = with_player(standard(), 0, seals=3)
    assert "whisk" not in {m["to"] for m in answers_of(state, "convert")}
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "convert", "seat": 0, "to": "whisk"})
    assert error.value.rule == "R-M15"


def test_R_M15_R_R07_any_resource_never_gives_a_whisk() -> None:
    state = resolve(with_player(matcha_standard(), 0, food=0, iron=0, pearl=0), 0, "any:2")
    moves = answers_of(state, "resources")
    assert moves and all(set(move) == {"kind", "seat", "food", "iron", "pearl"} for move in moves)
    with pytest.raises(domain.InvalidMove):
        domain.apply(state, {"kind": "resources", "seat": 0, "food": 1, "iron": 0, "pearl": 0, "whisk": 1})


def test_R_M15_whisk_icons_give_whisks_up_to_seven() -> None:
    state = resolve(with_player(matcha_standard(), 0, whisks=5), 0, "whisk:3")
    assert state.players[0].whisks == 7  # the excess is lost, as on the other tracks (R-R03)
    full = with_player(matcha_standard(), 0, whisks=7, seals=2)
    assert play(full, {"kind": "convert", "seat": 0, "to": "whisk"}).players[0].whisks == 7
