"""Computer analysis over HTTP: a game's whole line as jobs on the task queue, and one position for bots.

* ``POST /api/games/{id}/analysis`` (the owner or a seat token; ``If-Match`` the version to analyse): every
  decision of the line becomes a job for the workers (:mod:`replay.analysis_jobs`). Asking again for the same
  line answers the analysis under way or done (``200``); a new one is ``202``. One analysis runs at a time per
  game (``409 analysis_running``).
* ``GET /api/games/{id}/analysis``: how far it has come, and every decision evaluated so far, with its marks
  (:mod:`replay.analysis_report`). It also queues again the jobs of workers that died.
* ``POST /api/analyse``: the moves of one position evaluated within a budget, in this request. It is counted
  like an import: by client address, one write per ``ANALYSE_PLAYOUTS_PER_WRITE`` playouts, and a process
  runs ``ANALYSES_AT_ONCE`` of them at once (``503 too_many_analyses``).
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any
from uuid import UUID

from flask import Flask, current_app
from flask.views import MethodView

import domain
from api.resources import write_guard
from api.resources.analysis_schemas import (
    AnalyseRequestSchema,
    AnalysisRequestSchema,
    AnalysisSchema,
    EvaluationSchema,
)
from api.resources.context import EXTENSION as CONTEXT
from api.resources.context import expected_version, idempotency_key, reader, writer
from api.resources.errors import ApiError
from api.resources.openapi import IDEMPOTENCY_KEY, OPEN_WRITE, READ, WRITE, Blueprint, errors
from api.resources.write_guard import Admitted, counted
from domain.analysis import NothingToEvaluate, evaluate
from replay import analysis_report
from replay.analysis_jobs import Analyses
from replay.analysis_queue import analyses_for, start_local_workers
from replay.config import ConfigError
from replay.errors import AnalysisUnavailable, StaleVersion

EXTENSION = "heronlog.analysis"
SLOTS = "heronlog.analysis_slots"

blp = Blueprint(
    "analysis",
    __name__,
    url_prefix="/api",
    description="Computer analysis: what each move of a game was worth, computed by workers on the task queue; "
    "and one position's moves evaluated for bots.",
)
BEARER: list[dict[str, list[str]]] = [{"bearerAuth": []}]


class LazyAnalyses:
    """The analysis service of this process, built on first use over the app's game log."""

    def __init__(self, app: Flask) -> None:
        self._app = app
        self._lock = threading.Lock()
        self._built: Analyses | None = None

    def get(self) -> Analyses:
        with self._lock:
            if self._built is None:
                log = self._app.extensions[CONTEXT].get().log
                playouts = int(self._app.config["ANALYSIS_PLAYOUTS"])
                try:
                    self._built = analyses_for(self._app.config["STORE"], os.environ, log, playouts)
                except ConfigError as error:  # a deployment without a queue still records and streams
                    raise AnalysisUnavailable(f"analyses are not available here: {error}") from None
            return self._built


def install(app: Flask) -> None:
    """Register the service's box and the bots' analysis slots on the app (``create_app`` calls it)."""
    app.extensions[EXTENSION] = LazyAnalyses(app)
    app.extensions[SLOTS] = write_guard.ImportSlots(int(app.config["ANALYSES_AT_ONCE"]))


def analyses() -> Analyses:
    box: LazyAnalyses = current_app.extensions[EXTENSION]
    return box.get()


def analysis_progress(game_id: UUID) -> Callable[[], dict[str, Any] | None] | None:
    """How far the game's analysis has come, asked again at each look of an event stream; None when no
    analysis of the game is under way (nothing to follow), or none can run on this deployment."""
    try:
        service = analyses()
    except AnalysisUnavailable:
        return None
    stream = service.stream(game_id)
    if stream.run is None or stream.run.finished:
        return None

    def progress() -> dict[str, Any] | None:
        run = service.stream(game_id).run
        if run is None:
            return None
        return {
            "run": run.number,
            "status": "finished" if run.finished else "running",
            "evaluated": len(run.evaluations),
            "failed": len(run.failures),
            "total": run.total,
        }

    return progress


def _local_workers() -> None:
    """On the SQLite store, make sure its local workers run (a child process of the server, started once)."""
    start_local_workers(current_app.config["STORE"], os.environ)


