"""A golden Tokugawa game (R-TK01..R-TK07): a recorded solo game with Matcha, every move with its chance moves (the
solo cards, Himeji cards revealed after discards), the rival's turns in words and the final score sheets, the
rival's checked by hand (``hand_check``). Replayed in table mode with full checks, re-applied without checks,
replayed in seeded mode where the seed must regenerate every chance move, and scored again from tallies.
tools/golden_games.py writes it."""

from __future__ import annotations

from pathlib import Path

import pytest

import domain
from domain.scoring import score_sheet

from .. import golden_support as golden

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def test_the_golden_tokugawa_game_exercises_the_new_symbols_and_choices() -> None:
    game = golden.load(GOLDEN / "tokugawa_medium.json")
    kinds = {move["kind"] for move in game["moves"]}
    assert {"choose_start_cards", "solo_card", "rival_geisha"} <= kinds
    assert any("symbol 2" in line for line in game["rival_log"])
    assert any("symbol 4" in line for line in game["rival_log"])
    assert game["hand_check"][-1].endswith("the rival wins, rank 1 (Ana 23).")
    assert [sheet["total"] for sheet in game["final_score"]] == [23, 77]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_R_TK03_a_golden_tokugawa_game_replays_to_its_score_sheet_and_rival_log(path: Path) -> None:
    game = golden.load(path)
    state, rival_log = golden.replay(game)
    assert domain.is_over(state)
    assert golden.as_dicts(domain.score(state)) == game["final_score"]
    assert rival_log == game["rival_log"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_tokugawa_game_reapplied_without_checks_reaches_the_same_state(path: Path) -> None:
    checked, trusted = golden.replay_checked_and_trusted(golden.load(path))
    assert trusted == checked


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_R_TK01_a_golden_tokugawa_game_seed_regenerates_its_chance_moves(path: Path) -> None:
    game = golden.load(path)
    drawn, left_over = golden.replay_seeded(game)
    assert left_over == []
    assert golden.chance_moves(game) == drawn


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_tokugawa_game_scores_the_same_through_the_score_sheet(path: Path) -> None:
    """An independent path to the same numbers, the rival's geishas included: the end position typed in as
    Matcha tallies."""
    game = golden.load(path)
    state = golden.end_state(game)
    players = [golden.matcha_tallies(state, seat) for seat in range(len(state.players))]
    sheets = score_sheet({"players": players, "expansions": ["matcha"]}, state.catalog)
    assert golden.as_dicts(sheets) == game["final_score"]
