"""The README's API example, and the longer one of docs/api/examples.md, run as written against a live
`heronlog serve` (the README's quickstart is executable, as python-chess's is)."""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import Served, serve

ROOT = Path(__file__).resolve().parents[2]


def shell_block(page: Path, heading: str) -> str:
    """The first ```sh block after ``heading`` on ``page``."""
    text = page.read_text(encoding="utf-8")
    blocks: list[str] = re.findall(r"```sh\n(.*?)```", text[text.index(heading) :], re.S)
    return blocks[0]


def run_against(served: Served, script: str, folder: Path) -> list[str]:
    """Run a shell example with its server address replaced by ``served``'s; the lines it printed."""
    for program in ("bash", "curl", "jq"):
        if shutil.which(program) is None:
            pytest.fail(f"{program} is not installed: make test provisions it (tools/teststack.py)")
    assert "H=http://127.0.0.1:8000\n" in script, "the example names the server of `make run`"
    script = script.replace("H=http://127.0.0.1:8000\n", f"H={served.url}\n")
    done = subprocess.run(
        ["bash", "-eu", "-o", "pipefail", "-c", script],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`heronlog serve` on the in-memory store."""
    folder = tmp_path_factory.mktemp("serve")
    yield from serve(folder, {"HERONLOG_STORE": "memory", "REDIS_URL": ""})


def test_the_readme_api_example_runs_as_written(server: Served, tmp_path: Path) -> None:
    script = shell_block(ROOT / "README.md", "## A ten-line API example")
    assert len(script.splitlines()) <= 10
    printed = run_against(server, script, tmp_path)
    assert printed == ["Aiko: choose a starting pair", "Ben: choose a starting pair"]
    # the comments of the example say what it prints
    assert "# Aiko: choose a starting pair" in script and "# Ben: choose a starting pair" in script


def test_the_docs_api_examples_run_as_written(server: Served, tmp_path: Path) -> None:
    script = shell_block(ROOT / "docs" / "api" / "examples.md", "# Examples")
    printed = "\n".join(run_against(server, script, tmp_path))
    assert '"versions":[3]' in printed.replace(" ", "")  # the second move
    assert "event: MovesUndone" in printed  # the undo, seen by the spectator's stream
    assert "1. Chie chooses the starting pair SR8 + A2" in printed  # the text export
    assert '{"label":"CP during the game","points":41,"icons":["cp"]}' in printed  # the score sheet
