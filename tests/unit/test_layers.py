"""The dependency rule of DESIGN §1: api -> replay -> domain, and domain imports the standard library only."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "replay", "api")
# What each layer may import from the project itself.
ALLOWED = {"domain": {"domain"}, "replay": {"domain", "replay"}, "api": {"domain", "replay", "api"}}


def imported_roots(path: Path) -> set[str]:
    """Top-level names of every module imported by one file (relative imports belong to its own package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots


def layer_files(layer: str) -> list[Path]:
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", LAYERS)
def test_layer_has_modules(layer: str) -> None:
    assert layer_files(layer), f"{layer}/ has no Python modules"


def test_domain_imports_only_the_standard_library() -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            name for name in imported_roots(path) if name not in sys.stdlib_module_names and name != "domain"
        )
        for path in layer_files("domain")
    }
    assert {file: names for file, names in offenders.items() if names} == {}


@pytest.mark.parametrize("layer", LAYERS)
def test_lower_layers_never_import_higher_ones(layer: str) -> None:
    forbidden = set(LAYERS) - ALLOWED[layer]
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported_roots(path) & forbidden) for path in layer_files(layer)
    }
    assert {file: names for file, names in offenders.items() if names} == {}


def test_the_checker_sees_a_forbidden_import(tmp_path: Path) -> None:
    """The checker itself must be able to fail: a file importing a third-party module is caught."""
    bad = tmp_path / "bad.py"
    bad.write_text("import redis\nfrom api.app import create_app\nfrom . import sibling\n")
    assert imported_roots(bad) == {"redis", "api"}
