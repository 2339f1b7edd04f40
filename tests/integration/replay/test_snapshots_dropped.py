"""Snapshots are a cache of the events: deleted as the README says (before going back to a heronlog that
cannot read their format), every game reads the same from its events, on SQLite and on Redis."""

from __future__ import annotations

import random
import sqlite3
import uuid
from pathlib import Path

import pytest
import redis

from replay.config import StoreConfig, open_log
from tests.replay_helpers import canonical, play_random


def drop_snapshots(store: StoreConfig) -> int:
    """Delete every stored snapshot the README's way; how many rows (SQLite) or keys (Redis: one per game) went."""
    if store.kind == "sqlite":
        assert store.sqlite_path is not None
        with sqlite3.connect(store.sqlite_path) as connection:
            return connection.execute("DELETE FROM stored_snapshots").rowcount
    with redis.Redis.from_url(str(store.redis_url)) as client:
        keys = list(client.scan_iter(match=f"{{{store.redis_prefix}:*}}:snapshots:agg:*"))
        return int(client.delete(*keys)) if keys else 0


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_games_read_the_same_from_their_events_once_their_snapshots_are_deleted(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if kind == "sqlite":
        store = StoreConfig(kind="sqlite", sqlite_path=tmp_path / "games.sqlite")
    else:
        redis_url = request.getfixturevalue("redis_url")
        store = StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"drop-{uuid.uuid4().hex[:10]}")
    log = open_log(store)
    game_id = log.create_game({"players": 3, "seed": 21}).game_id
    for _ in play_random(log, game_id, 120, random.Random(21)):
        pass
    last = log.get(game_id).version
    expected = [canonical(log.state_at(game_id, version)) for version in range(1, last + 1)]
    snapshots = log.stores.of(game_id).snapshots
    assert snapshots is not None and list(snapshots.get(game_id)), "the game was snapshotted"
    log.close()

    assert drop_snapshots(store) >= 1
    cold = open_log(store, AGGREGATE_CACHE_MAXSIZE="")
    try:
        kept = cold.stores.of(game_id).snapshots
        assert kept is not None and not list(kept.get(game_id))
        assert [canonical(cold.state_at(game_id, version)) for version in range(1, last + 1)] == expected
        assert cold.get(game_id).version == last
    finally:
        cold.close()
