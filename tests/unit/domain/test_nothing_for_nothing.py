"""Rules 0.3.0: nothing is spent for nothing, and a move that seal conversions make affordable is offered as that
move (R-R02, decision C.2). A paid worker action that could do nothing (R-GA01, R-WA02, R-CA01) is not offered; a
menu with nothing doable left closes itself and the log says why; games of 0.2.0 are played on as they were."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import domain
from domain.areas.castle import tile_menu
from domain.catalog import packaged_catalog
from domain.state import GameState

from .helpers import STANDARD, play, standard, table_game, with_player

# STANDARD's castle (helpers.STANDARD): steward_3 = S7 (tiles white/black/white: a black die faces the middle
# block, "pay 1 seal -> Gardener action"); steward_2 = S4 (its top block, "pay 1 seal -> Warrior action").
TAKE_BLACK_RIGHT = {"kind": "take_die", "seat": 0, "bridge": "black", "end": "right"}  # a black 6
TAKE_WHITE_LEFT = {"kind": "take_die", "seat": 0, "bridge": "white", "end": "left"}  # a white 1
TO_STEWARD_3 = {"kind": "place_die", "seat": 0, "space": "steward_3"}
MIDDLE = {"kind": "choose", "seat": 0, "option": "middle"}
RAW_S7 = next(card for card in json.loads(packaged_catalog())["stewards"] if card["id"] == "S7")


def rules(state: GameState, version: str) -> GameState:
    return replace(state, rules_version=version)


def test_R_GA01_a_seal_for_a_gardener_action_with_no_garden_affordable_is_not_offered() -> None:
    state = with_player(standard(), 0, lantern=(), seals=1, food=0)
    placed = play(state, TAKE_BLACK_RIGHT)
    move = TO_STEWARD_3
    words = domain.describe(placed, move)
    after = domain.apply(placed, move)
    assert domain.prompt_of(after)["seat"] == 1  # nothing to ask: the turn ends, and the seal is kept
    assert after.players[0].seals == 1
    assert (
        "nothing more at steward room 3: a Gardener action (no garden they can pay for: they hold 0 food "
        in words
    )
    assert words.endswith("(R-GA01))")
    # with food for a garden, the same block is offered
    fed = play(with_player(standard(), 0, lantern=(), seals=1, food=1), TAKE_BLACK_RIGHT, TO_STEWARD_3)
    assert MIDDLE in domain.legal_moves(fed)


def test_R_GA01_a_game_of_rules_0_2_0_still_offers_the_seal_for_nothing() -> None:
    state = rules(with_player(standard(), 0, lantern=(), seals=1, food=0), "0.2.0")
    placed = play(state, TAKE_BLACK_RIGHT, TO_STEWARD_3)
    assert MIDDLE in domain.legal_moves(placed)
    paid = domain.apply(placed, MIDDLE)  # the seal is paid, and the Gardener action finds nothing to do
    assert paid.players[0].seals == 0 and domain.prompt_of(paid)["seat"] == 1
    assert "a Gardener action does nothing: no garden they can pay for" in domain.describe(placed, MIDDLE)


def test_R_WA02_a_warrior_action_with_no_iron_for_any_yard_is_not_offered_and_is_refused_with_its_rule() -> (
    None
):
    state = with_player(standard(), 0, lantern=(), iron=0, seals=0, food=5)
    placed = play(state, {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"})
    placed = play(placed, {"kind": "place_die", "seat": 0, "space": "outside_2"})
    warrior = {"kind": "choose", "seat": 0, "option": "warrior"}
    assert warrior not in domain.legal_moves(placed)
    assert {"kind": "choose", "seat": 0, "option": "courtier"} in domain.legal_moves(placed)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(placed, warrior)
    assert error.value.rule == "R-WA02" and "would do nothing" in error.value.message


def test_a_turn_never_passes_without_the_log_saying_why() -> None:
    """Outside the Walls 2 with no iron and no coin or pearl: neither action could do anything."""
    state = with_player(standard(), 0, lantern=(), iron=0, seals=0, coins=0, pearl=0)  # the white 6 gains 1
    taken = play(state, {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"})
    move = {"kind": "place_die", "seat": 0, "space": "outside_2"}
    words = domain.describe(taken, move)
    assert domain.prompt_of(domain.apply(taken, move))["seat"] == 1
    assert "nothing more at Outside the Walls 2: a Warrior action (no yard they can pay for" in words
    assert "a Courtier action (neither the Gate (2 coins) nor a climb (2 pearl a floor)" in words


def test_R_R02_a_placement_affordable_after_converting_a_seal_is_offered_with_the_conversion() -> None:
    # the white 1 on steward room 1 (value 3) pays 2 coins; holding 1 coin and 1 seal
    state = with_player(standard(), 0, lantern=(), coins=1, seals=1)
    taken = play(state, TAKE_WHITE_LEFT)
    plain = {"kind": "place_die", "seat": 0, "space": "steward_1"}
    converted = {**plain, "convert": ["coin"]}
    legal = domain.legal_moves(taken)
    assert plain not in legal and converted in legal
    assert domain.payment_text(taken, converted) == "pay 1 coin + 1 seal"
    words = domain.describe(taken, converted)
    assert words.startswith(
        "Player 1 converts 1 seal into 1 coin and places the white 1 on steward room 1, paying 2 coins"
    )
    after = domain.apply(taken, converted)
    assert (after.players[0].coins, after.players[0].seals) == (0, 0)
    # the same as converting first, then placing: the log and the rules stay exact
    two_steps = play(taken, {"kind": "convert", "seat": 0, "to": "coin"}, plain)
    assert after == two_steps


def test_R_R02_a_move_is_listed_with_the_fewest_conversions_and_only_when_it_needs_them() -> None:
    state = with_player(standard(), 0, lantern=(), coins=0, seals=3)
    taken = play(state, TAKE_WHITE_LEFT)
    legal = domain.legal_moves(taken)
    assert {"kind": "place_die", "seat": 0, "space": "steward_1", "convert": ["coin", "coin"]} in legal
    with pytest.raises(domain.IllegalMove) as error:  # one conversion too many
        domain.apply(taken, {"kind": "place_die", "seat": 0, "space": "steward_1", "convert": ["coin"] * 3})
    assert error.value.rule == "R-R02"
    with pytest.raises(domain.IllegalMove) as error:  # the Well costs nothing: no conversion to list
        domain.apply(taken, {"kind": "place_die", "seat": 0, "space": "well", "convert": ["coin"]})
    assert error.value.rule == "R-R02"
    with pytest.raises(domain.InvalidMove):
        domain.apply(taken, {"kind": "place_die", "seat": 0, "space": "steward_1", "convert": "coin"})


def test_R_R02_every_move_listed_with_conversions_applies_as_the_conversions_then_the_move() -> None:
    state = with_player(standard(), 0, lantern=(), coins=0, seals=5, pearl=0, food=0)
    taken = play(state, TAKE_WHITE_LEFT)
    converted = [move for move in domain.legal_moves(taken) if "convert" in move]
    assert converted
    for move in converted:
        steps = taken
        for to in move["convert"]:
            steps = domain.apply(steps, {"kind": "convert", "seat": 0, "to": to})
        plain = {name: value for name, value in move.items() if name != "convert"}
        assert domain.apply(taken, move) == domain.apply(steps, plain)


def test_a_game_of_rules_0_2_0_takes_conversions_as_moves_of_their_own() -> None:
    state = rules(with_player(standard(), 0, lantern=(), coins=1, seals=1), "0.2.0")
    taken = play(state, TAKE_WHITE_LEFT)
    assert all("convert" not in move for move in domain.legal_moves(taken))
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(taken, {"kind": "place_die", "seat": 0, "space": "steward_1", "convert": ["coin"]})
    assert error.value.rule == "R-T07"


def test_the_rules_versions_are_listed_oldest_first() -> None:
    assert domain.RULES_VERSIONS == ("0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0")
    assert domain.RULES_VERSION == "0.5.0"
    assert domain.new_game(2, seed=1).rules_version == "0.5.0"


# --- what the refusals say -


def test_R_R02_a_needless_conversion_of_the_seal_the_entry_costs_is_refused_as_needless() -> None:
    """Steward room 3's middle block costs the player's only seal: converting it first would leave the block
    unpaid, but the move needs no conversion at all, and that is what is refused (R-R02), not the block's cost."""
    placed = play(with_player(standard(), 0, lantern=(), seals=1, food=5), TAKE_BLACK_RIGHT, TO_STEWARD_3)
    assert MIDDLE in domain.legal_moves(placed)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(placed, {**MIDDLE, "convert": ["coin"]})
    assert error.value.rule == "R-R02"
    assert error.value.message.startswith("this move needs no seal converted")


