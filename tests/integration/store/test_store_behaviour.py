"""What the Redis recorders promise beyond the library's test cases: atomic appends, the key layout, one copy
of each event, topic filtering, views written with their tracking. Each runs on standalone and cluster."""

from __future__ import annotations

import threading
from collections.abc import Callable
from uuid import uuid4

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent, Tracking
from redis.cluster import RedisCluster

from replay.store import (
    RedisAggregateRecorder,
    RedisApplicationRecorder,
    RedisDatastore,
    RedisFactory,
    RedisProcessRecorder,
    RedisTrackingRecorder,
)
from replay.store.ephemeral import RedisEphemeral

MakeDatastore = Callable[[str], RedisDatastore]


def event(originator: object, version: int, topic: str = "topic", state: bytes = b"state") -> StoredEvent:
    return StoredEvent(originator_id=originator, originator_version=version, topic=topic, state=state)  # type: ignore[arg-type]


def keys_of(datastore: RedisDatastore) -> list[str]:
    return sorted(key.decode() for key in datastore.client.scan_iter(match="{" + datastore.prefix + ":*"))


def test_a_clash_late_in_a_batch_writes_nothing_of_the_batch(
    any_url: str, make_datastore: MakeDatastore
) -> None:
    recorder = RedisApplicationRecorder(make_datastore(any_url), name="games")
    game = uuid4()
    assert recorder.insert_events([event(game, 1)]) == [1]
    fresh = uuid4()
    with pytest.raises(IntegrityError):
        recorder.insert_events([event(fresh, 1), event(fresh, 2), event(game, 1)])
    assert recorder.select_events(fresh) == []
    assert recorder.max_notification_id() == 1
    assert recorder.insert_events([event(fresh, 1)]) == [2]


def test_a_version_twice_in_one_batch_writes_nothing(any_url: str, make_datastore: MakeDatastore) -> None:
    recorder = RedisApplicationRecorder(make_datastore(any_url), name="games")
    game = uuid4()
    with pytest.raises(IntegrityError):
        recorder.insert_events([event(game, 1), event(game, 2), event(game, 1, state=b"other")])
    assert recorder.select_events(game) == []
    assert recorder.max_notification_id() is None
    assert keys_of(recorder.datastore) == []


def test_a_rejected_tracking_position_writes_none_of_the_events(
    any_url: str, make_datastore: MakeDatastore
) -> None:
    recorder = RedisProcessRecorder(make_datastore(any_url), name="process")
    recorder.insert_events([event(uuid4(), 1)], tracking=Tracking("upstream", 7))
    game = uuid4()
    with pytest.raises(IntegrityError):
        recorder.insert_events([event(game, 1)], tracking=Tracking("upstream", 7))
    assert recorder.select_events(game) == []
    assert recorder.max_notification_id() == 1


def test_receipts_and_counters_live_under_the_stores_hash_tag(
    any_url: str, make_datastore: MakeDatastore
) -> None:
    """The short-lived records of a store (replay.store.ephemeral): a receipt is kept once (the second attempt
    of one request finds the first's), expires, and a counter counts the hits of its window; every key carries
    the store's hash tag, so on a cluster they live on the node of the store's games."""
    recorder = RedisApplicationRecorder(make_datastore(any_url), name="games")
    kept = RedisEphemeral(recorder.datastore, recorder.tag)
    assert kept.add("create:k1", b"the first receipt", 60) is True
    assert kept.add("create:k1", b"a second attempt", 60) is False
    assert kept.get("create:k1") == b"the first receipt"
    assert kept.get("create:other") is None
    assert [kept.hit("token:abc", 60)[0] for _ in range(3)] == [1, 2, 3]
    client = recorder.datastore.client
    names = [key for key in keys_of(recorder.datastore) if "receipt" in key or "ratelimit" in key]
    assert len(names) == 2 and all(name.startswith(recorder.tag + ":") for name in names)
    receipt = next(name for name in names if "receipt" in name)
    assert 0 < client.ttl(receipt) <= 60


