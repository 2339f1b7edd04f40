"""Matcha scoring (R-M19, R-F03, R-F08, R-R06): whisks count as a resource, geishas by place, the Tea House
rooms by members placed, MA's 24-point example, the +120/+160 tile, and the score sheet from tallies."""

from __future__ import annotations

from dataclasses import fields, replace

import pytest

import domain
from domain.scoring import MatchaScoreSheet, ScoreSheet, score_sheet, track_tile

from ..helpers import standard, with_player
from .helpers import board, matcha_standard, with_matcha


def bare(state: domain.GameState) -> domain.GameState:
    """Every clan with nothing that scores."""
    for seat in range(len(state.players)):
        state = with_player(state, seat, cp=0, coins=0, seals=0, food=0, iron=0, pearl=0, whisks=0)
    return state


def twenty_four() -> domain.GameState:
    """MA's scoring example for seat 0: a geisha on the Viewing Platform (2), one on path space 1 (2), two in the
    upper room (gardeners) with 3 gardeners placed (2 x 2 x 3 = 12), one in the lower room (courtiers) with 3
    courtiers in the castle and 1 at the Gate (2 x 4 = 8)."""
    state = bare(matcha_standard())
    state = with_matcha(state, platform=(0,), path=((0,), ()))
    rooms = board(state).tea_house
    state = with_matcha(
        state,
        tea_house=(replace(rooms[0], geishas=(0, 0)), rooms[1], replace(rooms[2], geishas=(0,))),
    )
    gardens = tuple(
        replace(slot, gardeners=(0,)) if slot.id in ("coral_stone", "black_stone", "white_stone") else slot
        for slot in state.board.gardens
    )
    courtiers = {"steward_1": (0,), "diplomat_1": (0,)}
    rooms_ = tuple(replace(room, courtiers=courtiers.get(room.id, ())) for room in state.board.rooms)
    daimyo = replace(state.board.daimyo, spots=(0, None, None))
    state = replace(
        state, board=replace(state.board, gardens=gardens, rooms=rooms_, daimyo=daimyo, gate=(1, 0, 0))
    )
    return with_player(state, 0, geishas=0, gardeners=2, courtiers=1)


def test_R_F08_R_F10_mas_24_point_geisha_example() -> None:
    sheet = domain.score(twenty_four())[0]
    assert isinstance(sheet, MatchaScoreSheet)
    assert sheet.geishas == 2 + 2 + 12 + 8 == 24


def test_R_F08_every_place_scores_as_printed() -> None:
    state = bare(matcha_standard())
    state = with_matcha(state, entrance=(0, 0), platform=(1,), path=((0,), (0, 2)))
    sheets = domain.score(state)
    assert [sheet.geishas for sheet in sheets] == [1 + 1 + 2 + 3, 2, 3]  # type: ignore[attr-defined]
    # a Tea House room with nothing of its kind placed scores nothing
    rooms = board(state).tea_house
    state = with_matcha(state, tea_house=(rooms[0], replace(rooms[1], geishas=(1,)), rooms[2]))
    assert domain.score(state)[1].geishas == 2  # type: ignore[attr-defined]


def test_R_F03_R_M19_whisks_score_as_a_resource() -> None:
    state = with_player(bare(matcha_standard()), 0, whisks=7, food=3)
    assert domain.score(state)[0].resources == 2 + 1
    assert domain.score(with_player(state, 0, whisks=2))[0].resources == 1


def test_R_F03_R_M19_a_matcha_sheet_takes_resource_points_up_to_eight() -> None:
    # four resources (whisks too) can score 2 each: 8, where the base game's three stop at 6
    tallies = {"expansions": ["matcha"], "players": [{"resource_points": 8}, {}]}
    assert score_sheet(tallies)[0].resources == 8


def test_R_M19_the_matcha_sheet_adds_the_geisha_line_after_the_gardeners() -> None:
    data = domain.score(twenty_four())[0].to_dict()
    assert list(data) == [
        "seat",
        "name",
        "in_game_cp",
        "coins_seals",
        "resources",
        "passage_of_time",
        "courtiers",
        "warriors",
        "gardeners",
        "geishas",
        "total",
        "rank",
    ]
    assert data["total"] == sum(data[key] for key in list(data)[2:-2])
    assert [f.name for f in fields(ScoreSheet)][-2:] == ["total", "rank"]
    assert type(domain.score(standard())[0]) is ScoreSheet


def test_R_R06_R_M19_totals_above_120_take_the_120_160_tile() -> None:
    assert [track_tile(points, False) for points in (39, 40, 79, 80, 119)] == ["", "+40", "+40", "+80", "+80"]
    assert [track_tile(points, True) for points in (80, 120, 159, 160, 199)] == [
        "+80",
        "+120",
        "+120",
        "+160",
        "+160",
    ]
    sheet = domain.score(with_player(twenty_four(), 0, cp=130))[0].to_dict()
    assert sheet["total"] == sum(sheet[line] for line in list(sheet)[2:-2]) > 160  # no cap on the total
    assert track_tile(sheet["total"], True) == "+160"


def test_R_F08_the_score_sheet_from_matcha_tallies() -> None:
    tallies = {
        "expansions": ["matcha"],
        "players": [
            {
                "name": "Aiko",
                "whisks": 7,
                "courtiers": {"gate": 1, "steward": 1, "diplomat": 1, "daimyo": 1},
                "gardeners": ["SG1", "SG3", "SG5"],
                "geishas": {
                    "viewing_platform": 1,
                    "path_1": 1,
                    "tea_house_upper": 2,
                    "tea_house_lower": 1,
                },
            },
            {"name": "Ben", "geisha_points": 5},
        ],
    }
    aiko, ben = score_sheet(tallies)
    assert isinstance(aiko, MatchaScoreSheet) and aiko.geishas == 24 and aiko.resources == 2
    assert ben.geishas == 5  # type: ignore[attr-defined]
    with pytest.raises(domain.InvalidTallies):
        score_sheet({"expansions": ["matcha"], "players": [{"geishas": {"viewing_platform": 2}}]})
    with pytest.raises(domain.InvalidTallies):
        score_sheet({"players": [{"whisks": 3}]})  # whisks are Matcha tallies
    assert type(score_sheet({"players": [{"cp": 3}]})[0]) is ScoreSheet


def test_R_F08_tallies_with_gardener_points_count_the_gardeners_placed() -> None:
    tallies = {
        "expansions": ["matcha"],
        "players": [{"gardener_points": 9, "gardeners_placed": 3, "geishas": {"tea_house_upper": 2}}],
    }
    assert score_sheet(tallies)[0].geishas == 12  # type: ignore[attr-defined]
