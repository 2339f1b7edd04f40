"""With Redis as the store, rate-limit counters and remembered answers live in Redis: every worker and every
server of one installation shares them."""

from __future__ import annotations

import uuid

from api.app import create_app
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport


def two_servers(redis_url: str, **settings: int) -> tuple[ApiClient, ApiClient]:
    """Two apps on one Redis key prefix, as two worker processes of one installation would be."""
    store = StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"limits-{uuid.uuid4().hex[:10]}")
    apps = [create_app({"STORE": store, **settings}) for _ in range(2)]
    first, second = (ApiClient(flask_transport(app.test_client())) for app in apps)
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
