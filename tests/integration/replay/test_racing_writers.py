"""Writers racing on one game through Redis: exactly one wins each version, nothing is lost or duplicated."""

from __future__ import annotations

import random
import threading
import uuid

import domain
from replay import StaleVersion
from replay.config import StoreConfig, open_log
from tests.replay_helpers import pick

WRITERS = 8
ROUNDS = 12


def test_racing_writers_on_redis_have_exactly_one_winner_per_version(redis_url: str) -> None:
    config = StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"race-{uuid.uuid4().hex[:10]}")
    # One application per writer: separate connections, as separate API processes would have.
    logs = [open_log(config) for _ in range(WRITERS)]
    game_id = logs[0].create_game({"players": 4, "seed": 99}).game_id
    winners: dict[int, list[int]] = {}
    lock = threading.Lock()
    rng = random.Random(5)
    for _ in range(ROUNDS):
        game = logs[0].get(game_id)
        if domain.is_over(game.state):
            break
        move = pick(game.state, rng)
        barrier = threading.Barrier(WRITERS)

        def write(
            index: int, version: int = game.version, move: dict = move, barrier: threading.Barrier = barrier
        ) -> None:
            barrier.wait()
            try:
                played = logs[index].play(game_id, move, expected_version=version, actor=f"writer-{index}")
            except StaleVersion:
                return
            with lock:
                winners.setdefault(played.versions[0], []).append(index)

        threads = [threading.Thread(target=write, args=(index,)) for index in range(WRITERS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert winners, "no writer ever won"
    assert all(len(indices) == 1 for indices in winners.values()), winners
    events = logs[0].events_of(game_id)
    versions = [event.originator_version for event in events]
    assert versions == list(range(1, len(versions) + 1)), "gaps or duplicates in the stream"
    assert sorted(winners) == versions[1:]
    for log in logs:
        log.close()
