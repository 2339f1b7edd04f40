"""Snapshots keep the catalog once (beside the engine's state, not inside it too) and restore the same game;
snapshots written before, with the engine's own copy of the catalog, restore as they did."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import domain
from replay.config import StoreConfig, open_log
from replay.game import GameSnapshot, project_game
from tests.replay_helpers import canonical


@pytest.mark.parametrize(
    "setup",
    [
        {"players": 3, "seed": 2},
        {"players": ["Aiko"], "solo": "hard", "seed": 4},
        {"players": 2, "expansions": ["matcha"], "seed": 4},
        {"players": 2, "mode": "table"},
    ],
    ids=["three players", "solo", "matcha", "table mode"],
)
def test_a_snapshot_holds_the_catalog_once_and_restores_the_same_game(setup: dict[str, Any]) -> None:
    log = open_log(StoreConfig(kind="memory"))
    game_id = log.create_game(setup)
    game = log.get(game_id)
    rng = random.Random(1)
    for _ in range(40):
        if domain.is_over(game.state):
            break
        move = rng.choice(domain.legal_moves(game.state))
        game = log.play(game_id, move, expected_version=game.version, actor="owner").game
    snapshot = GameSnapshot.take(game)
    assert "catalog" not in snapshot.state["engine"]
    stored = log.mapper.to_stored_event(snapshot)  # as the snapshot store keeps it
    restored = project_game(None, [log.mapper.to_domain_event(stored)])
    assert restored is not None
    assert canonical(restored.state) == canonical(game.state)
    assert (restored.line, restored.version, restored.catalog) == (game.line, game.version, game.catalog)

    # A snapshot of the earlier format, with the engine's own copy of the catalog, restores the same.
    earlier = GameSnapshot(
        originator_id=snapshot.originator_id,
        originator_version=snapshot.originator_version,
        timestamp=snapshot.timestamp,
        topic=snapshot.topic,
        state={**snapshot.state, "engine": json.loads(json.dumps(domain.state_to_dict(game.state)))},
    )
    stored_earlier = log.mapper.to_stored_event(earlier)
    again = project_game(None, [log.mapper.to_domain_event(stored_earlier)])
    assert again is not None and canonical(again.state) == canonical(game.state)
    catalog_size = len(json.dumps(game.catalog, separators=(",", ":"), ensure_ascii=False).encode())
    assert len(stored_earlier.state) - len(stored.state) >= 0.9 * catalog_size  # the copy is what was saved


@pytest.mark.parametrize(
    "setup",
    [
        {"players": 4, "seed": 8},
        {"players": ["Aiko"], "solo": "easy", "seed": 8},
        {"players": 3, "expansions": ["matcha"], "seed": 8},
        {"players": 2, "mode": "table"},
    ],
    ids=["four players", "solo", "matcha", "table mode"],
)
def test_a_new_game_is_cached_as_its_events_fold(setup: dict[str, Any]) -> None:
    """Creating a game keeps the state the rules engine built to decide it (not set up once more): it is
    the state the game's events fold to, through the log and through the gatekeeper alike."""
    from replay.access import Gatekeeper
    from replay.game import fold

    log = open_log(StoreConfig(kind="memory"))
    for game_id in (log.create_game(setup), Gatekeeper(log).create_game(setup).game_id):
        cached = log.get(game_id)
        folded = fold(log.events_of(game_id))
        assert canonical(cached.state) == canonical(folded.state)
        assert (cached.version, cached.opening, cached.catalog) == (
            folded.version,
            folded.opening,
            folded.catalog,
        )


def test_a_branch_at_a_version_before_an_amend_copies_the_moves_as_they_were_then() -> None:
    """An amend that keeps a later move may redraw that move's chance; a branch at a version before the amend
    must copy the move as it was recorded then (found by the log's state machine: the branch's fold failed)."""
    from tests.replay_helpers import pick

    log = open_log(StoreConfig(kind="memory"))
    rng = random.Random(2606)
    game_id = log.create_game({"players": 2, "seed": 2606})
    live = {1: canonical(log.get(game_id).state)}
    for _ in range(17):
        game = log.get(game_id)
        log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="m")
        live[game.version + 1] = canonical(log.get(game_id).state)
    for where in (133, 0):  # the state machine's two amends: the second keeps nothing, the first kept a move
        game = log.get(game_id).with_states_from_start()
        position = where % len(game.line)
        original = game.records[game.line[position]].move
        move = rng.choice([m for m in domain.legal_moves(game.state_after(position)) if m != original])
        log.amend(game_id, game.line[position], move, expected_version=game.version, actor="m")
    for version in sorted(live):
        branch = log.fork(game_id, version)
        assert canonical(log.get(branch).state) == live[version]


def test_a_game_is_snapshotted_at_every_round_end_and_every_50_events_from_its_own_phase() -> None:
    from uuid import UUID, uuid4

    from replay.application import SNAPSHOT_EVERY, snapshot_phase

    log = open_log(StoreConfig(kind="memory"))
    # An id whose phase is 17: its snapshots between round ends fall at 67, 117... and never at 50 or 100.
    game_id = log.create_game({"players": 4, "seed": 9}, game_id=UUID(int=17 + 50 * 12345))
    game = log.get(game_id)
    phase = snapshot_phase(game_id)
    assert phase == 17
    rng = random.Random(9)
    expected = []
    while not domain.is_over(game.state):
        before = game
        move = rng.choice(domain.legal_moves(game.state))
        game = log.play(game_id, move, expected_version=game.version, actor="owner").game
        passed = any(v % SNAPSHOT_EVERY == phase for v in range(before.version + 1, game.version + 1))
        if passed or before.state.round != game.state.round:
            expected.append(game.version)
    assert game.version > 2 * SNAPSHOT_EVERY
    assert log.snapshots is not None
    assert [snapshot.originator_version for snapshot in log.snapshots.get(game_id)] == expected
    # Games started together take their snapshots at different versions (a phase drawn from their ids).
    assert len({snapshot_phase(uuid4()) for _ in range(200)}) > SNAPSHOT_EVERY // 2
