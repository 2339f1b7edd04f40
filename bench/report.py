"""Run every benchmark of bench/ and write one report, docs/PERFORMANCE.md (`make bench`).

Each benchmark is a script named ``bench_*.py`` that prints a Markdown section: every figure beside its anchor
measured in the same run (never a figure alone, never a timing asserted in a test).
"""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FIGURES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "the list's page and search, 1,000 to 100,000 games",
        "bench_list.py",
        ("| Redis | 100,000 |", "| SQLite | 100,000 |"),
    ),
    ("`state_at` of a stored game, warm and cold", "bench_replay.py", ("of that stored game, warm",)),
    ("a worker's memory after 10,000 games", "bench_list.py", ("touched 10,000 distinct",)),
    ("the HTTP CPU per move, beside `/healthz`", "bench_load.py", ("CPU per move", "`GET /healthz`")),
    (
        "a 20,000-event game's export and cold read",
        "bench_footprint.py",
        ("20,000-event game (recorded through the game log", "`GET /api/games/{id}/export`"),
    ),
    (
        "the players list and a player's page at 100,000 games",
        "bench_players.py",
        ("- Redis: the player read", "- SQLite: the player read"),
    ),
    ("the players rebuilt from the log of 10,000 games", "bench_players.py", ("Rebuilt from the log",)),
    (
        "Redis bytes per stored event",
        "bench_footprint.py",
        ("log B/event", "index B/event", "snapshots B/event"),
    ),
    (
        "analysis: playouts per CPU-second; the policy against random play",
        "bench_analysis.py",
        ("policy playouts from mid-game positions", "one policy seat against three uniform random seats"),
    ),
    (
        "analysis: a whole game through the queue, 1, 2 and 8 workers",
        "bench_analysis.py",
        (
            "the worker's whole CPU against the plain loop's",
            "two workers (another recorded game",
            "Eight workers",
        ),
    ),
)
"""The figures `make bench` owes its readers: what each is, which bench prints it, and phrases of its lines. A
figure missing from a report (its bench failed, or printed something else) is listed as such, so the report
says what it lacks."""


def checklist(report: str) -> str:
    """A section naming each of the figures `make bench` owes and whether this report holds it."""
    lines = [
        "## The figures this report owes\n",
        "| figure | printed by | in this report |",
        "|---|---|---|",
    ]
    for figure, bench, phrases in FIGURES:
        held = all(phrase in report for phrase in phrases)
        lines.append(f"| {figure} | {bench} | {'yes' if held else '**not yet**'} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    scripts = sorted((ROOT / "bench").glob("bench_*.py"))
    sections = []
    failed = []
    timings = []
    load_at_start = os.getloadavg()
    for script in scripts:
        print(f"[bench] {script.name}", flush=True)
        started = time.monotonic()
        run = subprocess.run(
            [sys.executable, str(script)], check=False, capture_output=True, text=True, cwd=ROOT
        )
        timings.append(f"{script.name} {time.monotonic() - started:.0f} s")
        if run.returncode != 0:
            failed.append(script.name)
            sections.append(f"## {script.name}\n\nFAILED:\n\n```\n{run.stderr[-4000:]}\n```\n")
        else:
            sections.append(run.stdout)
        print(run.stdout, flush=True)
    header = (
        "# heronlog performance report\n\n"
        f"Written by `make bench` on {datetime.date.today().isoformat()}: {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()} (in `{sys.base_prefix}`). Each figure "
        "stands beside its anchor from the same run; the machine is shared, so read ratios, not absolutes. "
        f"Load average at the start: {load_at_start[0]:.2f} (1 min), {load_at_start[1]:.2f} (5 min). "
        f"Run times: {', '.join(timings)}.\n"
    )
    sections.append(checklist("\n".join(sections)))
    (ROOT / "docs").mkdir(exist_ok=True)
    (ROOT / "docs" / "PERFORMANCE.md").write_text(header + "\n" + "\n".join(sections))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
