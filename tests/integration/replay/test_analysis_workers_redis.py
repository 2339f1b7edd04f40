"""Analysis jobs on a real Redis, taken by real `heronlog worker` processes: two workers share a game's
decisions, and a worker killed in the middle of a job loses nothing (its job is queued again once its lease
runs out, taken by another worker, and every decision is recorded exactly once)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import domain
from replay import analysis
from replay.analysis_jobs import Analyses
from replay.analysis_queue import analyses_for
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from tests.replay_helpers import pick

pytestmark = pytest.mark.redis


@pytest.fixture
def store(redis_url: str) -> StoreConfig:
    return StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"analysis-{uuid.uuid4().hex[:10]}")


@pytest.fixture
def log(store: StoreConfig) -> Iterator[GameLog]:
    opened = open_log(store)
    yield opened
    opened.close()


def worker_environment(store: StoreConfig, lease: float) -> dict[str, str]:
    assert store.redis_url is not None
    return {
        **os.environ,
        "HERONLOG_STORE": "redis",
        "REDIS_URL": store.redis_url,
        "REDIS_KEY_PREFIX": store.redis_prefix,
        "HERONLOG_ANALYSIS_LEASE": str(lease),
        "HERONLOG_LOG_FORMAT": "text",
    }


@pytest.fixture
def workers(store: StoreConfig, tmp_path: Path) -> Iterator[Any]:
    """Starts `heronlog worker --workers 1` processes (each in a session of its own, so that a kill reaches its
    forked worker too); every one still running is stopped at the end."""
    started: list[subprocess.Popen[bytes]] = []

    def start(lease: float = 60.0) -> subprocess.Popen[bytes]:
        with (tmp_path / f"worker-{len(started)}.log").open("wb") as logfile:
            process = subprocess.Popen(
                [sys.executable, "-m", "api.server.cli", "worker", "--workers", "1"],
                env=worker_environment(store, lease),
                stdout=logfile,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def finished_game(log: GameLog, seed: int, moves: int = 10_000) -> Any:
    game_id = log.create_game({"players": ["Aiko", "Ben", "Chie", "Dai"], "seed": seed}).game_id
    rng = random.Random(seed)
    for _ in range(moves):
        game = log.get_game(game_id)
        if domain.is_over(game.state):
            break
        log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="owner")
    return log.get_game(game_id)


def wait_for(service: Analyses, game_id: uuid.UUID, seconds: float, until: Any) -> analysis.Analysis:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        service.sweep(game_id)  # what every read of GET .../analysis does
        stream = service.stream(game_id)
        if until(stream):
            return stream
        time.sleep(0.2)
    pytest.fail(f"not reached in {seconds} s: {service.stream(game_id).run}")


def recorded(log: GameLog, game_id: uuid.UUID, kind: type) -> list[Any]:
    events = log.stores.of(game_id).stream_events(analysis.stream_id(game_id))
    return [event for event in events if isinstance(event, kind)]


def test_two_workers_share_a_finished_game_and_every_decision_gets_its_error(
    store: StoreConfig, log: GameLog, workers: Any
) -> None:
    game = finished_game(log, seed=41)
    assert domain.is_over(game.state)
    service = analyses_for(store, {}, log, playouts=16)
    run, created = service.request(game, actor="owner")
    assert created and run.total >= 100
    workers()
    workers()
    stream = wait_for(service, game.id, 300, lambda s: s.run.finished)
    assert stream.run is not None and not stream.run.failures
    assert set(stream.run.evaluations) == {d["index"] for d in run.decisions}
    for evaluation in stream.run.evaluations.values():
        assert all(move["playouts"] >= 2 and move["margin_se"] >= 0 for move in evaluation["moves"])
    results = recorded(log, game.id, analysis.DecisionEvaluated)
    assert len(results) == run.total, "each decision recorded once"
    assert len({event.worker for event in results}) >= 2, "both workers took decisions"


def test_a_worker_killed_mid_job_loses_nothing_and_nothing_is_counted_twice(
    store: StoreConfig, log: GameLog, workers: Any
) -> None:
    game = finished_game(log, seed=43, moves=30)
    lease = 4.0
    service = analyses_for(store, {"HERONLOG_ANALYSIS_LEASE": str(lease)}, log, playouts=400)
    run, _ = service.request(game, actor="owner")
    doomed = workers(lease)

    def mid_job(stream: analysis.Analysis) -> bool:
        held = stream.run.claims if stream.run else {}
        return any(index not in stream.run.evaluations for index in held)  # type: ignore[union-attr]

    stream = wait_for(service, game.id, 60, mid_job)
    assert stream.run is not None
    killed = {index for index in stream.run.claims if index not in stream.run.evaluations}
    os.killpg(doomed.pid, signal.SIGKILL)
    doomed.wait()
    workers(lease)
    stream = wait_for(service, game.id, 300, lambda s: s.run.finished)
    assert stream.run is not None and not stream.run.failures
    assert set(stream.run.evaluations) == {d["index"] for d in run.decisions}
    assert len(recorded(log, game.id, analysis.DecisionEvaluated)) == run.total, "nothing counted twice"
    requeued = {event.index for event in recorded(log, game.id, analysis.DecisionRequeued)}
    assert killed <= requeued, "the killed worker's job was queued again"
    for index in killed:
        claims = [e for e in recorded(log, game.id, analysis.DecisionStarted) if e.index == index]
        assert len(claims) >= 2 and claims[-1].attempt >= 2
