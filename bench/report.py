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
        f"{os.cpu_count()} cores, Python {platform.python_version()} (installed in `{sys.base_prefix}`: see the "
        "Makefile on which interpreter). Every figure stands beside its anchor, "
        "measured in the same run on the same machine; these machines are shared, so read ratios, "
        "not absolutes. Load average when the run began (other work on the machine): "
        f"{load_at_start[0]:.2f} (1 min), {load_at_start[1]:.2f} (5 min). Run times: {', '.join(timings)}.\n"
    )
    (ROOT / "docs").mkdir(exist_ok=True)
    (ROOT / "docs" / "PERFORMANCE.md").write_text(header + "\n" + "\n".join(sections))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
