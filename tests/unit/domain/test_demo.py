"""`heronlog demo`: a seeded game played by random legal moves, printed move by move, then the score sheet."""

from __future__ import annotations

import pytest

import domain
from domain.demo import demo


def test_demo_prints_every_move_and_the_final_sheet() -> None:
    text = demo(3, seed=5)
    lines = text.splitlines()
    assert lines[0].startswith("The White Castle: a seeded demo game, 3 players, seed 5")
    assert "Setup" in lines and "Round 1" in lines and "Round 3" in lines
    assert any(line.strip().startswith("[3]") for line in lines)
    table = lines[
        lines.index("Final score sheet (ties go to the player higher on the turn-order track)") + 2 :
    ]
    assert table[0].split()[:2] == ["Player", "CP"]
    assert sorted(row.split()[-1] for row in table[1:]) == ["1", "2", "3"]


def test_demo_is_deterministic_per_seed() -> None:
    assert demo(2, seed=8) == demo(2, seed=8)
    assert demo(2, seed=8) != demo(2, seed=9)


def test_demo_refuses_impossible_player_counts() -> None:
    with pytest.raises(domain.InvalidSetup):
        demo(6, seed=1)
