"""Successive halving's schedule and the estimates' arithmetic."""

from __future__ import annotations

import math

from domain.analysis import estimates, pruning


def test_rounds_halve_the_moves_down_to_one() -> None:
    assert [pruning.round_count(k) for k in (1, 2, 3, 4, 5, 8, 9)] == [1, 1, 2, 2, 3, 3, 4]


def test_each_round_shares_what_is_left_equally_with_at_least_two_playouts_first() -> None:
    assert pruning.share(200, 3, 6, first=True) == 11
    assert pruning.share(10, 3, 6, first=True) == 2
    assert pruning.share(10, 2, 6, first=False) == 1


def test_the_better_half_goes_on_with_every_move_kept() -> None:
    values = {0: 5.0, 1: 1.0, 2: 3.0, 3: -2.0, 4: 4.0}
    assert pruning.halve(list(values), values.__getitem__) == [0, 2, 4]
    assert pruning.halve(list(values), values.__getitem__, kept={3}) == [0, 2, 3, 4]


def test_a_standard_error_is_the_deviation_over_the_root_of_the_count() -> None:
    values = [1.0, 3.0, 5.0, 7.0]
    assert math.isclose(estimates.standard_error(values), math.sqrt(20 / 3 / 4))
    assert estimates.standard_error([4.0]) == 0.0


def test_a_share_of_no_wins_still_has_an_error() -> None:
    assert estimates.win_error(0, 50) > 0 and estimates.win_error(50, 50) > 0
    assert math.isclose(estimates.win_error(25, 50), math.sqrt(0.5 * 0.5 / 50))


def test_confidence_is_the_normal_probability_that_a_difference_is_above_zero() -> None:
    assert math.isclose(estimates.confidence(0.0, 1.0), 0.5)
    assert math.isclose(estimates.confidence(1.96, 1.0), 0.975, abs_tol=1e-3)
    assert estimates.confidence(2.0, 0.0) == 1.0
