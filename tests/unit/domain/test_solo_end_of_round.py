"""The rival's end of round (R-SO04, with R-E01..R-E05): coins into CP by turn position, its activated
gardeners, the reshuffle; the player's own gardens as usual; the end of the game."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import domain
from domain.engine import settle
from domain.prompts import EndTurn, TakeDie
from domain.state import GameState
from domain.vocabulary import Phase

from .helpers import with_board, with_bridge, with_player
from .solo_helpers import HUMAN, RIVAL, cards, reveal, rival_turn, solo_game, with_solo


def last_rival_turn(round_: int = 1, icons: list[str] | None = None, **rival: Any) -> GameState:
    """Easy game (the player first): the rival about to play the round's 6th and last turn with SO3 (black
    left -> steward 2); after it the bridges hold black 6, white 1 and 3. The rival holds `rival`."""
    state = solo_game("easy", catalog=cards(SO3={"icons": icons or []}))
    state = with_bridge(state, "coral", left=None, middle=(), right=None)
    state = with_bridge(state, "black", [2, 6])
    state = with_bridge(state, "white", [1, 3])
    state = with_player(state, RIVAL, **rival)
    return rival_turn(state, 5, round_)


def gardens(state: GameState, **by_id: tuple[int, ...]) -> GameState:
    slots = tuple(replace(slot, gardeners=by_id.get(slot.id, slot.gardeners)) for slot in state.board.gardens)
    return with_board(state, gardens=slots)


def test_R_SO04_second_in_turn_order_every_5_coins_give_cp_equal_to_the_round() -> None:
    state = reveal(last_rival_turn(coins=12), "SO3")
    assert state.round == 1 and state.turn_order == (HUMAN, RIVAL)
    rival = state.players[RIVAL]
    assert (rival.cp, rival.coins) == (2, 2)  # 10 coins -> 2 x 1 CP, 2 coins kept
    assert state.solo is not None
    assert "end of round 1, 2nd in the turn order: converts 10 coins into 2 CP (5 coins each), keeps 2" in (
        state.solo.notes
    )


def test_R_SO04_first_in_the_new_turn_order_every_3_coins() -> None:
    # influence during its last turn puts the rival first in the new order (R-E02): the rate is 3
    state = reveal(last_rival_turn(icons=["pot:2"], coins=10), "SO3")
    assert state.turn_order == (RIVAL, HUMAN)
    assert (state.players[RIVAL].cp, state.players[RIVAL].coins) == (3, 1)


@pytest.mark.parametrize(("round_", "cp"), [(1, 3), (2, 6), (3, 9)])
def test_R_SO04_each_conversion_is_worth_the_round_number(round_: int, cp: int) -> None:
    state = reveal(last_rival_turn(round_, icons=["pot:2"], coins=9), "SO3")
    assert state.players[RIVAL].cp == cp and state.players[RIVAL].coins == 0


def test_R_SO04_fewer_coins_than_a_lot_are_kept() -> None:
    state = reveal(last_rival_turn(coins=4), "SO3")
    assert (state.players[RIVAL].cp, state.players[RIVAL].coins) == (0, 4)
    assert state.solo is not None
    assert "end of round 1, 2nd in the turn order: keeps its 4 coins (fewer than 5)" in state.solo.notes


@pytest.mark.parametrize("round_", [1, 2])
def test_R_SO04_R_E03_each_activated_rival_gardener_gives_cp_equal_to_the_round(round_: int) -> None:
    state = last_rival_turn(round_)
    # black and white keep dice (their gardens activate), coral ends empty (its gardens do not)
    state = gardens(state, black_stone=(RIVAL,), white_plant=(RIVAL,), coral_plant=(RIVAL,))
    state = reveal(state, "SO3")
    assert state.players[RIVAL].cp == 2 * round_
    assert state.solo is not None and f"2 activated gardeners: +{2 * round_} CP" in state.solo.notes
    assert domain.prompt_of(state)["kind"] == "roll"  # no garden menu for the rival


def test_R_SO04_R_E05_no_gardens_after_the_last_round_and_the_game_ends() -> None:
    state = gardens(last_rival_turn(3, coins=5), black_stone=(RIVAL,))
    state = reveal(state, "SO3")
    assert state.phase is Phase.OVER and domain.is_over(state)
    assert (state.players[RIVAL].cp, state.players[RIVAL].coins) == (3, 0)  # 5 coins -> 1 x 3 CP; no garden


def test_R_SO04_R_E03_the_player_activates_their_own_gardens_the_rival_does_not_act() -> None:
    state = gardens(last_rival_turn(), black_stone=(HUMAN, RIVAL))
    state = reveal(state, "SO3")
    # SG3 gives the player 2 seals, taken at once; the rival only gets its CP
    assert state.players[HUMAN].seals == 1 + 2
    assert state.players[RIVAL].cp == 1 and state.players[RIVAL].seals == 0


def test_R_SO04_the_solo_deck_is_reshuffled() -> None:
    state = with_solo(
        last_rival_turn(), line=("SO1", "SO5"), deck=("SO2", "SO3", "SO4", "SO6", "SO7", "SO8", "SO9")
    )
    state = reveal(state, "SO3")
    assert state.solo is not None
    assert state.solo.line == () and state.solo.deck == tuple(f"SO{i}" for i in range(1, 10))


def test_R_SO04_the_round_ends_on_the_players_turn_too() -> None:
    """With the rival first, the player plays the round's last turn; the rival's end of round follows it."""
    state = solo_game("medium")
    state = with_bridge(state, "coral", left=None, middle=(), right=None)
    state = with_bridge(state, "black", [2, 6])
    state = with_bridge(state, "white", [1, 3])
    state = with_player(state, RIVAL, coins=7)
    state = settle(replace(state, turn_index=5, stack=(EndTurn(HUMAN), TakeDie(HUMAN))))
    state = domain.apply(state, {"kind": "take_die", "seat": HUMAN, "bridge": "black", "end": "right"})
    state = domain.apply(state, {"kind": "place_die", "seat": HUMAN, "space": "well"})
    while state.phase is Phase.TURNS:
        state = domain.apply(
            state, next(m for m in domain.legal_moves(state) if m["kind"] in ("rest", "done"))
        )
    # the rival (PoT 1) stays first: 6 of its 7 coins become 2 CP
    assert state.turn_order == (RIVAL, HUMAN)
    assert (state.players[RIVAL].cp, state.players[RIVAL].coins) == (3 + 2, 1)
