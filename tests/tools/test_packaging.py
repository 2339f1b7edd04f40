"""Both artifacts as a packager builds them (`python -m build`, offline: the build backend of the build-system
table is installed by `make test`): the license travels in each, as a PEP 639 expression, with the classifiers
and project URLs; the wheel holds what the app reads at run time."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--no-isolation",
            "--sdist",
            "--wheel",
            "--outdir",
            str(out),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = out.glob("*.whl")
    [sdist] = out.glob("*.tar.gz")
    return {"wheel": wheel, "sdist": sdist}


def test_the_license_file_ships_in_the_repository_and_both_artifacts(artifacts: dict[str, Path]) -> None:
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License") and "the heronlog authors" in text
    with zipfile.ZipFile(artifacts["wheel"]) as wheel:
        [license_path] = [name for name in wheel.namelist() if name.endswith(".dist-info/licenses/LICENSE")]
        assert wheel.read(license_path).decode() == text
    with tarfile.open(artifacts["sdist"]) as sdist:
        [member] = [m for m in sdist.getmembers() if m.name.endswith("/LICENSE") and m.name.count("/") == 1]
        extracted = sdist.extractfile(member)
        assert extracted is not None and extracted.read().decode() == text


def test_the_metadata_says_the_license_as_an_expression_with_classifiers_and_urls(
    artifacts: dict[str, Path],
) -> None:
    with zipfile.ZipFile(artifacts["wheel"]) as wheel:
        [name] = [name for name in wheel.namelist() if name.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(wheel.read(name).decode())
    assert metadata["License-Expression"] == "MIT"
    assert metadata.get_all("License-File") == ["LICENSE"]
    classifiers = metadata.get_all("Classifier") or []
    assert "Topic :: Games/Entertainment :: Board Games" in classifiers
    assert not [c for c in classifiers if c.startswith("License ::")], (
        "PEP 639: the expression, not a classifier"
    )
    assert metadata.get_all("Project-URL")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"  # the PEP 639 string, not the deprecated table


def test_the_crypto_extra_is_asked_for_only_where_it_is_used(artifacts: dict[str, Path]) -> None:
    with zipfile.ZipFile(artifacts["wheel"]) as wheel:
        [name] = [name for name in wheel.namelist() if name.endswith(".dist-info/METADATA")]
        requires = Parser().parsestr(wheel.read(name).decode()).get_all("Requires-Dist") or []
    eventsourcing = [line for line in requires if line.startswith("eventsourcing")]
    assert "eventsourcing~=9.5" in eventsourcing
    assert all("crypto" not in line or "extra ==" in line for line in eventsourcing), eventsourcing


def test_the_wheel_holds_the_data_the_app_reads(artifacts: dict[str, Path]) -> None:
    with zipfile.ZipFile(artifacts["wheel"]) as wheel:
        names = set(wheel.namelist())
    assert "api/resources/move_examples.json" in names
    assert "api/pages/static/api.js" in names and "domain/catalog/meta.json" in names
