"""The arithmetic of bench/bench_load.py's paced (open-loop) run and of its verdicts; no timing is measured."""

from __future__ import annotations

import itertools
import os
import signal
import time
import uuid
from pathlib import Path
from types import ModuleType

import pytest

from tests.tools.benches import load_bench


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    """bench/bench_load.py, loaded from its file (the bench folder is not a package)."""
    return load_bench("bench_load")


def run_of(bench: ModuleType, rate: float, latency: float) -> object:
    """A 10 s run's result: ``rate`` moves per second, each taking ``latency`` seconds."""
    tally = bench.Tally()
    for _ in range(100):
        tally.add("move", latency)
    tally.moves = int(rate * 10)
    return bench.Result.merge([tally], 10.0)


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
    assert run_of(bench, 500, 0.020).rate == 500
    assert "**met**" in bench.verdict("closed loop", run_of(bench, 500, 0.020))
    assert "**NOT met**" in bench.verdict("closed loop", run_of(bench, 499, 0.020))
    assert "**NOT met**" in bench.verdict("closed loop", run_of(bench, 800, 0.051))


def test_a_paced_run_meets_the_throughput_by_keeping_up_with_the_rate_it_offered(bench: ModuleType) -> None:
    # 500 offered, 499.9 answered inside the window: a move scheduled near its end was answered just after.
    line = bench.verdict("paced", run_of(bench, 499.9, 0.020), 500.0)
    assert "**met**" in line and "500 moves/s offered, 500 moves/s answered" in line
    assert "**NOT met**" in bench.verdict("paced", run_of(bench, 450, 0.020), 500.0), "a backlog"
    assert "**NOT met**" in bench.verdict("paced", run_of(bench, 450, 0.020), 450.0), "too low"
    assert "**NOT met**" in bench.verdict("paced", run_of(bench, 500, 0.051), 500.0)
    with_errors = run_of(bench, 500, 0.020)
    with_errors.errors["move: HTTP 503"] = 1
    assert "**NOT met**" in bench.verdict("paced", with_errors, 500.0)
    assert "**NOT met**" in bench.verdict("closed loop", with_errors)


def test_the_breakdown_tells_a_move_that_snapshots_from_an_ordinary_one(bench: ModuleType) -> None:
    from replay.snapshots import snapshot_crossed

    game_id = "00000000-0000-0000-0000-00000000002f"  # its snapshots fall at versions 47, 97... (47 = 0x2f)

    def game(version: int, round_: int) -> dict[str, object]:
        return {"game_id": game_id, "version": version, "coordinates": {"round": round_}}

    assert bench.move_kind(game(1, 1), game(2, 1), first=True) == "first move of a game"
    assert bench.move_kind(game(7, 1), game(8, 1), first=False) == "ordinary move"
    assert bench.move_kind(game(7, 1), game(8, 2), first=False, over=True) == "last move of a game"
    assert bench.move_kind(game(7, 1), game(8, 2), first=False).startswith("snapshot move")
    assert bench.move_kind(game(46, 3), game(47, 3), first=False).startswith("snapshot move")
    assert bench.move_kind(game(49, 3), game(50, 3), first=False) == "ordinary move"
    # The bench restates the server's rule: the two agree on every step of a long game.
    for version in range(1, 300):
        kind = bench.move_kind(game(version, 1), game(version + 1, 1), first=False)
        crossed = snapshot_crossed(uuid.UUID(game_id), version, version + 1)
        assert kind.startswith("snapshot move") == crossed


