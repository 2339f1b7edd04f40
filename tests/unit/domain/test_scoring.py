"""Final scoring (R-F01..R-F10): every line, the tie-break, EN's 76-point example, the score sheet."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

import domain
from domain.scoring import ScoreSheet, coins_seals_points, resource_points

from .helpers import standard, with_board, with_player, with_room


def seventy_six() -> domain.GameState:
    """EN's example, built by hand on seat 0 (R-F10): 8 + 1 + 3 + 6 + 25 + 18 + 15 = 76."""
    state = with_player(
        standard(),
        0,
        cp=8,
        coins=3,
        seals=2,
        food=3,
        iron=4,
        pearl=5,
        pot=12,
        courtiers=0,
        warriors=1,
        gardeners=2,
    )
    state = with_board(state, gate=(2, 0, 0), daimyo=replace(state.board.daimyo, spots=(0, None, 0)))
    state = with_room(state, "steward_2", courtiers=(0,))
    yards = state.board.yards
    state = with_board(
        state,
        yards=(
            replace(yards[0], warriors=(0, 0)),  # value 2 each
            replace(yards[1], warriors=(0,)),
            replace(yards[2], warriors=(0,)),
        ),
    )
    gardens = tuple(
        replace(slot, gardeners=(0,)) if slot.id in ("coral_plant", "black_plant", "black_stone") else slot
        for slot in state.board.gardens
    )  # PG2 7 + PG1 5 + SG3 3
    return with_board(state, gardens=gardens)


def test_R_F10_the_76_point_example_built_by_hand() -> None:
    sheet = domain.score(seventy_six())[0]
    assert (
        sheet.in_game_cp,
        sheet.coins_seals,
        sheet.resources,
        sheet.passage_of_time,
        sheet.courtiers,
        sheet.warriors,
        sheet.gardeners,
        sheet.total,
    ) == (8, 1, 3, 6, 25, 18, 15, 76)
    assert sheet.rank == 1


def test_R_F10_the_76_point_example_through_the_score_sheet() -> None:
    sheets = domain.score_sheet(
        {
            "players": [
                {
                    "name": "EN",
                    "cp": 8,
                    "coins": 3,
                    "seals": 2,
                    "food": 3,
                    "iron": 4,
                    "pearl": 5,
                    "pot": 12,
                    "courtiers": {"gate": 2, "steward": 1, "daimyo": 2},
                    "warriors": {"yard_1": 2, "yard_2": 1, "yard_3": 1},
                    "gardeners": ["PG2", "PG1", "SG3"],
                }
            ]
        }
    )
    assert sheets[0].total == 76
    assert sheets[0].to_dict()["warriors"] == 18


def test_R_F01_clan_points_earned_in_play_count() -> None:
    assert domain.score(with_player(standard(), 1, cp=23))[1].in_game_cp == 23


@pytest.mark.parametrize(("coins", "seals", "points"), [(4, 0, 0), (3, 2, 1), (9, 5, 2), (0, 5, 1)])
def test_R_F02_one_point_per_five_coins_and_seals_together(coins: int, seals: int, points: int) -> None:
    assert coins_seals_points(coins, seals) == points
    assert domain.score(with_player(standard(), 0, coins=coins, seals=seals))[0].coins_seals == points


@pytest.mark.parametrize(
    ("amounts", "points"), [((0, 2, 2), 0), ((3, 6, 0), 2), ((7, 7, 7), 6), ((7, 3, 2), 3)]
)
def test_R_F03_each_resource_scores_one_at_three_to_six_two_at_seven(
    amounts: tuple[int, int, int], points: int
) -> None:
    assert resource_points(*amounts) == points
    food, iron, pearl = amounts
    assert domain.score(with_player(standard(), 0, food=food, iron=iron, pearl=pearl))[0].resources == points


@pytest.mark.parametrize(
    ("pot", "points"), [(0, 0), (5, 0), (6, 3), (10, 3), (11, 6), (14, 6), (15, 10), (18, 13), (20, 15)]
)
def test_R_F04_passage_of_time_seasons_score_0_3_6_then_10_to_15(pot: int, points: int) -> None:
    assert domain.score(with_player(standard(), 0, pot=pot))[0].passage_of_time == points


def test_R_F05_courtiers_score_by_floor_and_nothing_at_home() -> None:
    state = with_board(standard(), gate=(1, 0, 0), daimyo=replace(standard().board.daimyo, extra=(0,)))
    state = with_room(state, "steward_1", courtiers=(0, 1))
    state = with_room(state, "diplomat_2", courtiers=(0,))
    assert domain.score(state)[0].courtiers == 1 + 3 + 6 + 10
    assert domain.score(state)[1].courtiers == 3
    assert domain.score(standard())[0].courtiers == 0


