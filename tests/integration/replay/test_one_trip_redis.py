"""One-trip moves (replay.one_trip) on the real redis-server: a move decided on the game and grants this process
holds is counted, checked and appended by one script, which refuses (``NotAsHeld``), writing nothing, when the
store holds either stream otherwise (another version, or another event at that version), when the count would pass
its limit, or when the Idempotency-Key was used for another kind of write; and nothing is held for that script
when the store is switched off (``REDIS_ONE_TRIP_MOVES=no``) or on SQLite."""

from __future__ import annotations

import dataclasses
import random
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis

from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.one_trip import NotAsHeld
from replay.services.repository import OneTrip
from replay.store.errors import OutcomeUnknownError
from tests.replay_helpers import pick

WINDOW = 10**9


@pytest.fixture(params=["redis", "cluster"])
def url(request: pytest.FixtureRequest) -> str:
    """The standalone server, and the cluster (every key a game's write names is under one hash tag)."""
    return str(request.getfixturevalue("redis_url" if request.param == "redis" else "cluster_url"))


@pytest.fixture
def config(url: str) -> StoreConfig:
    return StoreConfig(kind="redis", redis_url=url, redis_prefix=f"trip-{uuid.uuid4().hex[:10]}")


@pytest.fixture
def server(url: str) -> Iterator[Any]:
    """A plain client of the store's server, to look at what the scripts left."""
    plain = redis.Redis.from_url(url)
    client: Any = redis.RedisCluster.from_url(url) if plain.info("cluster")["cluster_enabled"] else plain
    yield client
    client.close()
    plain.close()


@pytest.fixture
def log(config: StoreConfig) -> Iterator[GameLog]:
    opened = open_log(config)
    yield opened
    opened.close()


def warm(log: GameLog) -> uuid.UUID:
    """A game of two with a move played: held warm, its last event and its grants' known."""
    game_id = log.create_game({"players": 2, "seed": 4}).game_id
    game = log.get(game_id)
    log.play(game_id, pick(game.state, random.Random(1)), expected_version=game.version, actor="t")
    log.access(game_id)
    return game_id


def trip(
    log: GameLog, game_id: uuid.UUID, limit: int = 0, claim: tuple[str, str, int] | None = None
) -> OneTrip:
    found = log.games.count_later("token:t", WINDOW, near=game_id, limit=limit, claim=claim)
    assert found is not None, "a warm game on Redis goes in one trip"
    return found


def play(log: GameLog, game_id: uuid.UUID, held: OneTrip) -> Any:
    game = held.ahead.game
    with log.games.counting_with_append(held):
        return log.recording.play(
            game_id, pick(game.state, random.Random(2)), expected_version=game.version, known=game
        )


def count(server: Any, key: str) -> int:
    return int(server.get(key) or 0)


def test_a_move_held_as_stored_is_appended_counted_and_claims_its_key(log: GameLog, server: Any) -> None:
    game_id = warm(log)
    held = trip(log, game_id, limit=5, claim=("use-1", "a move", 60))
    before = log.get(game_id).version
    played = play(log, game_id, held)
    assert held.counted.appended and held.counted.count == 1 == count(server, held.counted.counter)
    assert played.game.version == before + 1 == log.stores.of(game_id).last_version(game_id)
    use = held.counted.use
    assert use is not None and server.get(use[0]) == b"a move"
    again = trip(log, game_id, limit=5)
    play(log, game_id, again)
    assert again.counted.count == 2, "the next move counts on from the first"


def test_a_game_another_process_moved_on_is_refused_and_nothing_is_written(
    log: GameLog, config: StoreConfig, server: Any
) -> None:
    game_id = warm(log)
    held = trip(log, game_id)
    other = open_log(config)
    game = other.get(game_id)
    other.play(game_id, pick(game.state, random.Random(3)), expected_version=game.version, actor="t")
    other.close()
    with pytest.raises(NotAsHeld, match="is not at version"):
        play(log, game_id, held)
    assert not held.counted.appended and count(server, held.counted.counter) == 0
    assert log.stores.of(game_id).last_version(game_id) == game.version + 1, "only the other process's move"


