"""The Tokugawa rival's score (R-F08 with R-SO02's rival): its geishas score like a player's on the whole
sheet (the default), and nothing with ``rival_scoring="cp_only"``; its losses never take it below zero."""

from __future__ import annotations

import domain
from domain.state import GameState

from .helpers import HUMAN, RIVAL, tokugawa_game, with_matcha, with_rival


def geishas_out(state: GameState) -> GameState:
    """Rival geishas at the entrance (1), on the Viewing Platform (2), path space 2 (3) and in the lower room,
    with one rival courtier at the Gate (2 x 1)."""
    house = state.board.matcha
    assert house is not None
    rooms = tuple(
        domain.state.replace(room, geishas=(RIVAL,)) if room.id == "tea_house_lower" else room
        for room in house.tea_house
    )
    state = with_matcha(state, entrance=(RIVAL,), platform=(RIVAL,), path=((), (RIVAL,)), tea_house=rooms)
    gate = (0, 1)
    return domain.state.replace(state, board=domain.state.replace(state.board, gate=gate))


def test_R_F08_R_TK03_the_rivals_geishas_score_like_a_players_on_the_whole_sheet() -> None:
    state = with_rival(geishas_out(tokugawa_game("medium")), cp=10)
    sheet = domain.score(state)[RIVAL]
    assert sheet.to_dict()["geishas"] == 1 + 2 + 3 + 2 * 1
    assert sheet.courtiers == 1 and sheet.in_game_cp == 10
    assert sheet.total == 10 + 8 + 1 + domain.score(state)[RIVAL].passage_of_time
    assert domain.score(state)[HUMAN].to_dict()["geishas"] == 0


def test_R_F08_with_rival_scoring_cp_only_the_rivals_geishas_score_nothing() -> None:
    state = tokugawa_game("medium", options={"rival_scoring": "cp_only"})
    state = with_rival(geishas_out(state), cp=10)
    sheet = domain.score(state)[RIVAL]
    assert sheet.to_dict()["geishas"] == 0 and sheet.total == 10


def test_R_TK02_a_rival_with_nothing_left_scores_zero_cp_not_less() -> None:
    from .helpers import resolve_icons

    state = resolve_icons(with_rival(tokugawa_game("easy"), cp=1), "lose_cp:3", "lose_cp:3", "lose_coin:all")
    assert state.players[RIVAL].cp == 0 and domain.score(state)[RIVAL].in_game_cp == 0
