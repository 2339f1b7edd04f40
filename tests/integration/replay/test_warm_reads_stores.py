"""Warm reads of games another process recorded, on SQLite and Redis: a second game log reads each
game from the store (its latest snapshot), and every version is then a lookup after one refold."""

from __future__ import annotations

import random
import uuid
from pathlib import Path
from typing import Any

import pytest

import domain
from replay import rules
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.game import fold
from replay.snapshots import SNAPSHOT_EVERY
from tests.replay_helpers import canonical, pick


def two_logs(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> tuple[GameLog, GameLog]:
    if kind == "sqlite":
        config = StoreConfig(kind="sqlite", sqlite_path=tmp_path / "games.sqlite")
    else:
        url = request.getfixturevalue("redis_url")
        config = StoreConfig(kind="redis", redis_url=url, redis_prefix=f"warm-{uuid.uuid4().hex[:10]}")
    return open_log(config), open_log(config)


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_every_version_of_a_game_recorded_elsewhere_is_warm_after_one_refold(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder, reader = two_logs(kind, tmp_path, request)
    rng = random.Random(8)
    # A game's snapshots fall at versions drawn from its id (replay.snapshots.snapshot_phase). Phase 0 keeps the
    # newest one on this line of play; phase 26 puts one at version 76, whose move the undo at 77 takes back, and
    # a read from it then plays the line again from its first move (base 0), correct but not what this tests.
    phased = uuid.UUID(int=uuid.uuid4().int // SNAPSHOT_EVERY * SNAPSHOT_EVERY)
    game_id = recorder.create_game({"players": 3, "seed": 8}, game_id=phased).game_id
    game = recorder.get(game_id)
    for step in range(200):
        if domain.is_over(game.state):
            break
        if step % 29 == 17:
            game = recorder.undo(game_id, expected_version=game.version, actor="t").game
            continue
        game = recorder.play(game_id, pick(game.state, rng), expected_version=game.version, actor="t").game
    recorder.flush_snapshots()
    events = list(recorder.stores.of(game_id).events.get(game_id))
    assert reader.get(game_id).base > 0, "the reader starts from the latest snapshot"
    calls = [0]
    plain = rules.reapply

    def counting(*args: Any) -> Any:
        calls[0] += 1
        return plain(*args)

    monkeypatch.setattr(rules, "reapply", counting)
    states = {version: reader.state_at(game_id, version) for version in range(1, len(events) + 1)}
    first_pass = calls[0]
    assert first_pass < 2 * len(events), (
        "one refold of the line (and the versions since undone), not one per version"
    )
    calls[0] = 0
    for version, state in states.items():
        assert reader.state_at(game_id, version) is state, version
    assert calls[0] == 0, "warm: no refold"
    for version in range(1, len(events) + 1):
        assert canonical(states[version]) == canonical(fold(events[:version]).state), version
    recorder.close()
    reader.close()