def test_each_event_state_is_stored_once(any_url: str, make_datastore: MakeDatastore) -> None:
    datastore = make_datastore(any_url)
    recorder = RedisApplicationRecorder(datastore, name="games")
    game = uuid4()
    state = b"unique-state-" + uuid4().hex.encode()
    recorder.insert_events([event(game, 1, state=state)])
    client = datastore.client
    holders = []
    for key in keys_of(datastore):
        kind = client.type(key).decode()
        if kind == "stream":
            content = repr(client.xrange(key))
        elif kind == "zset":
            content = repr(client.zrange(key, 0, -1))
        elif kind == "hash":
            content = repr(client.hgetall(key))
        else:
            content = repr(client.get(key))
        if state.decode() in content:
            holders.append(key)
    assert holders == [recorder.log_key]
    assert client.zrange(recorder.stream_key(game), 0, -1, withscores=True) == [(b"1", 1.0)]


def test_notification_ids_have_no_gaps_under_concurrent_writers(
    any_url: str, make_datastore: MakeDatastore
) -> None:
    recorder = RedisApplicationRecorder(make_datastore(any_url), name="games")
    returned: list[list[int]] = []

    def write() -> None:
        for _ in range(20):
            game = uuid4()
            ids = recorder.insert_events([event(game, 1), event(game, 2), event(game, 3)])
            returned.append(list(ids or []))

    threads = [threading.Thread(target=write) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    notifications = recorder.select_notifications(None, 1000)
    assert [n.id for n in notifications] == list(range(1, 241))
    for ids in returned:
        assert ids == list(range(ids[0], ids[0] + 3))
        originators = {notifications[i - 1].originator_id for i in ids}
        assert len(originators) == 1


def test_uuid_and_string_ids_come_back_as_recorded(any_url: str, make_datastore: MakeDatastore) -> None:
    recorder = RedisApplicationRecorder(make_datastore(any_url), name="games")
    game, name = uuid4(), "game-of-the-year"
    recorder.insert_events([event(game, 1), event(name, 1)])
    assert [n.originator_id for n in recorder.select_notifications(None, 10)] == [game, name]


def test_a_rare_topic_is_found_beyond_one_scan_budget(any_url: str, make_datastore: MakeDatastore) -> None:
    recorder = RedisApplicationRecorder(make_datastore(any_url), name="games")
    recorder.topic_scan_budget = 7
    game = uuid4()
    topics = ["common"] * 30 + ["rare"] + ["common"] * 5 + ["rare"]
    recorder.insert_events([event(game, i, topic=t) for i, t in enumerate(topics, start=1)])
    found = recorder.select_notifications(None, 10, topics=["rare"])
    assert [n.id for n in found] == [31, 37]
    assert [
        n.id for n in recorder.select_notifications(31, 10, topics=["rare"], inclusive_of_start=False)
    ] == [37]
    assert [n.id for n in recorder.select_notifications(None, 10, stop=36, topics=["rare"])] == [31]
    assert [n.id for n in recorder.select_notifications(None, 1, topics=["rare", "common"])] == [1]


def test_select_events_reads_batches_and_single_appends_alike(
    any_url: str, make_datastore: MakeDatastore
) -> None:
    recorder = RedisApplicationRecorder(make_datastore(any_url), name="games")
    game, other = uuid4(), uuid4()
    recorder.insert_events([event(game, 1), event(game, 2), event(game, 3)])
    recorder.insert_events([event(other, 1)])
    recorder.insert_events([event(game, 4)])
    recorder.insert_events([event(game, 5), event(other, 2), event(game, 6)])
    assert [e.originator_version for e in recorder.select_events(game)] == [1, 2, 3, 4, 5, 6]
    assert [e.originator_version for e in recorder.select_events(game, desc=True)] == [6, 5, 4, 3, 2, 1]
    assert [e.originator_version for e in recorder.select_events(game, gt=2, lte=5, desc=True, limit=2)] == [
        5,
        4,
    ]
    assert [e.originator_version for e in recorder.select_events(other)] == [1, 2]


def test_applications_and_purposes_keep_separate_keys(any_url: str, make_datastore: MakeDatastore) -> None:
    datastore = make_datastore(any_url)
    games = RedisApplicationRecorder(datastore, name="Games")
    notes = RedisApplicationRecorder(datastore, name="Notes")
    snapshots = RedisAggregateRecorder(datastore, name="Games", purpose="snapshots")
    game = uuid4()
    games.insert_events([event(game, 1, state=b"move")])
    snapshots.insert_events([event(game, 1, state=b"snapshot")])
    assert notes.insert_events([event(game, 1, state=b"note")]) == [1]
    assert [e.state for e in games.select_events(game)] == [b"move"]
    assert [e.state for e in snapshots.select_events(game)] == [b"snapshot"]
    assert [e.state for e in notes.select_events(game)] == [b"note"]
    prefix = datastore.prefix
    assert keys_of(datastore) == sorted(
        [
            f"{{{prefix}:Games}}:events:last",
            f"{{{prefix}:Games}}:events:log",
            f"{{{prefix}:Games}}:events:notices",
            f"{{{prefix}:Games}}:events:seq:{game}",
            f"{{{prefix}:Games}}:snapshots:agg:{game}",
            f"{{{prefix}:Notes}}:events:last",
            f"{{{prefix}:Notes}}:events:log",
            f"{{{prefix}:Notes}}:events:notices",
            f"{{{prefix}:Notes}}:events:seq:{game}",
        ]
    )


def test_a_view_changes_only_together_with_its_tracking(any_url: str, make_datastore: MakeDatastore) -> None:
    view = RedisTrackingRecorder(make_datastore(any_url), name="index")
    client = view.datastore.client
    view.insert_tracking(Tracking("Games", 1), ("HSET", "games", "g1", "started"), ("INCRBY", "count", 1))
    with pytest.raises(IntegrityError):
        view.insert_tracking(Tracking("Games", 1), ("HSET", "games", "g2", "started"), ("INCRBY", "count", 1))
    assert client.hgetall(view.view_key("games")) == {b"g1": b"started"}
    assert client.get(view.view_key("count")) == b"1"
    assert view.max_tracking_id("Games") == 1


def test_the_factory_namespaces_keys_by_application_name(any_url: str, prefix: str) -> None:
    env = {"REDIS_URL": any_url, "REDIS_KEY_PREFIX": prefix}
    from eventsourcing.utils import Environment

    factory = RedisFactory(Environment("Games", env))
    try:
        recorder = factory.application_recorder()
        assert isinstance(recorder, RedisApplicationRecorder)
        assert recorder.log_key == f"{{{prefix}:Games}}:events:log"
        snapshots = factory.aggregate_recorder(purpose="snapshots")
        assert isinstance(snapshots, RedisAggregateRecorder)
        assert snapshots.stream_key("x") == f"{{{prefix}:Games}}:snapshots:agg:x"
    finally:
        factory.close()


def test_a_cluster_url_is_detected_and_can_be_forced(cluster_url: str, redis_url: str, prefix: str) -> None:
    detected = RedisDatastore(cluster_url, prefix=prefix)
    forced_off = RedisDatastore(cluster_url, prefix=prefix, cluster=False)
    standalone = RedisDatastore(redis_url, prefix=prefix)
    try:
        assert detected.is_cluster and isinstance(detected.client, RedisCluster)
        assert not forced_off.is_cluster and not isinstance(forced_off.client, RedisCluster)
        assert not standalone.is_cluster
    finally:
        for datastore in (detected, forced_off, standalone):
            datastore.close()


def test_all_keys_of_an_application_share_one_cluster_slot(
    cluster_url: str, make_datastore: MakeDatastore
) -> None:
    datastore = make_datastore(cluster_url)
    assert isinstance(datastore.client, RedisCluster)
    recorder = RedisProcessRecorder(datastore, name="Games")
    snapshots = RedisAggregateRecorder(datastore, name="Games", purpose="snapshots")
    for position in range(1, 6):
        game = uuid4()
        recorder.insert_events([event(game, 1)], tracking=Tracking("Up", position))
        snapshots.insert_events([event(game, 1)])
    keys = keys_of(datastore)
    assert len(keys) == 4 + 5 + 5  # log, counter, notices, tracking; 5 games' indexes; 5 snapshots
    assert len({datastore.client.keyslot(key) for key in keys}) == 1
