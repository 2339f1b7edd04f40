"""Redis failures become the library's errors, reads retry, and a write whose reply was lost is resolved by
reading what was stored, never by blindly sending it again. Faults come from a real TCP proxy in front of the
real server (tests/integration/store/faults.py) or from redis-servers these tests start and stop."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from uuid import uuid4

import pytest
from eventsourcing.persistence import (
    IntegrityError,
    OperationalError,
    ProgrammingError,
    StoredEvent,
    Tracking,
)

from replay.store import (
    OutcomeUnknownError,
    RedisAggregateRecorder,
    RedisApplicationRecorder,
    RedisDatastore,
    RedisEvictionWarning,
    RedisFactory,
    RedisProcessRecorder,
    RedisTrackingRecorder,
)
from tests.conftest import free_port, required_env
from tests.integration.store.faults import FaultyProxy, faulty_proxy
from tests.redis_process import RedisProcess

MakeDatastore = Callable[[str], RedisDatastore]


def event(originator: object, version: int, state: bytes = b"state") -> StoredEvent:
    return StoredEvent(originator_id=originator, originator_version=version, topic="topic", state=state)  # type: ignore[arg-type]


@contextmanager
def own_redis_server(*options: str) -> Iterator[str]:
    """A redis-server of this test's own (on a free loopback port, no snapshots), stopped afterwards."""
    with tempfile.TemporaryDirectory() as folder:
        server = RedisProcess(Path(folder), "--save", "", *options)
        server.start()
        try:
            yield server.url
        finally:
            server.stop()


@pytest.fixture
def proxy(redis_url: str) -> Iterator[FaultyProxy]:
    with faulty_proxy(redis_url) as running:
        yield running


@pytest.fixture
def via_proxy(proxy: FaultyProxy, prefix: str) -> Iterator[RedisDatastore]:
    """A datastore that talks to the standalone server through the faulty proxy."""
    datastore = RedisDatastore(proxy.url, prefix=prefix, check_durability=False)
    yield datastore
    datastore.close()


def test_a_lost_reply_to_an_append_returns_its_ids_without_a_duplicate(
    proxy: FaultyProxy, via_proxy: RedisDatastore, redis_url: str, make_datastore: MakeDatastore
) -> None:
    recorder = RedisApplicationRecorder(via_proxy, name="games")
    game = uuid4()
    recorder.insert_events([event(game, 1)])
    proxy.faults.drop_reply_to = b"EVALSHA"
    assert recorder.insert_events([event(game, 2), event(game, 3)]) == [2, 3]
    assert proxy.faults.fired == ["reply dropped"]
    direct = RedisApplicationRecorder(make_datastore(redis_url), name="games")
    assert [n.id for n in direct.select_notifications(None, 10)] == [1, 2, 3]
    assert [e.originator_version for e in direct.select_events(game)] == [1, 2, 3]


def test_a_lost_append_request_is_sent_once_more(
    proxy: FaultyProxy, via_proxy: RedisDatastore, redis_url: str, make_datastore: MakeDatastore
) -> None:
    recorder = RedisApplicationRecorder(via_proxy, name="games")
    game = uuid4()
    proxy.faults.drop_request_with = b"EVALSHA"
    assert recorder.insert_events([event(game, 1)]) == [1]
    assert proxy.faults.fired == ["request dropped"]
    direct = RedisApplicationRecorder(make_datastore(redis_url), name="games")
    assert [n.id for n in direct.select_notifications(None, 10)] == [1]


def test_a_lost_reply_when_someone_else_took_the_version_is_an_integrity_error(
    proxy: FaultyProxy, via_proxy: RedisDatastore, redis_url: str, make_datastore: MakeDatastore
) -> None:
    direct = RedisApplicationRecorder(make_datastore(redis_url), name="games")
    game = uuid4()
    direct.insert_events([event(game, 1, state=b"theirs")])
    recorder = RedisApplicationRecorder(via_proxy, name="games")
    proxy.faults.drop_request_with = b"EVALSHA"
    with pytest.raises(IntegrityError):
        recorder.insert_events([event(game, 1, state=b"mine")])
    assert [e.state for e in direct.select_events(game)] == [b"theirs"]


def test_a_lost_reply_to_a_process_append_counts_its_tracking(
    proxy: FaultyProxy, via_proxy: RedisDatastore
) -> None:
    recorder = RedisProcessRecorder(via_proxy, name="process")
    proxy.faults.drop_reply_to = b"EVALSHA"
    assert recorder.insert_events([event(uuid4(), 1)], tracking=Tracking("up", 4)) == [1]
    proxy.faults.drop_reply_to = b"EVALSHA"
    assert recorder.insert_events([], tracking=Tracking("up", 5)) == []
    assert proxy.faults.fired == ["reply dropped", "reply dropped"]
    assert recorder.max_tracking_id("up") == 5
    assert recorder.max_notification_id() == 1


