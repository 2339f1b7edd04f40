"""A game's analysis as readers see it: progress, staleness, each decision's best move, its cost and its mark.

A decision is marked by what the move played cost against the best move found, in clan points of expected
final margin, when the evaluator is at least `MARK_CONFIDENCE` sure the best is really better: ``?!`` from 2 CP,
``?`` from 4, ``??`` from 8 (`MARKS`; docs/analysis.md). Each decision also carries the annotation the replay
page's "Annotate this" offers: the best move, the move played and what it cost, in words, with the mark.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from replay.analysis import Analysis, Run, stale
from replay.game import Game

MARKS: tuple[tuple[str, float], ...] = (("??", 8.0), ("?", 4.0), ("?!", 2.0))
"""Glyph and the least cost (CP of expected final margin) that earns it, worst first."""
MARK_CONFIDENCE = 0.9
"""How sure the evaluator must be that the best move is better than the move played, for a mark."""


def mark(cost: float, confidence: float | None) -> str | None:
    """The glyph a move played earns, or None (the best move, a small cost, or a cost the playouts are not sure
    of)."""
    if confidence is None or confidence < MARK_CONFIDENCE:
        return None
    return next((glyph for glyph, least in MARKS if cost >= least), None)


def _signed(value: float) -> str:
    return f"{value:+.1f}"


def suggested_note(evaluation: Mapping[str, Any], glyph: str | None) -> str:
    """The annotation "Annotate this" offers for a decision, in words."""
    moves = evaluation["moves"]
    best = moves[0]
    text = (
        f"Computer analysis ({evaluation['playouts']} playouts): best was {best['words']}, expected margin "
        f"{_signed(best['margin'])} ± {best['margin_se']:.1f} CP, won {best['win']:.0%} of its playouts."
    )
    played = evaluation.get("played")
    if played is None:
        return text
    if played == 0:
        return text + " That is the move played."
    move = moves[played]
    sure = f"{move['confidence']:.0%}" if move["confidence"] is not None else "—"
    return (
        text + f" The move played, {move['words']}, costs {move['cost']:.1f} ± {move['cost_se']:.1f} CP "
        f"(the best is better with probability {sure})" + (f": {glyph}" if glyph else ".")
    )


def _move_view(value: Mapping[str, Any]) -> dict[str, Any]:
    return {
        key: value[key]
        for key in (
            "move",
            "words",
            "playouts",
            "margin",
            "margin_se",
            "win",
            "win_se",
            "cost",
            "cost_se",
            "confidence",
            "seats",
        )
    }


def decision_view(game: Game, decision: Mapping[str, Any], run: Run) -> dict[str, Any]:
    index = int(decision["index"])
    seat = int(decision["seat"])
    players = game.setup.get("players") or []
    evaluation = run.evaluations.get(index)
    view: dict[str, Any] = {
        "index": index,
        "version": int(decision["version"]),
        "seat": seat,
        "player": str(players[seat]["name"]) if seat < len(players) else f"seat {seat + 1}",
        "status": "evaluated" if evaluation else "failed" if index in run.failures else "waiting",
        "failure": run.failures.get(index),
        "playouts": None,
        "best": None,
        "played": None,
        "mark": None,
        "moves": [],
        "note": None,
    }
    if evaluation is None:
        return view
    moves = [_move_view(value) for value in evaluation["moves"]]
    played_at = evaluation.get("played")
    played = moves[played_at] if played_at is not None else None
    glyph = mark(played["cost"], played["confidence"]) if played is not None else None
    view.update(
        playouts=evaluation["playouts"],
        best=moves[0],
        played=played,
        mark=glyph,
        moves=moves,
        note={"text": suggested_note(evaluation, glyph), "glyph": glyph},
    )
    return view


def report(
    game: Game, stream: Analysis, *, running: int | None = None, at: datetime | None = None
) -> dict[str, Any]:
    """The analysis of ``game`` as ``GET /api/games/{id}/analysis`` answers it."""
    run = stream.run
    thresholds = [{"glyph": glyph, "cost": least} for glyph, least in MARKS]
    base: dict[str, Any] = {
        "game_id": str(game.id),
        "status": "none",
        "stale": None,
        "marks": thresholds,
        "mark_confidence": MARK_CONFIDENCE,
        "run": None,
        "decisions": [],
    }
    if run is None:
        return base
    evaluated, failed = len(run.evaluations), len(run.failures)
    held = sum(1 for index in run.open_decisions() if at is not None and run.leased(index, at))
    base.update(
        status="finished" if run.finished else "running",
        stale=stale(run, game),
        run={
            "number": run.number,
            "game_version": run.game_version,
            "rules_version": run.rules_version,
            "evaluator": run.evaluator,
            "playouts": run.playouts,
            "requested_by": run.actor,
            "requested_on": run.requested_on.isoformat(),
            "moves_covered": run.line,
            "moves_now": len(game.line),
            "total": run.total,
            "evaluated": evaluated,
            "failed": failed,
            "running": held if running is None else running,
            "cpu_seconds": round(run.cpu_seconds, 3),
        },
        decisions=[decision_view(game, decision, run) for decision in run.decisions],
    )
    return base
