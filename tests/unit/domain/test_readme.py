"""The README's rules-engine examples run (python-chess's executable README)."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

README = Path(__file__).resolve().parents[3] / "README.md"


def test_the_readme_rules_engine_examples_run() -> None:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Rules engine") : text.index("## Layout")]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    out = io.StringIO()
    namespace: dict[str, object] = {}
    with contextlib.redirect_stdout(out):
        for block in blocks:
            exec(block, namespace)
    printed = out.getvalue().splitlines()
    assert printed[0] == "{'kind': 'choose_start', 'seat': 0}"
    assert printed[1] == "Ana chooses the starting pair SR9 + A2"
    assert printed[-1] == "R-S03 S4 is not in the steward pile any more"


def test_the_package_docstring_example_runs() -> None:
    import doctest

    import domain

    result = doctest.testmod(domain)
    assert result.attempted >= 4 and result.failed == 0
