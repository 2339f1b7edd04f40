"""The Himeji curtains (R-M11, R-M12, R-M17, decision C.7): path space 1 takes a card into the Lantern Area
(the last card stays), path space 2 a blue curtain with its seals, and the curtain symbols."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import domain
from domain.prompts import GeishaAction
from domain.state import GameState, HimejiDeck

from ..helpers import answers_of, play, with_player
from .helpers import (
    MATCHA_STANDARD,
    board,
    matcha_game,
    matcha_standard,
    menu_ids,
    prompt,
    resolve,
    with_matcha,
)


def to_path(state: GameState, space: str, **player: Any) -> GameState:
    """Seat 0 advances a geisha from the entrance to `space` (whisks given)."""
    state = with_player(with_matcha(state, entrance=(0,)), 0, whisks=5, **player)
    state = replace(state, stack=(*state.stack, GeishaAction(0, True, False)))
    return domain.apply(state, {"kind": "advance_geisha", "seat": 0, "from": "entrance", "to": space})


def test_R_M11_path_space_1_the_yellow_curtain_then_the_card_to_the_lantern_area_and_the_next_revealed() -> (
    None
):
    state = to_path(matcha_standard(), "path_1", iron=0)
    assert {m["deck"] for m in answers_of(state, "himeji_card")} == {"ikebana", "calligraphy"}
    state = play(state, {"kind": "himeji_card", "seat": 0, "deck": "calligraphy"})  # CA1: 2 iron
    player = state.players[0]
    assert player.iron == 2 and player.lantern == ("SR3", "CA1") and player.action_card == "A1"
    assert prompt(state) == {
        "kind": "reveal",
        "seat": None,
        "pool": "calligraphy",
        "target": "himeji:calligraphy",
    }
    state = domain.apply(state, {"kind": "reveal", "seat": None, "pool": "calligraphy", "card": "CA4"})
    assert board(state).decks[1] == HimejiDeck(
        "calligraphy", "CA4", ("CA2", "CA3", "CA5", "CA6", "CA7", "CA8")
    )
    # the card's lantern side counts in later Lantern Rewards (R-L02): CA1 gives 1 coin
    coins, pearl = state.players[0].coins, state.players[0].pearl
    state = resolve(state, 0, "lantern")
    assert (state.players[0].coins, state.players[0].pearl) == (coins + 1, pearl + 1)


def played_to_path_1(version: str) -> GameState:
    """Seat 0's turn played to path space 1 under rules `version`: the green 6 on the Tea Room, then Part B takes
    the geisha waiting at the entrance one step toward the Tea House."""
    state = with_player(with_matcha(matcha_standard(), entrance=(0,)), 0, whisks=2)
    state = replace(state, rules_version=version)
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "green", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "tea_room_left"},
        {"kind": "advance_geisha", "seat": 0, "from": "entrance", "to": "path_1"},
    )
    assert prompt(state) == {"kind": "himeji_card", "seat": 0, "purpose": "path"}
    return state


DECLINE = {"kind": "done", "seat": 0}


def test_R_M11_R_P07_path_space_1_may_be_declined_from_rules_0_5_0() -> None:
    """Every space's actions are optional (R-P07), path space 1's as path space 2's and the Viewing Platform's:
    declined, the geisha stays, no curtain is performed and no card is taken, so the next stays hidden."""
    state = played_to_path_1("0.5.0")
    assert DECLINE in domain.legal_moves(state)
    assert domain.prompt_text(state).endswith("(its yellow curtain), or decline it")
    before = state.players[0]
    assert domain.describe(state, DECLINE) == "Player 1 declines the card of path space 1"
    state = play(state, DECLINE)
    assert board(state).path[0] == (0,) and board(state).entrance == ()
    assert board(state).decks == board(matcha_standard()).decks
    assert (state.players[0].lantern, state.players[0].iron, state.players[0].coins) == (
        before.lantern,
        before.iron,
        before.coins,
    )
    assert prompt(state)["kind"] == "geisha"  # Part A is still open
    assert prompt(play(state, DECLINE)) == {"kind": "take_die", "seat": 1}


def test_R_M11_path_space_1_cannot_be_declined_under_rules_0_4_0() -> None:
    """A game recorded under rules 0.4.0 or earlier keeps them: a card must be taken."""
    state = played_to_path_1("0.4.0")
    assert DECLINE not in domain.legal_moves(state)
    assert not domain.prompt_text(state).endswith("or decline it")
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, DECLINE)
    assert error.value.rule == "R-M11"
    assert "under rules 0.4.0 path space 1 cannot be declined" in str(error.value)


def test_R_M17_the_two_card_symbol_cannot_be_declined() -> None:
    state = resolve(matcha_standard(), 0, "curtain:both")
    assert prompt(state)["purpose"] == "both" and DECLINE not in domain.legal_moves(state)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, DECLINE)
    assert error.value.rule == "R-M17"


def test_R_M11_a_card_taken_from_a_seeded_deck_is_replaced_by_a_drawn_one() -> None:
    state = domain.new_game(3, seed=11, expansions=["matcha"])
    while prompt(state)["kind"] != "take_die":
        state = domain.apply(state, domain.legal_moves(state)[0])
    seat = prompt(state)["seat"]
    top = board(state).decks[0].top
    state = with_player(with_matcha(state, entrance=(seat,)), seat, whisks=2)
    state = replace(state, stack=(*state.stack, GeishaAction(seat, True, False)))
    state = domain.apply(state, {"kind": "advance_geisha", "seat": seat, "from": "entrance", "to": "path_1"})
    state = domain.apply(state, {"kind": "himeji_card", "seat": seat, "deck": "ikebana"})
    assert top in state.players[seat].lantern
    assert board(state).decks[0].top not in (None, top) and len(board(state).decks[0].rest) == 6


def test_R_M11_the_last_card_of_a_deck_is_used_but_stays() -> None:
    state = with_matcha(
        matcha_standard(), decks=(HimejiDeck("ikebana", "IK1", ()), board(matcha_standard()).decks[1])
    )
    state = to_path(state, "path_1", coins=0)
    state = play(state, {"kind": "himeji_card", "seat": 0, "deck": "ikebana"})
    assert state.players[0].coins == 4 and "IK1" not in state.players[0].lantern
    assert board(state).decks[0] == HimejiDeck("ikebana", "IK1", ())
    assert prompt(state)["kind"] == "take_die"


def test_R_M12_C7_path_space_2_a_blue_curtain_paying_its_printed_seals() -> None:
    state = to_path(matcha_standard(), "path_2", seals=1, pearl=0, coins=2)
    assert menu_ids(state) == ["ikebana:blue", "calligraphy:blue"]
    assert [option["cost"] for option in prompt(state)["options"]] == [{"seal": 1}, {"seal": 1}]
    state = play(state, {"kind": "choose", "seat": 0, "option": "ikebana:blue"})  # IK1: 1 seal -> Courtier
    assert state.players[0].seals == 0 and prompt(state)["kind"] == "courtier"
    poor = to_path(matcha_standard(), "path_2", seals=0)
    assert prompt(poor)["kind"] == "take_die"  # nothing payable: not asked


def test_C7_option_free_blue_curtains_never_cost_seals() -> None:
    free = matcha_game(
        3, answers=MATCHA_STANDARD, choose=["SR6", "SR9", "SR3"], options={"blue_curtain_seals": "free"}
    )
    state = to_path(free, "path_2", seals=0, coins=2)
    assert [option["cost"] for option in prompt(state)["options"]] == [{}, {}]


def test_R_M17_the_yellow_curtain_symbol_gives_one_cards_yellow_curtain() -> None:
    state = resolve(with_player(matcha_standard(), 0, coins=0, iron=0), 0, "curtain:yellow")
    assert menu_ids(state) == ["ikebana:yellow", "calligraphy:yellow"]
    state = play(state, {"kind": "choose", "seat": 0, "option": "ikebana:yellow"})
    assert (state.players[0].coins, state.players[0].iron) == (4, 0)
    assert board(state).decks[0].top == "IK1"  # nothing is taken


def test_R_M17_the_blue_curtain_symbol_is_without_seals() -> None:
    state = resolve(with_player(matcha_standard(), 0, seals=0, food=4), 0, "curtain:blue")
    assert [option["cost"] for option in prompt(state)["options"]] == [{}, {}]
    state = play(state, {"kind": "choose", "seat": 0, "option": "calligraphy:blue"})
    assert prompt(state)["kind"] == "gardener"


def test_R_M17_the_two_card_symbol_gives_both_curtains_of_one_card_in_any_order() -> None:
    state = resolve(with_player(matcha_standard(), 0, seals=1, coins=0, pearl=0), 0, "curtain:both")
    assert prompt(state)["kind"] == "himeji_card" and prompt(state)["purpose"] == "both"
    state = play(state, {"kind": "himeji_card", "seat": 0, "deck": "ikebana"})
    assert menu_ids(state) == ["ikebana:yellow", "ikebana:blue"]
    assert prompt(state)["options"][1]["cost"] == {"seal": 1}  # the symbol does not waive the seal (C.7)
    state = play(state, {"kind": "choose", "seat": 0, "option": "ikebana:yellow"})
    assert state.players[0].coins == 4 and board(state).decks[0].top == "IK1"


def test_R_M18_CT20_both_visible_yellow_curtains() -> None:
    state = resolve(with_player(matcha_standard(), 0, coins=0, iron=0), 0, "curtain:yellows")
    assert (state.players[0].coins, state.players[0].iron) == (4, 2)


def test_himeji_card_names_a_deck() -> None:
    state = to_path(matcha_standard(), "path_1")
    with pytest.raises(domain.DomainError):
        domain.apply(state, {"kind": "himeji_card", "seat": 0, "deck": "origami"})
