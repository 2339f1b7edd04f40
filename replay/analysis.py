"""A game's computer analysis, in a stream of its own: what was asked, which worker took each decision, what each
decision was worth.

Like annotations, each game's analysis lives in its own stream (id derived from the game's id), never in the
game's: analysing never changes the game's version, and the stream keeps every run. An analysis (a *run*) is
asked for a version of the game and covers every decision of its line (a move a player chose; chance and the
solo rival's automatic turns are not decisions). Each decision is one job (:mod:`replay.analysis_jobs`): a
worker claims it (`DecisionStarted`, with a lease), evaluates it (``domain.analysis``) and records the result
(`DecisionEvaluated`). Writes are decided on the stream as it stands and saved at its next version, so two
writers never both succeed: a result already recorded is never recorded again (nothing counted twice), and a
claim held by a live lease is not taken over. A claim whose lease ran out with no result is a worker that died:
the job is queued again (`DecisionRequeued`), up to `MAX_ATTEMPTS` times (`DecisionFailed` after that).

A run is stored with the game version, the rules version and the evaluator version it was computed for, and a
fingerprint of the line it analysed: a correction or an undo changes that line, and the run is then *stale*.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import singledispatch
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import domain
from domain.analysis import EVALUATOR_VERSION
from replay.events import DomainEvent, now
from replay.game import Game

MAX_ATTEMPTS = 3
"""Claims of one decision before it is given up (`DecisionFailed`): a job that kills its worker every time."""
GRACE_SECONDS = 5.0
"""A decision claimed or queued again this recently is not looked at by the sweep (its job is on its way)."""


def stream_id(game_id: UUID) -> UUID:
    """The analysis stream's id, derived from the game's id."""
    return uuid5(NAMESPACE_URL, f"heronlog:analysis:{game_id}")


# --- the events ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AnalysisRequested(DomainEvent):
    """An analysis of the game at ``game_version`` was asked for: a new run, numbered by this event's version.
    ``decisions`` lists each decision of the line then (``index`` along the line from 1, the move's game
    ``version``, the ``seat`` that chose); ``fingerprint`` is the line's (:func:`fingerprint`); ``playouts`` the
    budget per decision and ``seed`` the evaluator's seed (each decision's is derived from it)."""

    game_id: str
    game_version: int
    rules_version: str
    evaluator: str
    decisions: list[dict[str, Any]]
    line: int
    fingerprint: str
    playouts: int
    seed: int
    actor: str
    idempotency_key: str | None


@dataclass(frozen=True)
class DecisionStarted(DomainEvent):
    """A worker claimed a decision of a run: nobody else takes it until ``lease_seconds`` after the event."""

    run: int
    index: int
    attempt: int
    worker: str
    lease_seconds: float


@dataclass(frozen=True)
class DecisionEvaluated(DomainEvent):
    """A decision's evaluation (``domain.analysis.Evaluation.to_dict`` with each move's words), recorded once."""

    run: int
    index: int
    evaluation: dict[str, Any]
    worker: str
    cpu_seconds: float


@dataclass(frozen=True)
class DecisionRequeued(DomainEvent):
    """A decision's claim ran out with no result (its worker died): its job was queued again."""

    run: int
    index: int
    attempt: int


@dataclass(frozen=True)
class DecisionFailed(DomainEvent):
    """A decision was given up: `MAX_ATTEMPTS` claims ended with no result, or it could not be evaluated."""

    run: int
    index: int
    reason: str


AnalysisEvent = AnalysisRequested | DecisionStarted | DecisionEvaluated | DecisionRequeued | DecisionFailed


# --- the fold -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Claim:
    """The latest claim of a decision: its attempt, worker, and when its lease ends."""

    attempt: int
    worker: str
    until: datetime


