"""The arithmetic of bench/bench_load.py's paced (open-loop) run and of its verdicts; no timing is measured."""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_load.py"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    """bench/bench_load.py, loaded from its file (the bench folder is not a package)."""
    spec = importlib.util.spec_from_file_location("bench_load", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_load"] = module
    spec.loader.exec_module(module)
    return module


def test_a_paced_client_is_scheduled_at_its_rate_whatever_the_answers_take(bench: ModuleType) -> None:
    pace = bench.Pace(start=100.0, rate=10.0, phase=0.03)
    assert [round(pace.slot(index), 6) for index in range(4)] == [100.03, 100.13, 100.23, 100.33]
    assert round(pace.slot(100) - pace.slot(0), 6) == 10.0, "100 moves every 10 s, however late any is sent"


def test_the_clients_starts_are_spread_evenly_over_one_interval(bench: ModuleType) -> None:
    phases = bench.Pace.phases(50, 10.0)
    assert len(phases) == 50 and phases[0] == 0.0
    assert all(0.0 <= phase < 0.1 for phase in phases)
    gaps = {round(later - earlier, 9) for earlier, later in itertools.pairwise(phases)}
    assert gaps == {0.002}, "500 moves/s offered by 50 clients: one every 2 ms"


def test_the_verdict_needs_both_the_throughput_and_the_p99(bench: ModuleType) -> None:
    def result(rate: float, latency: float) -> object:
        tally = bench.Tally()
        for _ in range(100):
            tally.add("move", latency)
        tally.moves = int(rate * 10)
        return bench.Result.merge([tally], 10.0)

    assert result(500, 0.020).rate == 500
    assert "**met**" in bench.verdict("paced", result(500, 0.020))
    assert "**NOT met**" in bench.verdict("paced", result(499, 0.020))
    assert "**NOT met**" in bench.verdict("paced", result(800, 0.051))
