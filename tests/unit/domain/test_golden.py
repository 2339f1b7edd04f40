"""Golden games (python-chess's perft idea): recorded games with every move, chance moves included, and the
expected final score sheets. Replayed in table mode with full checks, re-applied without checks, and replayed
in seeded mode where the seed must regenerate exactly the recorded chance moves. The 2-player game's sheets
were checked by hand (its ``hand_check``). tools/golden_games.py writes these files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import domain
from domain.scoring import score_sheet

from .helpers import end_tallies

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_there_are_golden_games_for_two_three_and_four_players() -> None:
    assert sorted(len(load(path)["players"]) for path in FILES) == [2, 3, 4]
    assert any("hand_check" in load(path) for path in FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_game_replays_to_its_score_sheet(path: Path) -> None:
    game = load(path)
    state = domain.new_game(game["players"], mode="table", options=game["options"], catalog=game["catalog"])
    for number, move in enumerate(game["moves"]):
        assert not domain.is_over(state), f"move {number} after the end"
        state = domain.apply(state, move)
    assert domain.is_over(state)
    assert [sheet.to_dict() for sheet in domain.score(state)] == game["final_score"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_game_reapplied_without_checks_reaches_the_same_state(path: Path) -> None:
    game = load(path)
    start = domain.new_game(game["players"], mode="table", options=game["options"], catalog=game["catalog"])
    checked, trusted = start, start
    for move in game["moves"]:
        checked = domain.apply(checked, move)
        trusted = domain.apply(trusted, move, check=False)
    assert trusted == checked


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_game_seed_regenerates_its_chance_moves(path: Path) -> None:
    game = load(path)
    step = domain.resolve_chance(
        domain.new_game(
            game["players"], seed=game["seed"], options=game["options"], catalog=game["catalog"], draw=False
        )
    )
    replayed = list(step.chance)
    state = step.state
    players_moves = iter(move for move in game["moves"] if move["seat"] is not None)
    while not domain.is_over(state):
        step = domain.step(state, next(players_moves))
        replayed.extend(step.chance)
        state = step.state
    assert next(players_moves, None) is None
    assert [m for m in game["moves"] if m["seat"] is None] == replayed


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_game_scores_the_same_through_the_score_sheet(path: Path) -> None:
    """An independent path to the same numbers: the end position typed in as tallies."""
    game = load(path)
    state = domain.new_game(game["players"], mode="table", options=game["options"], catalog=game["catalog"])
    for move in game["moves"]:
        state = domain.apply(state, move, check=False)
    players = [end_tallies(state, seat) for seat in range(len(state.players))]
    sheets = score_sheet({"players": players}, state.catalog)
    assert [sheet.to_dict() for sheet in sheets] == game["final_score"]
