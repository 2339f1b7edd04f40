"""Run every benchmark of bench/ and write one report, docs/PERFORMANCE.md (`make bench`).

Each benchmark is a script named ``bench_*.py`` that prints a Markdown section: every figure beside its anchor
measured in the same run (never a figure alone, never a timing asserted in a test). ``--only bench_x.py ...`` runs
those alone and keeps the report's other sections, each marked with its own day.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import re
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
    (
        "hostile clients: the worst body of each route, its CPU beside a normal move's",
        "bench_hostile.py",
        ("the worst body of each route", "a castle list of 32,000 entries"),
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


MARK = re.compile(r"^<!-- (bench_\w+\.py) (\d{4}-\d{2}-\d{2}) (\d+) s -->$", re.MULTILINE)
"""The line that opens a bench's section in the report: its script, the day it ran and how long it took. A
section runs to the next such line or to the checklist, so that one bench can be run again alone."""

CHECKLIST = "## The figures this report owes"


def sections_of(report: str) -> dict[str, tuple[str, int, str]]:
    """The sections of a report written by this script: for each bench, the day it ran, its seconds and its
    text (its mark line included)."""
    body = report.split("\n" + CHECKLIST, 1)[0]
    marks = list(MARK.finditer(body))
    found = {}
    for mark, following in zip(marks, [*marks[1:], None], strict=True):
        text = body[mark.start() : following.start() if following else len(body)].rstrip() + "\n"
        found[mark.group(1)] = (mark.group(2), int(mark.group(3)), text)
    return found


def run_bench(script: Path) -> tuple[bool, int, str]:
    """Run one bench: whether it succeeded, its seconds, and its section (its failure's end when it failed)."""
    print(f"[bench] {script.name}", flush=True)
    started = time.monotonic()
    run = subprocess.run([sys.executable, str(script)], check=False, capture_output=True, text=True, cwd=ROOT)
    seconds = round(time.monotonic() - started)
    print(run.stdout, flush=True)
    if run.returncode != 0:
        return False, seconds, f"## {script.name}\n\nFAILED:\n\n```\n{run.stderr[-4000:]}\n```\n"
    return True, seconds, run.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--only",
        nargs="+",
        metavar="SCRIPT",
        help="run these benches alone (e.g. bench_hostile.py) and keep the report's other sections as they are",
    )
    args = parser.parse_args(argv)
    path = ROOT / "docs" / "PERFORMANCE.md"
    scripts = sorted((ROOT / "bench").glob("bench_*.py"))
    kept = sections_of(path.read_text()) if args.only and path.exists() else {}
    unknown = set(args.only or ()) - {script.name for script in scripts}
    if unknown:
        parser.error(f"no such bench: {', '.join(sorted(unknown))}")
    today = datetime.date.today().isoformat()
    load_at_start = os.getloadavg()
    failed = []
    for script in scripts:
        if args.only and script.name not in args.only:
            continue
        ok, seconds, text = run_bench(script)
        if not ok:
            failed.append(script.name)
        kept[script.name] = (today, seconds, f"<!-- {script.name} {today} {seconds} s -->\n{text.rstrip()}\n")
    ran = [f"{name} {seconds} s ({day})" for name, (day, seconds, _) in sorted(kept.items())]
    header = (
        "# heronlog performance report\n\n"
        f"Written by `make bench`: {platform.machine()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()} (in `{sys.base_prefix}`). Each figure stands beside its anchor from the same "
        "run; the machine is shared, so read ratios, not absolutes. "
        f"Load average at the start of the last run ({today}): {load_at_start[0]:.2f} (1 min), "
        f"{load_at_start[1]:.2f} (5 min). Benches, their run times and days: {', '.join(ran)}.\n"
    )
    sections = [text for _, _, text in (kept[name] for name in sorted(kept))]
    sections.append(checklist("\n".join(sections)))
    path.parent.mkdir(exist_ok=True)
    path.write_text(header + "\n" + "\n".join(sections))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
