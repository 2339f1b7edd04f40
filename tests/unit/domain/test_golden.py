"""Golden games (python-chess's perft idea): recorded games with every move, chance moves included, and the
expected final score sheets. Replayed in table mode with full checks, re-applied without checks, and replayed
in seeded mode where the seed must regenerate exactly the recorded chance moves. The 2-player game's sheets
were checked by hand (its ``hand_check``). tools/golden_games.py writes these files."""

from __future__ import annotations

from pathlib import Path

import pytest

import domain
from domain.scoring import score_sheet

from . import golden_support as golden
from .helpers import end_tallies

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def test_there_are_golden_games_for_two_three_and_four_players() -> None:
    assert sorted(len(golden.load(path)["players"]) for path in FILES) == [2, 3, 4]
    assert any("hand_check" in golden.load(path) for path in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_game_replays_to_its_score_sheet(path: Path) -> None:
    game = golden.load(path)
    state, _ = golden.replay(game)
    assert domain.is_over(state)
    assert golden.as_dicts(domain.score(state)) == game["final_score"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_game_reapplied_without_checks_reaches_the_same_state(path: Path) -> None:
    checked, trusted = golden.replay_checked_and_trusted(golden.load(path))
    assert trusted == checked


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_game_seed_regenerates_its_chance_moves(path: Path) -> None:
    game = golden.load(path)
    drawn, left_over = golden.replay_seeded(game)
    assert left_over == []
    assert golden.chance_moves(game) == drawn


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_game_scores_the_same_through_the_score_sheet(path: Path) -> None:
    """An independent path to the same numbers: the end position typed in as tallies."""
    game = golden.load(path)
    state = golden.end_state(game)
    players = [end_tallies(state, seat) for seat in range(len(state.players))]
    assert golden.as_dicts(score_sheet({"players": players}, state.catalog)) == game["final_score"]
