"""Corrections on the real stores (a SQLite file, the redis-server `make test` starts): a laid-out game's setup
corrected with its misfits answered by their first suggestion, read back cold by another process's log (from its
snapshot and events), taken back by an undo there, written again by a redo; two seats swapped from the setup."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.corrections import Correction
from replay.events import CorrectionRedone, CorrectionUndone, LineCorrected
from tests.replay_helpers import canonical
from tests.unit.replay import mistakes


@pytest.fixture(params=["sqlite", "redis"])
def config(request: pytest.FixtureRequest, tmp_path: Path) -> StoreConfig:
    if request.param == "sqlite":
        return StoreConfig(kind="sqlite", sqlite_path=tmp_path / "games.sqlite")
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    return StoreConfig(kind="redis", redis_url=request.getfixturevalue("redis_url"), redis_prefix=prefix)


@pytest.fixture
def logs(config: StoreConfig) -> Iterator[tuple[GameLog, GameLog]]:
    """Two logs on one store, as two processes would open it."""
    one, other = open_log(config), open_log(config)
    yield one, other
    one.close()
    other.close()


def test_a_setup_correction_reads_back_cold_and_is_undone_and_redone_from_another_log(
    logs: tuple[GameLog, GameLog],
) -> None:
    log, other = logs
    truth = mistakes.play_truth(2, 12, "laid out")
    mistake = mistakes.FINDERS["wrong card"](truth, random.Random("12:wrong card"))
    assert mistake is not None
    game = mistakes.recorded(truth, mistake, log)
    before = log.reaching(log.get(game.game_id), 0)
    followed = mistakes.follow_first(game)
    assert followed.written
    log.flush_snapshots()
    after = log.get(game.game_id)
    assert isinstance(log.events_of(game.game_id)[-1], LineCorrected)
    cold = other.get(game.game_id)
    assert (cold.line, cold.opening, cold.corrected) == (after.line, after.opening, after.corrected)
    assert canonical(cold.state) == canonical(after.state)
    undone = other.undo(game.game_id, expected_version=cold.version, actor="owner").game
    assert isinstance(other.events_of(game.game_id)[-1], CorrectionUndone)
    assert (undone.line, undone.opening) == (before.line, before.opening)
    assert canonical(log.get(game.game_id).state) == canonical(before.state)
    redone = log.redo(game.game_id, expected_version=undone.version, actor="owner").game
    assert isinstance(log.events_of(game.game_id)[-1], CorrectionRedone)
    assert canonical(other.get(game.game_id).state) == canonical(redone.state) == canonical(after.state)
    assert canonical(other.state_at(game.game_id, before.version)) == canonical(before.state)


def test_two_seats_swapped_from_the_setup_keep_every_move_on_each_store(
    logs: tuple[GameLog, GameLog],
) -> None:
    log, other = logs
    truth = mistakes.play_truth(3, 21, "laid out")
    mistake = mistakes.FINDERS["swapped players"](truth, random.Random("21:swapped players"))
    assert mistake is not None
    game = mistakes.recorded(truth, mistake, log)
    assert game.correction == Correction(1, "swap_seats", seats=game.correction.seats)
    _, report = log.history.correct(game.game_id, game.correction, expected_version=None)
    assert report.all_fit and len(report.kept) == game.later
    cold = other.get(game.game_id)
    assert [cold.records[v].move for v in cold.line] == truth.entries[len(truth.entries) - len(cold.line) :]