def test_the_breakdown_matches_requests_with_the_servers_log_by_request_id(
    bench: ModuleType, tmp_path: Path
) -> None:
    log = tmp_path / "serve.log"
    log.write_text(
        "not json\n"
        '{"message": "gunicorn started"}\n'
        '{"request_id": "bench-0-move-0", "duration_ms": 4.0, "status": 201}\n'
        '{"request_id": "bench-0-move-1", "duration_ms": 30.0, "status": 201}\n'
    )
    server = bench.server_durations(log)
    assert server == {"bench-0-move-0": 0.004, "bench-0-move-1": 0.03}
    requests = {"bench-0-move-0": ("ordinary move", 0.006), "bench-0-move-1": ("snapshot move", 0.05)}
    lines = bench.breakdown_table(requests, server)
    assert lines[2] == "| ordinary move | 1 | 6.0 / 6.0 / 6.0 | 4.0 / 4.0 / 4.0 | 2.0 | 0% |"
    assert lines[3] == "| snapshot move | 1 | 50.0 / 50.0 / 50.0 | 30.0 / 30.0 / 30.0 | 20.0 | 100% |"


def test_the_sweep_tries_lower_rates_highest_first_and_stops_at_one_that_keeps_up(bench: ModuleType) -> None:
    assert bench.sweep_rates(500.0) == [450.0, 400.0, 350.0, 300.0, 250.0, 200.0, 150.0, 100.0, 50.0]
    assert bench.sweep_rates(120.0, step=50.0) == [70.0], "never below one step"

    assert bench.keeps_up(run_of(bench, 300, 0.049), 300.0)
    assert bench.keeps_up(run_of(bench, 292, 0.049), 300.0), "the window's edges cut a few moves either way"
    assert not bench.keeps_up(run_of(bench, 280, 0.010), 300.0), "a backlog: fewer answered than offered"
    assert not bench.keeps_up(run_of(bench, 300, 0.051), 300.0)

    offered = []
    runs = {
        450.0: run_of(bench, 400, 0.300),
        400.0: run_of(bench, 400, 0.080),
        350.0: run_of(bench, 350, 0.030),
    }

    def paced(port: int, seconds: float, rate: float) -> object:
        offered.append(rate)
        return runs[rate]

    original = bench.paced_load
    bench.paced_load = paced
    try:
        tried = bench.sweep(0, 5.0, bench.sweep_rates(500.0))
    finally:
        bench.paced_load = original
    assert offered == [450.0, 400.0, 350.0], "it stops at the first rate that keeps up"
    table = bench.sweep_table(tried, 500.0)
    assert "kept its p99 within 50 ms in this run: 350 moves/s (70% of the 500 offered first)" in table


def test_repeated_paced_runs_are_each_counted_in_the_verdict(bench: ModuleType) -> None:
    runs = [run_of(bench, 500, 0.105), run_of(bench, 499.9, 0.049), run_of(bench, 500, 0.038)]
    line = bench.verdict_of_runs("paced (open-loop)", runs, 500.0)
    assert "**met in 2 of 3**" in line
    assert "p99 105.0 ms" in line and "p99 49.0 ms" in line
    assert bench.most_keep_up(runs, 500.0)
    assert not bench.most_keep_up([runs[1], runs[0]], 500.0), "one of two is half, not most"
    assert bench.verdict_of_runs("paced", runs[:1], 500.0) == bench.verdict("paced", runs[0], 500.0)


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="two CPUs to keep two workers apart")
def test_the_report_says_whether_the_workers_were_each_kept_on_a_cpu(bench: ModuleType) -> None:
    """Two forked children stand for gunicorn's workers; ``placement`` reads what the kernel says of them."""
    cpus = sorted(os.sched_getaffinity(0))[:2]
    for pinned in (True, False):
        children = []
        for cpu in cpus:
            read, write = os.pipe()
            pid = os.fork()
            if pid == 0:  # a worker: pinned or not, then waits to be read
                if pinned:
                    os.sched_setaffinity(0, {cpu})
                os.write(write, b"x")
                time.sleep(30)
                os._exit(0)
            os.read(read, 1)
            os.close(read)
            os.close(write)
            children.append(pid)
        try:
            said = bench.placement(os.getpid(), 2)
        finally:
            for pid in children:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
        if pinned:
            assert said == f"each worker kept on a CPU of its own ({cpus[0]}, {cpus[1]})"
        else:
            assert said == "the workers free to run on any CPU"
