"""What a move's playouts say, and how sure that is: means with their standard errors.

A playout ends in a score sheet; the evaluated seat's *margin* is its total minus the best total of the other
seats (positive: it won by that much), and it *won* when the sheet ranks it first (ties broken as the rules
break them, R-F09). Over n playouts the expected margin is their mean, with the standard error s / sqrt(n)
(s the sample deviation); the win probability is the share of wins, with the binomial standard error taken at
(wins + 1) / (n + 2), so that a share of 0 or 1 still owns its uncertainty.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from domain.scoring import score
from domain.state import GameState


@dataclass(frozen=True, slots=True)
class Outcome:
    """One playout's end, seen from every seat: the margins, and the seat ranked first."""

    margins: tuple[int, ...]
    winner: int


def outcome(final: GameState) -> Outcome:
    """The margins and the winner of a finished game."""
    sheets = score(final)
    totals = [sheet.total for sheet in sheets]
    margins = []
    for seat, total in enumerate(totals):
        others = [other for i, other in enumerate(totals) if i != seat]
        margins.append(total - max(others) if others else total)
    winner = next(sheet.seat for sheet in sheets if sheet.rank == 1)
    return Outcome(tuple(margins), winner)


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def standard_error(values: Sequence[float]) -> float:
    """s / sqrt(n), the sample deviation s with n - 1; 0 for fewer than two values (the evaluator never reports
    a move on fewer than two playouts)."""
    n = len(values)
    if n < 2:
        return 0.0
    centre = mean(values)
    return math.sqrt(sum((value - centre) ** 2 for value in values) / (n - 1) / n)


def win_error(wins: int, n: int) -> float:
    """The standard error of a share of wins, at the smoothed share (wins + 1) / (n + 2)."""
    if n == 0:
        return 0.5
    share = (wins + 1) / (n + 2)
    return math.sqrt(share * (1 - share) / n)


def confidence(difference: float, error: float) -> float:
    """The probability that a difference estimated as `difference` with standard error `error` is above 0, by
    the normal approximation (the estimate is a mean of many independent playouts)."""
    if error <= 0:
        return 1.0 if difference > 0 else 0.5 if difference == 0 else 0.0
    return 0.5 * (1 + math.erf(difference / error / math.sqrt(2)))
