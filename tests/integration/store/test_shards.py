"""The shard recipe: games spread over several applications, each with its own hash tag and log."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from uuid import UUID, uuid4

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate
from redis.cluster import RedisCluster

from replay.store.recorders import RedisApplicationRecorder
from replay.store.shards import ShardRouter, shard_index
from tests.integration.store.support import purge


class Games(Application[UUID]):
    pass


@pytest.fixture
def router(cluster_url: str, prefix: str) -> Iterator[ShardRouter[Games]]:
    env = {"PERSISTENCE_MODULE": "replay.store", "REDIS_URL": cluster_url, "REDIS_KEY_PREFIX": prefix}
    built = ShardRouter.build(Games, 6, lambda shard_class: shard_class(env=env))
    yield built
    for app in built.applications:
        app.close()
    purge(cluster_url, prefix)


def test_shards_have_their_own_logs_on_several_cluster_nodes(router: ShardRouter[Games]) -> None:
    names = [app.name for app in router.applications]
    assert names == [f"Games{index}" for index in range(6)]
    recorders = [app.recorder for app in router.applications]
    assert all(isinstance(recorder, RedisApplicationRecorder) for recorder in recorders)
    logs = [recorder.log_key for recorder in recorders]  # type: ignore[attr-defined]
    client = recorders[0].datastore.client  # type: ignore[attr-defined]
    assert isinstance(client, RedisCluster)
    nodes = {client.get_node_from_key(log).name for log in logs}
    assert len(nodes) >= 2, "six shard tags should land on more than one of the three masters"

    saved: dict[UUID, Games] = {}
    for _ in range(30):
        game = Aggregate()
        game.trigger_event(Aggregate.Event)
        app = router.application_for(game.id)
        app.save(game)
        saved[game.id] = app
    per_shard = Counter(app.name for app in saved.values())
    for app in router.applications:
        ids = [n.id for n in app.recorder.select_notifications(None, 1000)]
        assert ids == list(range(1, 2 * per_shard[app.name] + 1))
    for game_id, app in saved.items():
        assert router.application_for(game_id) is app
        assert app.repository.get(game_id).version == 2


def test_a_game_always_maps_to_the_same_shard() -> None:
    game = uuid4()
    assert shard_index(game, 8) == game.int % 8
    assert shard_index("game-42", 8) == shard_index("game-42", 8)
    spread = Counter(shard_index(uuid4(), 4) for _ in range(400))
    assert set(spread) == {0, 1, 2, 3}
