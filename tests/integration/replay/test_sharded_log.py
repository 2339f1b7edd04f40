"""Games spread over several applications on the 3-master Redis Cluster started by `make test`."""

from __future__ import annotations

import json
import random
import uuid

import redis

import domain
from replay.config import StoreConfig, open_log
from replay.store.shards import shard_index
from tests.replay_helpers import canonical, play_random


def test_games_spread_over_shards_on_different_cluster_nodes(cluster_url: str) -> None:
    prefix = f"shards-{uuid.uuid4().hex[:8]}"
    config = StoreConfig.from_environ(
        {"REDIS_URL": cluster_url, "REDIS_KEY_PREFIX": prefix, "HERONLOG_SHARDS": "3"}
    )
    log = open_log(config)
    assert len(log.stores) == 3
    # Game ids are random: create games until every shard holds one (a fixed dozen missed a shard 2 % of runs;
    # a hundred miss one with a chance of about 1e-17).
    ids: list[uuid.UUID] = []
    while {shard_index(game_id, 3) for game_id in ids} != {0, 1, 2} and len(ids) < 100:
        ids.append(log.create_game({"players": 2, "seed": len(ids)}).game_id)
    assert {shard_index(game_id, 3) for game_id in ids} == {0, 1, 2}
    # Each shard's keys carry its own hash tag, and the cluster puts the three tags on different masters.
    client = redis.RedisCluster.from_url(cluster_url)
    nodes = {
        client.get_node_from_key(f"{{{prefix}:GameLog{index}}}:x").name  # type: ignore[no-untyped-call]
        for index in range(3)
    }
    assert len(nodes) >= 2
    client.close()

    # Every per-game operation finds its shard.
    first = ids[0]
    list(play_random(log, first, 4, random.Random(1)))
    log.undo(first, expected_version=5, actor="owner")
    assert log.get(first).line == (2, 3, 4)
    note = log.annotate(first, version=2, author="owner", text="hello").annotation
    assert [item.id for item in log.annotations(first)] == [note.id]

    # Forks and imports may land on another shard, and still link and refold.
    branch = log.fork(first, 3).game_id
    assert canonical(log.get(branch).state) == canonical(log.state_at(first, 3))
    exported = json.loads(json.dumps(log.export(first), default=str))
    copy = log.import_log(exported, keep_id=False).game_id
    assert canonical(log.get(copy).state) == canonical(log.get(first).state)

    listed = [summary.game_id for summary in log.list_games(limit=200)]
    assert set(listed) == {str(game_id) for game_id in [*ids, branch, copy]}
    assert listed[:2] == [str(copy), str(branch)], "newest first across shards (an import: when it came)"
    assert log.get(copy).created_on == log.get(first).created_on, "an imported game keeps its own date"
    assert log.list_games(limit=1)[0].created_on == log.get(first).created_on.isoformat(), "and shows it"
    page = log.page_of_games(limit=2, offset=1)
    assert [summary.game_id for summary in page.summaries] == listed[1:3] and page.total == len(listed)
    assert domain.legal_moves(log.get(ids[-1]).state)
    log.close()