def test_R_GA01_an_entry_its_own_cost_leaves_with_nothing_to_do_is_refused_saying_so() -> None:
    """Two seals would buy the food of a garden, but the block costs one of them: only paying it makes the
    Gardener action futile, and the refusal says so, under the Gardener action's rule."""
    state = with_player(standard(), 0, lantern=(), seals=2, food=0)
    state = replace(
        state, stack=(*state.stack, tile_menu(state, 0, "black"))
    )  # one block facing a black tile
    block = {"kind": "choose", "seat": 0, "option": "steward_3:middle"}  # "pay 1 seal: Gardener action"
    assert block not in domain.legal_moves(state)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, block)
    assert error.value.rule == "R-GA01"
    assert (
        "would do nothing: paying its 1 seal leaves no garden they can pay for: they hold 0 food, 1 seal left"
        in error.value.message
    )
    # placed on steward room 3, the same block alone: the menu closes itself, and the log says why
    taken = play(with_player(standard(), 0, lantern=(), seals=2, food=0), TAKE_BLACK_RIGHT)
    assert domain.describe(taken, TO_STEWARD_3).endswith(
        "nothing more at steward room 3: a Gardener action (paying its 1 seal leaves no garden they can pay for: "
        "they hold 0 food, 1 seal left (R-GA01))"
    )


