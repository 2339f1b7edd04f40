"""Acknowledged on N nodes: with ``REDIS_WAIT_REPLICAS``, a move is acknowledged only once a replica
holds it too. A master and a replica of the test's own: with the replica cut off (paused), a move is not
acknowledged (``503 store_unavailable``, within the wait's timeout) and its retry with the same Idempotency-Key,
once the replica is back, is answered from the log; and when the master dies after the link was cut, the replica
that takes over holds every acknowledged move."""

from __future__ import annotations

import os
import random
import signal
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from eventsourcing.persistence import OperationalError

from api.app import create_app
from api.resources.context import EXTENSION
from replay.config import StoreConfig, open_log
from replay.game import fold
from replay.store.errors import NotReplicatedError
from tests.api_helpers import ApiClient, flask_transport
from tests.redis_process import RedisProcess
from tests.replay_helpers import canonical, pick

# Long enough for a replica on a busy machine; a paused one never answers, whatever the wait.
WAIT = {"REDIS_WAIT_REPLICAS": "1", "REDIS_WAIT_TIMEOUT_MS": "1500"}


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[RedisProcess, RedisProcess]]:
    (tmp_path / "master").mkdir()
    (tmp_path / "replica").mkdir()
    master = RedisProcess(tmp_path / "master", "--repl-diskless-sync-delay", "0")
    master.start()
    replica = RedisProcess(tmp_path / "replica", "--replicaof", "127.0.0.1", str(master.port))
    replica.start()
    linked = redis.Redis(port=replica.port)
    deadline = time.monotonic() + 20
    while linked.info("replication").get("master_link_status") != "up":
        assert time.monotonic() < deadline, "the replica did not link"
        time.sleep(0.05)
    linked.close()
    yield master, replica
    for node in (replica, master):
        if node.process is not None and node.process.poll() is None:
            os.kill(node.process.pid, signal.SIGCONT)
        node.stop()


def pause(node: RedisProcess) -> None:
    assert node.process is not None
    os.kill(node.process.pid, signal.SIGSTOP)


def resume(node: RedisProcess) -> None:
    assert node.process is not None
    os.kill(node.process.pid, signal.SIGCONT)


def test_a_move_the_replica_does_not_confirm_is_not_acknowledged_and_its_retry_is_answered(
    pair: tuple[RedisProcess, RedisProcess], monkeypatch: pytest.MonkeyPatch
) -> None:
    master, replica = pair
    for name, value in WAIT.items():
        monkeypatch.setenv(name, value)
    store = StoreConfig(kind="redis", redis_url=master.url, redis_prefix=f"wait-{uuid.uuid4().hex[:8]}")
    app = create_app({"STORE": store})
    api = ApiClient(flask_transport(app.test_client()))
    game_id, owner, _ = api.create(2, seed=8)
    listing = api.legal(game_id, owner)
    assert api.play(game_id, listing.body["moves"][0], owner, listing.etag, key="first").status == 201
    listing = api.legal(game_id, owner)
    move = listing.body["moves"][0]
    pause(replica)  # the replication link is cut
    started = time.monotonic()
    refused = api.play(game_id, move, owner, listing.etag, key="second")
    assert refused.error() == (503, "store_unavailable")
    assert time.monotonic() - started < 8  # the wait's timeout, not the socket's (10 s)
    ready = api.get("/readyz")  # no write can be held on two nodes: not ready, and it says why
    assert (ready.status, ready.body["status"], ready.body["shards"][0]["status"]) == (
        503,
        "read-only",
        "read-only",
    )
    resume(replica)
    again = api.play(game_id, move, owner, listing.etag, key="second")
    assert again.status == 201 and again.headers.get("idempotent-replayed") == "true"
    assert again.etag == listing.etag + 1
    assert (
        api.get("/readyz").body["shards"][0]["detail"] == "reads and writes answer, confirmed by 1 replica(s)"
    )
    app.extensions[EXTENSION].get().log.close()


