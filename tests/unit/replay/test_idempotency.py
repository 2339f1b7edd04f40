"""One idempotency mechanism, the log's (replay/idempotency.py): a retried write is answered from what the log
recorded, as the game stood right after it; a creation that hands out a token keeps a receipt first, so a retry
gets the same token and a creation interrupted by a crash is finished by its retry, never done twice."""

from __future__ import annotations

import itertools
import random
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

import domain
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.errors import KeyReused, StaleVersion
from tests.replay_helpers import pick


@pytest.fixture
def log() -> GameLog:
    return open_log(StoreConfig(kind="memory"))


def played_game(log: GameLog, moves: int = 6, seed: int = 3) -> UUID:
    game_id = log.create_game({"players": ["Ann", "Bo"], "seed": seed}).game_id
    rng = random.Random(seed)
    for _ in range(moves):
        game = log.get(game_id)
        log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="owner")
    return game_id


def stored_events(log: GameLog, game_id: UUID) -> list[Any]:
    return list(log.stores.of(game_id).events.get(game_id))


def test_a_retried_move_is_answered_as_the_game_stood_right_after_it_even_when_it_moved_on(
    log: GameLog,
) -> None:
    game_id = played_game(log, moves=0)
    game = log.get(game_id)
    move = pick(game.state, random.Random(1))
    first = log.play(game_id, move, expected_version=1, actor="owner", idempotency_key="tap")
    after = log.get(game_id)
    log.play(game_id, pick(after.state, random.Random(2)), expected_version=after.version, actor="owner")
    again = log.play(game_id, move, expected_version=1, actor="owner", idempotency_key="tap")
    assert again.repeated and again.versions == first.versions
    assert again.game.version == first.game.version == 2
    assert again.game.state == first.game.state
    assert len(stored_events(log, game_id)) == 3


def test_a_key_sent_again_with_another_expected_version_is_another_request(log: GameLog) -> None:
    # If-Match is part of what a request asks: the same move at another version is not a retry of the first.
    game_id = played_game(log, moves=0)
    move = pick(log.get(game_id).state, random.Random(1))
    log.play(game_id, move, expected_version=1, actor="owner", idempotency_key="tap")
    with pytest.raises(KeyReused):
        log.play(game_id, move, expected_version=2, actor="owner", idempotency_key="tap")
    # "*" (None: whatever it is now) asks for the move alone, and is answered as the first was
    assert log.play(game_id, move, expected_version=None, actor="owner", idempotency_key="tap").repeated


@pytest.mark.parametrize("write", ["undo", "redo", "abandon", "amend"])
def test_every_write_to_a_game_is_answered_from_the_log_when_retried(log: GameLog, write: str) -> None:
    game_id = played_game(log)
    game = log.get(game_id)
    if write == "redo":
        log.undo(game_id, expected_version=game.version, actor="owner")
        game = log.get(game_id)

    target = game.line[0]
    recorded = game.records[target].move
    other = next(m for m in domain.legal_moves(log.before_move(game_id, target)[1]) if m != recorded)

    def send(key: str = "k", **changed: Any) -> Any:
        if write == "undo":
            return log.undo(
                game_id, expected_version=game.version, actor="owner", idempotency_key=key, **changed
            )
        if write == "redo":
            return log.redo(
                game_id, expected_version=game.version, actor="owner", idempotency_key=key, **changed
            )
        if write == "abandon":
            reason = changed.get("reason", "the café closed")
            return log.abandon(
                game_id, expected_version=game.version, actor="owner", reason=reason, idempotency_key=key
            )
        move = changed.get("move", other)
        return log.amend(
            game_id, target, move, expected_version=game.version, actor="owner", idempotency_key=key
        )

    first = send()
    events = len(stored_events(log, game_id))
    again = send()
    played = first[0] if write == "amend" else first
    replayed = again[0] if write == "amend" else again
    assert replayed.repeated and replayed.versions == played.versions
    assert replayed.game.version == played.game.version and replayed.game.state == played.game.state
    if write == "amend":
        assert again[1] == first[1], "the amendment's report is decided again, the same"
    assert len(stored_events(log, game_id)) == events, "nothing written by the retry"
    different = {"undo": {"to_version": 1}, "redo": {"count": 1}, "abandon": {"reason": "rain"}}.get(write)
    if write == "amend":
        different = {"move": recorded}
    if write != "redo":
        with pytest.raises(KeyReused):
            send(**(different or {}))


