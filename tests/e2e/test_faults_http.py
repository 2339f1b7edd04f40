"""Faults over real HTTP, each bounded in time, on loopback only:

* Redis is killed (kill -9) under the API: it answers ``503 store_unavailable`` with a clear message and a
  ``Retry-After``, and serves again by itself once Redis is back (no restart of the API);
* the API starts while Redis is down, and serves as soon as Redis is up;
* kill -9 of redis-server while clients record moves through the API (AOF ``appendfsync always``), then a
  restart: every move the API acknowledged (201) is in the log, none twice, and the log refolds to the state
  the API serves;
* a gunicorn worker killed in the middle of recording a move, before or after the move's event is written:
  the client's retry with the same ``Idempotency-Key`` yields exactly one event.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import random
import signal
import sys
import threading
import time
import urllib.error
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.api_helpers import Answer, ApiClient, http_transport
from tests.e2e.conftest import Served, serve
from tests.redis_process import RedisProcess

ROOT = Path(__file__).resolve().parents[2]


def redis_env(url: str) -> dict[str, str]:
    return {
        "REDIS_URL": url,
        "HERONLOG_STORE": "redis",
        "REDIS_KEY_PREFIX": f"fault-{uuid.uuid4().hex[:10]}",
        "REDIS_SOCKET_TIMEOUT": "2",
        "HERONLOG_RATE_LIMIT_PER_TOKEN": "0",
    }


@contextlib.contextmanager
def served(
    tmp_path: Path, env: dict[str, str], *args: str, command: list[str] | None = None
) -> Iterator[Served]:
    yield from serve(tmp_path, env, *args, command=command)


def until(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not within {seconds:.0f} s")
        time.sleep(0.1)


def answers(api: ApiClient, path: str, status: int) -> Callable[[], bool]:
    def check() -> bool:
        try:
            return api.get(path).status == status
        except OSError:
            return False

    return check


@pytest.mark.timeout(120)
def test_redis_down_is_a_clear_503_and_the_api_recovers_by_itself(tmp_path: Path) -> None:
    redis_server = RedisProcess(tmp_path)
    redis_server.start()
    try:
        with served(tmp_path, redis_env(redis_server.url)) as server:
            api = ApiClient(http_transport(server.url))
            game_id, owner, game = api.create(2, seed=12)
            listing = api.legal(game_id)
            assert api.play(game_id, listing.body["moves"][0], owner, listing.etag).status == 201

            redis_server.kill()
            read = api.get(f"/api/games/{game_id}")
            assert read.error() == (503, "store_unavailable")
            assert "event store did not answer" in read.body["detail"]
            assert int(read.headers["retry-after"]) > 0
            write = api.play(game_id, {"kind": "anything"}, owner, listing.etag + 1, key="while-down")
            assert write.error() == (503, "store_unavailable")
            health = api.get("/readyz")
            assert health.status == 503 and health.body["status"] == "unavailable"
            assert health.body["shards"][0]["status"] == "unavailable"
            assert api.get("/healthz").status == 200  # liveness: the process answers

            redis_server.start()  # the same port, the same AOF
            until(answers(api, f"/api/games/{game_id}", 200), 30, "the API serving again after Redis is back")
            assert server.process.poll() is None, "the API was not restarted"
            assert api.game(game_id)["version"] == listing.etag + 1
            after = api.legal(game_id)
            assert api.play(game_id, after.body["moves"][0], owner, after.etag).status == 201
            assert api.get("/readyz").status == 200
            metrics = api.get("/metrics").body
            assert 'heronlog_store_errors_total{route="/api/games/<uuid:game_id>"}' in metrics
            assert game["version"] == 1
    finally:
        redis_server.stop()


@pytest.mark.timeout(120)
def test_the_api_starts_while_redis_is_down_and_serves_once_redis_is_up(tmp_path: Path) -> None:
    redis_server = RedisProcess(tmp_path)  # its port chosen, the server not started yet
    try:
        with served(tmp_path, redis_env(redis_server.url)) as server:
            api = ApiClient(http_transport(server.url))
            assert api.get("/readyz").status == 503
            assert api.post("/api/games", {"players": 2}).error() == (503, "store_unavailable")
            redis_server.start()
            until(answers(api, "/readyz", 200), 30, "readyz once Redis is up")
            game_id, _, _ = api.create(2, seed=3)
            assert api.game(game_id)["version"] == 1
    finally:
        redis_server.stop()


class Recorder:
    """One client recording its own game through the API, retrying every refused or unanswered move with
    the same If-Match and Idempotency-Key (as a phone would), until it has ``target`` acknowledged moves."""

    def __init__(self, url: str, seed: int, target: int, deadline: float) -> None:
        self.api = ApiClient(http_transport(url, timeout=10))
        self.rng = random.Random(seed)
        self.seed = seed
        self.target = target
        self.deadline = deadline
        self.acknowledged: dict[int, dict[str, Any]] = {}
        self.refused = 0
        self.failure: str | None = None
        self.game_id = ""

    def call(self, send: Callable[..., Answer], *args: Any, **kwargs: Any) -> Answer | None:
        try:
            return send(*args, **kwargs)
        except (OSError, http.client.HTTPException, urllib.error.URLError):
            return None

    def run(self) -> None:
        try:
            self.game_id, owner, _ = self.api.create(2, seed=self.seed)
            while len(self.acknowledged) < self.target and time.monotonic() < self.deadline:
                listing = self.call(self.api.get, f"/api/games/{self.game_id}/legal-moves")
                if listing is None or listing.status != 200:
                    self.refused += 1
                    time.sleep(0.05)
                    continue
                move = self.rng.choice(listing.body["moves"])
                key = f"{self.seed}-{listing.etag}"
                while time.monotonic() < self.deadline:
                    answer = self.call(self.api.play, self.game_id, move, owner, listing.etag, key=key)
                    if answer is not None and answer.status == 201:
                        [version] = answer.body["versions"]
                        self.acknowledged[version] = move
                        break
                    if answer is not None and answer.status != 503:
                        self.failure = f"unexpected answer {answer.status}: {answer.body}"
                        return
                    self.refused += 1
                    time.sleep(0.05)
        except Exception as error:  # reported by the test, with the client's seed
            self.failure = repr(error)


@pytest.mark.timeout(180)
def test_every_move_acknowledged_over_http_survives_a_kill_9_of_redis(tmp_path: Path) -> None:
    redis_server = RedisProcess(tmp_path)
    redis_server.start()
    try:
        with served(tmp_path, redis_env(redis_server.url), "--workers", "2") as server:
            deadline = time.monotonic() + 90
            recorders = [Recorder(server.url, seed, target=40, deadline=deadline) for seed in range(4)]
            threads = [threading.Thread(target=recorder.run) for recorder in recorders]
            for thread in threads:
                thread.start()
            until(lambda: sum(len(r.acknowledged) for r in recorders) >= 30, 60, "30 moves recorded")
            redis_server.kill()
            time.sleep(1.0)  # clients keep trying meanwhile: every write is refused with 503
            redis_server.start()
            for thread in threads:
                thread.join(timeout=120)
            api = ApiClient(http_transport(server.url))
            assert sum(recorder.refused for recorder in recorders) > 0, "no write met the dead server"
            for recorder in recorders:
                assert recorder.failure is None, (recorder.seed, recorder.failure)
                assert len(recorder.acknowledged) == recorder.target
                exported = api.get(f"/api/games/{recorder.game_id}/export").body
                events = exported["events"]  # every event after the game's creation (version 1)
                versions = [event["version"] for event in events]
                assert versions == list(range(2, len(events) + 2)), "no gap, no duplicate"
                recorded = {event["version"]: event["data"]["move"] for event in events}
                assert recorded == recorder.acknowledged, "exactly the acknowledged moves, each once"
                keys = [event["data"]["idempotency_key"] for event in events]
                assert len(keys) == len(set(keys))
                # The log refolds (every event re-checked by the rules) to the state the API serves.
                copy = api.post("/api/games/import?new_id=1", exported)
                assert copy.status == 201, copy.body
                assert api.game(copy.body["game"]["game_id"])["state"] == api.game(recorder.game_id)["state"]
    finally:
        redis_server.stop()


def worker_killed_mid_request(
    tmp_path: Path, redis_url: str, point: str
) -> tuple[Answer, list[dict[str, Any]]]:
    """Record a move whose worker is killed (SIGKILL) at ``point``; then retry it with the same
    Idempotency-Key. Returns the retry's answer and the game's events."""
    hold_file = tmp_path / "held.pid"
    env = {**redis_env(redis_url), "HERONLOG_TEST_HOLD_FILE": str(hold_file), "PYTHONPATH": str(ROOT)}
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        "127.0.0.1:{port}",
        "--workers",
        "1",
        "--threads",
        "4",
        "--worker-class",
        "gthread",
        "tests.e2e.held_app:create()",
    ]
    with served(tmp_path, env, command=command) as server:
        api = ApiClient(http_transport(server.url, timeout=30))
        game_id, owner, _ = api.create(2, seed=21)
        listing = api.legal(game_id)
        move = listing.body["moves"][0]
        headers = {**api.headers(owner, listing.etag, key="tap-once"), "X-Test-Hold": point}
        lost: list[BaseException] = []

        def first_try() -> None:
            try:
                api.send("POST", f"/api/games/{game_id}/moves", move, headers)
            except (OSError, http.client.HTTPException) as error:
                lost.append(error)

        attempt = threading.Thread(target=first_try)
        attempt.start()
        until(hold_file.exists, 30, f"the request held {point}")
        worker = int(hold_file.read_text())
        os.kill(worker, signal.SIGKILL)
        attempt.join(timeout=30)
        assert lost, "the killed worker's client got no answer"

        def retried() -> Answer | None:
            try:
                return api.play(game_id, move, owner, listing.etag, key="tap-once")
            except (OSError, http.client.HTTPException):
                return None  # the master is still starting the new worker

        answer = None
        deadline = time.monotonic() + 30
        while answer is None and time.monotonic() < deadline:
            answer = retried()
            if answer is None:
                time.sleep(0.2)
        assert answer is not None, "no worker answered the retry"
        events = api.get(f"/api/games/{game_id}/export").body["events"]
        assert "was sent SIGKILL" in server.output()
        return answer, events


@pytest.mark.timeout(120)
@pytest.mark.parametrize("point", ["before-commit", "after-commit"])
def test_a_worker_killed_mid_request_then_the_clients_retry_yields_exactly_one_event(
    tmp_path: Path, redis_url: str, point: str
) -> None:
    answer, events = worker_killed_mid_request(tmp_path, redis_url, point)
    assert answer.status == 201 and answer.body["versions"] == [2]
    # after the commit, the event was there: the retry found it (by its key) and wrote nothing
    assert (answer.headers.get("idempotent-replayed") == "true") is (point == "after-commit")
    played = [event for event in events if event["type"] == "MovePlayed"]
    assert len(played) == 1 and played[0]["data"]["idempotency_key"] == "tap-once"
    assert [event["version"] for event in events] == [2]  # after the game's creation, version 1
