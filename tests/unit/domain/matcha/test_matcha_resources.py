"""Seals and whisks (R-M15, with R-R02, R-R03, R-R07): 2 seals -> 1 whisk, whisks only from whisk icons and
seals, never from "any resource", the whisk track 0-7 (or to the lower top a game's catalog sets)."""

from __future__ import annotations

import dataclasses
import json

import pytest

import domain
from domain.catalog import _packaged_with, catalog_from_dict, load_catalog
from domain.state import GameState

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


def with_whisk_top(state: GameState, top: int) -> GameState:
    """The state with its catalog's whisk track ending at `top`."""
    matcha = state.catalog.matcha
    assert matcha is not None
    return dataclasses.replace(
        state, catalog=dataclasses.replace(state.catalog, matcha=dataclasses.replace(matcha, whisk_max=top))
    )


def test_R_M15_the_whisk_track_ends_where_the_catalog_says() -> None:
    # The printed maximum is unknown (docs/rules/components.md §1.12): a game may set it lower, and gains
    # beyond it are lost
    state = with_whisk_top(with_player(matcha_standard(), 0, whisks=2, seals=4), 4)
    assert resolve(state, 0, "whisk:3").players[0].whisks == 4
    converted = play(
        play(state, {"kind": "convert", "seat": 0, "to": "whisk"}),
        {"kind": "convert", "seat": 0, "to": "whisk"},
    )
    assert (converted.players[0].whisks, converted.players[0].seals) == (4, 0)
    assert (
        resolve(with_whisk_top(with_player(matcha_standard(), 0, whisks=2), 7), 0, "whisk:3")
        .players[0]
        .whisks
        == 5
    )


def test_R_M15_the_whisk_track_top_is_an_unverified_catalog_value_a_game_may_lower_but_not_raise() -> None:
    packaged = json.loads(_packaged_with(("matcha",)))["matcha"]["whisk_track"]
    assert packaged["max"] == 7 and packaged["verified"] is False
    game = domain.new_game(3, seed=2, expansions=("matcha",), catalog={"matcha": {"whisk_track": {"max": 5}}})
    assert game.catalog.matcha is not None and game.catalog.matcha.whisk_max == 5
    for top in (0, 8):
        with pytest.raises(domain.InvalidSetup, match="whisk track"):
            load_catalog({"matcha": {"whisk_track": {"max": top}}}, ("matcha",))
    # a catalog stored with a game before the track's top was a catalog value has none: 7
    stored = load_catalog(None, ("matcha",)).to_dict()
    del stored["matcha"]["whisk_track"]
    old = catalog_from_dict(stored).matcha
    assert old is not None and old.whisk_max == 7
