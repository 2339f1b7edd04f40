"""Snapshots keep the catalog once (beside the engine's state, not inside it too) and restore the same game;
snapshots written before, with the engine's own copy of the catalog, restore as they did."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping
from datetime import datetime
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
    game_id = log.create_game(setup).game_id
    game = log.get(game_id)
    rng = random.Random(1)
    for _ in range(40):
        if domain.is_over(game.state):
            break
        move = rng.choice(domain.legal_moves(game.state))
        game = log.play(game_id, move, expected_version=game.version, actor="owner").game
    snapshot = GameSnapshot.take(game)
    assert "catalog" not in snapshot.fold()["engine"]
    stored = log.stores.all[0].mapper.to_stored_event(snapshot)  # as the snapshot store keeps it
    restored = project_game(None, [log.stores.all[0].mapper.to_domain_event(stored)])
    assert restored is not None
    assert canonical(restored.state) == canonical(game.state)
    assert (restored.line, restored.version, restored.catalog) == (game.line, game.version, game.catalog)

    # Snapshots of the earlier formats (JSON data through the library's transcoder, with or without the
    # engine's own copy of the catalog) restore the same.
    with_copy = {**snapshot.fold(), "engine": json.loads(json.dumps(domain.state_to_dict(game.state)))}
    sizes = []
    for data in (snapshot.fold(), with_copy):
        stored_earlier = log.stores.all[0].mapper.to_stored_event(earlier_format(snapshot, data))
        again = project_game(None, [log.stores.all[0].mapper.to_domain_event(stored_earlier)])
        assert again is not None and canonical(again.state) == canonical(game.state)
        sizes.append(len(stored_earlier.state))
    catalog_size = len(json.dumps(game.catalog, separators=(",", ":"), ensure_ascii=False).encode())
    assert sizes[1] - sizes[0] >= 0.9 * catalog_size  # the copy is what was saved


def earlier_format(snapshot: GameSnapshot, data: dict[str, Any]) -> GameSnapshot:
    """``snapshot`` as snapshots were written before their fold became JSON text: JSON data."""
    return GameSnapshot(
        originator_id=snapshot.originator_id,
        originator_version=snapshot.originator_version,
        timestamp=snapshot.timestamp,
        topic=snapshot.topic,
        state=data,
    )


def test_a_snapshot_restores_every_part_of_a_game_and_reads_as_the_earlier_format_did() -> None:
    """Moves with idempotency keys, an undo, a redo, an amend, a branch's parent and an abandon: a game
    restored from its snapshot is the game, field for field, in both formats; and the fold written as JSON
    text is the JSON data the earlier format held (each record's fields by name, times as times)."""
    log = open_log(StoreConfig(kind="memory"))
    rng = random.Random(5)
    game_id = log.create_game({"players": 3, "seed": 5}).game_id
    for index in range(14):
        game = log.get(game_id)
        move = rng.choice(domain.legal_moves(game.state))
        key = f"key-{index}" if index % 3 == 0 else None
        log.play(game_id, move, expected_version=game.version, actor=f"seat:{index % 3}", idempotency_key=key)
    game = log.get(game_id)
    log.undo(game_id, to_version=game.line[-3], expected_version=game.version, actor="owner")
    game = log.get(game_id)
    log.redo(game_id, expected_version=game.version, actor="owner")
    game = log.get(game_id).with_states_from_start()
    original = game.records[game.line[4]].move
    amended = next(m for m in domain.legal_moves(game.state_after(4)) if m != original)
    log.amend(game_id, game.line[4], amended, expected_version=game.version, actor="owner")
    branch = log.fork(game_id, log.get(game_id).version - 1).game_id
    game = log.get(game_id)
    log.abandon(game_id, expected_version=game.version, actor="owner", reason="bedtime — ça suffit")

    for game in (log.get(game_id), log.get(branch)):
        snapshot = GameSnapshot.take(game)
        assert isinstance(snapshot.state, str)
        earlier = {
            "created_on": game.created_on,
            "setup": game.setup,
            "rules_version": game.rules_version,
            "catalog": game.catalog,
            "opening": list(game.opening),
            "parent": game.parent,
            "records": [
                {
                    "version": record.version,
                    "move": record.move,
                    "chance": list(record.chance),
                    "seat": record.seat,
                    "actor": record.actor,
                    "at": record.at,
                    "description": record.description,
                    "idempotency_key": record.idempotency_key,
                    "amends": record.amends,
                }
                for record in game.records.values()
            ],
            "line": list(game.line),
            "redo": list(game.redo),
            "audit": [entry.to_dict() for entry in game.audit],
            "keys": {key: list(versions) for key, versions in game.keys.items()},
            "abandoned": game.abandoned.to_dict() if game.abandoned else None,
            "engine": json.loads(json.dumps(domain.state_to_dict(game.state, catalog=False))),
        }
        # this format marks its records' words as the line of play's (an amendment's kept moves described
        # again), and each record says which move of an amendment's resolution it is (``resolves``, none here);
        # a snapshot without them, as ``earlier`` is, is restored as one written before
        records = [{**record, "resolves": None} for record in earlier["records"]]
        assert as_data(snapshot.fold()) == as_data({**earlier, "records": records, "described_on_line": True})
        for taken in (snapshot, earlier_format(snapshot, earlier)):
            mapper = log.stores.all[0].mapper
            restored = project_game(None, [mapper.to_domain_event(mapper.to_stored_event(taken))])
            assert restored is not None
            for field in dataclasses.fields(restored):
                if field.name not in ("states", "base"):
                    assert getattr(restored, field.name) == getattr(game, field.name), field.name
            assert canonical(restored.state) == canonical(game.state)
    assert log.get(game_id).abandoned is not None and log.get(branch).parent is not None
    assert any(record.amends for record in log.get(game_id).records.values())
    assert log.get(game_id).keys and log.get(game_id).audit


def as_data(value: Any) -> Any:
    """Tuples as lists and times kept as times (with their zone): what two folds must agree on."""
    if isinstance(value, Mapping):
        return {key: as_data(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [as_data(item) for item in value]
    if isinstance(value, datetime):
        return ("time", value, value.utcoffset())
    return value


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
    the state the game's events fold to."""
    from replay.game import fold

    log = open_log(StoreConfig(kind="memory"))
    for game_id in (log.create_game(setup).game_id, log.create_game(setup, idempotency_key="k").game_id):
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
    game_id = log.create_game({"players": 2, "seed": 2606}).game_id
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
        branch = log.fork(game_id, version).game_id
        assert canonical(log.get(branch).state) == live[version]


def test_a_game_is_snapshotted_at_every_round_end_and_every_50_events_from_its_own_phase() -> None:
    from uuid import UUID, uuid4

    from replay.snapshots import SNAPSHOT_EVERY, snapshot_phase

    log = open_log(StoreConfig(kind="memory"))
    # An id whose phase is 17: its snapshots between round ends fall at 67, 117... and never at 50 or 100.
    game_id = log.create_game({"players": 4, "seed": 9}, game_id=UUID(int=17 + 50 * 12345)).game_id
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
    assert log.stores.all[0].snapshots is not None
    assert [
        snapshot.originator_version for snapshot in log.stores.of(game_id).snapshots.get(game_id)
    ] == expected
    # Games started together take their snapshots at different versions (a phase drawn from their ids).
    assert len({snapshot_phase(uuid4()) for _ in range(200)}) > SNAPSHOT_EVERY // 2