def test_a_stale_write_under_a_new_key_records_nothing_under_it(log: GameLog) -> None:
    game_id = played_game(log, moves=2)
    game = log.get(game_id)
    with pytest.raises(StaleVersion):
        log.undo(game_id, expected_version=game.version - 1, actor="owner", idempotency_key="late")
    assert "late" not in log.get(game_id).keys


def test_a_retried_creation_gets_the_same_game_and_token_and_writes_nothing(log: GameLog) -> None:
    setup = {"players": ["Ann", "Bo"], "seed": 5}
    first = log.create_game(setup, idempotency_key="new")
    again = log.create_game(setup, idempotency_key="new")
    assert (again.game_id, again.token, again.grant, again.version) == (
        first.game_id,
        first.token,
        first.grant,
        first.version,
    )
    assert again.repeated and not first.repeated
    assert len(list(log.iter_game_ids())) == 1
    with pytest.raises(KeyReused):
        log.create_game({"players": ["Ann", "Cy"], "seed": 5}, idempotency_key="new")


def test_a_creation_that_crashed_after_its_receipt_is_finished_by_its_retry_with_the_same_id_and_token(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    setup = {"players": ["Ann", "Bo"], "seed": 5}
    store = log.stores.all[0]
    save = store.save

    def crash(*events: Any) -> Any:
        raise ConnectionError("the worker died before its events were written")

    monkeypatch.setattr(store, "save", crash)
    with pytest.raises(ConnectionError):
        log.create_game(setup, idempotency_key="new")
    assert list(log.iter_game_ids()) == []
    monkeypatch.setattr(store, "save", save)
    retried = log.create_game(setup, idempotency_key="new")
    assert list(log.iter_game_ids()) == [retried.game_id]
    assert log.authenticate(retried.game_id, retried.token) == retried.grant
    again = log.create_game(setup, idempotency_key="new")
    assert (again.game_id, again.token) == (retried.game_id, retried.token) and again.repeated


def test_a_creations_receipt_outlives_the_process_on_sqlite(tmp_path: Path) -> None:
    # A create retried after a worker crash made a second game: its answer was kept in the worker's memory.
    config = StoreConfig(kind="sqlite", sqlite_path=tmp_path / "games.sqlite")
    setup = {"players": ["Ann", "Bo"], "seed": 5}
    first_worker = open_log(config)
    first = first_worker.create_game(setup, idempotency_key="new")
    first_worker.close()
    second_worker = open_log(config)
    again = second_worker.create_game(setup, idempotency_key="new")
    assert (again.game_id, again.token, again.repeated) == (first.game_id, first.token, True)
    assert len(list(second_worker.iter_game_ids())) == 1
    second_worker.close()


def test_forks_imports_and_seat_tokens_are_answered_from_their_receipts(log: GameLog) -> None:
    game_id = played_game(log, moves=4)
    fork = log.fork(game_id, 3, idempotency_key="branch")
    assert log.fork(game_id, 3, idempotency_key="branch").token == fork.token
    copy = log.import_log(log.export(game_id), keep_id=False, idempotency_key="copy")
    assert log.import_log(log.export(game_id), keep_id=False, idempotency_key="copy").game_id == copy.game_id
    seat = log.issue_seat_token(game_id, 1, by="owner", idempotency_key="seat")
    again = log.issue_seat_token(game_id, 1, by="owner", idempotency_key="seat")
    assert (again.token, again.grant, again.repeated) == (seat.token, seat.grant, True)
    assert len(list(log.iter_game_ids())) == 3
    with pytest.raises(KeyReused):
        log.issue_seat_token(game_id, 0, by="owner", idempotency_key="seat")


def test_annotation_writes_are_answered_from_the_annotation_stream(log: GameLog) -> None:
    game_id = played_game(log, moves=2)
    note = log.annotate(
        game_id, version=2, author="owner", text="a fine start", idempotency_key="n1"
    ).annotation
    assert (
        log.annotate(game_id, version=2, author="owner", text="a fine start", idempotency_key="n1").annotation
        == note
    )
    with pytest.raises(KeyReused):
        log.annotate(game_id, version=2, author="owner", text="another text", idempotency_key="n1")
    edited = log.edit_annotation(
        game_id, note.id, editor="owner", text="better", idempotency_key="e1"
    ).annotation
    log.edit_annotation(game_id, note.id, editor="owner", text="best", idempotency_key="e2")
    assert (
        log.edit_annotation(game_id, note.id, editor="owner", text="better", idempotency_key="e1").annotation
        == edited
    )
    log.delete_annotation(game_id, note.id, actor="owner", idempotency_key="d1")
    log.delete_annotation(game_id, note.id, actor="owner", idempotency_key="d1")  # answered, not 404
    assert [n.id for n in log.annotations(game_id)] == []
    stream = log.annotation_stream(game_id)
    assert stream.version == 4, "one comment, two edits and a deletion: the retries wrote nothing"


def test_a_moves_event_holds_its_key_and_no_copy_of_any_answer(log: GameLog) -> None:
    game_id = played_game(log, moves=0)
    move = pick(log.get(game_id).state, random.Random(1))
    log.play(game_id, move, expected_version=1, actor="owner", idempotency_key="tap")
    last = stored_events(log, game_id)[-1]
    assert last.idempotency_key == "tap"
    assert not any(
        isinstance(value, bytes | dict) and "legal_moves" in str(value) for value in vars(last).values()
    )


def _write(log: GameLog, kind: str, game_id: UUID, key: str, expected: int) -> Any:
    """One write of ``kind`` to a game with ``key``, expecting version ``expected``."""
    game = log.get(game_id)
    said: dict[str, Any] = {"expected_version": expected, "actor": "owner", "idempotency_key": key}
    if kind == "move":
        return log.play(game_id, pick(game.state, random.Random(1)), **said)
    if kind == "undo":
        return log.undo(game_id, **said)
    if kind == "redo":
        return log.redo(game_id, **said)
    if kind == "amend":
        version = game.line[0]
        _, before = log.before_move(game_id, version)
        other = next(move for move in domain.legal_moves(before) if move != game.records[version].move)
        return log.amend(game_id, version, other, **said)
    assert kind == "abandon"
    return log.abandon(game_id, **said)


GAME_WRITES = ["move", "undo", "redo", "amend", "abandon"]


@pytest.mark.parametrize(("first", "second"), list(itertools.permutations(GAME_WRITES, 2)))
def test_a_key_recorded_with_one_kind_of_write_is_refused_with_another_and_nothing_is_written(
    log: GameLog, first: str, second: str
) -> None:
    """The log's own check, whatever reaches it (the API refuses such a key sooner, at its count), sent with
    the version the first write expected (as a retry would be): a key recorded with an undo then sent with a
    move was read as a move's and raised a KeyError."""
    game_id = played_game(log, moves=4)
    game = log.get(game_id)
    log.undo(game_id, expected_version=game.version, actor="owner")  # a move to redo
    expected = log.get(game_id).version
    _write(log, first, game_id, "k", expected)
    written = stored_events(log, game_id)
    with pytest.raises(KeyReused):
        _write(log, second, game_id, "k", expected)
    assert stored_events(log, game_id) == written
