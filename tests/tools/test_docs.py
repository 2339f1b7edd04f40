"""The docs site explains every rule the code cites: each rule number, decision, verdict and component section
cited in domain/, replay/ or api/ is a heading of the docs' rules pages, and no heading is there twice.

The code cites the rules in four forms, each a heading of a page of docs/rules/:

- a rule, ``R-P04`` (``R-`` then capitals then digits); a range ``R-M06..R-M09`` cites its two ends;
- a project decision, ``C.3`` (a capital C, a dot, a number);
- a verdict on a disagreement between the rule texts, ``docs/rules/disagreements.md E13`` or ``... C5/C6``;
- a section of the printed components, ``docs/rules/components.md §1.11, §1.12``.

On the rules pages each of them is a heading whose first word is the number (``### R-P04 Paying in full``,
``## C.3 Milestones may be declined``, ``### E13 The solo opponent``, ``## 1.11 Counts``).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE_FOLDERS = ("domain", "replay", "api")
CODE_SUFFIXES = (".py", ".js", ".html")
RULES_PAGES = tuple(
    ROOT / "docs" / "rules" / name
    for name in ("base.md", "matcha.md", "solo.md", "decisions.md", "disagreements.md", "components.md")
)

RULE = re.compile(r"\bR-[A-Z]+\d+\b")
DECISION = re.compile(r"\bC\.\d+\b")
VERDICTS = re.compile(r"\bdisagreements\.md\s+((?:[EC]\d+)(?:\s*/\s*[EC]\d+)*)")
COMPONENT_SECTIONS = re.compile(r"\bcomponents\.md((?:,?\s*(?:and\s+)?§\s*\d+\.\d+)+)")
HEADING = re.compile(r"^#{2,4}\s+(\S+)", re.MULTILINE)
NUMBERED = re.compile(r"^(?:R-[A-Z]+\d+|C\.\d+|[EC]\d+|\d+\.\d+)$")


def citations(text: str) -> set[str]:
    """Every rule number, decision, verdict and component section one text cites."""
    found = set(RULE.findall(text)) | set(DECISION.findall(text))
    for group in VERDICTS.findall(text):
        found.update(re.findall(r"[EC]\d+", group))
    for group in COMPONENT_SECTIONS.findall(text):
        found.update(re.findall(r"\d+\.\d+", group))
    return found


def cited_in(folders: list[Path]) -> dict[str, list[str]]:
    """Each number cited in the code of these folders, with the files (relative to ROOT) that cite it."""
    cited: dict[str, list[str]] = {}
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.suffix in CODE_SUFFIXES and path.is_file():
                for number in citations(path.read_text(encoding="utf-8")):
                    cited.setdefault(number, []).append(str(path.relative_to(folder.parent)))
    return cited


def headings(pages: tuple[Path, ...]) -> list[str]:
    """The numbers the rules pages give headings to, in page order, repeats included."""
    numbers: list[str] = []
    for page in pages:
        numbers.extend(
            word for word in HEADING.findall(page.read_text(encoding="utf-8")) if NUMBERED.match(word)
        )
    return numbers


def missing(cited: dict[str, list[str]], explained: set[str]) -> list[str]:
    """One line per cited number that no rules page explains, with where it is cited."""
    return [
        f"{number} (cited in {', '.join(sorted(set(files))[:3])})"
        for number, files in sorted(cited.items())
        if number not in explained
    ]


def test_every_rule_the_code_cites_has_a_heading_in_the_rules_pages() -> None:
    cited = cited_in([ROOT / folder for folder in CODE_FOLDERS])
    assert len(cited) > 100, "the code cites rules: the scan found too few, so it is broken"
    unexplained = missing(cited, set(headings(RULES_PAGES)))
    assert not unexplained, "cited in the code, but no heading in docs/rules/: " + "; ".join(unexplained)


def test_each_rule_heading_appears_once() -> None:
    repeated = [number for number, count in Counter(headings(RULES_PAGES)).items() if count > 1]
    assert not repeated, f"headings given more than once in docs/rules/: {repeated}"


def test_a_planted_citation_without_a_heading_is_reported(tmp_path: Path) -> None:
    code = tmp_path / "domain"
    code.mkdir()
    (code / "planted.py").write_text(
        '"""Cites R-P04, decision C.3, disagreements.md E13, disagreements.md C5/C6, components.md §1.11, §1.12 '
        'and R-ZZ99."""\n'
    )
    (code / "page.html").write_text("<p>a rule the docs never explain (R-QQ07)</p>\n")
    cited = cited_in([code])
    assert set(cited) == {"R-P04", "C.3", "E13", "C5", "C6", "1.11", "1.12", "R-ZZ99", "R-QQ07"}
    unexplained = missing(cited, set(headings(RULES_PAGES)))
    assert unexplained == ["R-QQ07 (cited in domain/page.html)", "R-ZZ99 (cited in domain/planted.py)"]


