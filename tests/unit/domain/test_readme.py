"""The docs' rules-engine examples run (python-chess's executable README): the Rules engine page's, then the
catalog page's, in one namespace as a reader pasting them would."""

from __future__ import annotations

from .helpers import docs_examples, run_examples


def test_the_docs_rules_engine_examples_run() -> None:
    blocks = docs_examples("engine/index.md", "python") + docs_examples("engine/catalog.md", "python")
    assert len(blocks) == 2
    printed, _ = run_examples(blocks)
    assert printed[0] == "{'kind': 'choose_start', 'seat': 0}"
    assert (
        printed[1]
        == "Ana chooses the starting pair SR8 + A2; gains 4 coins, 1 seal, 2 food, 2 iron and 1 pearl"
    )
    assert "Chance: which steward card was revealed for steward room 1?" in printed
    assert printed[-1] == "R-S03 S4 is not among the steward cards left to reveal"


def test_the_package_docstring_example_runs() -> None:
    import doctest

    import domain

    result = doctest.testmod(domain)
    assert result.attempted >= 4 and result.failed == 0
