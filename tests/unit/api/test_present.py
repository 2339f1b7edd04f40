"""The board the API answers with is exactly the engine's state as JSON, less the catalog (api.present)."""

from __future__ import annotations

import json
import random

import pytest

import domain
from api import present


@pytest.mark.parametrize(
    ("players", "solo"), [(4, None), (1, "hard")], ids=["four players", "solo against the rival"]
)
def test_board_equals_the_engine_state_as_json_without_its_catalog_all_through_a_game(
    players: int, solo: str | None
) -> None:
    rng = random.Random(11)
    state = domain.new_game(players, seed=11, solo=solo)
    checked = 0
    while not domain.is_over(state):
        expected = present.plain(domain.state_to_dict(state))
        del expected["catalog"]
        board = present.board(state)
        # Same data, same key order: clients diffing successive answers see no spurious change.
        assert json.dumps(board) == json.dumps(expected)
        state = domain.apply(state, rng.choice(domain.legal_moves(state)))
        checked += 1
    assert checked > 20
