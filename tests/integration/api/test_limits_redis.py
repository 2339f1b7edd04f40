"""With Redis as the store, rate-limit counters and receipts live in Redis: every worker and every
server of one installation shares them."""

from __future__ import annotations

import uuid
from pathlib import Path

import redis
import redis.connection
from flask import Flask

from api.app import create_app
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport
from tests.redis_process import RedisProcess


def two_apps(redis_url: str, **settings: int) -> list[Flask]:
    """Two apps on one Redis key prefix, as two worker processes of one installation would be."""
    store = StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"limits-{uuid.uuid4().hex[:10]}")
    return [create_app({"STORE": store, **settings}) for _ in range(2)]


def two_servers(redis_url: str, **settings: int) -> tuple[ApiClient, ApiClient]:
    """The API clients of :func:`two_apps`."""
    first, second = (ApiClient(flask_transport(app.test_client())) for app in two_apps(redis_url, **settings))
    return first, second


def test_the_write_budget_is_shared_by_every_server(redis_url: str) -> None:
    # A window far longer than the test, so no window boundary falls between its requests.
    first, second = two_servers(
        redis_url, RATE_LIMIT_PER_ADDRESS=2, RATE_LIMIT_PER_TOKEN=2, RATE_LIMIT_WINDOW=10**9
    )
    first.create(2)
    second.create(2)
    assert first.post("/api/games", {"players": 2}).error() == (429, "rate_limited")
    assert second.post("/api/games", {"players": 2}).error() == (429, "rate_limited")
    assert len(first.get("/api/games").body["games"]) == 2


def test_a_retry_sent_to_another_server_gets_the_first_answer(redis_url: str) -> None:
    first, second = two_servers(redis_url)
    created = first.post("/api/games", {"players": 2, "seed": 3}, key="new-game-7")
    retried = second.post("/api/games", {"players": 2, "seed": 3}, key="new-game-7")
    assert created.status == retried.status == 201
    assert retried.body == created.body
    assert retried.headers["idempotent-replayed"] == "true"
    assert len(second.get("/api/games").body["games"]) == 1
    assert second.post("/api/games", {"players": 3}, key="new-game-7").error() == (
        422,
        "idempotency_key_reused",
    )


def test_a_retried_seat_token_request_is_refused_by_every_server_once_its_token_stopped_working(
    redis_url: str,
) -> None:
    """A seat token's receipt in Redis: a retry of a seat-token issuance gets the first token back while it
    works, on any server; once another server has replaced it, or withdrawn it, the retry is 409 token_superseded on
    both (the first with the game and its grants cached from before), writing nothing and handing out no token."""
    apps = two_apps(redis_url)
    first, second = (ApiClient(flask_transport(app.test_client())) for app in apps)
    log = apps[0].extensions["heronlog"].get().log
    game_id, owner, _ = first.create(2, seed=6)
    path = f"/api/games/{game_id}/seats/1/token"
    issued = first.post(path, token=owner, key="seat-key-1")
    assert issued.status == 201
    replayed = second.post(path, token=owner, key="seat-key-1")
    assert (replayed.status, replayed.body) == (201, issued.body)
    assert replayed.headers["idempotent-replayed"] == "true"

    newer = second.post(path, token=owner, key="seat-key-2").body["token"]
    version = log.access(uuid.UUID(game_id)).version
    for api in (first, second):
        refused = api.post(path, token=owner, key="seat-key-1")
        assert refused.error() == (409, "token_superseded")
        assert refused.body["details"] == {"seat": 1}
        assert issued.body["token"] not in str(refused.body) and newer not in str(refused.body)
    assert log.access(uuid.UUID(game_id)).version == version
    assert first.get(f"/api/games/{game_id}/access", newer).status == 200
    assert second.get(f"/api/games/{game_id}/access", issued.body["token"]).error() == (401, "unauthorized")

    assert first.delete(path, token=owner).status == 204  # withdrawn: the same answer
    version = log.access(uuid.UUID(game_id)).version
    for api in (second, first):
        refused = api.post(path, token=owner, key="seat-key-2")
        assert refused.error() == (409, "token_superseded")
        assert "withdrawn" in refused.body["detail"]
    assert log.access(uuid.UUID(game_id)).version == version