def test_a_lost_reply_to_a_snapshot_or_a_tracking_write_is_resolved(
    proxy: FaultyProxy, via_proxy: RedisDatastore
) -> None:
    snapshots = RedisAggregateRecorder(via_proxy, name="games", purpose="snapshots")
    view = RedisTrackingRecorder(via_proxy, name="view")
    game = uuid4()
    proxy.faults.drop_reply_to = b"EVALSHA"
    snapshots.insert_events([event(game, 3)])
    proxy.faults.drop_reply_to = b"EVALSHA"
    view.insert_tracking(Tracking("games", 9), ("INCR", "count"))
    assert proxy.faults.fired == ["reply dropped", "reply dropped"]
    assert [e.originator_version for e in snapshots.select_events(game)] == [3]
    assert view.max_tracking_id("games") == 9
    assert view.datastore.client.get(view.view_key("count")) == b"1"


def test_reads_retry_through_dropped_connections(proxy: FaultyProxy, via_proxy: RedisDatastore) -> None:
    recorder = RedisApplicationRecorder(via_proxy, name="games")
    recorder.insert_events([event(uuid4(), 1)])
    via_proxy.client.connection_pool.disconnect()
    proxy.faults.refuse_connections = 2
    assert recorder.max_notification_id() == 1
    assert proxy.faults.fired == ["refused", "refused"]


def test_an_unreachable_server_raises_operational_errors(prefix: str) -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    with pytest.raises(OperationalError):
        RedisDatastore(url, prefix=prefix)
    with pytest.raises(OperationalError):
        RedisFactory({"REDIS_URL": url, "REDIS_KEY_PREFIX": prefix})
    datastore = RedisDatastore(url, prefix=prefix, cluster=False, check_durability=False)
    recorder = RedisApplicationRecorder(datastore, name="games")
    with pytest.raises(OperationalError):
        recorder.select_notifications(None, 10)
    with pytest.raises(OutcomeUnknownError):
        recorder.insert_events([event(uuid4(), 1)])
    datastore.close()


def test_a_key_of_the_wrong_type_raises_programming_error_and_writes_nothing(
    redis_url: str, make_datastore: MakeDatastore
) -> None:
    recorder = RedisApplicationRecorder(make_datastore(redis_url), name="games")
    game, squatted = uuid4(), uuid4()
    recorder.datastore.client.set(recorder.stream_key(squatted), "not a sorted set")
    with pytest.raises(ProgrammingError):
        recorder.insert_events([event(game, 1), event(squatted, 1)])
    assert recorder.max_notification_id() is None
    assert recorder.select_events(game) == []


def test_a_full_server_refuses_an_append_before_writing_anything(prefix: str) -> None:
    with own_redis_server("--maxmemory-policy", "noeviction") as url:
        datastore = RedisDatastore(url, prefix=prefix)
        recorder = RedisApplicationRecorder(datastore, name="games")
        game = uuid4()
        recorder.insert_events([event(game, 1), event(game, 2)])
        # Memory is now "full": used memory is above the limit, as after a burst of writes.
        datastore.client.config_set("maxmemory", "1")
        with pytest.raises(OperationalError, match="maxmemory"):
            recorder.insert_events([event(game, 3), event(uuid4(), 1)])
        assert recorder.max_notification_id() == 2
        assert [e.originator_version for e in recorder.select_events(game)] == [1, 2]
        datastore.close()


def test_a_server_that_may_evict_keys_is_warned_about_at_start(prefix: str) -> None:
    with own_redis_server("--maxmemory", "64mb", "--maxmemory-policy", "allkeys-lru") as url:
        with pytest.warns(RedisEvictionWarning, match="allkeys-lru"):
            factory = RedisFactory({"REDIS_URL": url, "REDIS_KEY_PREFIX": prefix})
        factory.close()


def test_the_shipped_redis_conf_sets_the_durability_settings() -> None:
    conf = os.path.join(os.path.dirname(__file__), "..", "..", "..", "docker", "redis.conf")
    with open(conf) as file:
        settings = {
            line.split()[0]: " ".join(line.split()[1:])
            for line in file
            if line.strip() and not line.lstrip().startswith("#")
        }
    assert settings["appendonly"] == "yes"
    assert settings["appendfsync"] == "always"
    assert settings["maxmemory-policy"] == "noeviction"


def test_the_shipped_redis_conf_starts_a_server_that_passes_the_start_check(prefix: str) -> None:
    conf = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", "docker", "redis.conf"))
    executable = required_env("HERONLOG_TEST_REDIS_SERVER")
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        process = subprocess.Popen(
            [executable, conf, "--bind", "127.0.0.1", "--port", str(port), "--dir", folder],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    datastore = RedisDatastore(f"redis://127.0.0.1:{port}/0", prefix=prefix)
                    break
                except OperationalError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            server = datastore.servers()[0]
            assert server.info("persistence")["aof_enabled"] == 1
            assert server.config_get("appendfsync") == {"appendfsync": "always"}
            recorder = RedisApplicationRecorder(datastore, name="games")
            assert recorder.insert_events([event(uuid4(), 1)]) == [1]
            datastore.close()
        finally:
            process.terminate()
            process.wait(timeout=10)