def test_R_R02_a_conversion_of_one_seal_says_seal() -> None:
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(with_player(standard(), 0, seals=0), {"kind": "convert", "seat": 0, "to": "coin"})
    assert (error.value.rule, error.value.message) == ("R-R02", "a coin costs 1 seal")
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(with_player(standard(), 0, seals=1), {"kind": "convert", "seat": 0, "to": "food"})
    assert error.value.message == "a food costs 2 seals"


def test_R_P04_the_refusal_of_a_placement_names_its_listed_converted_version() -> None:
    taken = play(with_player(standard(), 0, lantern=(), coins=1, seals=1), TAKE_WHITE_LEFT)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(taken, {"kind": "place_die", "seat": 0, "space": "steward_1"})
    assert error.value.rule == "R-P04"
    assert error.value.message == (
        "placing a 1 on steward room 1 costs 2 coins and you hold 1; with seals converted first it is listed: "
        '"convert": ["coin"]'
    )
    assert error.value.details["listed"] == ["coin"]
    poorer = play(with_player(standard(), 0, lantern=(), coins=1, seals=0), TAKE_WHITE_LEFT)
    with pytest.raises(domain.IllegalMove) as error:  # nothing listed: nothing said of conversions
        domain.apply(poorer, {"kind": "place_die", "seat": 0, "space": "steward_1"})
    assert error.value.message == "placing a 1 on steward room 1 costs 2 coins and you hold 1"


def test_R_R02_a_custom_cost_of_two_resources_besides_seals_is_refused_with_how_to_pay_it() -> None:
    """A catalog of the table's own may print a block costing food and iron: seals converted into one kind pay
    it only in part, so no move lists it with conversions, and the refusals say how it can be paid."""
    blocks = [dict(block) for block in RAW_S7["blocks"]]
    blocks[2] = {
        "rows": ["bottom"],
        "background": "light",
        "cost": {"food": 1, "iron": 1},
        "effects": ["cp:3"],
    }
    state = table_game(
        3,
        answers=STANDARD,
        choose=["SR6", "SR9", "SR3"],
        catalog={"stewards": [{**RAW_S7, "blocks": blocks}]},
    )
    state = with_player(state, 0, lantern=(), seals=4, food=0, iron=0)
    placed = play(state, TAKE_WHITE_LEFT, TO_STEWARD_3)  # a white die: the top and bottom blocks
    bottom = {"kind": "choose", "seat": 0, "option": "bottom"}
    assert all(move.get("option") != "bottom" for move in domain.legal_moves(placed))
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(placed, bottom)
    assert (error.value.rule, error.value.message) == (
        "R-C04",
        "steward room 3, bottom block costs 1 food, 1 iron, more than you hold; seals converted first, as moves of "
        "their own, can pay it",
    )
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(placed, {**bottom, "convert": ["food", "iron"]})
    assert error.value.rule == "R-R02"
    assert error.value.message.startswith("this move needs seals converted into more than one kind")
    assert "listed with the fewest" not in error.value.message
    paid = play(
        placed, {"kind": "convert", "seat": 0, "to": "food"}, {"kind": "convert", "seat": 0, "to": "iron"}
    )
    assert bottom in domain.legal_moves(paid)
    assert domain.apply(paid, bottom).players[0].cp == placed.players[0].cp + 3
