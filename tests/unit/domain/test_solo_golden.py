"""Golden solo games (R-SO01..R-SO06): recorded games against the rival with every move, the solo cards among
the chance moves, the rival's turns in words and the final score sheets. Replayed in table mode with full
checks, re-applied without checks, replayed in seeded mode where the seed must regenerate every chance move,
and scored again from tallies. tools/golden_games.py writes these files."""

from __future__ import annotations

from pathlib import Path

import pytest

import domain
from domain.scoring import score_sheet

from . import golden_support as golden
from .helpers import end_tallies

GOLDEN = Path(__file__).parent / "golden_solo"
FILES = sorted(GOLDEN.glob("*.json"))


def test_there_are_golden_solo_games_where_the_rival_plays_first_and_second() -> None:
    assert sorted(golden.load(path)["solo"] for path in FILES) == ["easy", "hard"]
    assert any("hand_check" in golden.load(path) for path in FILES)
    for path in FILES:
        assert any(move["kind"] == "solo_card" for move in golden.load(path)["moves"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_R_SO03_a_golden_solo_game_replays_to_its_score_sheet_and_rival_log(path: Path) -> None:
    game = golden.load(path)
    state, rival_log = golden.replay(game)
    assert domain.is_over(state)
    assert golden.as_dicts(domain.score(state)) == game["final_score"]
    assert rival_log == game["rival_log"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_solo_game_reapplied_without_checks_reaches_the_same_state(path: Path) -> None:
    checked, trusted = golden.replay_checked_and_trusted(golden.load(path))
    assert trusted == checked


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_R_SO03_a_golden_solo_game_seed_regenerates_its_solo_cards(path: Path) -> None:
    game = golden.load(path)
    drawn, left_over = golden.replay_seeded(game)
    assert left_over == []
    assert golden.chance_moves(game) == drawn


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_solo_game_scores_the_same_through_the_score_sheet(path: Path) -> None:
    """An independent path to the same numbers, the rival's included: the end position typed in as
    tallies."""
    game = golden.load(path)
    state = golden.end_state(game)
    players = [end_tallies(state, seat) for seat in range(len(state.players))]
    assert golden.as_dicts(score_sheet({"players": players}, state.catalog)) == game["final_score"]
