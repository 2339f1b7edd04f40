"""Scale-out: two `heronlog serve` processes on the 3-master Redis Cluster, games spread over three shards.

Each shard is an application with its own hash tag and notification log, so its keys live in one slot; the
shards' slots fall on different masters, and either process serves any game, whichever created it.
"""

from __future__ import annotations

import contextlib
import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from tests.api_helpers import ApiClient, http_transport
from tests.e2e.conftest import Served, serve


def spread_prefix(cluster_url: str) -> str:
    """A fresh key prefix whose three shard tags fall on the three masters (as the default prefix's do on a
    3-master cluster: README, "Scale-out"), so that the test is about the app, not about luck."""
    cluster = redis.RedisCluster.from_url(cluster_url)
    try:
        for _ in range(200):
            prefix = f"scale-{uuid.uuid4().hex[:10]}"
            masters = {cluster.get_node_from_key(f"{{{prefix}:GameLog{index}}}").name for index in range(3)}
            if len(masters) == 3:
                return prefix
    finally:
        cluster.close()
    pytest.fail("no prefix spreads three tags over the cluster's masters")


@pytest.fixture
def pair(cluster_url: str, tmp_path: Path) -> Iterator[tuple[Served, Served, str]]:
    """Two servers on the cluster with three shards, and the key prefix they share."""
    prefix = spread_prefix(cluster_url)
    env = {
        "REDIS_URL": cluster_url,
        "REDIS_CLUSTER": "yes",
        "HERONLOG_SHARDS": "3",
        "HERONLOG_STORE": "redis",
        "REDIS_KEY_PREFIX": prefix,
    }
    with contextlib.ExitStack() as stack:
        first, second = (
            stack.enter_context(contextlib.contextmanager(serve)(tmp_path, env)) for _ in range(2)
        )
        yield first, second, prefix


def request_lines(served: Served) -> list[dict[str, object]]:
    lines = []
    for line in served.output().splitlines():
        if line.startswith("{"):
            entry = json.loads(line)
            if entry.get("logger") == "heronlog.request":
                lines.append(entry)
    return lines


def test_games_created_on_one_process_are_played_on_the_other_and_spread_over_the_masters(
    pair: tuple[Served, Served, str], cluster_url: str
) -> None:
    first, second, prefix = pair
    one, other = ApiClient(http_transport(first.url)), ApiClient(http_transport(second.url))
    rng = random.Random(5)
    games = [one.create(2, seed=seed) for seed in range(12)]
    for game_id, owner, _ in games:
        for _ in range(3):
            listing = other.legal(game_id)
            move = rng.choice(listing.body["moves"])
            assert other.play(game_id, move, owner, listing.etag).status == 201
        # ...and the first process sees at once what the second recorded
        assert one.game(game_id)["version"] == other.game(game_id)["version"] == 4
    listed = {game["game_id"] for game in other.get("/api/games?limit=100").body["games"]}
    assert listed == {game_id for game_id, _, _ in games}

    # Where the shards' logs live: one slot per shard, on more than one master.
    cluster = redis.RedisCluster.from_url(cluster_url)
    try:
        tags = {f"{{{prefix}:GameLog{index}}}" for index in range(3)}
        used = {tag for tag in tags if cluster.exists(f"{tag}:events:log")}
        assert len(used) >= 2, "twelve games all on one shard"  # chance: 3 in 3**12
        masters = {cluster.get_node_from_key(f"{tag}:events:log").name for tag in used}
        assert len(masters) >= 2, "the shards' logs all live on one master"
    finally:
        cluster.close()

    # Both processes answered, each logging its own requests.
    assert len(request_lines(first)) >= 12 and len(request_lines(second)) >= 36
