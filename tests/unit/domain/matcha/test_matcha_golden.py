"""A golden Matcha game (4 players): every move, chance moves included, and the expected final score sheets.
Replayed in table mode with full checks, re-applied without checks, replayed in seeded mode where the seed must
regenerate exactly the recorded chance moves, and scored again through the stand-alone score sheet's Matcha
tallies. tools/golden_games.py writes the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import domain
from domain.scoring import score_sheet
from domain.state import GameState
from domain.tea_garden import ENTRANCE, geishas_at, places

from ..helpers import end_tallies

PATH = Path(__file__).parent / "golden" / "matcha_four_players.json"


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(PATH.read_text(encoding="utf-8"))
    return data


def start(game: dict[str, Any], **kwargs: Any) -> GameState:
    return domain.new_game(
        game["players"],
        options=game["options"],
        catalog=game["catalog"],
        expansions=game["expansions"],
        **kwargs,
    )


def test_the_golden_matcha_game_visits_the_whole_tea_garden() -> None:
    game = load()
    assert game["expansions"] == ["matcha"] and len(game["players"]) == 4
    reached = {move["to"] for move in game["moves"] if move["kind"] == "advance_geisha"}
    assert {"viewing_platform", "path_1", "path_2"} <= reached and any(
        p.startswith("tea_house") for p in reached
    )
    assert {"send_geisha", "himeji_card"} <= {move["kind"] for move in game["moves"]}
    assert any(move.get("to") == "whisk" for move in game["moves"] if move["kind"] == "convert")


def test_the_golden_matcha_game_replays_to_its_score_sheet() -> None:
    game = load()
    state = start(game, mode="table")
    for number, move in enumerate(game["moves"]):
        assert not domain.is_over(state), f"move {number} after the end"
        state = domain.apply(state, move)
    assert domain.is_over(state)
    assert [sheet.to_dict() for sheet in domain.score(state)] == game["final_score"]


def test_the_golden_matcha_game_reapplied_without_checks_reaches_the_same_state() -> None:
    game = load()
    checked = trusted = start(game, mode="table")
    for move in game["moves"]:
        checked = domain.apply(checked, move)
        trusted = domain.apply(trusted, move, check=False)
    assert trusted == checked


def test_the_golden_matcha_games_seed_regenerates_its_chance_moves() -> None:
    game = load()
    step = domain.resolve_chance(start(game, seed=game["seed"], draw=False))
    replayed = list(step.chance)
    state = step.state
    players_moves = iter(move for move in game["moves"] if move["seat"] is not None)
    while not domain.is_over(state):
        step = domain.step(state, next(players_moves))
        replayed.extend(step.chance)
        state = step.state
    assert next(players_moves, None) is None
    assert [m for m in game["moves"] if m["seat"] is None] == replayed


def test_the_golden_matcha_game_scores_the_same_through_the_score_sheet() -> None:
    """An independent path to the same numbers: the end position typed in as Matcha tallies."""
    game = load()
    state = start(game, mode="table")
    for move in game["moves"]:
        state = domain.apply(state, move, check=False)
    players = [
        {
            **end_tallies(state, seat),
            "whisks": player.whisks,
            "geishas": {place: geishas_at(state, place).count(seat) for place in places(state)},
        }
        for seat, player in enumerate(state.players)
    ]
    assert ENTRANCE in players[0]["geishas"]
    sheets = score_sheet({"expansions": ["matcha"], "players": players}, state.catalog)
    assert [sheet.to_dict() for sheet in sheets] == game["final_score"]
