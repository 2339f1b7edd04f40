"""bench/report.py: a report is cut into its benches' sections by their marks, so that one bench run again alone
replaces its own section and leaves the others, each with the day it ran, as they were."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tools.benches import load_bench

REPORT = """# heronlog performance report

Written by `make bench`.

<!-- bench_a.py 2026-12-01 27 s -->
## A

| a figure | its anchor |

<!-- bench_b.py 2026-12-02 3 s -->
## B

text of b

## The figures this report owes

| figure | printed by | in this report |
"""


def test_a_report_is_cut_into_its_benches_sections_by_their_marks() -> None:
    report = load_bench("report")
    found = report.sections_of(REPORT)
    assert list(found) == ["bench_a.py", "bench_b.py"]
    day, seconds, text = found["bench_a.py"]
    assert (day, seconds) == ("2026-12-01", 27)
    assert text.startswith("<!-- bench_a.py 2026-12-01 27 s -->\n## A") and "## B" not in text
    assert found["bench_b.py"][2].endswith("text of b\n"), "a section ends where the checklist begins"


def test_one_bench_run_again_replaces_its_own_section_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report = load_bench("report")
    (tmp_path / "bench").mkdir()
    (tmp_path / "docs").mkdir()
    for name in ("bench_a.py", "bench_b.py"):
        (tmp_path / "bench" / name).write_text(f"print('## {name} again')\n")
    (tmp_path / "docs" / "PERFORMANCE.md").write_text(REPORT)
    monkeypatch.setattr(report, "ROOT", tmp_path)
    assert report.main(["--only", "bench_b.py"]) == 0
    written = (tmp_path / "docs" / "PERFORMANCE.md").read_text()
    assert "| a figure | its anchor |" in written and "<!-- bench_a.py 2026-12-01 27 s -->" in written
    assert "## bench_b.py again" in written and "text of b" not in written
    assert "bench_a.py 27 s (2026-12-01)" in written
    assert written.count("## The figures this report owes") == 1
    with pytest.raises(SystemExit):
        report.main(["--only", "bench_c.py"])
