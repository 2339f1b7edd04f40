"""The final score of a solo game (R-SO04 decision, with R-F01..R-F09): the rival's score sheet, the
``cp_only`` option, and ties."""

from __future__ import annotations

from dataclasses import replace

import domain
from domain.state import GameState

from .helpers import with_board, with_player, with_room
from .solo_helpers import HUMAN, RIVAL, solo_game


def rival_on_the_board(state: GameState) -> GameState:
    """The rival: 20 CP, 4 coins, PoT 7; a courtier at the Gate and one in steward room 1; a warrior on the
    5-iron yard (value 2); a gardener on PG2 (7 CP)."""
    state = with_player(state, RIVAL, cp=20, coins=4, pot=7, courtiers=3, warriors=4, gardeners=4)
    state = with_room(state, "steward_1", courtiers=(RIVAL,))
    yards = (replace(state.board.yards[0], warriors=(RIVAL,)), *state.board.yards[1:])
    gardens = tuple(
        replace(slot, gardeners=(RIVAL,)) if slot.id == "coral_plant" else slot
        for slot in state.board.gardens
    )
    gate = tuple(1 if seat == RIVAL else count for seat, count in enumerate(state.board.gate))
    return with_board(state, yards=yards, gardens=gardens, gate=gate)


def test_R_SO04_R_F01_R_F07_by_default_the_rival_scores_the_whole_sheet() -> None:
    sheet = domain.score(rival_on_the_board(solo_game("medium")))[RIVAL]
    assert sheet.to_dict() | {"rank": 0} == {
        "seat": RIVAL,
        "name": "Rival",
        "in_game_cp": 20,
        "coins_seals": 0,
        "resources": 0,
        "passage_of_time": 3,
        "courtiers": 1 + 3,
        "warriors": 2 * 1,
        "gardeners": 7,
        "total": 36,
        "rank": 0,
    }


def test_R_SO04_option_cp_only_counts_the_rivals_clan_points_alone() -> None:
    state = rival_on_the_board(solo_game("medium", options={"rival_scoring": "cp_only"}))
    sheets = domain.score(state)
    assert sheets[RIVAL].total == sheets[RIVAL].in_game_cp == 20
    assert sheets[RIVAL].courtiers == sheets[RIVAL].gardeners == 0
    assert sheets[HUMAN].total == domain.score(rival_on_the_board(solo_game("medium")))[HUMAN].total


def test_R_F09_a_tie_goes_to_the_seat_higher_on_the_turn_order_track() -> None:
    state = with_player(solo_game("medium"), RIVAL, cp=0)
    human = domain.score(state)[HUMAN].total
    state = with_player(state, RIVAL, cp=human - domain.score(state)[RIVAL].total)
    sheets = domain.score(state)
    assert sheets[HUMAN].total == sheets[RIVAL].total
    assert state.turn_order[0] == RIVAL and sheets[RIVAL].rank == 1 and sheets[HUMAN].rank == 2
    flipped = domain.score(replace(state, turn_order=(HUMAN, RIVAL)))
    assert flipped[HUMAN].rank == 1


def test_R_SO01_the_difficulty_shows_in_the_rivals_in_game_cp() -> None:
    assert [domain.score(solo_game(d))[RIVAL].in_game_cp for d in ("easy", "medium", "hard")] == [0, 3, 8]
