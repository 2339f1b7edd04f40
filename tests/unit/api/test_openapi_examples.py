"""The OpenAPI document's move examples are moves that recorded games played (tools/move_examples.py writes
them): the file is what the tool writes today, and every example is a move of its kind, legal where it was
played."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import domain
from domain.kinds import KINDS, parse

ROOT = Path(__file__).resolve().parents[3]


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("move_examples", ROOT / "tools" / "move_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_examples_are_what_the_tool_writes_from_recorded_games() -> None:
    written = (ROOT / "api" / "resources" / "move_examples.json").read_text(encoding="utf-8")
    assert written == tool().text(), "run tools/move_examples.py: the rules engine's moves changed"


def test_every_move_kind_has_an_example_of_its_own_shape() -> None:
    examples = json.loads((ROOT / "api" / "resources" / "move_examples.json").read_text())["examples"]
    assert set(examples) == set(KINDS)
    for kind, example in examples.items():
        assert example["move"]["kind"] == kind
        assert parse(example["move"]).as_json() == example["move"]


def test_an_example_is_legal_where_its_game_played_it() -> None:
    examples = json.loads((ROOT / "api" / "resources" / "move_examples.json").read_text())["examples"]
    example = examples["take_die"]
    game = example["game"]
    import random

    rng = random.Random(f"openapi-examples:{game['seed']}")
    state = domain.new_game(
        list(game["players"]),
        mode="table",
        seed=game["seed"],
        draw=False,
        expansions=game["expansions"] or None,
        solo=game["solo"],
    )
    for _ in range(game["move"] - 1):
        state = domain.apply(state, dict(rng.choice(list(domain.legal_moves(state)))), draw=False)
    assert example["move"] in [dict(move) for move in domain.legal_moves(state)]
