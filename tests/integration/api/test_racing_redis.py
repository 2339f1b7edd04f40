"""Twenty clients racing on one game, against a real `heronlog serve` (two gunicorn worker processes) on
Redis: every version is won by exactly one write, the losers are told the version that won, and the log
has no gap and no duplicate."""

from __future__ import annotations

import random
import threading
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.api_helpers import Answer, ApiClient, http_transport
from tests.e2e.conftest import Served, serve

CLIENTS = 20
ROUNDS = 12


@pytest.fixture
def redis_server(redis_url: str, tmp_path: Path) -> Iterator[Served]:
    env = {
        "REDIS_URL": redis_url,
        "HERONLOG_STORE": "redis",
        "REDIS_KEY_PREFIX": f"race-{uuid.uuid4().hex[:10]}",
    }
    yield from serve(tmp_path, env, "--workers", "2")


def race(count: int, attempt: Callable[[int], Answer]) -> list[Answer]:
    """Run ``attempt(i)`` in ``count`` threads released together; returns every answer."""
    barrier = threading.Barrier(count)
    answers: list[Answer | None] = [None] * count

    def run(index: int) -> None:
        barrier.wait(timeout=30)
        answers[index] = attempt(index)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert all(answer is not None for answer in answers)
    return [answer for answer in answers if answer is not None]


def test_twenty_clients_racing_get_exactly_one_success_per_version(redis_server: Served) -> None:
    api = ApiClient(http_transport(redis_server.url))
    game_id, token, _ = api.create(4, seed=99)
    rng = random.Random(99)
    winners: list[int] = []
    for _ in range(ROUNDS):
        listing = api.legal(game_id)
        version, moves = listing.etag, listing.body["moves"]
        picks = [rng.choice(moves) for _ in range(CLIENTS)]
        answers = race(
            CLIENTS, lambda i, picks=picks, version=version: api.play(game_id, picks[i], token, version)
        )
        statuses = Counter(answer.status for answer in answers)
        assert statuses == {201: 1, 412: CLIENTS - 1}, statuses
        for answer in answers:
            if answer.status == 412:
                assert answer.error() == (412, "stale_version")
                assert answer.body["details"]["current_version"] == version + 1
            else:
                assert answer.body["versions"] == [version + 1]
                winners.append(version + 1)
    events = api.get(f"/api/games/{game_id}/changes?since=1").body["events"]
    versions = [event["version"] for event in events]
    assert versions == list(range(2, 2 + ROUNDS)) == winners
    exported = api.get(f"/api/games/{game_id}/export").body
    assert [event["version"] for event in exported["events"]] == versions
    assert api.game(game_id)["version"] == 1 + ROUNDS


def test_twenty_retries_of_one_move_with_one_idempotency_key_write_it_once(redis_server: Served) -> None:
    api = ApiClient(http_transport(redis_server.url))
    game_id, token, _ = api.create(3, seed=7)
    listing = api.legal(game_id)
    move = listing.body["moves"][0]
    answers = race(CLIENTS, lambda _: api.play(game_id, move, token, listing.etag, key="flaky-phone-1"))
    assert {answer.status for answer in answers} == {201}
    assert {tuple(answer.body["versions"]) for answer in answers} == {(listing.etag + 1,)}
    events = api.get(f"/api/games/{game_id}/changes?since=1").body["events"]
    assert [(event["type"], event["data"]["idempotency_key"]) for event in events] == [
        ("MovePlayed", "flaky-phone-1")
    ]
