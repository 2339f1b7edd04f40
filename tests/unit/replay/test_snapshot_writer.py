"""The background snapshot writer: it stores what it is given in order, falls back to the caller when its
queue is full, logs (never raises) a failed write, and stores what is queued when closed."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any, cast

import pytest

from replay.game import Game
from replay.snapshots import SnapshotWriter


def fake_game(version: int) -> Game:
    class Fake:
        id = "game"

    game = Fake()
    game.version = version  # type: ignore[attr-defined]
    return cast(Game, game)


def test_the_writer_stores_every_game_it_is_given_in_order() -> None:
    written: list[int] = []
    writer = SnapshotWriter(lambda game: written.append(game.version))
    for version in range(1, 21):
        assert writer.submit(fake_game(version))
    assert writer.flush(timeout=10)
    assert written == list(range(1, 21))
    writer.close()


def test_a_full_queue_leaves_the_snapshot_to_the_caller() -> None:
    started, release = threading.Event(), threading.Event()
    written: list[int] = []

    def slow(game: Game) -> None:
        started.set()
        release.wait(10)
        written.append(game.version)

    writer = SnapshotWriter(slow, capacity=1)
    assert writer.submit(fake_game(1))  # taken by the thread, which waits
    assert started.wait(10)
    assert writer.submit(fake_game(2))  # fills the queue
    assert not writer.submit(fake_game(3))  # full: the caller writes this one itself
    release.set()
    writer.close()
    assert written == [1, 2]


def test_a_failed_snapshot_is_logged_and_the_next_ones_are_stored(caplog: pytest.LogCaptureFixture) -> None:
    written: list[int] = []

    def flaky(game: Game) -> None:
        if game.version == 2:
            raise OSError("the store is away")
        written.append(game.version)

    writer = SnapshotWriter(flaky)
    with caplog.at_level(logging.WARNING, logger="replay.application"):
        for version in (1, 2, 3):
            writer.submit(fake_game(version))
        assert writer.flush(timeout=10)
    writer.close()
    assert written == [1, 3]
    assert "could not store the snapshot of game game at version 2" in caplog.text


def test_closing_stores_what_is_queued_and_stops_the_thread() -> None:
    written: list[Any] = []
    writer = SnapshotWriter(lambda game: written.append(game.version))
    for version in range(5):
        writer.submit(fake_game(version))
    writer.close()
    assert written == [0, 1, 2, 3, 4]
    assert writer.flush(timeout=0)  # nothing left, no thread


def test_the_server_stores_snapshots_in_the_background() -> None:
    from api.app import create_app
    from api.resources.context import services
    from replay.config import StoreConfig

    app = create_app({"STORE": StoreConfig(kind="memory"), "SNAPSHOTS_IN_BACKGROUND": True, "TESTING": True})
    with app.app_context():
        assert services().log.snapshots.background
    plain = create_app({"STORE": StoreConfig(kind="memory"), "TESTING": True})
    with plain.app_context():
        assert not services().log.snapshots.background


def test_a_snapshot_waits_a_moment_before_it_is_taken_but_not_on_closing() -> None:
    written: list[float] = []
    writer = SnapshotWriter(lambda game: written.append(time.monotonic()), delay=0.2)
    queued = time.monotonic()
    writer.submit(fake_game(1))
    assert writer.flush(timeout=10)
    assert written[0] - queued >= 0.2  # the write that queued it answers first
    writer.close()
    # An hour's wait: a close that waited for it would run into the suite's 10-minute timeout.
    patient = SnapshotWriter(lambda game: written.append(time.monotonic()), delay=3600)
    patient.submit(fake_game(2))
    patient.close()
    assert len(written) == 2, "closing stores a queued snapshot at once"
