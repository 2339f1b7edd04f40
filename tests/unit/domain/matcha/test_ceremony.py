"""Ceremony tokens and the green row (R-M14, R-M17, R-M18, with R-D03, R-CA05): the 20 faces as printed,
the actions they bring, the pairing of faces on tokens (a flagged, overridable choice), the clan board's green
row and the remaining Matcha symbols."""

from __future__ import annotations

from typing import Any

import pytest

import domain
from domain.catalog import load_catalog
from domain.prompts import DomainAction

from ..helpers import STANDARD_LIGHT_BLOCKS, answers_of, play, with_player, with_room
from .helpers import (
    MATCHA_STANDARD,
    board,
    matcha_game,
    matcha_standard,
    menu_ids,
    prompt,
    resolve,
    with_green,
)

PRINTED = {
    "CT1": ["geisha", "any:1"],
    "CT2": ["stone:2"],
    "CT3": ["courtier", "pot:1"],
    "CT4": ["lantern", "seal:1"],
    "CT5": ["dark", "coin:1"],
    "CT6": ["light:2"],
    "CT7": ["yard:blue"],
    "CT8": ["yard:yellow"],
    "CT9": ["gardener", "cp:1"],
    "CT10": ["cp:4"],
    "CT11": ["warrior", "coin:2"],
    "CT12": ["coin:7"],
    "CT13": ["advance"],
    "CT14": ["well", "well"],
    "CT15": ["climb"],
    "CT16": ["seal:4"],
    "CT17": ["tile:any"],
    "CT18": ["lily", "lily"],
    "CT19": ["curtain:blue"],
    "CT20": ["curtain:yellows"],
}
"""R-M18, in MA's printed order."""


def test_R_M18_the_twenty_faces_are_the_printed_ones() -> None:
    spec = load_catalog(expansions=("matcha",)).matcha
    assert spec is not None
    assert {face: [str(icon) for icon in icons] for face, icons in spec.faces.items()} == PRINTED


def test_R_M18_the_pairing_of_faces_is_a_flagged_choice_a_game_can_override() -> None:
    raw = domain.catalog_of(matcha_standard())
    assert all(not token["verified"] and "not stated" in token["source"] for token in raw["ceremony_tokens"])
    assert [(t["blue"], t["yellow"]) for t in raw["ceremony_tokens"]][:2] == [("CT1", "CT2"), ("CT3", "CT4")]
    swapped = {"ceremony_tokens": [{"id": "CM1", "yellow": "CT4"}, {"id": "CM2", "yellow": "CT2"}]}
    answers = {**MATCHA_STANDARD, "tea_house_upper": "CT4", "offer_1:token": "CT7"}
    state = matcha_game(3, catalog=swapped, answers=answers, choose=["SR6", "SR9", "SR3"])
    assert board(state).tea_house[0].token == "CT4" and "CM1" not in board(state).tokens
    with pytest.raises(domain.InvalidSetup):
        load_catalog({"ceremony_tokens": [{"id": "CM1", "yellow": "CT3"}]}, ("matcha",))  # CT3 on two tokens


def resolved(*icons: str, seat: int = 0, **player: Any) -> domain.GameState:
    return resolve(with_player(matcha_standard(), seat, **player), seat, *icons)


def test_R_M18_CT1_the_geisha_action_and_a_resource_in_any_order_never_a_whisk() -> None:
    state = resolved(*PRINTED["CT1"], coins=2, seals=0)
    assert menu_ids(state) == ["geisha", "any:1"] and prompt(state)["mandatory"] is True
    state = play(state, {"kind": "choose", "seat": 0, "option": "any:1"})
    assert all(
        set(move) == {"kind", "seat", "food", "iron", "pearl"} for move in answers_of(state, "resources")
    )


def test_R_M18_CT2_two_different_stone_gardens_with_or_without_a_gardener() -> None:
    state = resolved(*PRINTED["CT2"], coins=0, seals=0)
    assert menu_ids(state) == ["coral_stone", "black_stone", "white_stone"] and prompt(state)["picks"] == 2
    state = play(
        state,
        {"kind": "choose", "seat": 0, "option": "coral_stone"},
        {"kind": "choose", "seat": 0, "option": "black_stone"},
    )
    assert (state.players[0].coins, state.players[0].seals) == (3, 2)


def test_R_M18_CT3_CT9_CT11_a_worker_action_and_a_gain() -> None:
    state = resolved(*PRINTED["CT3"], coins=2, pot=0)
    assert set(menu_ids(state)) == {"courtier", "pot:1"}
    state = resolved(*PRINTED["CT11"], coins=0, iron=0, seals=0)
    state = play(state, {"kind": "rest", "seat": 0})  # no iron: the Warrior action is void, the coins are not
    assert state.players[0].coins == 2 and prompt(state)["kind"] == "take_die"
    state = resolved(*PRINTED["CT9"], food=0, seals=0, coins=0, cp=0)
    assert state.players[0].cp == 1


