"""A golden Matcha game (4 players): every move, chance moves included, and the expected final score sheets.
Replayed in table mode with full checks, re-applied without checks, replayed in seeded mode where the seed must
regenerate exactly the recorded chance moves, and scored again through the stand-alone score sheet's Matcha
tallies. tools/golden_games.py writes the file."""

from __future__ import annotations

from pathlib import Path

import domain
from domain.matcha.tea_garden import ENTRANCE
from domain.scoring import score_sheet

from .. import golden_support as golden

PATH = Path(__file__).parent / "golden" / "matcha_four_players.json"


def test_the_golden_matcha_game_visits_the_whole_tea_garden() -> None:
    game = golden.load(PATH)
    assert game["expansions"] == ["matcha"] and len(game["players"]) == 4
    reached = {move["to"] for move in game["moves"] if move["kind"] == "advance_geisha"}
    assert {"viewing_platform", "path_1", "path_2"} <= reached and any(
        p.startswith("tea_house") for p in reached
    )
    assert {"send_geisha", "himeji_card"} <= {move["kind"] for move in game["moves"]}
    assert any(move.get("to") == "whisk" for move in game["moves"] if move["kind"] == "convert")


def test_the_golden_matcha_game_replays_to_its_score_sheet() -> None:
    game = golden.load(PATH)
    state, _ = golden.replay(game)
    assert domain.is_over(state)
    assert golden.as_dicts(domain.score(state)) == game["final_score"]


def test_the_golden_matcha_game_reapplied_without_checks_reaches_the_same_state() -> None:
    checked, trusted = golden.replay_checked_and_trusted(golden.load(PATH))
    assert trusted == checked


def test_the_golden_matcha_games_seed_regenerates_its_chance_moves() -> None:
    game = golden.load(PATH)
    drawn, left_over = golden.replay_seeded(game)
    assert left_over == []
    assert golden.chance_moves(game) == drawn


def test_the_golden_matcha_game_scores_the_same_through_the_score_sheet() -> None:
    """An independent path to the same numbers: the end position typed in as Matcha tallies."""
    game = golden.load(PATH)
    state = golden.end_state(game)
    players = [golden.matcha_tallies(state, seat) for seat in range(len(state.players))]
    assert ENTRANCE in players[0]["geishas"]
    sheets = score_sheet({"expansions": ["matcha"], "players": players}, state.catalog)
    assert golden.as_dicts(sheets) == game["final_score"]
