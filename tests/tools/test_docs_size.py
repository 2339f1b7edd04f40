"""The docs site stays readable: at most 40,000 words in all, counted over the Markdown pages its nav includes
(the benchmark report and the changelog included). A page's words are its whitespace-separated tokens, as
``wc -w`` counts them, code and tables included; a snippet a page includes (``--8<-- "FILE"``) counts as its
text."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
MOST_WORDS = 40_000

SNIPPET = re.compile(r'^--8<--\s+"([^"]+)"\s*$', re.MULTILINE)


def nav_pages(nav: Any) -> list[str]:
    """Every page file a MkDocs nav names, in nav order (sections walked, external links left out)."""
    if isinstance(nav, str):
        return [nav] if nav.endswith(".md") else []
    if isinstance(nav, list):
        return [page for item in nav for page in nav_pages(item)]
    if isinstance(nav, dict):
        return [page for value in nav.values() for page in nav_pages(value)]
    return []


def words(page: Path, root: Path) -> int:
    """The words of one page, with the snippets it includes (paths from ``root``) in place of their lines."""
    text = page.read_text(encoding="utf-8")
    text = SNIPPET.sub(lambda match: (root / match.group(1)).read_text(encoding="utf-8"), text)
    return len(text.split())


def site_words(root: Path) -> dict[str, int]:
    """The words of each page of the site at ``root`` (its mkdocs.yml and docs folder)."""
    config = yaml.safe_load((root / "mkdocs.yml").read_text(encoding="utf-8"))
    docs = root / config.get("docs_dir", "docs")
    return {name: words(docs / name, root) for name in nav_pages(config["nav"])}


def test_the_docs_site_is_at_most_40000_words() -> None:
    counted = site_words(ROOT)
    assert "PERFORMANCE.md" in counted and "changelog.md" in counted, "the report and the changelog count"
    assert len(counted) > 40, "the nav names too few pages: the count is broken"
    total = sum(counted.values())
    largest = ", ".join(
        f"{name} {count}" for name, count in sorted(counted.items(), key=lambda kv: -kv[1])[:8]
    )
    assert total <= MOST_WORDS, (
        f"the docs site has {total} words, more than {MOST_WORDS}; the largest: {largest}"
    )


def test_the_counter_walks_sections_and_counts_snippets(tmp_path: Path) -> None:
    (tmp_path / "docs" / "part").mkdir(parents=True)
    (tmp_path / "mkdocs.yml").write_text(
        "docs_dir: docs\nnav:\n  - Home: index.md\n  - Part:\n      - part/index.md\n"
        "      - A page: part/page.md\n      - Elsewhere: https://example.org/\n  - Log: log.md\n",
        encoding="utf-8",
    )
    (tmp_path / "docs" / "index.md").write_text("# Home\n\nthree more words\n", encoding="utf-8")
    (tmp_path / "docs" / "part" / "index.md").write_text("one\n", encoding="utf-8")
    (tmp_path / "docs" / "part" / "page.md").write_text(
        "a | table | row\n```\ncode too\n```\n", encoding="utf-8"
    )
    (tmp_path / "docs" / "log.md").write_text('--8<-- "CHANGES.md"\n', encoding="utf-8")
    (tmp_path / "docs" / "orphan.md").write_text("not in the nav, not counted\n", encoding="utf-8")
    (tmp_path / "CHANGES.md").write_text("## 1.0\n\nfive words of history here\n", encoding="utf-8")
    assert site_words(tmp_path) == {"index.md": 5, "part/index.md": 1, "part/page.md": 9, "log.md": 7}
