"""Solo games in the game log (in-memory store; R-SO01..R-SO06): the setup stored with the rival's seat, the
rival's turns inside the recorded events, undo and redo across them, amend, fork, snapshots, and an export
imported back equal."""

from __future__ import annotations

import json
import random
import uuid

import pytest

import domain
from replay import InvalidSetup
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.decisions import normalise_setup
from replay.game import GameSnapshot, fold, restore
from tests.replay_helpers import canonical, play_random


@pytest.fixture
def log() -> GameLog:
    return open_log(StoreConfig(kind="memory"))


def solo(log: GameLog, difficulty: str = "medium", seed: int = 7, mode: str = "seeded") -> uuid.UUID:
    return log.create_game({"players": ["Aiko"], "solo": difficulty, "mode": mode, "seed": seed}).game_id


def test_the_stored_setup_lists_the_rival_as_an_automatic_seat() -> None:
    normal = normalise_setup({"players": ["Aiko"], "solo": "easy", "seed": 3})
    assert normal["solo"] == "easy"
    assert normal["players"] == [
        {"name": "Aiko", "colour": "purple"},
        {"name": "Rival", "colour": "green", "automatic": True},
    ]
    assert normalise_setup(normal) == normal  # a stored setup normalises to itself (imports, forks)
    assert "solo" not in normalise_setup({"players": ["Aiko", "Ben"], "seed": 3})
    with pytest.raises(InvalidSetup):
        normalise_setup({"players": ["Aiko", "Ben"], "solo": "easy"})
    with pytest.raises(InvalidSetup):
        normalise_setup({"players": ["Aiko"], "solo": "impossible"})


def test_the_rivals_turns_are_drawn_into_the_events_of_the_players_moves(log: GameLog) -> None:
    game_id = solo(log, "hard")
    game = log.get(game_id)
    assert any(move["kind"] == "solo_card" for move in game.opening)  # the rival played first
    versions = list(play_random(log, game_id, 30, random.Random(3)))
    game = log.get(game_id)
    cards = [m for v in versions for m in game.records[v].chance if m["kind"] == "solo_card"]
    assert cards and all(game.records[v].seat == 0 for v in versions)
    assert canonical(fold(log.events_of(game_id)).state) == canonical(game.state)


def test_undo_takes_back_the_rivals_turn_with_the_move_that_led_to_it(log: GameLog) -> None:
    game_id = solo(log, "easy", seed=4)
    rng = random.Random(4)
    while True:
        game = log.get(game_id)
        before = game.state
        played = log.play(game_id, _pick(before, rng), expected_version=game.version, actor="owner")
        record = log.get(game_id).records[played.versions[-1]]
        if any(move["kind"] == "solo_card" for move in record.chance):
            break
    log.undo(game_id, expected_version=log.get(game_id).version, actor="owner")
    assert canonical(log.get(game_id).state) == canonical(before)
    log.redo(game_id, expected_version=log.get(game_id).version, actor="owner")
    assert log.get(game_id).state.solo.line


def _pick(state: object, rng: random.Random) -> dict[str, object]:
    moves = [m for m in domain.legal_moves(state) if m["kind"] != "convert" and "convert" not in m]
    return dict(rng.choice(moves))


def test_amend_fork_and_snapshots_refold_a_solo_game(log: GameLog) -> None:
    game_id = solo(log, "medium", seed=9)
    list(play_random(log, game_id, 25, random.Random(9)))
    game = log.get(game_id)
    target = game.line[2]
    before = game.state_after(game.line.index(target))  # the state the move was played from
    alternatives = [
        m
        for m in domain.legal_moves(before)
        if m != game.records[target].move and m["kind"] != "convert" and "convert" not in m
    ]
    if alternatives:
        log.amend(game_id, target, alternatives[0], expected_version=game.version, actor="owner")
    amended = log.get(game_id)
    assert canonical(fold(log.events_of(game_id)).state) == canonical(amended.state)
    at = amended.line[min(5, len(amended.line) - 1)]  # the amendment may have dropped the later moves
    branch = log.fork(game_id, at).game_id
    assert canonical(log.get(branch).state) == canonical(log.state_at(game_id, at))
    snapshot = GameSnapshot.take(amended)
    stored = log.stores.all[0].mapper.to_stored_event(
        snapshot
    )  # as the snapshot store keeps it (tuples become lists)
    restored = restore(log.stores.all[0].mapper.to_domain_event(stored), log.events_of(game_id))
    assert restored is not None and restored.line == amended.line
    assert canonical(restored.state) == canonical(amended.state)
    assert restored.state.solo == amended.state.solo


def test_a_table_mode_solo_game_records_each_solo_card_as_a_move(log: GameLog) -> None:
    game_id = solo(log, "hard", mode="table")
    rng = random.Random(5)
    for _ in range(120):
        game = log.get(game_id)
        if domain.is_over(game.state):
            break
        log.play(game_id, _pick(game.state, rng), expected_version=game.version, actor="owner")
    game = log.get(game_id)
    records = [game.records[v] for v in game.line]
    cards = [record for record in records if record.move["kind"] == "solo_card"]
    assert cards and all(record.seat is None for record in cards)
    assert all(record.description.startswith("Rival (automatic) reveals SO") for record in cards)
    entries = log.timeline(game_id)
    assert {entry.player for entry in entries if entry.kind == "solo_card"} == {"Rival"}
    assert all(
        entry.automatic for entry in entries if entry.kind in ("solo_card", "rival_room", "rival_garden")
    )
    text = log.export_text(game_id)
    assert "### Turn 1: Rival" in text and "solo game against the rival, difficulty hard" in text


@pytest.mark.parametrize("mode", ["seeded", "table"])
def test_an_exported_solo_game_imports_back_equal(log: GameLog, mode: str) -> None:
    game_id = solo(log, "hard", seed=13, mode=mode)
    rng = random.Random(13)
    for _ in range(60):
        game = log.get(game_id)
        if domain.is_over(game.state):
            break
        log.play(game_id, _pick(game.state, rng), expected_version=game.version, actor="owner")
    exported = json.loads(json.dumps(log.export(game_id), default=str))
    copy = log.import_log(exported, keep_id=False).game_id
    assert canonical(log.get(copy).state) == canonical(log.get(game_id).state)
    assert log.get(copy).setup == log.get(game_id).setup