def test_grants_changed_elsewhere_refuse_the_move(log: GameLog, config: StoreConfig, server: Any) -> None:
    """A seat's token issued by another process (the one it replaces stops working): the move waits for the
    ordinary way, which reads the grants afresh."""
    game_id = warm(log)
    held = trip(log, game_id)
    other = open_log(config)
    other.tokens.issue_seat_token(game_id, 0, by="owner")
    other.close()
    with pytest.raises(NotAsHeld, match="is not at version"):
        play(log, game_id, held)
    assert count(server, held.counted.counter) == 0


def test_another_event_at_the_version_held_is_refused(log: GameLog) -> None:
    """What the store came back with after losing writes: the same version, another event (told by its time)."""
    game_id = warm(log)
    held = trip(log, game_id)
    stream, version, _ = held.counted.held[0]
    held.counted.held[0] = (stream, version, "2001-01-01T00:00:00+00:00")
    with pytest.raises(NotAsHeld, match="holds another event"):
        play(log, game_id, held)
    assert not held.counted.appended


def test_a_count_at_its_limit_is_refused_without_counting(log: GameLog, server: Any) -> None:
    game_id = warm(log)
    first = trip(log, game_id, limit=1)
    play(log, game_id, first)
    second = trip(log, game_id, limit=1)
    with pytest.raises(NotAsHeld, match="at its limit"):
        play(log, game_id, second)
    assert count(server, first.counted.counter) == 1, "the ordinary write counts the refused one"


def test_a_key_used_for_another_kind_of_write_is_refused(log: GameLog, server: Any) -> None:
    game_id = warm(log)
    used = trip(log, game_id, claim=("use-2", "an undo", 60)).counted.use
    assert used is not None
    server.set(used[0], "an undo")
    held = trip(log, game_id, claim=("use-2", "a move", 60))
    with pytest.raises(NotAsHeld, match="another kind of write"):
        play(log, game_id, held)


def test_nothing_is_held_for_one_trip_when_switched_off_or_on_sqlite(
    config: StoreConfig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REDIS_ONE_TRIP_MOVES", "no")
    off = open_log(dataclasses.replace(config, redis_prefix=config.redis_prefix + "-off"))
    sqlite = open_log(StoreConfig(kind="sqlite", sqlite_path=tmp_path / "games.sqlite"))
    for opened in (off, sqlite):
        game_id = warm(opened)
        assert opened.games.count_later("token:t", WINDOW, near=game_id, limit=0) is None
        opened.close()


@pytest.mark.parametrize("applied", [True, False])
def test_a_lost_reply_is_found_stored_uncounted_or_absent_and_refused(
    log: GameLog, server: Any, monkeypatch: pytest.MonkeyPatch, applied: bool
) -> None:
    """The script's reply is lost: the recorder reads what was stored. Stored: the move stands, counted once by
    its script (its count unknown here). Not stored: refused as not held, to be made again the ordinary way."""
    game_id = warm(log)
    held = trip(log, game_id)
    datastore = log.stores.of(game_id).recorder.datastore
    real = datastore.write_script

    def lost(*args: Any) -> Any:
        if applied:
            real(*args)
        raise OutcomeUnknownError("no reply")

    monkeypatch.setattr(datastore, "write_script", lost)
    before = log.stores.of(game_id).last_version(game_id)
    if applied:
        play(log, game_id, held)
        assert held.counted.appended and held.counted.count is None
    else:
        with pytest.raises(NotAsHeld, match="nothing was stored"):
            play(log, game_id, held)
        assert not held.counted.appended
    assert log.stores.of(game_id).last_version(game_id) == before + applied
    assert count(server, held.counted.counter) == applied