def test_R_M18_CT4_CT10_CT12_CT16_plain_gains_and_the_lantern() -> None:
    state = resolved(*PRINTED["CT4"], seals=0, pearl=0)
    assert (state.players[0].seals, state.players[0].pearl) == (1, 1)
    assert resolved(*PRINTED["CT10"], cp=0).players[0].cp == 4
    assert resolved(*PRINTED["CT12"], coins=0).players[0].coins == 7
    assert resolved(*PRINTED["CT16"], seals=3).players[0].seals == 5  # the cap of 5 (R-R01)


def test_R_M17_R_M18_CT5_a_dark_background_castle_action_paying_its_cost_and_a_coin() -> None:
    state = resolved("dark", seals=1, coins=0)
    # STANDARD's castle: S2 (seal -> Courtier), S4 (seal -> Warrior), S7 (seal -> Gardener), D2, D7 (free)
    assert menu_ids(state) == [
        "steward_1:top",
        "steward_2:top",
        "steward_3:middle",
        "diplomat_1:top",
        "diplomat_2:middle+bottom",
    ]
    assert prompt(state)["options"][0]["cost"] == {"seal": 1}
    state = resolved(
        *PRINTED["CT5"], coins=0, seals=0, food=3
    )  # food: D7's Gardener action can be done (0.3.0)
    assert menu_ids(state) == ["dark", "coin:1"]  # in any order
    state = play(state, {"kind": "choose", "seat": 0, "option": "coin:1"})
    assert state.players[0].coins == 1 and prompt(state)["title"] == "dark"
    # 0.3.0: of the dark blocks only what could do something is offered: no seal, 1 coin, so D7's Gardener action
    assert [m["option"] for m in domain.legal_moves(state) if m["kind"] == "choose"] == [
        "diplomat_2:middle+bottom"
    ]


def test_R_M18_CT6_a_light_background_action_on_each_of_two_different_cards() -> None:
    state = resolved(*PRINTED["CT6"], coins=0, seals=0, pot=0)
    # STANDARD's castle: S2, S4, S7, D2, D7; their light-background blocks, by room
    assert menu_ids(state) == STANDARD_LIGHT_BLOCKS
    assert prompt(state)["picks"] == 2 and prompt(state)["mandatory"] is False
    state = play(state, {"kind": "choose", "seat": 0, "option": "steward_1:middle"})  # S2: PoT +1
    assert prompt(state)["used"] == ["steward_1:middle", "steward_1:bottom"]  # the card is spent
    assert prompt(state)["picks"] == 1
    with pytest.raises(domain.IllegalMove):
        domain.apply(state, {"kind": "choose", "seat": 0, "option": "steward_1:bottom"})


def test_R_M18_CT5_CT6_a_room_without_a_card_offers_nothing_and_one_card_gives_one_action() -> None:
    """R-CA03 leaves a room without its card until the refill: CT5 and CT6 read only the cards in the castle;
    with one card left CT6 gives one action, not two on the same card."""
    state = with_room(matcha_standard(), "steward_1", card=None)
    state = resolve(with_player(state, 0, coins=0, seals=1), 0, "dark")
    assert menu_ids(state) == [
        "steward_2:top",
        "steward_3:middle",
        "diplomat_1:top",
        "diplomat_2:middle+bottom",
    ]
    state = matcha_standard()
    for room in ("steward_2", "steward_3", "diplomat_1", "diplomat_2"):
        state = with_room(state, room, card=None)
    state = resolve(with_player(state, 0, coins=0, seals=0), 0, "light:2")
    assert menu_ids(state) == ["steward_1:middle", "steward_1:bottom"] and prompt(state)["picks"] == 1


def test_R_M18_CT7_CT8_the_training_yard_tiles() -> None:
    state = resolved(*PRINTED["CT7"], coins=0, seals=0)
    assert menu_ids(state) == ["Y1:blue", "Y6:blue"] and prompt(state)["picks"] == 1
    state = resolved(*PRINTED["CT8"], food=0, pot=0, seals=0)
    assert (state.players[0].food, state.players[0].pot) == (3, 2)  # Y2: PoT +2, Y3: 3 food


def test_R_M18_CT14_the_well_twice_as_with_a_die_showing_1() -> None:
    state = resolved(*PRINTED["CT14"], seals=0, coins=0, iron=0)
    # STANDARD's Well: 1 seal + T6 (1 iron) + T11 (1 coin), twice; no coins for a die
    assert (state.players[0].seals, state.players[0].iron, state.players[0].coins) == (2, 2, 2)


