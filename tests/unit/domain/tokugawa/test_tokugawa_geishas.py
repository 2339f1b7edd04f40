"""The Tokugawa geishas (R-TK03): into the Tea House room that scores the most at that moment (ties: the
player's choice), a Himeji card discarded for a geisha stopping on a path space, and CP for a Geisha action the
rival cannot perform."""

from __future__ import annotations

from dataclasses import replace

import pytest

import domain
from domain.solo.tokugawa import best_rooms
from domain.state import GameState, replace_in

from .helpers import (
    HUMAN,
    RIVAL,
    answers_of,
    board,
    notes,
    resolve_icons,
    tokugawa_game,
    with_matcha,
)


def placed(state: GameState, *, warriors: int = 0, gardeners: int = 0, gate: int = 0) -> GameState:
    """The rival's members on the board: warriors in yard 3, gardeners on the first gardens, courtiers at the
    Gate."""
    yards = state.board.yards
    yards = replace_in(yards, 2, replace(yards[2], warriors=(RIVAL,) * warriors))
    gardens = tuple(
        replace(slot, gardeners=(RIVAL,)) if i < gardeners else slot
        for i, slot in enumerate(state.board.gardens)
    )
    gates = replace_in(state.board.gate, RIVAL, gate)
    return replace(state, board=replace(state.board, yards=yards, gardens=gardens, gate=gates))


def on_path_2(state: GameState) -> GameState:
    """A rival geisha on path space 2, about to be advanced (symbol 2's step 2)."""
    return with_matcha(state, path=((), (RIVAL,)))


def test_R_TK03_a_rival_geisha_entering_the_tea_house_goes_to_the_room_scoring_the_most() -> None:
    state = placed(tokugawa_game("easy"), warriors=2, gardeners=1, gate=1)
    assert best_rooms(state, RIVAL) == ["tea_house_middle"]  # 2 warriors x 2 = 4 CP
    state = resolve_icons(on_path_2(state), "advance")
    rooms = {room.id: room.geishas for room in board(state).tea_house}
    assert rooms["tea_house_middle"] == (RIVAL,) and board(state).path == ((), ())
    assert notes(state)[-1] == (
        "a geisha advances from path space 2 to the middle Tea House room (the room scoring it the most: 4 CP for "
        "its warriors placed)"
    )
    # R-SO02: it performs nothing there (the room's ceremony token), and the player's turn goes on
    assert domain.prompt_of(state) == {"kind": "take_die", "seat": HUMAN}


def test_R_TK03_rooms_that_tie_are_the_players_choice_and_no_other() -> None:
    state = placed(tokugawa_game("easy"), gardeners=2, gate=2)  # upper and lower both score 4
    state = resolve_icons(on_path_2(state), "advance")
    prompt = domain.prompt_of(state)
    assert (prompt["kind"], prompt["seat"]) == ("rival_geisha", HUMAN)
    assert [m["to"] for m in answers_of(state, "rival_geisha")] == ["tea_house_upper", "tea_house_lower"]
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(
            state, {"kind": "rival_geisha", "seat": HUMAN, "from": "path_2", "to": "tea_house_middle"}
        )
    assert error.value.rule == "R-TK03" and error.value.details["rooms"] == [
        "tea_house_upper",
        "tea_house_lower",
    ]
    state = domain.apply(
        state, {"kind": "rival_geisha", "seat": HUMAN, "from": "path_2", "to": "tea_house_lower"}
    )
    assert board(state).tea_house[2].geishas == (RIVAL,)


def test_R_TK05_an_advance_from_no_place_of_the_tea_garden_is_refused_with_its_rule() -> None:
    state = placed(tokugawa_game("easy"), gardeners=2, gate=2)
    state = resolve_icons(on_path_2(state), "advance")
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(
            state, {"kind": "rival_geisha", "seat": HUMAN, "from": "nowhere", "to": "tea_house_upper"}
        )
    assert error.value.rule == "R-TK05" and error.value.details == {"from": "nowhere"}


def test_R_TK03_a_room_holding_two_rival_geishas_is_left_out() -> None:
    state = placed(tokugawa_game("easy"), warriors=3, gardeners=1)
    house = board(state).tea_house
    state = with_matcha(state, tea_house=replace_in(house, 1, replace(house[1], geishas=(RIVAL, RIVAL))))
    assert best_rooms(state, RIVAL) == ["tea_house_upper"]  # the middle room (6 CP) is full for the rival


def test_R_TK03_a_rival_geisha_stopping_on_a_path_space_discards_the_top_card_of_the_deck_chosen() -> None:
    state = resolve_icons(with_matcha(tokugawa_game("easy"), entrance=(RIVAL,)), "advance")
    state = domain.apply(state, {"kind": "rival_geisha", "seat": HUMAN, "from": "entrance", "to": "path_1"})
    assert [m["deck"] for m in answers_of(state, "rival_discard")] == ["ikebana", "calligraphy"]
    state = domain.apply(state, {"kind": "rival_discard", "seat": HUMAN, "deck": "ikebana"})
    deck = board(state).decks[0]
    assert deck.top is None and "IK1" not in deck.rest  # out of the game, the next card to be revealed
    assert notes(state)[-1] == "the Ikebana card IK1 is discarded"
    state = domain.apply(state, {"kind": "reveal", "seat": None, "pool": "ikebana", "card": "IK5"})
    assert board(state).decks[0].top == "IK5" and state.players[HUMAN].lantern == ("SR3",)


def test_R_TK03_only_a_deck_with_at_least_two_cards_is_discarded_from() -> None:
    state = tokugawa_game("easy")
    decks = board(state).decks
    state = with_matcha(state, decks=(replace(decks[0], rest=()), decks[1]))  # Ikebana: its last card
    state = resolve_icons(state, "discard")
    assert board(state).decks[0].top == "IK1" and board(state).decks[1].top is None  # no prompt: Calligraphy
    state = with_matcha(state, decks=(board(state).decks[0], replace(decks[1], top="CA2", rest=())))
    state = resolve_icons(state, "discard")
    assert notes(state)[-1] == "no Ikebana or Calligraphy deck holds 2 cards: nothing is discarded"


def test_R_TK03_a_geisha_action_the_rival_cannot_perform_gives_cp_equal_to_the_round() -> None:
    state = replace(tokugawa_game("easy"), round=3)
    cp = state.players[RIVAL].cp
    state = resolve_icons(state, "advance")  # no rival geisha in the Tea Garden
    assert state.players[RIVAL].cp == cp + 3
    assert notes(state)[-1] == "cannot advance a geisha 1 step (none can): +3 CP"
    state = resolve_icons(
        replace(state, players=replace_in(state.players, RIVAL, replace(state.players[RIVAL], geishas=0))),
        "geisha:path_2",
    )
    assert state.players[RIVAL].cp == cp + 6


def test_R_TK03_R_SO02_a_rival_geisha_on_the_viewing_platform_takes_no_pond_action() -> None:
    state = with_matcha(tokugawa_game("easy"), entrance=(RIVAL,), path=((RIVAL,), ()))
    state = resolve_icons(state, "advance")
    state = domain.apply(
        state, {"kind": "rival_geisha", "seat": HUMAN, "from": "entrance", "to": "viewing_platform"}
    )
    rival = state.players[RIVAL]
    assert board(state).platform == (RIVAL,) and (rival.coins, rival.cp, rival.whisks) == (0, 0, 0)
    assert domain.prompt_of(state) == {"kind": "take_die", "seat": HUMAN}
