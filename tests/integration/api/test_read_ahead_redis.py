"""The write guard's read-ahead on Redis (api.resources.write_guard, GameRepository.count_write): a write to a game this
worker keeps warm is counted and its game and grants read in one round trip, and the write then sees everything
another worker wrote before it (a move, a withdrawn token), as a read of its own would. A move goes in one round
trip when nothing changed (replay.one_trip); when something did, the store refuses it and it is made the ordinary
way, read-ahead and all: these tests see the same answers either way. tests/integration/api/test_round_trips_redis.py
counts each write's round trips."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections.abc import Callable

import pytest
import redis
from flask import Flask

from tests.api_helpers import ApiClient, flask_transport
from tests.integration.api.test_limits_redis import two_apps


@pytest.fixture
def apps(redis_url: str, no_snapshot_due: None) -> list[Flask]:
    # A window far longer than the test, so no window boundary falls between its requests.
    return two_apps(redis_url, RATE_LIMIT_PER_TOKEN=1000, RATE_LIMIT_WINDOW=10**9)


def clients(apps: list[Flask]) -> tuple[ApiClient, ApiClient]:
    first, second = (ApiClient(flask_transport(app.test_client())) for app in apps)
    return first, second


def sent_by_clients(redis_url: str, action: Callable[[], object], about: str | None = None) -> list[str]:
    """The commands clients sent the server while ``action`` ran (MONITOR; a script's own commands left out), by
    name: each is one round trip of heronlog's here, which sends no pipelines on this path. With ``about``, only
    the commands naming it (a key prefix: the server is shared with what other tests left running)."""
    mark = f"end-of-action-{uuid.uuid4().hex}"
    seen: list[tuple[str, str]] = []
    watcher = redis.Redis.from_url(redis_url)
    marker = redis.Redis.from_url(redis_url)
    marker.ping()  # connected before MONITOR starts: its handshake is not counted
    ready = threading.Event()

    def watch() -> None:
        with watcher.monitor() as monitor:
            ready.set()
            for command in monitor.listen():
                if mark in command["command"]:
                    return
                seen.append((command["client_type"], command["command"]))

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    assert ready.wait(10)
    time.sleep(0.2)  # MONITOR is in place once its reply came back; let it settle
    try:
        action()
    finally:
        marker.get(mark)
        marker.close()
        thread.join(10)
        watcher.close()
    return [
        command.split()[0].upper()
        for kind, command in seen
        if kind != "lua" and (about is None or about in command)
    ]


def test_a_write_counted_with_its_read_still_counts_against_the_limit(redis_url: str) -> None:
    first, second = clients(two_apps(redis_url, RATE_LIMIT_PER_TOKEN=3, RATE_LIMIT_WINDOW=10**9))
    game_id, owner, _ = first.create(2, seed=6)
    statuses = []
    for api in (first, first, second, first):
        listing = api.legal(game_id, owner)
        statuses.append(api.play(game_id, listing.body["moves"][0], owner, listing.etag).status)
    # Three writes a window for this token, counted in Redis whichever worker took them.
    assert statuses == [201, 201, 201, 429]
    assert first.game(game_id)["version"] == 4


def test_a_move_another_worker_recorded_is_seen_by_the_read_ahead(apps: list[Flask]) -> None:
    first, second = clients(apps)
    game_id, owner, _ = first.create(3, seed=7)
    rng = random.Random(7)
    listing = first.legal(game_id, owner)
    answer = first.play(game_id, rng.choice(listing.body["moves"]), owner, listing.etag)
    assert answer.status == 201
    old_version = answer.etag
    # The second worker records a move; the first keeps its game warm as it was.
    on_second = second.legal(game_id, owner)
    assert on_second.etag == old_version
    assert second.play(game_id, rng.choice(on_second.body["moves"]), owner, on_second.etag).status == 201
    # Told the new version, the first worker plays at once from the game as the second left it: a read-ahead
    # that did not catch up would hold the old version and refuse the write as stale.
    fresh = second.legal(game_id, owner)
    played = first.play(game_id, rng.choice(fresh.body["moves"]), owner, fresh.etag)
    assert played.status == 201, played.body
    assert played.etag == old_version + 2
    # Told an old version, it refuses as stale and names the version that won.
    refused = first.play(game_id, rng.choice(played.body["legal_moves"]["moves"]), owner, old_version)
    assert refused.error() == (412, "stale_version")
    assert refused.body["details"]["current_version"] == old_version + 2


def test_a_token_withdrawn_on_another_worker_is_refused_at_once(apps: list[Flask]) -> None:
    first, second = clients(apps)
    game_id, owner, _ = first.create(2, seed=8)
    listing = first.legal(game_id, owner)
    seat_moves = [move for move in listing.body["moves"] if move.get("seat") is not None]
    seat_index = seat_moves[0]["seat"]
    issued = first.post(f"/api/games/{game_id}/seats/{seat_index}/token", token=owner)
    assert issued.status in (200, 201), issued.body
    seat = issued.body["token"]
    # A write with the seat's token warms the game and its grants on the first worker (refused: not the
    # seat's move, or played: either way both streams are read and kept)...
    assert first.get(f"/api/games/{game_id}", seat).status == 200
    listing = first.legal(game_id, owner)
    seat_moves = [move for move in listing.body["moves"] if move.get("seat") == seat_index]
    assert seat_moves, "the seat still has a move to make"
    # ...then the second worker withdraws the seat's token.
    assert second.delete(f"/api/games/{game_id}/seats/{seat_index}/token", token=owner).status == 204
    refused = first.play(game_id, seat_moves[0], seat, listing.etag)
    assert refused.error()[0] == 401, refused.body
    assert first.game(game_id)["version"] == listing.etag
