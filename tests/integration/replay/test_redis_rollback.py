"""Never write on a rolled-back log. A redis-server of the test's own is restarted from an older RDB
file while game logs still hold the newer versions in memory, as after a power loss with ``appendfsync
everysec`` or a restart from an older snapshot: no write lands on top of the lost versions, no gap is written,
a cached game whose store moved back (or moved on along another line) is read again, a snapshot written from a
stale game is dropped, and every game reads."""

from __future__ import annotations

import random
import uuid
from pathlib import Path

import pytest
import redis
from eventsourcing.persistence import IntegrityError, StoredEvent

from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.errors import GameNotFound, StaleVersion
from replay.game import GameSnapshot, fold
from replay.store import RedisApplicationRecorder, RedisDatastore
from tests.redis_process import RedisProcess
from tests.replay_helpers import canonical, pick


def stored(game: uuid.UUID, version: int) -> StoredEvent:
    return StoredEvent(originator_id=game, originator_version=version, topic="topic", state=b"{}")


def test_an_append_must_follow_the_stored_head_of_its_stream(redis_url: str) -> None:
    datastore = RedisDatastore(redis_url, prefix=f"head-{uuid.uuid4().hex[:8]}")
    try:
        recorder = RedisApplicationRecorder(datastore, name="games")
        game = uuid.uuid4()
        with pytest.raises(IntegrityError, match="HLGAP"):
            recorder.insert_events([stored(game, 5)])  # an empty stream starts at 0 or 1
        recorder.insert_events([stored(game, 1), stored(game, 2), stored(game, 3)])
        with pytest.raises(IntegrityError, match="HLGAP"):
            recorder.insert_events([stored(game, 5)])  # after 3 comes 4, never a gap
        with pytest.raises(IntegrityError, match="HLCONFLICT"):
            recorder.insert_events([stored(game, 3)])
        with pytest.raises(IntegrityError):
            recorder.insert_events([stored(game, 4), stored(game, 6)])  # a gap inside a batch
        assert [event.originator_version for event in recorder.select_events(game)] == [1, 2, 3]
        assert recorder.max_notification_id() == 3  # the refused appends wrote nothing
        assert recorder.insert_events([stored(game, 4), stored(game, 5)]) == [4, 5]
    finally:
        datastore.close()


def play(log: GameLog, game_id: uuid.UUID, until: int, rng: random.Random) -> None:
    while (game := log.get(game_id)).version < until:
        log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="seat")


@pytest.fixture
def server(tmp_path: Path) -> RedisProcess:
    """A redis-server that persists by RDB only: restarted after kill -9, it comes back as of its last SAVE."""
    process = RedisProcess(tmp_path, "--appendonly", "no", "--save", "")
    process.start()
    yield process
    process.stop()


def test_after_redis_comes_back_with_older_data_no_write_lands_on_the_lost_versions(
    server: RedisProcess,
) -> None:
    config = StoreConfig(kind="redis", redis_url=server.url, redis_prefix=f"back-{uuid.uuid4().hex[:8]}")
    writer, stale = open_log(config), open_log(config)
    rng = random.Random(27)
    game_id = writer.create_game({"players": 3, "seed": 27}).game_id
    play(writer, game_id, 11, rng)
    with redis.Redis.from_url(server.url) as client:
        client.save()  # what the server will come back with
    play(writer, game_id, 21, rng)
    lost_game = writer.create_game({"players": 2, "seed": 3}).game_id
    play(writer, lost_game, 5, rng)
    held = stale.get(game_id)  # another process holds version 21 too
    assert held.version == writer.get(game_id).version == 21
    server.kill()
    server.start()  # back as of the SAVE: version 11, and no second game

    try:
        game = writer.get(game_id)
        with pytest.raises(StaleVersion) as refused:
            writer.play(game_id, pick(game.state, rng), expected_version=21, actor="seat")
        assert refused.value.current_version == 11
        again = writer.get(game_id)
        assert again.version == 11
        events = writer.events_of(game_id)
        assert [event.originator_version for event in events] == list(range(1, 12))
        assert canonical(fold(events).state) == canonical(again.state)
        with pytest.raises(GameNotFound):
            writer.get(lost_game)  # its cached fold is not served: the store holds none of it
        with pytest.raises(GameNotFound):
            writer.play(lost_game, {"kind": "pass"}, expected_version=5, actor="seat")

        # Play goes on from version 11 along another line; the other process, which still holds version 21
        # of the lost line, reads the store again rather than bringing its old fold up to date.
        other = random.Random(99)
        play(writer, game_id, 25, other)
        current = stale.get(game_id)
        events = stale.events_of(game_id)
        assert current.version == 25 and canonical(current.state) == canonical(fold(events).state)
        assert canonical(current.state) != canonical(held.state)
        played = stale.play(game_id, pick(current.state, other), expected_version=25, actor="seat")
        assert played.game.version == 26
        events = stale.events_of(game_id)
        assert [event.originator_version for event in events] == list(range(1, 27))
        assert canonical(fold(events).state) == canonical(writer.get(game_id).state)
    finally:
        writer.close()
        stale.close()


def test_a_snapshot_written_from_a_stale_game_is_dropped_not_served(server: RedisProcess) -> None:
    config = StoreConfig(kind="redis", redis_url=server.url, redis_prefix=f"snap-{uuid.uuid4().hex[:8]}")
    writer = open_log(config)
    rng = random.Random(5)
    game_id = writer.create_game({"players": 2, "seed": 5}).game_id
    play(writer, game_id, 12, rng)
    with redis.Redis.from_url(server.url) as client:
        client.save()
    play(writer, game_id, 30, rng)
    stale_game = writer.get(game_id)
    server.kill()
    server.start()
    try:
        # A snapshot writer still holding version 30 of the lost line stores it after the server came back,
        # then play goes on to version 40 along another line.
        store = writer.stores.of(game_id)
        assert store.snapshots is not None
        store.snapshots.put([GameSnapshot.take(stale_game)])
        play(writer, game_id, 40, random.Random(77))
        cold = open_log(config, AGGREGATE_CACHE_MAXSIZE="")
        try:
            game = cold.get(game_id)
            assert canonical(game.state) == canonical(fold(cold.events_of(game_id)).state)
            assert canonical(cold.state_at(game_id, 30)) == canonical(
                fold(cold.events_of(game_id)[:30]).state
            )
            assert 30 not in [s.originator_version for s in store.snapshots.get(game_id)]  # dropped
        finally:
            cold.close()
    finally:
        writer.close()