@dataclass(frozen=True)
class Run:
    """One analysis of a game: what was asked (see `AnalysisRequested`) and how far it has come."""

    number: int
    game_version: int
    rules_version: str
    evaluator: str
    decisions: tuple[Mapping[str, Any], ...]
    line: int
    fingerprint: str
    playouts: int
    seed: int
    actor: str
    requested_on: datetime
    evaluations: Mapping[int, Mapping[str, Any]] = field(default_factory=dict)
    failures: Mapping[int, str] = field(default_factory=dict)
    claims: Mapping[int, Claim] = field(default_factory=dict)
    requeued: Mapping[int, tuple[int, datetime]] = field(default_factory=dict)
    """Decisions queued again: the attempt queued, and when."""
    cpu_seconds: float = 0.0
    last_change: datetime | None = None
    """When the latest event about this run was decided (None: only its request)."""

    @property
    def total(self) -> int:
        return len(self.decisions)

    @property
    def finished(self) -> bool:
        return len(self.evaluations) + len(self.failures) >= self.total

    def open_decisions(self) -> list[int]:
        """The decisions with neither a result nor a failure, in line order."""
        return [
            int(d["index"])
            for d in self.decisions
            if d["index"] not in self.evaluations and d["index"] not in self.failures
        ]

    def decision(self, index: int) -> Mapping[str, Any] | None:
        return next((d for d in self.decisions if d["index"] == index), None)

    def attempts(self, index: int) -> int:
        """Jobs of this decision sent so far: the first, and each queued again."""
        requeued = self.requeued.get(index)
        claim = self.claims.get(index)
        return max(1, requeued[0] if requeued else 1, claim.attempt if claim else 1)

    def leased(self, index: int, at: datetime) -> bool:
        """Whether a worker's claim of this decision still holds at ``at``."""
        claim = self.claims.get(index)
        return claim is not None and claim.until > at


@dataclass(frozen=True)
class Analysis:
    """The fold of a game's analysis stream: its latest run, and the runs asked with an Idempotency-Key."""

    id: UUID
    version: int
    game_id: str
    run: Run | None = None
    keys: Mapping[str, int] = field(default_factory=dict)


def empty(game_id: UUID) -> Analysis:
    return Analysis(id=stream_id(game_id), version=0, game_id=str(game_id))


@singledispatch
def mutate(event: DomainEvent, stream: Analysis | None) -> Analysis:
    raise TypeError(f"not an analysis event: {type(event).__name__}")


@mutate.register
def _requested(event: AnalysisRequested, stream: Analysis | None) -> Analysis:
    base = stream or Analysis(id=event.originator_id, version=0, game_id=event.game_id)
    run = Run(
        number=event.originator_version,
        game_version=event.game_version,
        rules_version=event.rules_version,
        evaluator=event.evaluator,
        decisions=tuple(event.decisions),
        line=event.line,
        fingerprint=event.fingerprint,
        playouts=event.playouts,
        seed=event.seed,
        actor=event.actor,
        requested_on=event.timestamp,
    )
    keys = {**base.keys, event.idempotency_key: run.number} if event.idempotency_key else base.keys
    return replace(base, version=event.originator_version, run=run, keys=keys)


def _on_run(stream: Analysis | None, event: Any, **changes: Any) -> Analysis:
    """The stream after an event about a run: the run changed when it is the latest (an event about an
    earlier run only advances the version)."""
    assert stream is not None
    run = stream.run
    if run is None or run.number != event.run:
        return replace(stream, version=event.originator_version)
    changed = replace(run, **changes, last_change=event.timestamp)
    return replace(stream, version=event.originator_version, run=changed)


@mutate.register
def _started(event: DecisionStarted, stream: Analysis | None) -> Analysis:
    claims = dict(stream.run.claims) if stream and stream.run else {}
    until = event.timestamp + timedelta(seconds=event.lease_seconds)
    claims[event.index] = Claim(event.attempt, event.worker, until)
    return _on_run(stream, event, claims=claims)


@mutate.register
def _evaluated(event: DecisionEvaluated, stream: Analysis | None) -> Analysis:
    run = stream.run if stream else None
    evaluations = {**(run.evaluations if run else {}), event.index: event.evaluation}
    cpu = (run.cpu_seconds if run else 0.0) + event.cpu_seconds
    return _on_run(stream, event, evaluations=evaluations, cpu_seconds=cpu)


@mutate.register
def _requeued(event: DecisionRequeued, stream: Analysis | None) -> Analysis:
    run = stream.run if stream else None
    requeued = {**(run.requeued if run else {}), event.index: (event.attempt, event.timestamp)}
    return _on_run(stream, event, requeued=requeued)


@mutate.register
def _failed(event: DecisionFailed, stream: Analysis | None) -> Analysis:
    run = stream.run if stream else None
    return _on_run(stream, event, failures={**(run.failures if run else {}), event.index: event.reason})


def project_analysis(stream: Analysis | None, events: Iterable[Any]) -> Analysis | None:
    for event in events:
        stream = mutate(event, stream)
    return stream


# --- deciding -----------------------------------------------------------------------------------------------


def fingerprint(game: Game, moves: int) -> str:
    """A digest of the first ``moves`` moves of the line, each with its chance outcomes: a correction, an undo
    or a chance outcome drawn again changes it."""
    digest = hashlib.blake2b(digest_size=12)
    for version in game.line[:moves]:
        record = game.records[version]
        digest.update(json.dumps([record.move, list(record.chance)], sort_keys=True).encode())
    return digest.hexdigest()


