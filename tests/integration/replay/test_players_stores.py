"""The players on SQLite, Redis and three Redis Cluster shards: the projection survives a restart and a rebuild
answers the same; facts kept twice, or by two processes at once, count once; games written while no process kept
their facts are taken from the index on the next read; the views pass the cases every store passes."""

from __future__ import annotations

import random
import threading
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import domain
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.players.names import id_of
from replay.views import Views
from tests.bulk_games import write_games
from tests.replay_helpers import pick
from tests.views_cases import CASES

KINDS = ["sqlite", "redis", "shards"]
NAMES = ["Aiko", "Ben", "Chie", "Dai"]


def config(kind: str, tmp_path: Path, request: pytest.FixtureRequest, prefix: str) -> StoreConfig:
    if kind == "sqlite":
        return StoreConfig(kind="sqlite", sqlite_path=tmp_path / "players.sqlite")
    if kind == "shards":
        return StoreConfig(
            kind="redis", redis_url=request.getfixturevalue("cluster_url"), redis_prefix=prefix, shards=3
        )
    return StoreConfig(kind="redis", redis_url=request.getfixturevalue("redis_url"), redis_prefix=prefix)


@pytest.fixture(params=KINDS)
def opened(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], GameLog]:
    """Opens the game log of one store (again and again: each call is another process's view of it)."""
    chosen = config(request.param, tmp_path, request, f"players-{uuid.uuid4().hex[:10]}")
    logs: list[GameLog] = []

    def new() -> GameLog:
        logs.append(open_log(chosen))
        return logs[-1]

    yield new
    for log in logs:
        log.close()


def finish(log: GameLog, names: list[str], seed: int) -> uuid.UUID:
    game_id = log.create_game({"players": names, "seed": seed}).game_id
    rng = random.Random(seed)
    game = log.get(game_id)
    while not domain.is_over(game.state):
        game = log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="owner").game
    return game_id


def answers(log: GameLog) -> Any:
    reading = log.players.reading
    rows, total = reading.page(order="rating", search=None, offset=0, limit=50, held=())
    return total, rows, [reading.player(row.player_id, ()) for row in rows]


def test_the_players_survive_a_restart_and_a_rebuild_answers_the_same(opened: Callable[[], GameLog]) -> None:
    log = opened()
    for seed in range(3):
        finish(log, NAMES[seed : seed + 2], seed)
    before = answers(log)
    assert before[0] == 4 and {row.games for row in before[1]} == {1, 2}
    log.close()
    again = opened()
    assert answers(again) == before
    assert again.players.rebuild() == 3
    assert answers(again) == before
    assert answers(opened()) == before  # another process finds the rebuilt generation in use


def test_facts_kept_again_or_by_two_processes_at_once_count_once(opened: Callable[[], GameLog]) -> None:
    log, other = opened(), opened()
    games = [finish(log, ["Aiko", "Ben"], seed) for seed in range(2)]
    before = answers(log)
    errors: list[BaseException] = []

    def keep_again(which: GameLog) -> None:
        try:
            for _ in range(5):
                for game_id in games:
                    which.players.after_write(None, which.get(game_id))
        except BaseException as error:  # reported by the test
            errors.append(error)

    threads = [threading.Thread(target=keep_again, args=(each,)) for each in (log, other, log, other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert answers(log) == before == answers(other)
    found = log.players.reading.player(id_of("Aiko"), ())
    assert found is not None and found["record"]["games"] == 2


def test_games_recorded_at_once_by_two_processes_each_count(opened: Callable[[], GameLog]) -> None:
    one, two = opened(), opened()
    done: list[uuid.UUID] = []

    def record(log: GameLog, seeds: range) -> None:
        done.extend(finish(log, ["Aiko", "Ben", "Chie"], seed) for seed in seeds)

    threads = [
        threading.Thread(target=record, args=(one, range(0, 2))),
        threading.Thread(target=record, args=(two, range(2, 4))),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(done) == 4
    for log in (one, two):
        rows, _ = log.players.reading.page(order="games", search=None, offset=0, limit=10, held=())
        assert {(row.name, row.games, row.listed) for row in rows} == {
            ("Aiko", 4, 4),
            ("Ben", 4, 4),
            ("Chie", 4, 4),
        }
        assert all(row.rating is not None and row.rating.games == 4 for row in rows)


def test_games_written_while_no_process_kept_their_facts_are_taken_on_the_next_read(
    opened: Callable[[], GameLog],
) -> None:
    log = opened()
    template = finish(log, ["Aiko", "Ben"], 7)
    created, *moves = log.events_of(template)
    write_games(log, 6, created, follow=moves)  # what a creation writes, and the moves: no facts kept
    rows, _ = log.players.reading.page(order="games", search=None, offset=0, limit=50, held=())
    assert sum(row.games for row in rows) == 2 * 7


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.__name__)
def test_redis_views(case: Callable[[Views], None], redis_url: str) -> None:
    log = open_log(
        StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"views-{uuid.uuid4().hex[:10]}")
    )
    try:
        case(log.stores.all[0].views)
    finally:
        log.close()
