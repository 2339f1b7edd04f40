"""The Tokugawa rival's end of round (R-SO04 with Matcha, R-M16): coins into CP as in the base solo game,
and a rival geisha on the Viewing Platform counted as an activated garden of the green bridge (decision)."""

from __future__ import annotations

from dataclasses import replace

import domain
from domain.areas.bridges import lay
from domain.solo import game as solo
from domain.state import GameState, bridge_index, replace_in
from domain.vocabulary import MatchaColour

from .helpers import RIVAL, notes, tokugawa_game, with_matcha, with_rival


def green(state: GameState, dice: list[int]) -> GameState:
    index = bridge_index(state, "green")
    bridges = replace_in(state.board.bridges, index, lay(MatchaColour.GREEN, dice))
    return replace(state, board=replace(state.board, bridges=bridges))


def test_R_SO04_R_M16_a_rival_geisha_on_the_activated_viewing_platform_gives_cp_equal_to_the_round() -> None:
    state = replace(with_matcha(with_rival(tokugawa_game("medium"), coins=0), platform=(RIVAL,)), round=2)
    after = solo.end_of_round(green(state, [4]))
    assert after.players[RIVAL].cp == state.players[RIVAL].cp + 2
    assert "its geisha on the activated Viewing Platform: +2 CP" in notes(after)
    # the green bridge empty: the Viewing Platform is not activated
    after = solo.end_of_round(green(state, []))
    assert after.players[RIVAL].cp == state.players[RIVAL].cp


def test_R_SO04_the_viewing_platform_gives_nothing_after_round_3() -> None:
    state = replace(with_matcha(with_rival(tokugawa_game("medium"), coins=0), platform=(RIVAL,)), round=3)
    assert solo.end_of_round(green(state, [4])).players[RIVAL].cp == state.players[RIVAL].cp


def test_R_SO04_R_TK01_the_tokugawa_cards_are_reshuffled_with_the_others() -> None:
    state = tokugawa_game("medium")
    assert state.solo is not None
    state = replace(state, solo=replace(state.solo, deck=state.solo.deck[2:], line=state.solo.deck[:2]))
    after = solo.end_of_round(state)
    assert after.solo is not None and len(after.solo.deck) == 12 and after.solo.line == ()


def test_R_SO04_R_M16_the_rival_gets_no_garden_menu_of_its_own() -> None:
    state = domain.new_game(["Ana"], solo="hard", seed=33, expansions=["matcha"])
    while state.round == 1:
        prompt = domain.prompt_of(state)
        assert prompt["seat"] != RIVAL
        state = domain.apply(state, domain.legal_moves(state)[0])
