"""The end of a Matcha round (R-M16, with R-E01, R-E03, R-E04): 4 dice left end it, the green bridge counts
for the gardens, the Viewing Platform is one more garden (its Pond action in any order with the gardens), and the
Tea Room and Himeji dice are cleared and every bridge rerolled."""

from __future__ import annotations

from dataclasses import replace

import domain
from domain.vocabulary import Phase

from ..helpers import at_turn, finish_turn, play, with_bridge, with_player
from .helpers import board, matcha_standard, menu_ids, prompt, with_green, with_matcha

TAKE = {"kind": "take_die", "seat": 2, "bridge": "black", "end": "left"}
TO_WELL = {"kind": "place_die", "seat": 2, "space": "well"}


def last_turn(green: list[int]) -> domain.GameState:
    """Seat 2 about to take the 12th die of round 1 (3 players x 4 turns): after it, 4 dice are left, 3 coral
    and `green`'s (none or one)."""
    state = at_turn(matcha_standard(), 2, 11)
    state = with_bridge(state, "coral", [3, 5, 6] if green else [2, 3, 5, 6])
    state = with_bridge(state, "black", [2])
    state = with_bridge(state, "white", left=None, middle=(), right=None)
    return with_green(state, green)


def with_gardeners(state: domain.GameState, **by_garden: tuple[int, ...]) -> domain.GameState:
    gardens = tuple(replace(s, gardeners=by_garden.get(s.id, s.gardeners)) for s in state.board.gardens)
    return replace(state, board=replace(state.board, gardens=gardens))


def test_R_M16_R_E01_the_round_ends_at_four_dice_and_the_platform_is_a_garden_of_the_green_bridge() -> None:
    state = with_gardeners(with_matcha(last_turn([4]), platform=(0,)), coral_stone=(0,))
    state = with_player(state, 0, coins=3, seals=0)
    state = finish_turn(play(state, TAKE, TO_WELL))
    assert state.phase is Phase.END_OF_ROUND and sum(b.count() for b in state.board.bridges) == 4
    assert prompt(state)["title"] == "gardens" and prompt(state)["seat"] == 0
    assert menu_ids(state) == ["coral_stone", "viewing_platform"]  # in any order
    state = play(state, {"kind": "choose", "seat": 0, "option": "viewing_platform"})
    assert menu_ids(state) == ["lily_pads", "ceremony"]  # the Pond action: 3 lily pads or 3 coins
    state = play(state, {"kind": "choose", "seat": 0, "option": "lily_pads"})
    # LP1-LP3 (2 coins, 1 whisk, 1 food), then SG1's 3 coins, the last entry, free: taken without asking
    player = state.players[0]
    assert (player.coins, player.whisks, player.food) == (3 + 2 + 3, 1, 1)
    assert prompt(state) == {
        "kind": "roll",
        "seat": None,
        "bridge": "coral",
        "dice": 4,
        "bridges": ["coral", "black", "white", "green"],
    }  # preparation (R-E04)


def rolled(state: domain.GameState) -> domain.GameState:
    """Answer the preparation's rolls (table mode) with the first legal roll."""
    while prompt(state)["kind"] == "roll":
        state = domain.apply(state, domain.legal_moves(state)[0])
    return state


def test_R_M16_no_pond_action_when_the_green_bridge_is_empty() -> None:
    state = with_matcha(last_turn([]), platform=(0, 1))
    state = rolled(finish_turn(play(state, TAKE, TO_WELL)))
    assert state.round == 2 and state.phase is Phase.TURNS


def test_R_M16_R_E04_matcha_dice_are_cleared_and_every_bridge_is_rerolled() -> None:
    state = with_matcha(last_turn([]), platform=())
    state = play(state, {"kind": "take_die", "seat": 2, "bridge": "black", "end": "left"})
    state = rolled(finish_turn(play(state, {"kind": "place_die", "seat": 2, "space": "tea_room_left"})))
    assert state.round == 2
    assert all(not space.dice for space in (*board(state).tea_room, *board(state).himeji))
    assert [bridge.count() for bridge in state.board.bridges] == [4, 4, 4, 4]
    assert all(die is None for player in state.players for die in player.domain)
