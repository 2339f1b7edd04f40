"""End of round (R-E01..R-E05): turn order, gardens, preparation, and the end of the game."""

from __future__ import annotations

from dataclasses import replace

import domain
from domain.vocabulary import Phase

from .helpers import at_turn, finish_turn, play, random_playout, standard, with_bridge, with_player


def with_gardeners(state: domain.GameState, **by_garden: tuple[int, ...]) -> domain.GameState:
    gardens = tuple(replace(s, gardeners=by_garden.get(s.id, s.gardeners)) for s in state.board.gardens)
    return replace(state, board=replace(state.board, gardens=gardens))


def last_turn(answers: dict[str, str] | None = None, **player_changes: dict[str, object]) -> domain.GameState:
    """Seat 2 about to take the 9th die of round 1 (of `standard(**answers)`); the coral bridge keeps 3 dice,
    black holds 1, white none."""
    state = at_turn(standard(**(answers or {})), 2, 8)
    state = with_bridge(state, "coral", [3, 5, 6])
    state = with_bridge(state, "black", [2])
    state = with_bridge(state, "white", left=None, middle=(), right=None)
    for seat, changes in player_changes.items():
        state = with_player(state, int(seat[-1]), **changes)
    return state


TAKE_BLACK = {"kind": "take_die", "seat": 2, "bridge": "black", "end": "left"}
TO_WELL = {"kind": "place_die", "seat": 2, "space": "well"}


def test_R_E01_the_round_ends_after_the_turn_that_leaves_three_dice() -> None:
    # a garden choice for seat 0 pauses the end of the round before the dice are gathered
    state = with_gardeners(last_turn(seat0={"coins": 5}), coral_plant=(0,))
    state = finish_turn(play(state, TAKE_BLACK, TO_WELL))
    assert state.round == 1 and state.phase is Phase.END_OF_ROUND
    assert domain.prompt_of(state)["title"] == "gardens"
    assert sum(bridge.count() for bridge in state.board.bridges) == 3
    early = play(
        at_turn(standard(), 2, 7), {"kind": "take_die", "seat": 2, "bridge": "black", "end": "left"}, TO_WELL
    )
    assert finish_turn(early).phase is Phase.TURNS


def test_R_E02_the_new_turn_order_follows_the_passage_of_time_stack_top_first() -> None:
    state = last_turn(seat0={"pot": 2}, seat1={"pot": 4}, seat2={"pot": 2, "pot_stamp": 9})
    state = finish_turn(play(state, TAKE_BLACK, TO_WELL))
    assert state.turn_order == (1, 2, 0)


def test_R_E03_bridges_with_dice_activate_their_gardens_in_the_new_order() -> None:
    state = last_turn(seat0={"coins": 5, "pot": 1}, seat1={"coins": 0, "pot": 3}, seat2={"coins": 0})
    # coral keeps dice (its gardens activate), black ends empty (its gardens do not)
    state = with_gardeners(state, coral_stone=(0, 1), coral_plant=(0,), black_stone=(2,))
    state = finish_turn(play(state, TAKE_BLACK, TO_WELL))
    assert state.turn_order == (1, 0, 2)
    # seat 1 only holds the free 3 coins of SG1: taken at once. Seat 0 chooses: SG1 and PG2 (3 coins ->
    # Courtier)
    assert state.players[1].coins == 3
    prompt = domain.prompt_of(state)
    assert (prompt["kind"], prompt["seat"], prompt["title"]) == ("actions", 0, "gardens")
    assert {option["id"] for option in prompt["options"]} == {"coral_stone", "coral_plant"}
    state = play(state, {"kind": "choose", "seat": 0, "option": "coral_plant"})
    assert state.players[0].coins == 2 and domain.prompt_of(state)["kind"] == "courtier"
    state = play(state, {"kind": "done", "seat": 0})
    # only a free gain is left: taken at once
    assert state.players[0].coins == 5
    # seat 2's black stone garden was not activated: next comes the reroll
    assert domain.prompt_of(state)["kind"] == "roll"


def test_R_E03_C2_garden_choices_allow_conversions_by_the_seat_waited_on() -> None:
    # 4 seals: 2 make the 3 coins the garden asks, 2 more still pay the Courtier action's Audience (0.3.0 offers
    # nothing that would do nothing)
    state = last_turn(seat0={"coins": 1, "seals": 4, "pot": 1})
    state = with_gardeners(state, coral_plant=(0,))
    state = finish_turn(play(state, TAKE_BLACK, TO_WELL))
    assert domain.prompt_of(state)["seat"] == 0
    assert {m["kind"] for m in domain.legal_moves(state) if "convert" not in m} == {"done", "convert"}
    # 0.3.0: the garden is offered with the two conversions it needs (R-R02)
    assert {
        "kind": "choose",
        "seat": 0,
        "option": "coral_plant",
        "convert": ["coin", "coin"],
    } in domain.legal_moves(state)
    state = play(
        state, {"kind": "convert", "seat": 0, "to": "coin"}, {"kind": "convert", "seat": 0, "to": "coin"}
    )
    assert {"kind": "choose", "seat": 0, "option": "coral_plant"} in domain.legal_moves(state)


