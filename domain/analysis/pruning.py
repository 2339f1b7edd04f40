"""Successive halving (Karnin, Koren and Somekh, "Almost optimal exploration in multi-armed bandits", 2013): the
playout budget goes to the moves still in contention.

The budget is split over ceil(log2 k) rounds for k legal moves. Each round gives every move still in play an
equal share of its part; then the better half (by expected margin) goes on and the others stop there. A move
that a caller wants judged well (the move really played, when a game is analysed) is kept to the end. Every
move gets at least `FIRST_ROUND_MINIMUM` playouts, so that each estimate has an error.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence

FIRST_ROUND_MINIMUM = 2
"""Playouts every legal move gets in the first round, whatever the budget (a standard error needs two)."""


def round_count(candidates: int) -> int:
    """How many rounds halve `candidates` moves down to one (one round for a lone move)."""
    return max(1, math.ceil(math.log2(candidates))) if candidates > 1 else 1


def share(budget_left: int, rounds_left: int, in_play: int, first: bool) -> int:
    """Playouts for each move in play this round: an equal part of what is left, at least one (two in the first
    round)."""
    part = budget_left // max(1, rounds_left) // max(1, in_play)
    return max(FIRST_ROUND_MINIMUM if first else 1, part)


def halve(in_play: Sequence[int], value: Callable[[int], float], kept: Collection[int] = ()) -> list[int]:
    """The moves that go on: the better half by `value` (rounded up), and every move of `kept` still in play."""
    ranked = sorted(in_play, key=lambda move: -value(move))
    going_on = ranked[: math.ceil(len(ranked) / 2)]
    going_on += [move for move in ranked if move in kept and move not in going_on]
    return sorted(going_on)
