"""Every numbered rule of the base game (docs/rules/base.md) and of the base solo rival (docs/rules/solo.md) is
named by at least one test of this folder (in a test's name or docstring), and every game area has its own test
module; so are Matcha's rules (docs/rules/matcha.md) in matcha/ and the Tokugawa rival's in tokugawa/."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent

RULES = {
    "S": 12,
    "T": 7,
    "P": 7,
    "C": 5,
    "O": 2,
    "W": 2,
    "D": 3,
    "WA": 4,
    "GA": 2,
    "CA": 5,
    "L": 3,
    "R": 7,
    "PT": 3,
    "E": 5,
    "F": 10,
}
"""The base game's rule groups (docs/rules/base.md): the prefix of each and how many rules it numbers."""

SOLO_RULES = {"SO": 6}
"""The base solo rival (R-SO01..R-SO06, docs/rules/solo.md)."""

AREAS = {
    "test_setup.py",
    "test_turn.py",
    "test_placement.py",
    "test_castle.py",
    "test_outside_walls.py",
    "test_well.py",
    "test_personal_domain.py",
    "test_yards.py",
    "test_gardens.py",
    "test_courtier.py",
    "test_lantern.py",
    "test_resources.py",
    "test_passage_of_time.py",
    "test_end_of_round.py",
    "test_scoring.py",
    "test_solo_setup.py",
    "test_solo_turn.py",
    "test_solo_icons.py",
    "test_solo_end_of_round.py",
    "test_solo_scoring.py",
}


def named_rules() -> set[str]:
    found: set[str] = set()
    for path in HERE.glob("test_*.py"):
        if path.name == Path(__file__).name:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                text = node.name + " " + (ast.get_docstring(node) or "")
                found |= {f"R-{p}{n}" for p, n in re.findall(r"R[_-]([A-Z]+)(\d\d)", text)}
    return found


def test_every_base_game_rule_is_named_by_a_test() -> None:
    expected = {f"R-{prefix}{n:02d}" for prefix, count in RULES.items() for n in range(1, count + 1)}
    assert sorted(expected - named_rules()) == []


def test_every_rule_of_the_solo_rival_is_named_by_a_test() -> None:
    expected = {f"R-{prefix}{n:02d}" for prefix, count in SOLO_RULES.items() for n in range(1, count + 1)}
    assert sorted(expected - named_rules()) == []


def test_one_test_module_per_game_area() -> None:
    assert {path.name for path in HERE.glob("test_*.py")} >= AREAS


def test_the_checker_sees_rule_names() -> None:
    assert {"R-T03", "R-PT02", "R-F10"} <= named_rules()


MATCHA = HERE / "matcha"
"""The Matcha tests (R-M01..R-M19), one module per area."""

MATCHA_AREAS = {
    "test_matcha_setup.py",
    "test_matcha_turn.py",
    "test_tea_garden.py",
    "test_himeji.py",
    "test_ceremony.py",
    "test_matcha_resources.py",
    "test_matcha_end_of_round.py",
    "test_matcha_scoring.py",
}


def matcha_named_rules() -> set[str]:
    found: set[str] = set()
    for path in MATCHA.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                text = node.name + " " + (ast.get_docstring(node) or "")
                found |= {f"R-{p}{n}" for p, n in re.findall(r"R[_-]([A-Z]+)(\d\d)", text)}
    return found


def test_every_matcha_rule_is_named_by_a_test() -> None:
    expected = {f"R-M{n:02d}" for n in range(1, 20)}
    assert sorted(expected - matcha_named_rules()) == []
    assert {path.name for path in MATCHA.glob("test_*.py")} >= MATCHA_AREAS


TOKUGAWA = HERE / "tokugawa"
"""The Tokugawa tests (R-TK01..R-TK07, the solo rival with Matcha), one module per area."""

TOKUGAWA_AREAS = {
    "test_tokugawa_setup.py",
    "test_tokugawa_turn.py",
    "test_tokugawa_symbols.py",
    "test_tokugawa_geishas.py",
    "test_tokugawa_end_of_round.py",
    "test_tokugawa_scoring.py",
}


def tokugawa_named_rules() -> set[str]:
    found: set[str] = set()
    for path in TOKUGAWA.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                text = node.name + " " + (ast.get_docstring(node) or "")
                found |= {f"R-{p}{n}" for p, n in re.findall(r"R[_-]([A-Z]+)(\d\d)", text)}
    return found


def test_every_tokugawa_rule_is_named_by_a_test() -> None:
    expected = {f"R-TK{n:02d}" for n in range(1, 8)}
    assert sorted(expected - tokugawa_named_rules()) == []
    assert {path.name for path in TOKUGAWA.glob("test_*.py")} >= TOKUGAWA_AREAS
