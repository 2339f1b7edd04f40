"""Computer analysis of a position: what each legal move is worth to the seat to move, by playouts.

`evaluate(state, playouts=200, seed=0)` returns an `Evaluation`: every legal move with its expected final
margin (the seat's total minus the best other total) and win probability, each with its standard error, the
best move first, and for every other move what it costs against the best and how sure that is. Pure and
seeded like the rest of the engine: the same position, budget and seed give the same figures.

    >>> import domain
    >>> from domain.analysis import evaluate
    >>> state = domain.new_game(2, seed=7)
    >>> evaluation = evaluate(state, playouts=8, seed=1)
    >>> evaluation.best.move["kind"], evaluation.playouts >= 8
    ('choose_start', True)
    >>> evaluation == evaluate(state, playouts=8, seed=1)
    True

`policy` is how the playouts play, `estimates` the statistics, `pruning` the successive halving; the figures'
meaning and accuracy are on docs/analysis.md.
"""

from __future__ import annotations

from domain.analysis.evaluator import EVALUATOR_VERSION, Evaluation, MoveValue, NothingToEvaluate, evaluate

__all__ = ["EVALUATOR_VERSION", "Evaluation", "MoveValue", "NothingToEvaluate", "evaluate"]
