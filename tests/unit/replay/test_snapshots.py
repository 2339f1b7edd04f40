"""Snapshots keep a game's state, not its history: the engine's state (without the catalog), the line of play and
the words an amendment said again; a game restored from one and the events it summarises is the game. Snapshots
of the earlier formats (the whole fold, as JSON text or JSON data) restore the same. A snapshot that does not
match its events is refused."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

import pytest

import domain
from replay.config import StoreConfig, open_log
from replay.game import GameSnapshot, history, restore
from tests.replay_helpers import canonical, first_format_snapshot


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
def test_a_snapshot_holds_the_state_not_the_history_and_restores_the_same_game(setup: dict[str, Any]) -> None:
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
    data = snapshot.fold()
    assert "catalog" not in data["engine"]
    assert not {"records", "audit", "keys", "catalog", "setup", "opening"} & set(data)
    mapper = log.stores.all[0].mapper
    stored = mapper.to_domain_event(mapper.to_stored_event(snapshot))  # as the snapshot store keeps it
    events = log.events_of(game_id)
    restored = restore(stored, events)
    assert restored is not None
    assert canonical(restored.state) == canonical(game.state)
    assert (restored.line, restored.version, restored.catalog) == (game.line, game.version, game.catalog)
    assert restored.records == game.records and restored.audit == game.audit

    # Snapshots of the earlier formats (the whole fold as JSON text, or as JSON data through the library's
    # transcoder) restore the same, and are several times larger.
    for earlier in (first_format_snapshot(game), first_format_snapshot(game, as_data=True)):
        stored_earlier = mapper.to_stored_event(earlier)
        again = restore(mapper.to_domain_event(stored_earlier), events)
        assert again is not None and canonical(again.state) == canonical(game.state)
        assert again.records == game.records
        assert len(stored_earlier.state) > 2 * len(mapper.to_stored_event(snapshot).state)


def test_a_snapshot_that_does_not_summarise_its_events_is_refused() -> None:
    """Written from a fold that was stale (a store that came back with older data, then took other moves), a
    snapshot ends on another event than the one stored at its version, or has another line of play."""
    log = open_log(StoreConfig(kind="memory"))
    game_id = log.create_game({"players": 2, "seed": 3}).game_id
    rng = random.Random(3)
    game = log.get(game_id)
    for _ in range(12):
        game = log.play(
            game_id, rng.choice(domain.legal_moves(game.state)), expected_version=game.version, actor="o"
        ).game
    events = log.events_of(game_id)
    snapshot = GameSnapshot.take(game)
    assert restore(snapshot, events) is not None
    later = replace(snapshot, timestamp=snapshot.timestamp + timedelta(microseconds=1))
    assert restore(later, events) is None  # another event at its version
    assert restore(snapshot, events[:-1]) is None  # the store holds fewer events
    other_line = json.loads(str(snapshot.state))
    other_line["line"] = other_line["line"][:-1]
    assert restore(replace(snapshot, state=json.dumps(other_line)), events) is None


def test_the_history_read_without_the_rules_is_the_folds() -> None:
    """Moves with idempotency keys, undo, redo, an amendment, an abandon: the history read from the events alone
    (what a snapshot is restored with) is the fold's, field for field, but for the states."""
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
    game = log.get(game_id)
    log.abandon(game_id, expected_version=game.version, actor="owner", reason="bedtime — ça suffit")
    game = log.get(game_id)
    past = history(log.events_of(game_id))
    for field in dataclasses.fields(game):
        if field.name == "records":
            # the words an amendment said again need the rules: the history keeps the recorded ones
            assert {v: replace(r, description="", redescribed=False) for v, r in past.records.items()} == {
                v: replace(r, description="", redescribed=False) for v, r in game.records.items()
            }
        elif field.name not in ("states", "base"):
            assert getattr(past, field.name) == getattr(game, field.name), field.name
    restored = restore(GameSnapshot.take(game), log.events_of(game_id))
    assert restored is not None
    for field in dataclasses.fields(restored):
        if field.name not in ("states", "base"):
            assert getattr(restored, field.name) == getattr(game, field.name), field.name


def test_snapshot_storage_grows_with_the_state_not_the_history() -> None:
    """A game undone and replayed over and over: its history grows with every event, its snapshots do not."""
    log = open_log(StoreConfig(kind="memory"))
    game_id = log.create_game({"players": 2, "seed": 12}).game_id
    rng = random.Random(12)
    sizes = []
    for round_trip in range(40):
        game = log.get(game_id)
        for _ in range(3):
            game = log.play(
                game_id,
                rng.choice(domain.legal_moves(game.state)),
                expected_version=game.version,
                actor="o",
                idempotency_key=f"k{game.version}",
            ).game
        game = log.undo(
            game_id,
            to_version=game.line[-3] if len(game.line) > 3 else None,
            expected_version=game.version,
            actor="o",
        ).game
        if round_trip in (5, 39):
            sizes.append(
                (
                    game.version,
                    len(str(GameSnapshot.take(game).state)),
                    len(first_format_snapshot(game).state),
                )
            )
    (v1, new1, old1), (v2, new2, old2) = sizes
    assert v2 > 5 * v1
    assert old2 - old1 > 20 * abs(new2 - new1)  # the whole fold grows with the events, the state hardly
    assert new2 < 1.5 * new1


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


def test_a_snapshot_anchors_the_rebuilding_of_earlier_states_only_for_the_line_and_event_it_was_taken_at() -> (
    None
):
    """``GameSnapshot.state_on``: what rebuilding a game's earlier states starts from (GameRepository.reaching). A
    snapshot of another line length, of an event the game does not hold (a line the store lost), or of other
    rules gives nothing; the earlier format's snapshots anchor the same."""
    log = open_log(StoreConfig(kind="memory"))
    game_id = log.create_game({"players": 3, "seed": 6}).game_id
    game = log.get(game_id)
    rng = random.Random(6)
    for _ in range(12):
        move = rng.choice(domain.legal_moves(game.state))
        game = log.play(game_id, move, expected_version=game.version, actor="owner").game
    moves = len(game.line)
    for snapshot in (GameSnapshot.take(game), first_format_snapshot(game)):
        state = snapshot.state_on(game, moves)
        assert state is not None and canonical(state) == canonical(game.state)
        assert snapshot.state_on(game, moves - 1) is None
        assert (
            replace(snapshot, timestamp=snapshot.timestamp + timedelta(seconds=1)).state_on(game, moves)
            is None
        )
        assert snapshot.state_on(replace(game, rules_version="0.0.9"), moves) is None
    log.close()
