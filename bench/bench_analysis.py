"""Benchmark of computer analysis: the evaluator's playouts, its policy against uniform random play, and a whole
recorded game analysed by real workers on the task queue (huey on Redis).

Every figure stands beside anchors measured in the same run: the engine's random complete 4-player games per
CPU-second (bench_domain's definition: uniform random legal moves, checked, seeded draws), and one worker's
throughput. CPU is counted with the processes' own clocks (``time.process_time``, ``getrusage`` of the worker
processes once they have exited, Redis's ``INFO cpu``), so other work on this shared machine slows the wall
clock but not the CPU figures; how busy the machine was is printed beside them. Uses ``HERONLOG_TEST_REDIS_URL``
when set (``make bench``), else starts a redis-server. Run stand-alone:

    .venv/bin/python bench/bench_analysis.py
"""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_domain import random_game  # noqa: E402
from bench_store import redis_server  # noqa: E402

import domain  # noqa: E402
from domain import compiled  # noqa: E402
from domain.analysis import evaluate  # noqa: E402
from domain.analysis.estimates import outcome  # noqa: E402
from domain.analysis.policy import choose, play_out, uniform  # noqa: E402
from domain.chance import SplitMix  # noqa: E402
from replay import analysis  # noqa: E402
from replay.analysis_jobs import decision_seed  # noqa: E402
from replay.analysis_queue import analyses_for  # noqa: E402
from replay.config import StoreConfig, open_log  # noqa: E402

PLAYOUTS = 200
"""Playouts per decision of the whole-game analysis (the default of ``POST /api/games/{id}/analysis``)."""
HEAD_TO_HEAD = 200
"""4-player games of one policy seat against three uniform random seats."""


def cpu_rate(work: Callable[[int], int], seconds: float, repeats: int = 3) -> float:
    """The median, over ``repeats`` runs of about ``seconds`` of CPU each, of units of ``work`` per CPU-second
    (``work(i)`` does the i-th unit and returns how many it did)."""
    rates = []
    counter = 0
    for _ in range(repeats):
        started = time.process_time()
        done = 0
        while time.process_time() - started < seconds:
            done += work(counter)
            counter += 1
        rates.append(done / (time.process_time() - started))
    return statistics.median(rates)


def mid_game_positions(count: int) -> list[domain.GameState]:
    """Positions about halfway through 4-player games the policy plays (a player to move)."""
    found = []
    for seed in range(count):
        state = domain.new_game(4, seed=500 + seed)
        rng = SplitMix(f"mid:{seed}".encode())
        for _ in range(60):
            state = domain.apply(state, choose(state, rng))
        while domain.prompt_of(state)["seat"] is None:
            state = domain.apply(state, domain.legal_moves(state)[0])
        found.append(state)
    return found


def head_to_head(games: int) -> tuple[float, float, float, float]:
    """Win rate and mean margin (each with its standard error) of one policy seat against three uniform random
    seats, seats rotated."""
    wins, margins = 0, []
    for game in range(games):
        hero = game % 4
        state = domain.new_game(4, seed=9000 + game)
        rng = SplitMix(f"h2h:{game}".encode())
        while state.stack:
            move = choose(state, rng) if domain.prompt_of(state)["seat"] == hero else uniform(state, rng)
            state = domain.apply(state, move)
        end = outcome(state)
        wins += end.winner == hero
        margins.append(end.margins[hero])
    rate = wins / games
    return (
        rate,
        (rate * (1 - rate) / games) ** 0.5,
        statistics.mean(margins),
        statistics.stdev(margins) / games**0.5,
    )


# --- the machine --------------------------------------------------------------------------------------------