def decisions_of(game: Game) -> list[dict[str, Any]]:
    """Each decision of the line: a move whose prompt waited on a player (not chance, not an automatic seat)."""
    found = []
    game = game.with_states_from_start()
    for index, version in enumerate(game.line, start=1):
        before = game.states[index - 1]
        seat = domain.coordinates(before).seat
        if seat is None or not before.stack or domain.is_automatic(before, seat):
            continue
        if game.records[version].seat is None:
            continue
        found.append({"index": index, "version": version, "seat": seat})
    return found


def request(
    stream: Analysis,
    game: Game,
    *,
    playouts: int,
    seed: int,
    actor: str,
    idempotency_key: str | None,
) -> AnalysisRequested:
    """A new run over every decision of the game's line as it stands."""
    return AnalysisRequested(
        originator_id=stream.id,
        originator_version=stream.version + 1,
        timestamp=now(),
        game_id=str(game.id),
        game_version=game.version,
        rules_version=game.rules_version,
        evaluator=EVALUATOR_VERSION,
        decisions=decisions_of(game),
        line=len(game.line),
        fingerprint=fingerprint(game, len(game.line)),
        playouts=playouts,
        seed=seed,
        actor=actor,
        idempotency_key=idempotency_key,
    )


def stale(run: Run, game: Game) -> str | None:
    """Why a run no longer describes the game's line (None while it does): the line it analysed was changed
    (a correction, an undo), or the game moved to other rules."""
    if game.rules_version != run.rules_version:
        return (
            f"the game is now played under rules {game.rules_version}, the analysis under {run.rules_version}"
        )
    if len(game.line) < run.line or fingerprint(game, run.line) != run.fingerprint:
        return "moves analysed were corrected or undone since: ask for a new analysis"
    return None


def claim(
    stream: Analysis, run: int, index: int, *, attempt: int, worker: str, lease: float
) -> DecisionStarted:
    return DecisionStarted(
        originator_id=stream.id,
        originator_version=stream.version + 1,
        timestamp=now(),
        run=run,
        index=index,
        attempt=attempt,
        worker=worker,
        lease_seconds=lease,
    )


def record(
    stream: Analysis, run: int, index: int, *, evaluation: Mapping[str, Any], worker: str, cpu: float
) -> DecisionEvaluated:
    return DecisionEvaluated(
        originator_id=stream.id,
        originator_version=stream.version + 1,
        timestamp=now(),
        run=run,
        index=index,
        evaluation=dict(evaluation),
        worker=worker,
        cpu_seconds=round(cpu, 4),
    )


def lost(run: Run, at: datetime) -> list[int]:
    """The open decisions whose latest claim ran out with no result: their worker died (or was stopped) while
    it held them. A decision claimed or queued again within `GRACE_SECONDS` is left alone."""
    found = []
    for index in run.open_decisions():
        claim_of = run.claims.get(index)
        if claim_of is None or claim_of.until > at:
            continue
        requeued = run.requeued.get(index)
        if requeued is not None and requeued[0] > claim_of.attempt:
            continue  # queued again after that claim: the new job has not claimed it yet
        found.append(index)
    return found


def stalled(run: Run, queued: int, at: datetime) -> list[int]:
    """The open decisions of a run that nothing moves any more: no job of it waits in the queue, no worker holds
    any of its decisions, and nothing happened to it for `GRACE_SECONDS` (a job taken from the queue by a worker
    that died before it could claim its decision leaves exactly this)."""
    if queued or any(run.leased(index, at) for index in run.open_decisions()):
        return []
    if at - (run.last_change or run.requested_on) < timedelta(seconds=GRACE_SECONDS):
        return []
    return run.open_decisions()


def requeue(stream: Analysis, run: Run, index: int) -> DecisionRequeued | DecisionFailed:
    """The job of a lost decision sent again, or the decision given up after `MAX_ATTEMPTS` attempts."""
    attempt = run.attempts(index) + 1
    version, at = stream.version + 1, now()
    if attempt > MAX_ATTEMPTS:
        reason = f"its job was sent {MAX_ATTEMPTS} times and no worker finished it"
        return DecisionFailed(stream.id, version, at, run=run.number, index=index, reason=reason)
    return DecisionRequeued(stream.id, version, at, run=run.number, index=index, attempt=attempt)


def fail(stream: Analysis, run: int, index: int, reason: str) -> DecisionFailed:
    return DecisionFailed(
        originator_id=stream.id,
        originator_version=stream.version + 1,
        timestamp=now(),
        run=run,
        index=index,
        reason=reason,
    )