def test_C2_option_own_turn_forbids_conversions_in_the_garden_activation() -> None:
    state = last_turn(seat0={"coins": 1, "seals": 2, "pot": 1})
    state = replace(state, options=replace(state.options, seal_conversions="own_turn"))
    state = with_gardeners(state, coral_plant=(0,))
    state = finish_turn(play(state, TAKE_BLACK, TO_WELL))
    assert state.phase is Phase.END_OF_ROUND
    assert (
        domain.prompt_of(state)["kind"] == "roll"
    )  # 1 coin, no conversion: PG2 is out of reach, nothing asked


def test_R_E03_a_garden_of_a_bridge_left_empty_gives_nothing() -> None:
    # black ends the round empty: a gardener on its stone garden (a free gain) must gain nothing
    without = finish_turn(play(last_turn(), TAKE_BLACK, TO_WELL))
    state = finish_turn(play(with_gardeners(last_turn(), black_stone=(2,)), TAKE_BLACK, TO_WELL))
    assert domain.prompt_of(state)["kind"] == "roll"
    assert state.players == without.players


def test_R_E04_dice_are_cleared_rerolled_laid_ascending_and_the_round_advances() -> None:
    state = finish_turn(play(last_turn(), TAKE_BLACK, TO_WELL))
    assert domain.prompt_of(state) == {
        "kind": "roll",
        "seat": None,
        "bridge": "coral",
        "dice": 4,
        "bridges": ["coral", "black", "white"],  # a round's reroll, every bridge: one form on a page
    }
    assert all(bridge.count() == 0 for bridge in state.board.bridges)  # every die gathered for the reroll
    for colour, dice in (("coral", [6, 1, 4, 4]), ("black", [2, 2, 2, 2]), ("white", [1, 3, 5, 6])):
        state = play(state, {"kind": "roll", "seat": None, "bridge": colour, "dice": sorted(dice)})
    assert state.round == 2 and state.phase is Phase.TURNS
    assert state.board.well.dice == () and all(room.dice == () for room in state.board.rooms)
    assert all(player.domain == (None, None, None) for player in state.players)
    coral = state.board.bridges[0]
    assert (coral.left, coral.middle, coral.right) == (1, (4, 4), 6)
    assert domain.prompt_of(state) == {"kind": "take_die", "seat": state.turn_order[0]}
    assert domain.coordinates(state).turn == 1


def test_R_E05_after_round_three_only_the_turn_order_then_the_end() -> None:
    state = at_turn(last_turn(seat0={"pot": 7}), 2, 8, round_=3)
    state = with_gardeners(state, coral_stone=(0,))
    coins = state.players[0].coins
    state = finish_turn(play(state, TAKE_BLACK, TO_WELL))
    assert domain.is_over(state) and state.phase is Phase.OVER
    assert state.turn_order[0] == 0
    assert state.players[0].coins == coins  # no garden activation after the last round
    assert domain.legal_moves(state) == []
    assert domain.prompt_of(state) == {"kind": "over", "seat": None}


def test_R_E05_a_whole_game_ends_after_round_three_with_a_score() -> None:
    state, _ = random_playout(2, seed=3)
    assert domain.is_over(state) and state.round == 3
    assert sorted(sheet.rank for sheet in domain.score(state)) == [1, 2]
    try:
        domain.apply(state, {"kind": "done", "seat": 0})
    except domain.GameOver as error:
        assert error.code == "game_over"
    else:  # pragma: no cover
        raise AssertionError("a move after the end must raise GameOver")


def test_R_E03_a_gardener_placed_during_the_activation_adds_no_card_to_it() -> None:
    """The texts name the cards where a player has a gardener, not when that is counted: the cards are those
    holding the player's gardeners when the activation begins. PG3's Gardener action places one on the activated
    SG1, which gives its action once, as the card's own gain, and is not activated again."""
    state = last_turn({"coral_plant": "PG3"}, seat0={"coins": 5, "food": 2, "gardeners": 4})
    state = with_gardeners(state, coral_plant=(0,))
    state = finish_turn(play(state, TAKE_BLACK, TO_WELL))
    assert domain.prompt_of(state)["options"][0]["id"] == "coral_plant"
    state = play(state, {"kind": "choose", "seat": 0, "option": "coral_plant"})  # 3 coins: a Gardener action
    state = play(state, {"kind": "gardener", "seat": 0, "garden": "coral_stone"})  # SG1: 1 food, 3 coins
    assert state.players[0].coins == 5 - 3 + 3 and state.players[0].food == 1
    assert domain.prompt_of(state)["kind"] == "roll"  # SG1 is not activated for seat 0
