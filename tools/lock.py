"""Write docker/constraints.txt: the exact version of every package the Docker image installs.

Run after a dependency changes; ``make test`` fails if a runtime dependency is unpinned or out of range.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "docker" / "constraints.txt"
HEADER = """\
# The exact packages of the Docker image (docker/Dockerfile builds with --constraint this file).
# Written by tools/lock.py from pyproject.toml's runtime dependencies; to update: run it, then make test.
"""


def resolved() -> dict[str, str]:
    """Every package ``pip install .`` would install here, with its version (heronlog itself left out)."""
    with tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "report.json"
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "--dry-run",
                "--ignore-installed",
                "--quiet",
                "--disable-pip-version-check",
                "--report",
                str(report),
                str(ROOT),
            ],
            check=True,
        )
        data = json.loads(report.read_text())
    pins = {item["metadata"]["name"].lower(): item["metadata"]["version"] for item in data["install"]}
    pins.pop("heronlog", None)
    return pins


def build_backend() -> dict[str, str]:
    """The setuptools that builds heronlog's wheel in the image: the one installed here (the tests build with
    it too, tests/tools/test_packaging.py)."""
    from importlib.metadata import version

    return {"setuptools": version("setuptools")}


def main() -> int:
    pins = {**resolved(), **build_backend()}
    lines = [f"{name}=={pins[name]}" for name in sorted(pins)]
    TARGET.write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}: {len(lines)} packages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
