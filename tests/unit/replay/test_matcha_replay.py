"""A Matcha game in the game log (in-memory store): the expansion is stored in the setup and the Matcha catalog
with the game, a whole game refolds to the live state, it exports and imports back equal, forks keep the
expansion, and a table-mode Matcha game records the expansion's chance prompts as moves."""

from __future__ import annotations

import json
import random

import pytest

import domain
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.errors import InvalidSetup
from replay.game import fold
from tests.replay_helpers import pick


@pytest.fixture
def log() -> GameLog:
    return open_log(StoreConfig(kind="memory"))


def play_to_end(log: GameLog, game_id: object, rng: random.Random) -> None:
    game = log.get(game_id)  # type: ignore[arg-type]
    while not domain.is_over(game.state):
        log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="owner")  # type: ignore[arg-type]
        game = log.get(game_id)  # type: ignore[arg-type]


def test_a_matcha_game_stores_its_expansion_and_catalog(log: GameLog) -> None:
    game_id = log.create_game(
        {"players": ["Aiko", "Ben", "Chie"], "seed": 21, "expansions": ["matcha"]}
    ).game_id
    game = log.get(game_id)
    assert game.setup["expansions"] == ["matcha"]
    assert "matcha" in game.catalog and len(game.catalog["yard_tiles"]) == 12
    assert domain.expansions_of(game.state) == ("matcha",)
    base = log.get(log.create_game({"players": ["Aiko", "Ben"], "seed": 21}).game_id)
    assert "expansions" not in base.setup and "matcha" not in base.catalog
    with pytest.raises(InvalidSetup):
        log.create_game({"players": 2, "expansions": ["tokugawa"]})


def test_a_whole_matcha_game_exports_and_imports_back_equal(log: GameLog) -> None:
    game_id = log.create_game(
        {"players": ["Aiko", "Ben", "Chie", "Dai"], "seed": 22, "expansions": ["matcha"]}
    ).game_id
    play_to_end(log, game_id, random.Random(22))
    live = log.get(game_id)
    events = list(log.stores.all[0].repository.event_store.get(game_id))
    assert fold(events).state == live.state
    exported = json.loads(json.dumps(log.export(game_id), default=str))
    copy = log.import_log(exported, keep_id=False).game_id
    again = json.loads(json.dumps(log.export(copy), default=str))
    assert again.pop("game_id") == str(copy)
    exported.pop("game_id")
    assert again == exported
    assert log.get(copy).state == live.state
    assert [s.to_dict() for s in domain.score(log.get(copy).state)] == [
        s.to_dict() for s in domain.score(live.state)
    ]
    assert "geishas" in log.export_text(copy)
    assert log.revalidate(copy)["ok"] is True


def test_a_fork_of_a_matcha_game_is_a_matcha_game(log: GameLog) -> None:
    game_id = log.create_game({"players": 2, "seed": 23, "expansions": ["matcha"]}).game_id
    state = log.get(game_id).state
    rng = random.Random(23)
    for version in range(1, 9):
        log.play(game_id, pick(state, rng), expected_version=version, actor="owner")
        state = log.get(game_id).state
    branch = log.fork(game_id, 6).game_id
    assert log.get(branch).setup["expansions"] == ["matcha"]
    assert log.get(branch).state == log.state_at(game_id, 6)


def test_a_table_mode_matcha_game_records_the_expansions_chance_as_moves(log: GameLog) -> None:
    game_id = log.create_game({"players": 3, "mode": "table", "expansions": ["matcha"]}).game_id
    seen: set[str] = set()
    game = log.get(game_id)
    while domain.prompt_of(game.state)["kind"] != "take_die":
        prompt = domain.prompt_of(game.state)
        if prompt["kind"] == "reveal":
            seen.add(prompt["pool"])
        if prompt["kind"] == "roll":
            seen.add(f"roll:{prompt['bridge']}")
        moves = domain.legal_moves(game.state)
        move = moves[len(moves) // 2] if moves[0]["kind"] == "reveal" else moves[0]
        log.play(game_id, move, expected_version=game.version, actor="owner")
        game = log.get(game_id)
    assert {"lily_pads", "ikebana", "calligraphy", "ceremony", "yard_tiles", "roll:green"} <= seen
