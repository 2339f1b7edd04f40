"""heronlog's top-level packages have generic names (docs/operations/packaging.md#top-level-packages): another
project's ``domain`` or ``replay`` found first is a clear ImportError at ``import api``, naming what was found."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("name", ["domain", "replay"])
def test_another_projects_package_of_the_same_name_is_a_clear_import_error(tmp_path: Path, name: str) -> None:
    foreign = tmp_path / name
    foreign.mkdir()
    (foreign / "__init__.py").write_text('"""Another project\'s package."""\n')
    # run from tmp_path: its folder comes first on sys.path, as another installed project's would
    run = subprocess.run(
        [sys.executable, "-c", "import api"], cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith(f"ImportError: heronlog needs its own top-level package '{name}'"), run.stderr
    assert str(foreign / "__init__.py") in last and "virtual environment of its own" in last


def test_heronlog_s_own_packages_pass() -> None:
    from api.own_packages import ensure_own_packages

    ensure_own_packages("api", "domain", "replay")
    with pytest.raises(ImportError, match="'json'"):
        ensure_own_packages("json")
