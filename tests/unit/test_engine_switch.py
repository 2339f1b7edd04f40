"""The engine's speed switch (domain.compiled): pure source by default, the compiled build only when asked for
and only when it was made from this very source; anything else refused at import with what to do."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import domain
import domain.engine
from domain.compiled import DIGEST, source_digest

ROOT = Path(__file__).resolve().parents[2]


def test_the_running_engine_is_the_one_asked_for() -> None:
    asked = os.environ.get("HERONLOG_ENGINE") or "pure"
    assert asked == domain.ENGINE
    assert Path(domain.engine.__file__).suffix == (".py" if asked == "pure" else ".so")


def run(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = "import domain, domain.engine; print(domain.ENGINE, domain.engine.__file__)"
    clean = {key: value for key, value in os.environ.items() if not key.startswith("HERONLOG_ENGINE")}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def test_an_unknown_engine_is_refused() -> None:
    done = run({"HERONLOG_ENGINE": "fast"})
    assert done.returncode != 0 and "HERONLOG_ENGINE='fast'" in done.stderr


def test_the_compiled_engine_without_a_build_is_refused(tmp_path: Path) -> None:
    done = run({"HERONLOG_ENGINE": "compiled", "HERONLOG_ENGINE_BUILD": str(tmp_path)})
    assert done.returncode != 0 and "no compiled build" in done.stderr and "make compiled" in done.stderr


def test_a_build_of_other_source_is_refused(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "domain", tmp_path / "domain", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / DIGEST).write_text("0" * 64 + "\n", encoding="ascii")
    done = run({"HERONLOG_ENGINE": "compiled", "HERONLOG_ENGINE_BUILD": str(tmp_path)})
    assert done.returncode != 0 and "of other source" in done.stderr


def test_the_switch_loads_the_modules_from_the_build(tmp_path: Path) -> None:
    """A build as `make compiled` lays it out, less the compiling: the modules come from it."""
    shutil.copytree(ROOT / "domain", tmp_path / "domain", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / DIGEST).write_text(source_digest(ROOT / "domain") + "\n", encoding="ascii")
    done = run({"HERONLOG_ENGINE": "compiled", "HERONLOG_ENGINE_BUILD": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    engine, path = done.stdout.split()
    assert engine == "compiled" and Path(path).is_relative_to(tmp_path / "domain")
    assert run({}).stdout.split()[0] == "pure"


def test_a_command_given_an_engine_that_cannot_load_says_so_in_one_line_and_exits_2(tmp_path: Path) -> None:
    clean = {key: value for key, value in os.environ.items() if not key.startswith("HERONLOG_ENGINE")}
    for engine, said in (
        (
            {"HERONLOG_ENGINE": "fast"},
            "heronlog: HERONLOG_ENGINE='fast': it is 'pure' (the default) or 'compiled'",
        ),
        (
            {"HERONLOG_ENGINE": "compiled", "HERONLOG_ENGINE_BUILD": str(tmp_path)},
            f"heronlog: HERONLOG_ENGINE=compiled, but there is no compiled build in {tmp_path}: make compiled",
        ),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "api.server.launch", "verify"],
            cwd=ROOT,
            env={**clean, **engine, "HERONLOG_DATA": str(tmp_path)},
            capture_output=True,
            text=True,
            check=False,
        )
        assert (done.returncode, done.stderr) == (2, said + "\n")


def test_the_engine_switch_is_a_known_setting() -> None:
    from api.server.environment import unknown_variables

    assert unknown_variables({"HERONLOG_ENGINE": "compiled", "HERONLOG_ENGINE_BUILD": "build/compiled"}) == []
