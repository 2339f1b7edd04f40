"""A dead shard stops only its own games. On a 3-master Redis Cluster of the test's own
(``cluster-require-full-coverage no``, as docker/compose.cluster.yaml sets it) with one master killed and no
replica to take over: games of the other shards record moves with Idempotency-Keys, retries are answered from
the log, the list of games answers and names the missing shard, /readyz says which shard is down, a process
started while the node is down starts and serves, and the dead shard's games answer 503 store_unavailable."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from api.app import create_app
from api.resources.context import EXTENSION
from replay.config import StoreConfig
from replay.store.shards import shard_index
from tests.api_helpers import ApiClient, flask_transport
from tests.redis_cluster import Cluster


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    running = Cluster(tmp_path, masters=3)
    try:
        running.start()
        yield running
    finally:
        running.stop()


OPENED: list[Any] = []


def client(store: StoreConfig) -> ApiClient:
    app = create_app({"STORE": store})
    OPENED.append(app)
    return ApiClient(flask_transport(app.test_client()))


@pytest.fixture(autouse=True)
def closed() -> Iterator[None]:
    """Every app's game log closed after the test: no connection left to a cluster that is gone."""
    yield
    while OPENED:
        OPENED.pop().extensions[EXTENSION].get().log.close()


def test_with_one_master_of_three_down_the_other_shards_serve(cluster: Cluster) -> None:
    while True:  # a prefix whose three shards' hash tags fall on three masters (as the default one does)
        prefix = f"dead-{uuid.uuid4().hex[:8]}"
        masters = [cluster.master_of("{" + prefix + f":GameLog{shard}}}").port for shard in range(3)]
        if len(set(masters)) == 3:
            break
    # The shard of the first node REDIS_URL names dies: a process must start from another node.
    dead = masters.index(cluster.nodes[0].port)
    live = [shard for shard in range(3) if shard != dead]
    store = StoreConfig(kind="redis", redis_url=cluster.url, redis_prefix=prefix, shards=3)
    api = client(store)
    games: dict[int, list[tuple[str, str]]] = {0: [], 1: [], 2: []}
    while min(len(found) for found in games.values()) < 2:
        game_id, owner, _ = api.create(2, seed=len(games[0]) + 7)
        games[shard_index(uuid.UUID(game_id), 3)].append((game_id, owner))
    node = cluster.master_of("{" + prefix + f":GameLog{dead}}}:events:log")
    node.kill()
    survivor = next(n for n in cluster.nodes if n is not node)
    cluster.wait_until(
        lambda: (
            f":{node.port}@"
            in (line := cluster.client(survivor).execute_command("CLUSTER", "NODES").decode())
            and "fail" in next(entry for entry in line.splitlines() if f":{node.port}@" in entry)
        ),
        "the cluster to mark the killed master failed",
    )

    for server in (api, client(store)):  # a process serving already, and one started while the node is down
        for shard in live:
            game_id, owner = games[shard][0]
            listing = server.legal(game_id, owner)
            move = listing.body["moves"][0]
            key = f"k-{uuid.uuid4().hex}"
            played = server.play(game_id, move, owner, listing.etag, key=key)
            assert played.status == 201, played.body
            again = server.play(game_id, move, owner, listing.etag, key=key)
            assert again.status == 201 and again.headers.get("idempotent-replayed") == "true"
            assert again.etag == played.etag
        game_id, owner = games[dead][0]
        assert server.get(f"/api/games/{game_id}").error() == (503, "store_unavailable")
        listing = server.get("/api/games")
        assert listing.status == 200 and listing.body["unavailable"] == [f"GameLog{dead}"]
        assert {game["game_id"] for game in listing.body["games"]} == {
            game_id for shard in live for game_id, _ in games[shard]
        }
        ready = server.get("/readyz")
        assert ready.status == 200 and ready.body["status"] == "degraded"
        assert [shard["status"] for shard in ready.body["shards"]] == [
            "unavailable" if shard == dead else "ok" for shard in range(3)
        ]
