"""tools/mutate.py on a toy tree: a fault the toy test sees is killed, one it cannot see survives."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]

TOY = '''"""A toy rule."""


def may_vote(age: int) -> bool:
    return age >= 18


def never_asked(age: int) -> bool:
    return age < 3
'''
TOY_TEST = """from domain.toy import may_vote


def test_eighteen_votes_seventeen_does_not() -> None:
    assert may_vote(18)
    assert not may_vote(17)
"""


@pytest.fixture(scope="module")
def mutate() -> ModuleType:
    """The tool, loaded from its file (tools/ is not a package)."""
    spec = importlib.util.spec_from_file_location("mutate", ROOT / "tools" / "mutate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutate"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def toy_tree(tmp_path: Path) -> Path:
    (tmp_path / "domain").mkdir()
    (tmp_path / "domain" / "__init__.py").write_text("")
    (tmp_path / "domain" / "toy.py").write_text(TOY)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_voting.py").write_text(TOY_TEST)
    return tmp_path


def test_the_mutants_of_a_toy_module_are_the_documented_faults(mutate: ModuleType, toy_tree: Path) -> None:
    found = mutate.list_mutants(toy_tree / "domain" / "toy.py", toy_tree, None)
    assert [(m.line, m.description) for m in found] == [
        (5, "18 -> 19"),
        (5, "18 -> 17"),
        (5, ">= -> >"),
        (5, ">= -> <"),
        (9, "3 -> 4"),
        (9, "3 -> 2"),
        (9, "< -> <="),
        (9, "< -> >="),
    ]
    boundary = mutate.mutated_source(TOY, found[2], None)
    assert "return age > 18" in boundary
    assert "return age < 3" in boundary  # one fault per mutant


def test_a_tested_rule_s_mutants_are_killed_and_an_untested_one_s_survive(
    mutate: ModuleType, toy_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = mutate.main(["domain/toy.py", "--root", str(toy_tree), "--tests", "tests", "--jobs", "2"])
    out = capsys.readouterr().out
    assert "total: 8 mutants, 4 killed, 4 survived, 0 timed out" in out
    survivors = out.split("survivors:")[1].split()
    assert survivors.count("domain/toy.py:9:") == 4  # never_asked: no test calls it
    assert code == 1
    assert (toy_tree / "domain" / "toy.py").read_text() == TOY  # the tree itself is never written


def test_a_module_of_a_subpackage_first_runs_the_tests_named_after_it_or_its_subpackage(
    mutate: ModuleType, tmp_path: Path
) -> None:
    (tmp_path / "tests").mkdir()
    for name in ("test_castle.py", "test_matcha_setup.py", "test_ceremony.py", "test_words.py"):
        (tmp_path / "tests" / name).write_text("")
    named = mutate._tests_named_after
    assert named("domain/areas/castle.py", tmp_path, ["tests"]) == ["tests/test_castle.py"]
    assert named("domain/matcha/ceremony.py", tmp_path, ["tests"]) == ["tests/test_ceremony.py"]
    assert named("domain/matcha/expansion.py", tmp_path, ["tests"]) == ["tests/test_matcha_setup.py"]
    assert named("domain/words.py", tmp_path, ["tests"]) == ["tests/test_words.py"]
    assert named("domain/engine.py", tmp_path, ["tests"]) is None  # no narrower selection: the whole one
