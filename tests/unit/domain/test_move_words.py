"""Each move says what it did (domain.describe): the Lantern Reward (R-L01, R-T05), the Well's seal and tiles
(R-W02), a room's rewards (R-C03), coins paid or gained (R-P03), milestones passed or not (R-PT02), what a starting
pair gave (R-S12), gains lost over a cap (R-R01, R-R03); the end of a round's moves say so (R-E03, R-E04)."""

from __future__ import annotations

from dataclasses import replace

import domain
from domain.prompts import AnyRes

from .helpers import finish_turn, play, standard, with_player
from .test_end_of_round import TAKE_BLACK, TO_WELL, last_turn, with_gardeners

TAKE_WHITE_LEFT = {"kind": "take_die", "seat": 0, "bridge": "white", "end": "left"}  # a white 1, lantern end
TAKE_WHITE_RIGHT = {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"}  # a white 6


def words(state: domain.GameState, *moves: dict) -> str:
    """The words of the last move, played after the others."""
    state = play(state, *moves[:-1])
    return domain.describe(state, moves[-1])


def test_R_T05_R_L01_a_left_end_die_says_what_its_lantern_reward_gave() -> None:
    # seat 0's Lantern Area holds SR3 (its lantern icon: 1 pearl); the Well pays 1 seal and tiles T6 and T11
    line = words(standard(), TAKE_WHITE_LEFT, {"kind": "place_die", "seat": 0, "space": "well"})
    assert line.startswith(
        "Player 1 places the white 1 on the Well; with the Lantern Reward and the Well: gains "
    )
    assert "1 seal" in line and "pearl" in line


def test_R_P03_coins_paid_and_gained_are_said() -> None:
    assert "paying 2 coins" in words(
        standard(), TAKE_WHITE_LEFT, {"kind": "place_die", "seat": 0, "space": "steward_1"}
    )
    assert "gaining 5 coins" in words(
        standard(), TAKE_WHITE_RIGHT, {"kind": "place_die", "seat": 0, "space": "well"}
    )


def test_R_C03_a_rooms_free_blocks_are_said_with_what_they_gave() -> None:
    # steward_3 = S7, tiles white/black/white: a white die takes "PoT +1" and "2 food" at once
    state = with_player(standard(), 0, lantern=())
    line = words(state, TAKE_WHITE_RIGHT, {"kind": "place_die", "seat": 0, "space": "steward_3"})
    assert line.endswith("gaining 3 coins; with steward room 3: gains 2 food; Passage of Time 0 → 1")


def test_R_PT02_a_milestone_passed_is_said_with_its_seals() -> None:
    state = with_player(standard(), 0, lantern=(), pot=5, seals=1)
    state = replace(state, options=replace(state.options, milestones="must_pay"))
    state = play(state, TAKE_WHITE_RIGHT, {"kind": "place_die", "seat": 0, "space": "steward_3"})
    line = domain.describe(state, {"kind": "choose", "seat": 0, "option": "top"})  # PoT +1 (C.3: must pay)
    assert line == (
        "Player 1 takes Passage of Time +1 (steward room 3, top block); with steward room 3: gains 2 food; "
        "Passage of Time 5 → 6, past the milestone of space 6 (1 seal)"
    )


def test_R_PT02_a_milestone_not_paid_stops_the_marker_and_says_why() -> None:
    state = with_player(standard(), 0, lantern=(), pot=5, seals=0)
    line = words(state, TAKE_WHITE_RIGHT, {"kind": "place_die", "seat": 0, "space": "steward_3"})
    assert line.endswith(
        "with steward room 3: gains 2 food; the influence marker stops before the milestone of space 6, which "
        "costs 1 seal (R-PT02)"
    )


def test_R_PT02_a_milestone_paid_by_choice_says_where_the_marker_went() -> None:
    state = with_player(standard(), 0, lantern=(), pot=5, seals=2)
    state = play(state, TAKE_WHITE_RIGHT, {"kind": "place_die", "seat": 0, "space": "steward_3"})
    assert domain.prompt_of(state)["kind"] == "milestone"
    line = domain.describe(state, {"kind": "milestone", "seat": 0, "pay": True})
    # the room's other block (2 food) follows by itself
    assert (
        line == "Player 1 pays 1 seal to pass the milestone of space 6; gains 2 food; Passage of Time 5 → 6"
    )


def test_R_S12_a_starting_pair_says_what_it_gave() -> None:
    state = domain.new_game(["Ana", "Bo"], seed=7)
    move = next(m for m in domain.legal_moves(state) if m["resource"] == "SR8")
    assert domain.describe(state, move) == (
        "Ana chooses the starting pair SR8 + A2; gains 4 coins, 1 seal, 2 food, 2 iron and 1 pearl"
    )


def test_R_R03_a_gain_over_the_cap_is_said_lost() -> None:
    state = with_player(standard(), 0, food=6)
    asked = replace(state, stack=(*state.stack, AnyRes(0, 2)))  # 2 resources of their choice (R-R07)
    move = {"kind": "resources", "seat": 0, "food": 2, "iron": 0, "pearl": 0}
    assert domain.describe(asked, move) == "Player 1 gains 2 food; 1 food lost over the cap (R-R01, R-R03)"


def test_R_E03_a_garden_activation_is_named_as_the_rounds_end() -> None:
    state = with_gardeners(last_turn(seat0={"coins": 5}), coral_plant=(0,))
    state = finish_turn(play(state, TAKE_BLACK, TO_WELL))
    assert domain.prompt_of(state)["title"] == "gardens"
    move = {"kind": "choose", "seat": 0, "option": "coral_plant"}
    assert domain.describe(state, move).startswith(
        "End of round 1, garden activation: Player 1 pays 3 coins for a Courtier action (the activated gardens"
    )


def test_R_E04_the_new_rounds_dice_say_which_round_they_are_for() -> None:
    state = finish_turn(play(last_turn(), TAKE_BLACK, TO_WELL))
    move = {"kind": "roll", "seat": None, "bridge": "coral", "dice": [1, 2, 3, 4]}
    assert domain.describe(state, move) == "Chance: the coral dice roll 1, 2, 3, 4 for round 2"


def test_a_conversion_says_only_what_it_converts() -> None:
    state = with_player(standard(), 0, seals=2)
    assert domain.describe(state, {"kind": "convert", "seat": 0, "to": "food"}) == (
        "Player 1 converts 2 seals into 1 food"
    )