@blp.route("/games/<uuid:game_id>/analysis")
class GameAnalysis(MethodView):
    @errors(blp, *READ)
    @blp.doc(security=[*BEARER, {}])
    @blp.response(200, AnalysisSchema)
    def get(self, game_id: UUID) -> Any:
        """The game's analysis.

        Its progress, and each decision evaluated so far (best move, the move played, what it cost, its mark).
        `stale` says why it no longer fits the game (a correction, an undo)."""
        game, _ = reader(game_id)
        service = analyses()
        stream = service.stream(game_id)
        if stream.run is not None and not stream.run.finished:
            service.sweep(game_id, stream)
            _local_workers()
            stream = service.stream(game_id)
        body = analysis_report.report(game, stream, at=service.clock())
        return body, 200, {"Cache-Control": "no-store"}

    @counted
    @errors(blp, *WRITE)
    @blp.doc(security=BEARER, parameters=[IDEMPOTENCY_KEY])
    @blp.arguments(AnalysisRequestSchema, error_status_code=400)
    @blp.response(202, AnalysisSchema)
    @blp.alt_response(
        200, schema=AnalysisSchema, description="this line's analysis, under way or done already"
    )
    def post(self, body: Mapping[str, Any], game_id: UUID, admitted: Admitted) -> Any:
        """Ask for a computer analysis of the game as it stands.

        `If-Match` names its version. One job per decision, taken by the workers. Asking again for the same
        line answers that analysis (200); a new one is 202. One analysis runs at a time per game: another while
        one of an earlier version runs is `409 analysis_running`."""
        game, grant = writer(game_id, ahead=admitted.ahead)
        expected = expected_version(body, game.version)
        if expected is not None and expected != game.version:
            raise StaleVersion(expected, game.version)
        service = analyses()
        _, created = service.request(
            game, actor=grant.actor, playouts=body.get("playouts"), idempotency_key=idempotency_key()
        )
        _local_workers()
        report = analysis_report.report(game, service.stream(game_id), at=service.clock())
        headers = {"Location": f"/api/games/{game_id}/analysis", "Cache-Control": "no-store"}
        return report, 202 if created else 200, headers


@contextlib.contextmanager
def _slot() -> Iterator[None]:
    slots: write_guard.ImportSlots = current_app.extensions[SLOTS]
    try:
        with slots.held():
            yield
    except ApiError as error:
        if error.code != "too_many_imports":
            raise
        raise ApiError(
            "too_many_analyses",
            f"this server evaluates {slots.capacity} position(s) at a time and is busy: try again in a few "
            "seconds",
            headers={"Retry-After": "2"},
            retry_after=2,
            at_once=slots.capacity,
        ) from None


ANALYSE_KEY = {
    **IDEMPOTENCY_KEY,
    "description": "1 to 200 printable characters, checked as every write's: this request writes nothing, and the "
    "same body with the same seed is answered with the same figures, so a retry is safe with or without it",
}


@blp.route("/analyse")
class Analyse(MethodView):
    @errors(blp, *OPEN_WRITE, 422)
    @blp.doc(security=[{}], parameters=[ANALYSE_KEY])
    @blp.arguments(AnalyseRequestSchema, error_status_code=400)
    @blp.response(200, EvaluationSchema)
    def post(self, body: Mapping[str, Any]) -> Any:
        """Evaluate every legal move of a position, for the seat to move.

        Within a budget: `playouts` in all (at most `ANALYSE_MAX_PLAYOUTS`) and `seconds` (at most
        `ANALYSE_MAX_SECONDS`). Counted like an import: one write of the client address per
        `ANALYSE_PLAYOUTS_PER_WRITE` playouts."""
        config = current_app.config
        playouts = min(int(body["playouts"]), int(config["ANALYSE_MAX_PLAYOUTS"]))
        seconds = min(
            float(body["seconds"] or config["ANALYSE_MAX_SECONDS"]), float(config["ANALYSE_MAX_SECONDS"])
        )
        per_write = max(1, int(config["ANALYSE_PLAYOUTS_PER_WRITE"]))
        write_guard.weigh(
            -(-playouts // per_write),
            "writes for this analysis (it weighs one per ANALYSE_PLAYOUTS_PER_WRITE)",
        )
        state = _position(body)
        with _slot():
            try:
                result = evaluate(
                    state, playouts=playouts, seconds=seconds, clock=time.monotonic, seed=body["seed"]
                )
            except NothingToEvaluate:
                raise
            except domain.DomainError as error:
                raise ApiError(
                    "invalid_position", f"this position cannot be played on: {error.message}"
                ) from None
            except Exception as error:  # a client's state the engine cannot play on: its fault, never a 500
                raise ApiError(
                    "invalid_position", f"this position cannot be played on ({type(error).__name__})"
                ) from None
        answer = result.to_dict()
        for value in answer["moves"]:
            value["words"] = domain.describe(state, value["move"])
        answer["seconds"] = seconds
        return answer


def _position(body: Mapping[str, Any]) -> domain.GameState:
    data = dict(body["position"])
    if "catalog" not in data:
        if body.get("catalog") is None:
            raise ApiError(
                "invalid_position",
                "the position has no catalog: send the game's catalog beside it (GET /api/games/{id}/catalog)",
            )
        data["catalog"] = body["catalog"]
    try:
        return domain.state_from_dict(data)
    except domain.DomainError as error:
        raise ApiError("invalid_position", error.message) from None
    except Exception as error:  # arbitrary JSON that is no state: the client's fault
        raise ApiError("invalid_position", f"not a heronlog game state ({type(error).__name__})") from None
