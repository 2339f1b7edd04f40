"""Golden solo games (R-SO01..R-SO06): recorded games against the rival with every move, the solo cards among
the chance moves, the rival's turns in words and the final score sheets. Replayed in table mode with full
checks, re-applied without checks, replayed in seeded mode where the seed must regenerate every chance move,
and scored again from tallies. tools/golden_games.py writes these files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import domain
from domain.scoring import score_sheet

from .helpers import end_tallies

GOLDEN = Path(__file__).parent / "golden_solo"
FILES = sorted(GOLDEN.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def fresh(game: dict[str, Any], **extra: Any) -> domain.GameState:
    return domain.new_game(
        game["players"], solo=game["solo"], options=game["options"], catalog=game["catalog"], **extra
    )


def test_there_are_golden_solo_games_where_the_rival_plays_first_and_second() -> None:
    assert sorted(load(path)["solo"] for path in FILES) == ["easy", "hard"]
    assert any("hand_check" in load(path) for path in FILES)
    for path in FILES:
        assert any(move["kind"] == "solo_card" for move in load(path)["moves"])


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_R_SO03_a_golden_solo_game_replays_to_its_score_sheet_and_rival_log(path: Path) -> None:
    game = load(path)
    state = fresh(game, mode="table")
    log = []
    for number, move in enumerate(game["moves"]):
        assert not domain.is_over(state), f"move {number} after the end"
        if move["kind"] == "solo_card":
            log.append(domain.describe(state, move))
        state = domain.apply(state, move)
    assert domain.is_over(state)
    assert [sheet.to_dict() for sheet in domain.score(state)] == game["final_score"]
    assert log == game["rival_log"]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_a_golden_solo_game_reapplied_without_checks_reaches_the_same_state(path: Path) -> None:
    game = load(path)
    checked = trusted = fresh(game, mode="table")
    for move in game["moves"]:
        checked = domain.apply(checked, move)
        trusted = domain.apply(trusted, move, check=False)
    assert trusted == checked


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_R_SO03_a_golden_solo_game_seed_regenerates_its_solo_cards(path: Path) -> None:
    game = load(path)
    step = domain.resolve_chance(fresh(game, seed=game["seed"], draw=False))
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
def test_a_golden_solo_game_scores_the_same_through_the_score_sheet(path: Path) -> None:
    """An independent path to the same numbers, the rival's included: the end position typed in as
    tallies."""
    game = load(path)
    state = fresh(game, mode="table")
    for move in game["moves"]:
        state = domain.apply(state, move, check=False)
    players = [end_tallies(state, seat) for seat in range(len(state.players))]
    sheets = score_sheet({"players": players}, state.catalog)
    assert [sheet.to_dict() for sheet in sheets] == game["final_score"]
