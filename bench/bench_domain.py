"""Benchmark of the rules engine: random complete games per second, the time to re-apply a recorded game, and the
cost of one seeded draw under rules 0.3.0 beside 0.4.0, each beside its anchor (prints a Markdown section).
"""

from __future__ import annotations

import copy
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from timing import median_us  # noqa: E402

import domain  # noqa: E402
from domain.chance import rng_for  # noqa: E402
from domain.engine import draw_chance, play  # noqa: E402
from domain.prompts import RollBridge  # noqa: E402

DRAWS = 200
"""Draws per timed call: one draw is a few microseconds, so each call times a batch (its median / DRAWS)."""


def per_call(function: Callable[[], object], seconds: float = 1.0) -> float:
    """Median seconds per call over batches run for about `seconds`."""
    samples = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(samples) < 5:
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def random_game(
    players: int, seed: int, solo: str | None = None, expansions: tuple[str, ...] = ()
) -> tuple[domain.GameState, int]:
    rng = random.Random(seed)
    state = domain.new_game(players, seed=seed, solo=solo, expansions=expansions)
    moves = 0
    while not domain.is_over(state):
        state = domain.apply(state, rng.choice(domain.legal_moves(state)))
        moves += 1
    return state, moves


def recorded_game(
    players: int, seed: int, expansions: tuple[str, ...] = ()
) -> tuple[domain.GameState, list[dict[str, Any]]]:
    rng = random.Random(seed)
    fresh = domain.new_game(players, seed=seed, draw=False, expansions=expansions)
    step = domain.resolve_chance(fresh)
    start, record, state = fresh, list(step.chance), step.state
    while not domain.is_over(state):
        move = rng.choice(domain.legal_moves(state))
        step = domain.step(state, move)
        record += [move, *step.chance]
        state = step.state
    return start, record


def replay(start: domain.GameState, record: list[dict[str, Any]], check: bool) -> domain.GameState:
    state = start
    for move in record:
        state = domain.apply(state, move, check=check, draw=False)
    return state


def per_draw(call: Callable[[], object]) -> float:
    """Median µs of one call, timed in batches of `DRAWS` (bench/timing.py's timer)."""
    return median_us(lambda: [call() for _ in range(DRAWS)], repeat=60, warm=5) / DRAWS


def seeded_draws(rules_version: str) -> dict[str, float]:
    """µs per seeded draw under `rules_version`, by the engine's own `draw_chance` (the generator seeded from
    (seed, chance), then the prompt's draw): a 2-player game's first castle card revealed, and its first bridge
    roll (3 dice); and the generator's seeding alone."""
    reveal = domain.new_game(2, seed=7, draw=False, rules_version=rules_version)
    roll = reveal
    while not isinstance(roll.stack[-1], RollBridge):
        roll = play(roll, draw_chance(roll))
    return {
        "reveal": per_draw(lambda: draw_chance(reveal)),
        "roll": per_draw(lambda: draw_chance(roll)),
        "seeding": per_draw(lambda: rng_for(rules_version, 7, 12)),
    }


