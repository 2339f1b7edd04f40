"""A golden Tokugawa game (R-TK01..R-TK07): a recorded solo game with Matcha, every move with its chance moves (the
solo cards, Himeji cards revealed after discards), the rival's turns in words and the final score sheets, the
rival's checked by hand (``hand_check``). Replayed in table mode with full checks, re-applied without checks,
replayed in seeded mode where the seed must regenerate every chance move, and scored again from tallies.
tools/golden_games.py writes it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import domain
from domain.scoring import score_sheet
from domain.tea_garden import geishas_at, places

from ..helpers import end_tallies

GOLDEN = Path(__file__).parent / "golden"
FILES = sorted(GOLDEN.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def fresh(game: dict[str, Any], **extra: Any) -> domain.GameState:
    return domain.new_game(
        game["players"],
        solo=game["solo"],
        options=game["options"],
        catalog=game["catalog"],
        expansions=game["expansions"],
        **extra,
    )


def test_the_golden_tokugawa_game_exercises_the_new_symbols_and_choices() -> None:
    game = load(GOLDEN / "tokugawa_medium.json")
    kinds = {move["kind"] for move in game["moves"]}
    assert {"choose_start_cards", "solo_card", "rival_geisha"} <= kinds
    assert any("symbol 2" in line for line in game["rival_log"])
    assert any("symbol 4" in line for line in game["rival_log"])
    assert game["hand_check"][-1].endswith("the rival wins, rank 1 (Ana 23).")
    assert [sheet["total"] for sheet in game["final_score"]] == [23, 77]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_R_TK03_a_golden_tokugawa_game_replays_to_its_score_sheet_and_rival_log(path: Path) -> None:
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
def test_a_golden_tokugawa_game_reapplied_without_checks_reaches_the_same_state(path: Path) -> None:
    game = load(path)
    checked = trusted = fresh(game, mode="table")
    for move in game["moves"]:
        checked = domain.apply(checked, move)
        trusted = domain.apply(trusted, move, check=False)
    assert trusted == checked


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_R_TK01_a_golden_tokugawa_game_seed_regenerates_its_chance_moves(path: Path) -> None:
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
def test_a_golden_tokugawa_game_scores_the_same_through_the_score_sheet(path: Path) -> None:
    """An independent path to the same numbers, the rival's geishas included: the end position typed in as
    Matcha tallies."""
    game = load(path)
    state = fresh(game, mode="table")
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
    sheets = score_sheet({"players": players, "expansions": ["matcha"]}, state.catalog)
    assert [sheet.to_dict() for sheet in sheets] == game["final_score"]
