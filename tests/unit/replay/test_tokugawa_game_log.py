"""Tokugawa games in the game log (in-memory store; R-TK01..R-TK07): the setup stored with the rival and the
expansion, the rival's symbols inside the recorded events, the player's choices for the rival recorded as the
player's moves, undo across them, and an export imported back equal in both modes."""

from __future__ import annotations

import json
import random
import uuid

import pytest

import domain
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.game import fold
from tests.replay_helpers import canonical


@pytest.fixture
def log() -> GameLog:
    return open_log(StoreConfig(kind="memory"))


def tokugawa(log: GameLog, difficulty: str, seed: int, mode: str = "seeded") -> uuid.UUID:
    setup = {"players": ["Aiko"], "solo": difficulty, "mode": mode, "seed": seed, "expansions": ["matcha"]}
    return log.create_game(setup).game_id


def play(log: GameLog, game_id: uuid.UUID, count: int, rng: random.Random) -> None:
    for _ in range(count):
        game = log.get(game_id)
        if domain.is_over(game.state):
            return
        moves = [m for m in domain.legal_moves(game.state) if m["kind"] != "convert"]
        log.play(game_id, dict(rng.choice(moves)), expected_version=game.version, actor="owner")


def test_the_stored_setup_holds_the_rival_and_the_expansion(log: GameLog) -> None:
    game = log.get(tokugawa(log, "medium", 3))
    assert game.setup["solo"] == "medium" and game.setup["expansions"] == ["matcha"]
    assert game.setup["players"][1]["automatic"] is True
    assert domain.prompt_of(game.state)["kind"] == "choose_start_cards"


def test_the_rivals_symbols_are_drawn_into_the_events_and_undo_takes_them_back(log: GameLog) -> None:
    game_id = tokugawa(log, "hard", 5)
    play(log, game_id, 80, random.Random(5))
    game = log.get(game_id)
    chance = [m for record in game.records.values() for m in record.chance]
    assert any(m["kind"] == "solo_card" and m["card"].startswith("TK") for m in chance)
    assert all(record.seat in (0, None) for record in game.records.values())
    assert canonical(fold(log.events_of(game_id)).state) == canonical(game.state)
    before = game.state_after(len(game.line) - 1)
    log.undo(game_id, expected_version=game.version, actor="owner")
    assert canonical(log.get(game_id).state) == canonical(before)


@pytest.mark.parametrize("mode", ["seeded", "table"])
def test_an_exported_tokugawa_game_imports_back_equal(log: GameLog, mode: str) -> None:
    game_id = tokugawa(log, "easy", 17, mode)
    play(log, game_id, 150, random.Random(17))
    exported = json.loads(json.dumps(log.export(game_id), default=str))
    copy = log.import_log(exported, keep_id=False).game_id
    assert canonical(log.get(copy).state) == canonical(log.get(game_id).state)
    assert log.get(copy).setup == log.get(game_id).setup