def test_R_F06_warriors_score_yard_value_times_courtiers_inside_the_castle() -> None:
    state = seventy_six()
    assert domain.score(state)[0].warriors == (2 + 2 + 1 + 1) * 3
    at_the_gate_only = with_board(state, daimyo=replace(state.board.daimyo, spots=(None, None, None)))
    at_the_gate_only = with_room(at_the_gate_only, "steward_2", courtiers=())
    assert domain.score(at_the_gate_only)[0].warriors == 0  # the Gate does not count


def test_R_F07_gardeners_score_their_cards() -> None:
    assert domain.score(seventy_six())[0].gardeners == 7 + 5 + 3


def test_R_F08_the_base_sheet_has_no_geisha_line_which_is_matcha_scoring() -> None:
    lines = [f.name for f in fields(ScoreSheet)]
    assert lines == [
        "seat",
        "name",
        "in_game_cp",
        "coins_seals",
        "resources",
        "passage_of_time",
        "courtiers",
        "warriors",
        "gardeners",
        "total",
        "rank",
    ]


def tied() -> domain.GameState:
    """Seats 0 and 2 on 10 points, seat 1 on 3."""
    state = standard()
    for seat, cp in ((0, 10), (1, 3), (2, 10)):
        state = with_player(state, seat, cp=cp, coins=0, seals=0, food=0, iron=0, pearl=0)
    return state


def test_R_F09_most_points_win_ties_go_to_the_higher_turn_order() -> None:
    state = replace(tied(), turn_order=(2, 1, 0))
    ranks = {sheet.seat: sheet.rank for sheet in domain.score(state)}
    assert (ranks[2], ranks[0], ranks[1]) == (1, 2, 3)
    state = replace(tied(), turn_order=(1, 0, 2))
    ranks = {sheet.seat: sheet.rank for sheet in domain.score(state)}
    assert (ranks[0], ranks[2], ranks[1]) == (1, 2, 3)


def test_C8_option_shared_lets_tied_players_share_a_rank() -> None:
    state = tied()
    state = replace(state, options=replace(state.options, tie_break="shared"))
    ranks = {sheet.seat: sheet.rank for sheet in domain.score(state)}
    assert ranks[0] == ranks[2] == 1
    assert ranks[1] == 3  # the two shared places are both taken: the next player is third, not first


def test_score_is_available_at_any_moment() -> None:
    state = domain.new_game(3, seed=1)
    sheets = domain.score(state)
    assert len(sheets) == 3 and all(isinstance(s.to_dict()["total"], int) for s in sheets)


def test_score_sheet_takes_points_where_the_rulebook_scorer_does() -> None:
    sheets = domain.score_sheet(
        {
            "players": [
                {
                    "name": "A",
                    "cp": 30,
                    "coins": 7,
                    "resource_points": 2,
                    "pot_points": 6,
                    "warrior_points": 8,
                    "gardener_points": 10,
                    "courtiers": {"diplomat": 1},
                    "turn_order": 2,
                },
                {
                    "name": "B",
                    "cp": 32,
                    "coins": 0,
                    "resource_points": 4,
                    "pot_points": 3,
                    "warrior_points": 8,
                    "gardener_points": 10,
                    "courtiers": {"diplomat": 1},
                    "turn_order": 1,
                },
            ]
        }
    )
    assert [s.total for s in sheets] == [30 + 1 + 2 + 6 + 6 + 8 + 10, 32 + 0 + 4 + 3 + 6 + 8 + 10]
    assert [s.rank for s in sheets] == [2, 1]  # a tie at 63: B is first on the track


@pytest.mark.parametrize(
    "player",
    [
        {"cp": -1},
        {"seals": 6},
        {"food": 8},
        {"pot": 21},
        {"pot_points": 4},
        {"courtiers": {"gate": 6}},
        {"courtiers": {"attic": 1}},
        {"gardeners": ["PG1", "PG1"]},
        {"gardeners": ["XX"]},
        {"food": 3, "resource_points": 1},
        {"resource_points": 7},
        {"warrior_points": -1},
        {"colour": "red"},
        {"turn_order": 3},
    ],
)
def test_score_sheet_refuses_impossible_tallies(player: dict[str, object]) -> None:
    with pytest.raises(domain.InvalidTallies) as error:
        domain.score_sheet({"players": [player, {}]})
    assert error.value.code == "invalid_tallies"