def test_a_repeated_heading_is_reported(tmp_path: Path) -> None:
    page = tmp_path / "rules.md"
    page.write_text("# Rules\n\n### R-P04 Paying\n\ntext\n\n## C.3 Milestones\n\n### R-P04 Paying again\n")
    numbers = headings((page,))
    assert numbers == ["R-P04", "C.3", "R-P04"]
    assert [number for number, count in Counter(numbers).items() if count > 1] == ["R-P04"]


def test_the_readme_is_the_front_door() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200, (
        "the README is the front door: at most 200 lines, the rest in docs/"
    )
    assert "make run" in readme and "make test" in readme


# --- the decisions page: each decision and reading names a test that exists -

DECISIONS = ROOT / "docs" / "rules" / "decisions.md"
DOMAIN_TESTS = ROOT / "tests" / "unit" / "domain"
TEST_CITED = re.compile(r"`([\w/]+\.py)::(test_\w+)`")


def unheld(text: str, tests: Path) -> list[str]:
    """Each decision (a ``## C.`` section) and reading (a ``###`` section or a bullet under ``## Readings``) that
    cites no test, and each test cited that is not a test function of its file under `tests`."""
    problems = [
        f"{path}::{name} does not exist"
        for path, name in TEST_CITED.findall(text)
        if not (tests / path).is_file() or f"def {name}(" not in (tests / path).read_text(encoding="utf-8")
    ]
    decisions, _, readings = text.partition("\n## Readings")
    parts = re.split(r"\n(?=## C\.)", decisions)[1:] + re.split(r"\n(?=### |- \*\*)", readings)[1:]
    for part in parts:
        heading, _, body = part.partition("\n")
        over_bullets = heading.startswith("### ") and not body.strip()  # a group's heading: its bullets cite
        if not over_bullets and not TEST_CITED.search(part):
            problems.append(f"no test for: {heading[:80]}")
    return problems


def test_every_decision_and_reading_names_a_test_that_exists() -> None:
    text = DECISIONS.read_text(encoding="utf-8")
    assert len(TEST_CITED.findall(text)) > 40, "the page cites tests: the scan found too few, so it is broken"
    assert unheld(text, DOMAIN_TESTS) == []


def test_a_reading_without_a_test_or_with_a_missing_one_is_reported(tmp_path: Path) -> None:
    (tmp_path / "test_x.py").write_text("def test_real() -> None: ...\n", encoding="utf-8")
    page = (
        "# D\n\n## C.1 Held { #c1 }\n\n`test_x.py::test_real`.\n\n## C.2 Bare { #c2 }\n\nNo test.\n\n"
        "## Readings\n\n### Group\n\n- **One.** `test_x.py::test_gone`.\n- **Two.** None.\n"
    )
    assert unheld(page, tmp_path) == [
        "test_x.py::test_gone does not exist",
        "no test for: ## C.2 Bare { #c2 }",
        "no test for: - **Two.** None.",
    ]