def main() -> int:
    loop = per_call(lambda: [None for _ in range(1_000_000)], 1.0)
    mid_state = domain.new_game(4, seed=1)
    rng = random.Random(1)
    for _ in range(60):
        mid_state = domain.apply(mid_state, rng.choice(domain.legal_moves(mid_state)))
    deep = per_call(lambda: copy.deepcopy(mid_state), 1.0)
    as_json = per_call(
        lambda: domain.state_from_dict(json.loads(json.dumps(domain.state_to_dict(mid_state)))), 1.0
    )

    games, moves, seed = 0, 0, 0
    started = time.perf_counter()
    while time.perf_counter() - started < 5.0:
        _, count = random_game(4, seed)
        games, moves, seed = games + 1, moves + count, seed + 1
    elapsed = time.perf_counter() - started
    per_second = games / elapsed

    solo_games, solo_moves, seed = 0, 0, 0
    started = time.perf_counter()
    while time.perf_counter() - started < 3.0:
        _, count = random_game(1, seed, ("easy", "medium", "hard")[seed % 3])
        solo_games, solo_moves, seed = solo_games + 1, solo_moves + count, seed + 1
    solo_per_second = solo_games / (time.perf_counter() - started)

    start, record = recorded_game(4, 7)
    unchecked = per_call(lambda: replay(start, record, False), 2.0)
    checked = per_call(lambda: replay(start, record, True), 2.0)
    assert replay(start, record, False) == replay(start, record, True)

    matcha = ("matcha",)
    m_games, m_moves, seed = 0, 0, 0
    started = time.perf_counter()
    while time.perf_counter() - started < 5.0:
        _, count = random_game(4, seed, expansions=matcha)
        m_games, m_moves, seed = m_games + 1, m_moves + count, seed + 1
    m_elapsed = time.perf_counter() - started
    m_start, m_record = recorded_game(4, 7, matcha)
    m_unchecked = per_call(lambda: replay(m_start, m_record, False), 2.0)
    m_checked = per_call(lambda: replay(m_start, m_record, True), 2.0)

    t_games, t_moves, seed = 0, 0, 0
    started = time.perf_counter()
    while time.perf_counter() - started < 3.0:
        _, count = random_game(1, seed, ("easy", "medium", "hard")[seed % 3], matcha)
        t_games, t_moves, seed = t_games + 1, t_moves + count, seed + 1
    t_per_second = t_games / (time.perf_counter() - started)

    old, new = seeded_draws("0.3.0"), seeded_draws("0.4.0")

    print("## Rules engine (bench/bench_domain.py)\n")
    print(f"Python {platform.python_version()} on {platform.machine()}, one core.\n")
    print("| figure | measured | target | anchor in the same run |")
    print("|---|---|---|---|")
    print(
        f"| random complete 4-player games per second (uniform random legal moves, checked, seeded draws) "
        f"| **{per_second:.0f}** games/s ({moves / games:.0f} moves per game, "
        f"{elapsed / moves * 1e6:.0f} µs per legal_moves + apply) | ≥ 50 | "
        f"a 1,000,000-step Python loop: {loop * 1e3:.1f} ms |"
    )
    print(
        f"| random complete solo games per second (the player's moves uniform random, the rival's turns "
        f"played by the engine, every difficulty) | **{solo_per_second:.0f}** games/s "
        f"({solo_moves / solo_games:.0f} player moves per game) | ≥ 50 | the same loop |"
    )
    print(
        f"| re-apply a recorded 4-player game without checks ({len(record)} moves, chance included) "
        f"| **{unchecked * 1e3:.2f}** ms | ≤ 5 ms | deepcopy of a 4-player state: {deep * 1e3:.2f} ms |"
    )
    print(
        f"| the same game re-applied with checks | {checked * 1e3:.2f} ms | – "
        f"| JSON round trip of that state (to_dict, dumps, loads, from_dict): {as_json * 1e3:.2f} ms |"
    )
    print(
        f"| Matcha: random complete 4-player games per second | **{m_games / m_elapsed:.0f}** games/s "
        f"({m_moves / m_games:.0f} moves per game, {m_elapsed / m_moves * 1e6:.0f} µs per legal_moves + apply) "
        f"| ≥ 25 | the base game above |"
    )
    print(
        f"| Matcha: re-apply a recorded 4-player game without / with checks ({len(m_record)} moves) "
        f"| **{m_unchecked * 1e3:.2f}** / {m_checked * 1e3:.2f} ms | – | the base game above |"
    )
    print(
        f"| Tokugawa: random complete solo games with Matcha per second (the rival's turns played by the engine, "
        f"every difficulty) | **{t_per_second:.0f}** games/s ({t_moves / t_games:.0f} player moves per game) "
        f"| ≥ 25 | the base solo games above |"
    )
    print(
        f"| one seeded draw, rules 0.4.0 / 0.3.0 (the engine's `draw_chance`): a castle card revealed; a bridge's "
        f"roll of 3 dice | **{new['reveal']:.1f}** / {old['reveal']:.1f} µs; **{new['roll']:.1f}** / "
        f"{old['roll']:.1f} µs | below 0.3.0's | the generator seeded alone: SplitMix64 from a BLAKE2b digest "
        f"{new['seeding']:.2f} µs, `random.Random` of the text {old['seeding']:.2f} µs |"
    )
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
