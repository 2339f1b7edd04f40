"""A game's analysis stream and its jobs, on the in-memory store with a queue that only collects: a result is
recorded once, a live claim is not taken over, a dead worker's job is queued again, a decision is given up after
its attempts, and a correction or an undo makes the analysis stale."""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

import pytest

from replay import analysis
from replay.analysis_jobs import Analyses, Job, Settings
from replay.config import StoreConfig, open_log
from replay.errors import AnalysisRunning
from replay.events import now
from tests.replay_helpers import play_random


class Collected:
    """A queue nobody takes from: the jobs sent, in order."""

    def __init__(self) -> None:
        self.sent: list[Job] = []

    def send(self, jobs: Sequence[Job]) -> None:
        self.sent.extend(jobs)

    def waiting(self) -> list[Job]:
        return list(self.sent)


@pytest.fixture
def setting() -> Any:
    log = open_log(StoreConfig(kind="memory"))
    game_id = log.create_game({"players": ["Ann", "Bo"], "seed": 5}).game_id
    list(play_random(log, game_id, 6, random.Random(2)))
    queue = Collected()
    service = Analyses(log, queue, Settings(playouts=8, lease_seconds=30))
    return log, game_id, queue, service


def events(log: Any, game_id: Any, kind: type) -> list[Any]:
    found = log.stores.of(game_id).stream_events(analysis.stream_id(game_id))
    return [event for event in found if isinstance(event, kind)]


def test_asking_queues_one_job_per_decision_and_asking_again_queues_none(setting: Any) -> None:
    log, game_id, queue, service = setting
    run, created = service.request(log.get_game(game_id), actor="owner")
    assert created and run.total == 6
    assert queue.sent == [Job(str(game_id), run.number, i, 1) for i in range(1, 7)]
    again, created_again = service.request(log.get_game(game_id), actor="seat:1")
    assert not created_again and again.number == run.number and len(queue.sent) == 6


def test_a_result_is_recorded_once_whoever_runs_the_job(setting: Any) -> None:
    log, game_id, queue, service = setting
    service.request(log.get_game(game_id), actor="owner")
    job = queue.sent[0]
    assert service.run_job(job) == "evaluated"
    assert service.run_job(job) == "done"
    assert service.run_job(job._replace(attempt=2)) == "done"
    assert len(events(log, game_id, analysis.DecisionEvaluated)) == 1


def test_a_live_claim_is_not_taken_over(setting: Any) -> None:
    log, game_id, queue, service = setting
    service.request(log.get_game(game_id), actor="owner")
    job = queue.sent[0]
    service._write(
        game_id, lambda s: analysis.claim(s, job.run, job.decision, attempt=1, worker="w", lease=30)
    )
    assert service.run_job(job) == "held"
    assert not events(log, game_id, analysis.DecisionEvaluated)


def test_a_claim_whose_lease_ran_out_is_queued_again_then_given_up(setting: Any) -> None:
    log, game_id, queue, service = setting
    run, _ = service.request(log.get_game(game_id), actor="owner")
    start = now()
    for attempt in range(1, analysis.MAX_ATTEMPTS + 1):
        service.clock = lambda a=attempt: start + timedelta(seconds=100 * a)
        service._write(
            game_id, lambda s, a=attempt: analysis.claim(s, run.number, 3, attempt=a, worker="dead", lease=30)
        )
        service.clock = lambda a=attempt: start + timedelta(seconds=100 * a + 31)
        sent = service.sweep(game_id)
        if attempt < analysis.MAX_ATTEMPTS:
            assert sent == 1 and queue.sent[-1] == Job(str(game_id), run.number, 3, attempt + 1)
            assert service.sweep(game_id) == 0, "a second sweep sends it no second time"
    assert service.stream(game_id).run.failures.keys() == {3}
    assert len(queue.sent) == 6 + analysis.MAX_ATTEMPTS - 1


def test_a_run_nothing_moves_any_more_is_queued_again(setting: Any) -> None:
    log, game_id, queue, service = setting
    run, _ = service.request(log.get_game(game_id), actor="owner")
    queue.sent.clear()  # the jobs were taken from the queue by workers that died before claiming them
    assert service.sweep(game_id) == 0, "not within the grace period"
    service.clock = lambda: now() + timedelta(seconds=analysis.GRACE_SECONDS + 1)
    assert service.sweep(game_id) == run.total
    assert {job.decision for job in queue.sent} == {d["index"] for d in run.decisions}


def test_an_undo_makes_the_run_stale_and_a_new_run_replaces_it(setting: Any) -> None:
    log, game_id, queue, service = setting
    run, _ = service.request(log.get_game(game_id), actor="owner")
    game = log.get_game(game_id)
    assert analysis.stale(run, game) is None
    log.undo(game_id, expected_version=game.version, actor="owner")
    undone = log.get_game(game_id)
    assert "undone" in (analysis.stale(run, undone) or "")
    newer, created = service.request(undone, actor="owner")
    assert created and newer.number > run.number
    assert service.run_job(queue.sent[0]) == "superseded"


def test_one_run_at_a_time_while_the_line_grows(setting: Any) -> None:
    log, game_id, queue, service = setting
    service.request(log.get_game(game_id), actor="owner")
    list(play_random(log, game_id, 1, random.Random(9)))
    with pytest.raises(AnalysisRunning):
        service.request(log.get_game(game_id), actor="owner")
    for job in list(queue.sent):
        service.run_job(job)
    newer, created = service.request(log.get_game(game_id), actor="owner")
    assert created and newer.total == 7