def busy_jiffies() -> tuple[int, int]:
    """(busy, total) clock ticks of all CPUs since boot (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


class Machine:
    """How busy the whole machine was over a stretch: cores busy (of ``os.cpu_count()``) and the load average."""

    def __init__(self) -> None:
        self.start = busy_jiffies()
        self.wall = time.monotonic()

    def cores_busy(self) -> float:
        busy, _ = busy_jiffies()
        return (busy - self.start[0]) / os.sysconf("SC_CLK_TCK") / (time.monotonic() - self.wall)


# --- a whole game through the queue ------------------------------------------------------------------------


def redis_cpu(client: Any) -> float:
    info = client.info("cpu")
    return float(info["used_cpu_user"]) + float(info["used_cpu_sys"])


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@contextlib.contextmanager
def workers(
    store: StoreConfig, count: int, engine: str | None = None
) -> Iterator[list[subprocess.Popen[bytes]]]:
    """``count`` ``heronlog worker --workers 1`` processes (one per machine, as the compose file's ``--scale``
    runs them) on ``engine`` (else this process's), stopped with SIGTERM and waited for at the end (so their
    CPU is in ``children_cpu``)."""
    assert store.redis_url is not None
    env = {
        **os.environ,
        **({"HERONLOG_ENGINE": engine} if engine else {}),
        "HERONLOG_STORE": "redis",
        "REDIS_URL": store.redis_url,
        "REDIS_KEY_PREFIX": store.redis_prefix,
        "HERONLOG_LOG_FORMAT": "text",
        "HERONLOG_LOG_LEVEL": "warning",
    }
    started = [
        subprocess.Popen(
            [sys.executable, "-m", "api.server.cli", "worker", "--workers", "1"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        for _ in range(count)
    ]
    try:
        yield started
    finally:
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGINT)  # huey's graceful stop: its workers end, then it
        for process in started:
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def recorded_game(log: Any, seed: int) -> Any:
    """A finished 4-player game, recorded through the game log, its moves chosen by the playout policy."""
    game_id = log.create_game({"players": ["Aiko", "Ben", "Chie", "Dai"], "seed": seed}).game_id
    rng = SplitMix(f"recorded:{seed}".encode())
    game = log.get_game(game_id)
    while not domain.is_over(game.state):
        log.play(game_id, choose(game.state, rng).as_json(), expected_version=game.version, actor="owner")
        game = log.get_game(game_id)
    return game


def analyse_through_queue(
    store: StoreConfig, log: Any, game: Any, count: int, engine: str | None = None
) -> dict[str, float]:
    """The game analysed by ``count`` workers (on ``engine``, else this process's): wall seconds, the workers'
    CPU, Redis's CPU, the evaluator's CPU inside the jobs, and the machine's busy cores meanwhile."""
    import redis

    client = redis.Redis.from_url(store.redis_url or "")
    service = analyses_for(store, {}, log, playouts=PLAYOUTS)
    redis_before, children_before = redis_cpu(client), children_cpu()
    machine = Machine()
    with workers(store, count, engine):
        time.sleep(1.5)  # the workers start (imports, a connection) before the clock runs
        started = time.monotonic()
        run, created = service.request(game, actor="owner")
        assert created
        while True:
            stream = service.stream(game.id)
            assert stream.run is not None
            if stream.run.finished:
                break
            time.sleep(0.1)
        wall = time.monotonic() - started
        busy = machine.cores_busy()
    assert not stream.run.failures, stream.run.failures
    client.close()
    return {
        "wall": wall,
        "decisions": run.total,
        "workers_cpu": children_cpu() - children_before,
        "redis_cpu": redis_cpu(redis.Redis.from_url(store.redis_url or "")) - redis_before,
        "evaluate_cpu": stream.run.cpu_seconds,
        "busy": busy,
        "events": stream.version,
    }


def plain_loop(log: Any, game: Any, every: int) -> tuple[float, float]:
    """Every ``every``-th decision of the game's latest analysis evaluated again in a plain loop in this process,
    with the very seeds and budget its jobs had (the same playouts): (CPU seconds here, CPU seconds the jobs
    reported for the same decisions)."""
    stream = log.stores.of(game.id).read(analysis.stream_id(game.id), analysis.project_analysis)
    run = stream.run
    spent = {event.index: event.cpu_seconds for event in _evaluations(log, game.id)}
    full = game.with_states_from_start()
    here = there = 0.0
    for decision in run.decisions[::every]:
        index = decision["index"]
        played = game.records[game.line[index - 1]].move
        started = time.process_time()
        evaluate(
            full.states[index - 1], playouts=run.playouts, seed=decision_seed(run.seed, index), keep=[played]
        )
        here += time.process_time() - started
        there += spent[index]
    return here, there


def _evaluations(log: Any, game_id: Any) -> list[Any]:
    events = log.stores.of(game_id).stream_events(analysis.stream_id(game_id))
    return [event for event in events if isinstance(event, analysis.DecisionEvaluated)]


def main() -> int:
    load_start = os.getloadavg()
    games_per_cpu_second = cpu_rate(lambda i: (random_game(4, i), 1)[1], 3.0)
    positions = mid_game_positions(12)
    policy_rate = cpu_rate(lambda i: (play_out(positions[i % 12], i), 1)[1], 3.0)
    uniform_rate = cpu_rate(lambda i: (play_out(positions[i % 12], i, uniform), 1)[1], 3.0)
    rate, rate_se, margin, margin_se = head_to_head(HEAD_TO_HEAD)

    lines = [
        "## Computer analysis (bench_analysis.py)\n",
        "Whole-game analyses are jobs on huey, taken by `heronlog worker` processes on Redis "
        f"([Computer analysis](analysis.md)); the {domain.ENGINE} engine (`HERONLOG_ENGINE`), in the workers too.\n",
        "| figure | value | anchor, same run |",
        "|---|---|---|",
        f"| random complete 4-player games per CPU-second (the engine's anchor) | **{games_per_cpu_second:.0f}** | "
        "bench_domain's definition |",
        f"| policy playouts from mid-game positions (4 players, about 60 moves in) per CPU-second | "
        f"**{policy_rate:.0f}** ({policy_rate / games_per_cpu_second:.2f} x the random games) | "
        f"uniform random playouts from the same positions: {uniform_rate:.0f} per CPU-second |",
        f"| the policy's cost per playout against uniform random play's | "
        f"**{uniform_rate / policy_rate:.2f} x** | {1000 / uniform_rate:.2f} ms per uniform playout |",
        f"| one policy seat against three uniform random seats, {HEAD_TO_HEAD} games, seats rotated | "
        f"wins **{rate:.0%} ± {rate_se:.0%}**, mean margin **{margin:+.1f} ± {margin_se:.1f} CP** | "
        "a uniform random seat wins 25% |",
    ]

    with contextlib.ExitStack() as stack:
        url = os.environ.get("HERONLOG_TEST_REDIS_URL") or stack.enter_context(
            redis_server("--appendonly", "no")
        )
        store = StoreConfig(
            kind="redis", redis_url=url, redis_prefix=f"bench-analysis-{uuid.uuid4().hex[:8]}"
        )
        log = open_log(store)
        game = recorded_game(log, seed=77)
        decisions = len(analysis.decisions_of(game))
        one = analyse_through_queue(store, log, game, 1)
        sample_here, sample_jobs = plain_loop(log, game, every=4)
        second = recorded_game(log, seed=78)
        two = analyse_through_queue(store, log, second, 2)
        # The same game again (the same seed records the same moves) on the compiled engine, when it is built
        # and this run is on the pure one: the speed switch's gain where the engine is the limit.
        faster = None
        if domain.ENGINE == "pure" and compiled.build_problem() is None:
            faster = analyse_through_queue(store, log, recorded_game(log, seed=78), 2, engine="compiled")
        log.close()

    jobs = one["decisions"]
    plain = one["evaluate_cpu"] * sample_here / sample_jobs  # the whole game in a plain loop, from the sample
    overhead = one["workers_cpu"] / plain
    machinery = (one["workers_cpu"] - one["evaluate_cpu"]) / jobs
    redis_per_job = one["redis_cpu"] / jobs
    seconds_per_job = one["evaluate_cpu"] / jobs
    throughput_one = one["decisions"] / one["wall"]
    throughput_two = two["decisions"] / two["wall"]
    lines += [
        f"| a whole recorded 4-player game ({decisions} decisions, {PLAYOUTS} playouts each), the evaluations in "
        f"a plain loop | **{plain:.0f} s CPU** (every 4th decision run again here with its job's seed: "
        f"{sample_here:.1f} s, against {sample_jobs:.1f} s in the jobs) | "
        f"{plain * games_per_cpu_second / decisions:.0f} random games' worth per decision |",
        f"| the same game through the queue, one worker: the worker's whole CPU against the plain loop's | "
        f"**{overhead:.3f} x** (target at most 1.2 x) | the evaluations inside the jobs: {one['evaluate_cpu']:.0f} s; "
        f"the worker processes in all: {one['workers_cpu']:.0f} s |",
        f"| one worker's throughput | **{throughput_one:.2f} decisions/s** ({one['wall']:.0f} s for the game) | "
        f"{one['busy']:.2f} of {os.cpu_count()} cores busy on the machine meanwhile |",
        f"| two workers (another recorded game, {two['decisions']} decisions) | **{two['wall']:.0f} s** for the "
        f"whole game (target at most 60 s), {throughput_two:.2f} decisions/s: "
        f"**{throughput_two / throughput_one:.2f} x** one worker's (linear: 2) | {two['busy']:.2f} of "
        f"{os.cpu_count()} cores busy meanwhile |",
        *(
            [
                f"| two workers on the compiled engine (`make compiled`; the same game again) | "
                f"**{faster['wall']:.0f} s** for the whole game (target at most 60 s) | {faster['busy']:.2f} of "
                f"{os.cpu_count()} cores busy meanwhile |"
            ]
            if faster
            else []
        ),
        f"| what a job costs besides its evaluation | worker **{machinery * 1000:.1f} ms CPU**, Redis "
        f"**{redis_per_job * 1000:.2f} ms CPU** ({one['events']} analysis events for {jobs} jobs) | a job's "
        f"evaluation: {seconds_per_job * 1000:.0f} ms CPU |",
        "",
        f"Eight workers (modelled from the per-job costs above): each finishes a decision every "
        f"{seconds_per_job:.2f} s of CPU, so eight ask {8 / seconds_per_job:.0f} jobs a second, and Redis "
        f"spends {redis_per_job * 1000:.2f} ms of its one thread on each: "
        f"{8 * redis_per_job / seconds_per_job:.1%} of a core; it becomes the limit at about "
        f"{seconds_per_job / redis_per_job:.0f} workers. Before that, one game's analysis stream is where they "
        f"meet (each job reads it and writes a claim and a result; a write that lost a race is decided again): "
        f"eight workers write {16 / seconds_per_job:.0f} events a second to it.",
        "",
        f"Load average at the start: {load_start[0]:.2f} (1 min); at the end: {os.getloadavg()[0]:.2f}. The "
        "wall-clock figures (throughput, the 60 s target) depend on it, the CPU figures much less.\n",
    ]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
