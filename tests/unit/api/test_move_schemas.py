"""The API's move schemas are generated from the move kinds (domain.kinds), as the OpenAPI document's ``Move``
union is: every move the engine lists loads with its kind's schema, and a move the engine finds malformed does
not."""

from __future__ import annotations

import random

import pytest
from marshmallow import ValidationError

import domain
from api.resources.schemas import move_schemas


@pytest.mark.parametrize(
    "setup", [{"players": 3, "mode": "table"}, {"players": 1, "solo": "hard", "expansions": ["matcha"]}]
)
def test_every_listed_move_loads_with_its_kinds_schema(setup: dict[str, object]) -> None:
    schemas = move_schemas()
    setup = dict(setup)
    state = domain.new_game(setup.pop("players"), seed=5, **setup)  # type: ignore[arg-type]
    rng = random.Random(5)
    seen = set()
    while not domain.is_over(state):
        listed = domain.legal_moves(state)
        for move in listed:
            assert schemas[move["kind"]]().load(move) == move
            seen.add(move["kind"])
        state = domain.apply(state, rng.choice(listed))
    assert {"take_die", "place_die", "choose"} <= seen


@pytest.mark.parametrize(
    "move",
    [
        {"kind": "take_die", "seat": 0, "bridge": "coral"},
        {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left", "colour": "x"},
        {"kind": "roll", "seat": 0, "bridge": "coral", "dice": [1, 2, 3]},
        {"kind": "milestone", "seat": 0, "pay": "yes"},
        {"kind": "daimyo_spot", "seat": 0, "spot": 1.5},
        {"kind": "convert", "seat": 0, "to": "coin", "convert": ["coin"]},
    ],
)
def test_a_malformed_move_fails_its_schema_as_it_fails_the_engine(move: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        move_schemas()[str(move["kind"])]().load(move)
    with pytest.raises(domain.InvalidMove):
        domain.kinds.parse(move)
