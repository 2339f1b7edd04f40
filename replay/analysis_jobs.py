"""The analysis service: ask for a game's analysis, run one decision's job, read how far it has come.

:class:`Analyses` writes and reads a game's analysis stream (:mod:`replay.analysis`) in the game's own store,
through the game log, and sends jobs to a :class:`Queue` (:mod:`replay.analysis_queue`: huey on Redis or SQLite,
or threads of this process for the in-memory store). A job is ``(game, run, index, attempt)``; running it
claims the decision, evaluates its position with ``domain.analysis`` and records the result, each a write
decided on the stream as it stands (a write that lost a race is decided again on the new stream). The sweep
(after every job, and on every read of an unfinished run) queues again the jobs of workers that died.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from hashlib import blake2b
from typing import Any, NamedTuple, Protocol
from uuid import UUID

from eventsourcing.persistence import IntegrityError

import domain
from domain.analysis import evaluate
from replay import analysis
from replay.analysis import Analysis, AnalysisEvent, Run
from replay.errors import AnalysisRunning, NothingToAnalyse
from replay.events import now
from replay.game import Game

logger = logging.getLogger("heronlog.analysis")

RACES = 20
"""Times a write that lost a race to another writer of the stream is decided again before giving up."""


class Job(NamedTuple):
    """One decision of one run: what a queue carries."""

    game_id: str
    run: int
    decision: int
    attempt: int


class Queue(Protocol):
    """Where jobs wait for a worker."""

    def send(self, jobs: Sequence[Job]) -> None:
        """Queue these jobs."""

    def waiting(self) -> list[Job]:
        """The jobs still in the queue (taken by no worker yet)."""


def worker_name() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def decision_seed(seed: int, index: int) -> int:
    """The evaluator's seed for one decision of a run."""
    digest = blake2b(f"{seed}:{index}".encode(), digest_size=6).digest()
    return int.from_bytes(digest, "little")


@dataclass(frozen=True)
class Settings:
    """How analyses are run: playouts per decision (the default, and the most a request may ask), the lease of a
    claim in seconds (a job's evaluation is cut at `TIME_SHARE` of it, so that a live worker never outlives it)."""

    playouts: int = 200
    max_playouts: int = 2000
    lease_seconds: float = 120.0


TIME_SHARE = 0.75
"""The part of a lease a job's evaluation may take (the rest covers reading the game and recording)."""