def test_a_retry_is_not_answered_from_the_master_alone_while_the_replica_does_not_confirm(
    pair: tuple[RedisProcess, RedisProcess], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A retry found recorded on the master (a move under its key, a new game by its receipt) is answered only
    once the replica holds it: answered while the link is cut, it would acknowledge what a fail-over loses."""
    master, replica = pair
    for name, value in WAIT.items():
        monkeypatch.setenv(name, value)
    store = StoreConfig(kind="redis", redis_url=master.url, redis_prefix=f"retry-{uuid.uuid4().hex[:8]}")
    app = create_app({"STORE": store})
    api = ApiClient(flask_transport(app.test_client()))
    game_id, owner, _ = api.create(2, seed=9)
    listing = api.legal(game_id, owner)
    move = listing.body["moves"][0]
    setup = {"players": [{"name": "Aiko"}, {"name": "Ben"}], "seed": 4}
    pause(replica)  # the replication link is cut
    try:
        assert api.play(game_id, move, owner, listing.etag, key="move").error() == (503, "store_unavailable")
        assert api.play(game_id, move, owner, listing.etag, key="move").error() == (503, "store_unavailable")
        created = api.post("/api/games", setup, key="new-game")
        assert created.error() == (503, "store_unavailable")
        created = api.post("/api/games", setup, key="new-game")
        assert created.error() == (503, "store_unavailable")
    finally:
        resume(replica)
    again = api.play(game_id, move, owner, listing.etag, key="move")
    assert again.status == 201 and again.headers.get("idempotent-replayed") == "true"
    made = api.post("/api/games", setup, key="new-game")
    assert made.status == 201 and made.headers.get("idempotent-replayed") == "true"
    assert api.get(f"/api/games/{made.body['game']['game_id']}").status == 200
    app.extensions[EXTENSION].get().log.close()


def test_after_the_link_was_cut_and_the_master_died_its_replica_holds_every_acknowledged_move(
    pair: tuple[RedisProcess, RedisProcess],
) -> None:
    master, replica = pair
    prefix = f"failover-{uuid.uuid4().hex[:8]}"
    log = open_log(StoreConfig(kind="redis", redis_url=master.url, redis_prefix=prefix), **WAIT)
    rng = random.Random(6)
    game_id = log.create_game({"players": 3, "seed": 6}).game_id
    acknowledged: dict[int, dict] = {}
    for _ in range(15):
        game = log.get(game_id)
        move = pick(game.state, rng)
        acknowledged[log.play(game_id, move, expected_version=game.version, actor="seat").versions[0]] = move
    pause(replica)  # the link is cut: what follows reaches the master only
    game = log.get(game_id)
    move = pick(game.state, rng)
    with pytest.raises(OperationalError) as refused:
        log.play(game_id, move, expected_version=game.version, actor="seat", idempotency_key="cut")
    assert isinstance(refused.value, NotReplicatedError)
    unconfirmed = (game.version, move)
    master.kill()
    resume(replica)
    with redis.Redis(port=replica.port) as client:
        client.replicaof("NO", "ONE")  # the replica takes over
    log.close()

    promoted = open_log(StoreConfig(kind="redis", redis_url=replica.url, redis_prefix=prefix))
    try:
        events = promoted.events_of(game_id)
        recorded = {event.originator_version: event.move for event in events[1:]}  # type: ignore[attr-defined]
        assert all(recorded.get(version) == move for version, move in acknowledged.items()), "an ack was lost"
        assert [event.originator_version for event in events] == list(range(1, len(events) + 1))
        game = promoted.get(game_id)
        assert canonical(game.state) == canonical(fold(events).state)
        # The client, told 503, retries the same request: recorded once on the new master, whether the
        # unconfirmed write reached the replica after all (its bytes were on their way) or not.
        expected, move = unconfirmed
        played = promoted.play(game_id, move, expected_version=expected, actor="seat", idempotency_key="cut")
        again = promoted.play(game_id, move, expected_version=expected, actor="seat", idempotency_key="cut")
        assert again.versions == played.versions == (expected + 1,) and again.repeated
        assert [e.originator_version for e in promoted.events_of(game_id)] == list(range(1, expected + 2))
    finally:
        promoted.close()
