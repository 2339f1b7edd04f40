"""Helpers shared by the replay tests of every tier: stores to run on, and playing random legal moves."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import domain
from replay.application import GameLog
from replay.config import StoreConfig, open_log


def open_store(kind: str, tmp_path: Path, redis_url: str | None = None) -> GameLog:
    """A fresh, empty game log on the named store (a new SQLite file, or a new Redis key prefix)."""
    if kind == "memory":
        return open_log(StoreConfig(kind="memory"))
    if kind == "sqlite":
        return open_log(StoreConfig(kind="sqlite", sqlite_path=tmp_path / "games.sqlite"))
    assert redis_url is not None
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    return open_log(StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=prefix))


def is_free(move: dict[str, Any]) -> bool:
    """Seal conversions are free moves: a random player makes them only now and then."""
    return move.get("kind") == "convert"


def pick(state: Any, rng: random.Random) -> dict[str, Any]:
    """A random legal move, preferring the answers to the prompt over free conversions."""
    moves = domain.legal_moves(state)
    answers = [move for move in moves if not is_free(move)]
    if answers and (rng.random() < 0.9 or len(answers) == len(moves)):
        return rng.choice(answers)
    return rng.choice(moves)


def play_random(log: GameLog, game_id: uuid.UUID, count: int, rng: random.Random) -> Iterator[int]:
    """Play ``count`` random legal moves (fewer if the game ends); yields each new version."""
    for _ in range(count):
        game = log.get(game_id)
        if domain.is_over(game.state):
            return
        played = log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="tester")
        yield played.versions[-1]


def canonical(state: Any) -> Any:
    """A state as JSON-plain data, for comparisons across stores and snapshots."""
    import json

    return json.loads(json.dumps(domain.state_to_dict(state), sort_keys=True, default=str))
