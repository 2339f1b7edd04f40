"""The README's rules-engine examples run (python-chess's executable README)."""

from __future__ import annotations

from .helpers import readme_examples, run_examples


def test_the_readme_rules_engine_examples_run() -> None:
    blocks = readme_examples("## Rules engine", "python")
    assert len(blocks) == 2
    printed, _ = run_examples(blocks)
    assert printed[0] == "{'kind': 'choose_start', 'seat': 0}"
    assert printed[1] == "Ana chooses the starting pair SR9 + A2"
    assert "Chance: which steward card was revealed for steward room 1?" in printed
    assert printed[-1] == "R-S03 S4 is not among the steward cards left to reveal"


def test_the_package_docstring_example_runs() -> None:
    import doctest

    import domain

    result = doctest.testmod(domain)
    assert result.attempted >= 4 and result.failed == 0
