"""The replays that every variant's golden games go through (base game, solo, Matcha, Tokugawa): a recorded game
(tools/golden_games.py writes them) replayed in table mode with full checks, re-applied without checks, replayed
in seeded mode from its seed, and brought to its end position for the score sheet's tallies. The tests assert on
what these return, each against its own file's expectations."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import domain
from domain.matcha.tea_garden import geishas_at, places
from domain.scoring import ScoreSheet
from domain.state import GameState

from .helpers import end_tallies

Game = dict[str, Any]
Move = dict[str, Any]


def load(path: Path) -> Game:
    data: Game = json.loads(path.read_text(encoding="utf-8"))
    return data


def start(game: Game, **extra: Any) -> GameState:
    """The recorded game's start; its solo difficulty and its expansions where it has them (a base game has
    neither key, and new_game's defaults for both are None), under the rules version it was recorded under (a
    game is replayed with its own rules: a later version may ask or offer otherwise)."""
    return domain.new_game(
        game["players"],
        options=game["options"],
        catalog=game["catalog"],
        expansions=game.get("expansions"),
        solo=game.get("solo"),
        rules_version=game.get("rules_version"),
        **extra,
    )


def replay(game: Game) -> tuple[GameState, list[str]]:
    """Every recorded move applied with full checks in table mode, none after the end: the end state, and the
    rival's turns in words (how `describe` tells each solo card; none in a game without the rival)."""
    state = start(game, mode="table")
    rival_log = []
    for number, move in enumerate(game["moves"]):
        assert not domain.is_over(state), f"move {number} after the end"
        if move["kind"] == "solo_card":
            rival_log.append(domain.describe(state, move))
        state = domain.apply(state, move)
    return state, rival_log


def replay_checked_and_trusted(game: Game) -> tuple[GameState, GameState]:
    """The end states of the recorded moves applied with full checks and with check=False, side by side."""
    checked = trusted = start(game, mode="table")
    for move in game["moves"]:
        checked = domain.apply(checked, move)
        trusted = domain.apply(trusted, move, check=False)
    return checked, trusted


def replay_seeded(game: Game) -> tuple[list[Move], list[Move]]:
    """The recorded players' moves played in seeded mode from the recorded seed, the seed drawing every chance
    outcome: the chance moves it drew, in order, and the players' moves left over at the end (none, where the
    seed regenerates the game)."""
    step = domain.resolve_chance(start(game, seed=game["seed"], draw=False))
    drawn = list(step.chance)
    state = step.state
    players_moves = iter(move for move in game["moves"] if move["seat"] is not None)
    while not domain.is_over(state):
        step = domain.step(state, next(players_moves))
        drawn.extend(step.chance)
        state = step.state
    return drawn, list(players_moves)


def chance_moves(game: Game) -> list[Move]:
    """The recorded chance moves (the moves of no seat), in order."""
    return [move for move in game["moves"] if move["seat"] is None]


def end_state(game: Game) -> GameState:
    """The recorded moves applied without checks: the end position, for scoring by another path."""
    state = start(game, mode="table")
    for move in game["moves"]:
        state = domain.apply(state, move, check=False)
    return state


def matcha_tallies(state: GameState, seat: int) -> dict[str, Any]:
    """A seat's end position as the score sheet's Matcha tallies: the base tallies, whisks and geishas by
    place."""
    return {
        **end_tallies(state, seat),
        "whisks": state.players[seat].whisks,
        "geishas": {place: geishas_at(state, place).count(seat) for place in places(state)},
    }


def as_dicts(sheets: Iterable[ScoreSheet]) -> list[dict[str, Any]]:
    """Score sheets as the golden files record them."""
    return [sheet.to_dict() for sheet in sheets]
