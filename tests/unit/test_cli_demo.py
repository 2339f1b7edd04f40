"""`heronlog demo --players N --seed S` prints a seeded game and its score sheet."""

from __future__ import annotations

import pytest

from api.server.cli import main


def test_heronlog_demo_prints_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "2 players, seed 4" in out and "Final score sheet" in out


def test_heronlog_demo_reports_a_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--players", "9"]) == 2
    assert "1 to 4 players" in capsys.readouterr().err


def test_heronlog_demo_plays_a_solo_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--solo", "hard", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "a solo game against the hard rival, seed 3" in out
    assert "Rival (automatic) reveals SO" in out and "Final score sheet" in out