def test_R_M18_CT15_R_CA05_a_courtier_one_floor_up_without_pearl() -> None:
    state = with_player(with_board_gate(matcha_standard(), 1), 0, pearl=0)
    state = resolve(state, 0, "climb")
    assert prompt(state)["kind"] == "climb"
    assert {m["to"] for m in answers_of(state, "ascend")} == {"steward_1", "steward_2", "steward_3"}
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "ascend", "seat": 0, "from": "gate", "to": "diplomat_1"})
    assert error.value.rule == "R-M18"
    state = play(state, {"kind": "ascend", "seat": 0, "from": "gate", "to": "steward_2"})
    assert state.players[0].pearl == 0 and state.players[0].action_card == "S4"  # the room's card (R-CA03)
    assert prompt(resolve(matcha_standard(), 0, "climb"))["kind"] == "take_die"  # no courtier out: nothing


def test_R_M18_CT15_the_free_climb_may_be_declined() -> None:
    state = with_player(with_board_gate(matcha_standard(), 1), 0, pearl=0)
    state = resolve(state, 0, "climb")
    state = play(state, {"kind": "done", "seat": 0})
    assert state.players[0].action_card == "A1"  # no courtier moved, no card taken
    assert prompt(state)["kind"] == "take_die"


def with_board_gate(state: domain.GameState, count: int) -> domain.GameState:
    from dataclasses import replace

    return replace(state, board=replace(state.board, gate=(count, 0, 0)))


def test_R_M18_CT17_any_action_beside_a_die_tile() -> None:
    state = resolved(*PRINTED["CT17"], seals=0)
    assert prompt(state)["title"] == "tile:any" and prompt(state)["picks"] == 1


def test_R_M17_R_M18_CT18_the_lily_pads_twice_and_never_the_token_instead() -> None:
    state = resolved(*PRINTED["CT18"], coins=0, whisks=0, food=0)
    assert (state.players[0].coins, state.players[0].whisks, state.players[0].food) == (4, 2, 2)
    assert resolved("lily", coins=0).players[0].coins == 2


def test_R_M17_the_slash_is_the_shown_action_or_the_geisha_action() -> None:
    state = resolved("slash:courtier", coins=2, seals=0)
    assert menu_ids(state) == ["courtier", "geisha"] and prompt(state)["picks"] == 1
    state = play(state, {"kind": "choose", "seat": 0, "option": "geisha"})
    assert prompt(state)["kind"] == "geisha"


def test_R_M14_mas_example_a_green_3_pays_3_gains_the_visible_rewards_then_a_seal_for_the_token() -> None:
    """MA: a green 3 pays 3 coins, gains 3 whisks, 2 coins and 1 resource (not a whisk), then 1 seal performs
    the clan board's token (here CT9: the Gardener action and 1 CP). 4 geishas have left the row."""
    state = with_green(matcha_standard(), [3, 4, 5, 6])
    state = with_player(state, 0, geishas=1, coins=3, seals=1, whisks=0, food=3, cp=0)
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "green", "end": "left"})
    state = domain.apply(state, {"kind": "place_die", "seat": 0, "space": "domain"})
    assert prompt(state)["kind"] == "resources"  # 1 resource of your choice: food, iron or pearl
    state = play(state, {"kind": "resources", "seat": 0, "food": 0, "iron": 1, "pearl": 0})
    player = state.players[0]
    assert (player.whisks, player.coins, player.iron) == (3, 2, 3)  # paid 3; 1 + 2 whisks, 2 coins, 1 iron
    assert menu_ids(state) == ["ceremony"] and prompt(state)["options"][0]["cost"] == {"seal": 1}
    state = play(state, {"kind": "choose", "seat": 0, "option": "ceremony"})  # CT9: Gardener + 1 CP
    assert (
        state.players[0].seals == 0 and prompt(state)["kind"] == "gardener"
    )  # a CP gain: order cannot matter
    state = play(state, {"kind": "gardener", "seat": 0, "garden": "coral_stone"})
    assert state.players[0].cp == 1 and state.players[0].gardeners == 4


def test_R_D03_the_personal_domain_action_cannot_activate_the_green_row() -> None:
    from dataclasses import replace

    state = matcha_standard()
    state = replace(state, stack=(*state.stack, DomainAction(0)))
    assert [m["row"] for m in answers_of(state, "domain_row")] == ["courtiers", "gardeners", "warriors"]
    assert "geishas" in [row.id for row in state.catalog.rows]
    with pytest.raises(domain.IllegalMove):
        domain.apply(state, {"kind": "domain_row", "seat": 0, "row": "geishas"})


def test_R_M01_a_rival_seat_may_place_geishas_directly() -> None:
    """Open for the Tokugawa solo mode (R-TK05, R-TK06): `place_geisha` puts a geisha anywhere unpaid."""
    from domain.matcha.tea_garden import place_geisha

    state = place_geisha(matcha_standard(), 1, "path_1")
    assert board(state).path[0] == (1,) and state.players[1].geishas == 4
    state = place_geisha(state, 1, "path_2", origin="path_1")
    assert board(state).path == ((), (1,))
    assert prompt(state) == {"kind": "take_die", "seat": 0}
