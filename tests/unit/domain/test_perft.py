"""Legal moves listed at known positions (python-chess's perft): every position of the golden games (table
mode, chance prompts included) and of random playouts of every variant lists exactly the moves recorded in
perft.json (`perft_support`), so a faster listing is the same listing."""

from __future__ import annotations

import json

import pytest

from . import perft_support as perft

RECORDED = json.loads(perft.PERFT.read_text(encoding="utf-8"))


def test_every_golden_game_and_playout_has_its_recorded_listings() -> None:
    assert sorted(RECORDED) == sorted([*perft.GOLDEN_FILES, *perft.PLAYOUTS])


@pytest.mark.parametrize("path", perft.GOLDEN_FILES)
def test_a_golden_game_lists_the_recorded_legal_moves_at_every_position(path: str) -> None:
    assert perft.summary(perft.golden_listings(path)) == RECORDED[path]


@pytest.mark.parametrize("name", sorted(perft.PLAYOUTS))
def test_a_random_playout_lists_the_recorded_legal_moves_at_every_position(name: str) -> None:
    assert perft.summary(perft.playout_listings(perft.PLAYOUTS[name])) == RECORDED[name]