class Analyses:
    """A game's analysis, asked, run and read (see the module docstring)."""

    def __init__(self, log: Any, queue: Queue, settings: Settings | None = None) -> None:
        self.log = log
        self.queue = queue
        self.settings = settings or Settings()
        self.worker = worker_name()
        self.clock: Callable[[], datetime] = now

    # --- the stream ------------------------------------------------------------------------------------------

    def stream(self, game_id: UUID) -> Analysis:
        folded = self.log.stores.of(game_id).read(analysis.stream_id(game_id), analysis.project_analysis)
        return folded if isinstance(folded, Analysis) else analysis.empty(game_id)

    def _write(self, game_id: UUID, decide: Callable[[Analysis], AnalysisEvent | None]) -> Analysis:
        """Decide on the stream as it stands and save; decided again when another writer got there first. The
        stream after the write (or as it stood, when ``decide`` had nothing to write)."""
        store = self.log.stores.of(game_id)
        for _ in range(RACES):
            stream = self.stream(game_id)
            event = decide(stream)
            if event is None:
                return stream
            try:
                store.save(event)
            except IntegrityError:
                continue
            return analysis.mutate(event, stream)
        raise AnalysisRunning("the analysis is being written by many workers at once: try again", retry=True)

    # --- asking ----------------------------------------------------------------------------------------------

    def request(
        self, game: Game, *, actor: str, playouts: int | None = None, idempotency_key: str | None = None
    ) -> tuple[Run, bool]:
        """Start an analysis of the game as it stands, unless the same one is under way or done: the run, and
        whether it is new. One run at a time per game: asking while another version's run is unfinished is
        ``409 analysis_running``."""
        budget = playouts or self.settings.playouts
        created: list[bool] = []

        def decide(stream: Analysis) -> AnalysisEvent | None:
            created.clear()
            if idempotency_key and idempotency_key in stream.keys and stream.run is not None:
                return None
            run = stream.run
            fresh = run is not None and analysis.stale(run, game) is None
            if (
                fresh
                and run is not None
                and run.line == len(game.line)
                and not (run.finished and run.failures)
            ):
                return None  # this very line is analysed already, or being analysed: the same answer
            if fresh and run is not None and not run.finished:
                raise AnalysisRunning(
                    f"an analysis of version {run.game_version} is under way ({len(run.evaluations)} of "
                    f"{run.total} decisions): one analysis runs at a time per game",
                    run=run.number,
                    game_version=run.game_version,
                )
            event = analysis.request(
                stream,
                game,
                playouts=budget,
                seed=int.from_bytes(os.urandom(6), "little"),
                actor=actor,
                idempotency_key=idempotency_key,
            )
            if not event.decisions:
                raise NothingToAnalyse("this game has no decision yet: no move was chosen by a player")
            created.append(True)
            return event

        stream = self._write(game.id, decide)
        assert stream.run is not None
        if created:
            self.queue.send(
                [Job(str(game.id), stream.run.number, int(d["index"]), 1) for d in stream.run.decisions]
            )
        return stream.run, bool(created)

    # --- running a job ---------------------------------------------------------------------------------------

    def run_job(self, job: Job) -> str:
        """Run one decision's job; what became of it: ``evaluated``, or why it was left (``done`` already,
        ``held`` by a live claim, ``superseded`` by a newer run, ``failed``)."""
        game_id = UUID(job.game_id)
        lease = self.settings.lease_seconds
        outcome: list[str] = []

        def decide_claim(stream: Analysis) -> AnalysisEvent | None:
            outcome.clear()
            run = stream.run
            if run is None or run.number != job.run:
                outcome.append("superseded")
            elif job.decision in run.evaluations or job.decision in run.failures:
                outcome.append("done")
            elif run.leased(job.decision, self.clock()):
                outcome.append("held")
            else:
                return analysis.claim(
                    stream, job.run, job.decision, attempt=job.attempt, worker=self.worker, lease=lease
                )
            return None

        stream = self._write(game_id, decide_claim)
        if outcome:
            return outcome[0]
        run = stream.run
        assert run is not None
        try:
            evaluation, cpu = self._evaluate(game_id, run, job.decision, lease * TIME_SHARE)
        except (domain.DomainError, IndexError, KeyError) as error:
            logger.warning(
                "decision %s of game %s could not be evaluated: %s", job.decision, job.game_id, error
            )
            reason = str(error)
            self._write(
                game_id,
                lambda s: _unless_done(s, job, lambda: analysis.fail(s, job.run, job.decision, reason)),
            )
            return "failed"

        def decide_record(stream: Analysis) -> AnalysisEvent | None:
            return _unless_done(
                stream,
                job,
                lambda: analysis.record(
                    stream, job.run, job.decision, evaluation=evaluation, worker=self.worker, cpu=cpu
                ),
            )

        stream = self._write(game_id, decide_record)
        self.sweep(game_id, stream)
        return "evaluated"

    def _evaluate(self, game_id: UUID, run: Run, index: int, seconds: float) -> tuple[dict[str, Any], float]:
        game = self.log.get_game(game_id, run.game_version)
        position = game.state_after(index - 1)
        played = game.records[game.line[index - 1]].move
        started = time.process_time()
        result = evaluate(
            position,
            playouts=run.playouts,
            seconds=seconds,
            clock=time.monotonic,
            seed=decision_seed(run.seed, index),
            keep=[played],
        )
        cpu = time.process_time() - started
        body = result.to_dict()
        for value in body["moves"]:
            value["words"] = domain.describe(position, value["move"])
        found = result.of(played)
        body["played"] = None if found is None else result.moves.index(found)
        return body, cpu

    # --- the sweep -------------------------------------------------------------------------------------------

    def sweep(self, game_id: UUID, stream: Analysis | None = None) -> int:
        """Queue again the jobs of the decisions whose worker died (see :func:`replay.analysis.lost`), and of
        those no job stands for any more; how many were sent."""
        stream = stream or self.stream(game_id)
        run = stream.run
        if run is None or run.finished:
            return 0
        at = self.clock()
        candidates = analysis.lost(run, at)
        if not candidates and analysis.stalled(run, 0, at):  # only then is the queue worth reading
            ours = (str(game_id), run.number)
            queued = sum(1 for job in self.queue.waiting() if (job.game_id, job.run) == ours)
            candidates = analysis.stalled(run, queued, at)
        sent = 0
        for index in candidates:
            job = self._requeue(game_id, run, index)
            if job is not None:
                logger.warning(
                    "decision %s of game %s is queued again (attempt %s)", index, game_id, job.attempt
                )
                self.queue.send([job])
                sent += 1
        return sent

    def _requeue(self, game_id: UUID, run: Run, index: int) -> Job | None:
        """Record that a lost decision's job is sent again (or that the decision is given up): the job to send,
        or None when another sweep, or a worker, got there first."""
        resent: list[Job] = []

        def decide(stream: Analysis) -> AnalysisEvent | None:
            resent.clear()
            now_run = stream.run
            if now_run is None or now_run.number != run.number or index not in now_run.open_decisions():
                return None
            if now_run.leased(index, self.clock()) or now_run.attempts(index) != run.attempts(index):
                return None  # a worker holds it, or another sweep queued it again meanwhile
            moved = now_run.claims != run.claims or len(now_run.evaluations) != len(run.evaluations)
            if moved and index not in analysis.lost(now_run, self.clock()):
                return None  # a worker took or finished a decision since the sweep looked: it is not stalled
            event = analysis.requeue(stream, now_run, index)
            if isinstance(event, analysis.DecisionRequeued):
                resent.append(Job(str(game_id), run.number, index, event.attempt))
            return event

        self._write(game_id, decide)
        return resent[0] if resent else None


def _unless_done(stream: Analysis, job: Job, make: Callable[[], AnalysisEvent]) -> AnalysisEvent | None:
    """The write of a job's end, unless its decision has an end already (recorded once: nothing counted twice),
    or its run was replaced by a newer one."""
    run = stream.run
    if (
        run is None
        or run.number != job.run
        or job.decision in run.evaluations
        or job.decision in run.failures
    ):
        return None
    return make()
