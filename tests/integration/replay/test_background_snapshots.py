"""Snapshots stored in the background (``SNAPSHOTS_IN_BACKGROUND``, as ``heronlog serve`` runs): the same
snapshots as when the write stores them itself, on each store, and a cold process rebuilds every version the
same from them."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from replay.application import GameLog
from replay.config import StoreConfig, open_log
from tests.replay_helpers import canonical, play_random

STORES = ["memory", "sqlite", "redis"]


def open_pair(kind: str, tmp_path: Path, redis_url: str | None) -> tuple[StoreConfig, StoreConfig]:
    """Two empty stores of one kind: one for a log that snapshots in the background, one that does not."""
    if kind == "memory":
        return StoreConfig(kind="memory"), StoreConfig(kind="memory")
    if kind == "sqlite":
        return (
            StoreConfig(kind="sqlite", sqlite_path=tmp_path / "background.sqlite"),
            StoreConfig(kind="sqlite", sqlite_path=tmp_path / "inline.sqlite"),
        )
    assert redis_url is not None
    return tuple(  # type: ignore[return-value]
        StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"test-{uuid.uuid4().hex[:12]}")
        for _ in range(2)
    )


@pytest.fixture(params=STORES)
def logs(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[GameLog, GameLog, StoreConfig]]:
    """A log that stores snapshots in the background, one that stores them inline, and the first's store."""
    redis_url = request.getfixturevalue("redis_url") if request.param == "redis" else None
    background_store, inline_store = open_pair(request.param, tmp_path, redis_url)
    background = open_log(background_store, SNAPSHOTS_IN_BACKGROUND="y")
    inline = open_log(inline_store)
    yield background, inline, background_store
    background.close()
    inline.close()


def snapshots_of(log: GameLog, game_id: uuid.UUID) -> list[tuple[int, dict[str, Any]]]:
    assert log.stores.all[0].snapshots is not None
    snapshots = log.stores.of(game_id).snapshots
    assert snapshots is not None
    return [(snapshot.originator_version, snapshot.fold()) for snapshot in snapshots.get(game_id)]


def record(log: GameLog, seed: int = 11, game_id: uuid.UUID | None = None) -> uuid.UUID:
    game_id = log.create_game(
        {"players": ["A", "B", "C"], "mode": "seeded", "seed": seed}, game_id=game_id
    ).game_id
    for _ in play_random(log, game_id, 120, random.Random(seed)):
        pass
    return game_id


def test_background_snapshots_are_the_ones_a_write_would_store_itself(
    logs: tuple[GameLog, GameLog, StoreConfig],
) -> None:
    background, inline, _ = logs
    game_id = record(background)
    other = record(inline, game_id=game_id)  # the same game: its snapshot versions follow from its id
    assert background.flush_snapshots(timeout=30)
    mine, theirs = snapshots_of(background, game_id), snapshots_of(inline, other)
    assert len(mine) >= 3, "round ends and every 50 events"
    assert [version for version, _ in mine] == [version for version, _ in theirs]
    for (_, state), (_, expected) in zip(mine, theirs, strict=True):
        assert state["line"] == expected["line"] and state["engine"] == expected["engine"]


def test_a_cold_process_rebuilds_every_version_from_background_snapshots(
    logs: tuple[GameLog, GameLog, StoreConfig],
) -> None:
    background, _, store = logs
    if store.kind == "memory":
        pytest.skip("an in-memory store is not shared with another process")
    game_id = record(background)
    last = background.get(game_id).version
    expected = [canonical(background.state_at(game_id, version)) for version in range(1, last + 1)]
    background.close()  # stores every queued snapshot
    cold = open_log(store, AGGREGATE_CACHE_MAXSIZE="")
    try:
        assert snapshots_of(cold, game_id), "the queued snapshots were stored on closing"
        rebuilt = [canonical(cold.state_at(game_id, version)) for version in range(1, last + 1)]
        assert rebuilt == expected
    finally:
        cold.close()