def test_a_write_sees_what_other_servers_wrote_and_a_token_withdrawn_there(redis_url: str) -> None:
    """Each server holds the games it read: a write catches its game and grants up with what another server
    recorded before deciding, and a token withdrawn on another server is refused."""
    first, second = two_servers(redis_url)
    game_id, owner, _ = first.create(2, seed=4)
    seat = first.post(f"/api/games/{game_id}/seats/1/token", token=owner).body["token"]
    first.game(game_id, owner)  # the game and its grants are now held by the first server

    version = 1
    for api in (second, second, first, first):  # the first server's game falls behind, then catches up
        listing = api.legal(game_id, owner).body
        move = next(m for m in listing["moves"] if m.get("kind") != "convert")
        answer = api.play(game_id, move, owner, version, key=uuid.uuid4().hex)
        assert answer.status == 201, answer.body
        version = answer.etag
    assert first.game(game_id, owner)["version"] == second.game(game_id, owner)["version"] == version

    assert second.delete(f"/api/games/{game_id}/seats/1/token", token=owner).status == 204
    refused = first.post(
        f"/api/games/{game_id}/moves", {"kind": "pass", "seat": 1}, token=seat, if_match=version
    )
    assert refused.error() == (401, "unauthorized")


def test_a_move_keeps_no_copy_of_its_answer_and_a_retry_on_another_server_is_rebuilt_from_the_log(
    redis_url: str,
) -> None:
    """The log is the only record of a move: its Idempotency-Key is in the move's event, no key of the store
    holds an answer, and a retry sent to another server gets the first answer byte for byte, rebuilt from the
    log; a move refused by the version check records nothing under its key."""
    first, second = two_servers(redis_url)
    game_id, owner, _ = first.create(2, seed=5)
    client = redis.Redis.from_url(redis_url)
    keys_before = set(client.scan_iter())
    move = first.legal(game_id, owner).body["moves"][0]
    played = first.play(game_id, move, owner, 1, key="move-key-1")
    assert played.status == 201, played.body
    new_keys = {key.decode() for key in set(client.scan_iter()) - keys_before}
    assert new_keys and all("receipt" not in key and "answer" not in key for key in new_keys), new_keys
    assert not any(
        played.raw in (client.get(key) or b"") for key in new_keys if client.type(key) == b"string"
    )

    retried = second.play(game_id, move, owner, 1, key="move-key-1")
    assert retried.status == 201
    assert retried.raw == played.raw
    assert retried.headers["idempotent-replayed"] == "true"
    assert retried.etag == played.etag

    stale = second.play(game_id, move, owner, 1, key="move-key-2")
    assert stale.error() == (412, "stale_version")
    again = first.play(game_id, move, owner, 1, key="move-key-2")
    assert again.error() == (412, "stale_version"), "a refused move's key must not replay an answer"
    client.close()


def test_a_full_redis_is_503_store_unavailable_on_every_write_and_serves_again_once_it_has_room(
    tmp_path: Path,
) -> None:
    # docker/redis.conf's noeviction: a full server refuses writes. The rate limit's counter, the first thing a
    # write does in Redis, got the refusal as redis-py's OutOfMemoryError and answered 500 internal_error.
    server = RedisProcess(tmp_path)
    server.start()
    try:
        api = ApiClient(
            flask_transport(
                create_app({"STORE": StoreConfig(kind="redis", redis_url=server.url)}).test_client()
            )
        )
        game_id, token, _ = api.create(2)
        move = api.legal(game_id).body["moves"][0]
        client = redis.Redis.from_url(server.url)
        client.config_set("maxmemory", "1")  # used memory is now above the limit, as after a burst of writes
        for answer in (
            api.post("/api/games", {"players": 2}),
            api.post("/api/score-sheets", {"players": [{"name": "A", "cp": 1}]}),
            api.post(f"/api/games/{game_id}/moves", move, token=token, if_match="*"),
        ):
            assert answer.error() == (503, "store_unavailable")
            assert answer.headers["retry-after"] == "5"
        assert api.get(f"/api/games/{game_id}").body["version"] == 1  # reads still work, nothing was written
        client.config_set("maxmemory", "0")
        assert api.post(f"/api/games/{game_id}/moves", move, token=token, if_match="*").status == 201
        client.close()
    finally:
        server.stop()
