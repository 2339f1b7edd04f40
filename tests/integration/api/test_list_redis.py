"""`GET /api/games` on Redis with ten thousand games: pages, cursors, search and the
home page answer 200 from the read model, a page in a few round trips however many games there are."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis.connection

from api.app import create_app
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport
from tests.bulk_games import template, write_games

GAMES = 10_000


@pytest.fixture(scope="module")
def api(redis_url: str) -> Iterator[tuple[ApiClient, Any]]:
    """An app on a fresh Redis key prefix holding 10,001 games (one made by the API, 10,000 by the bulk helper,
    every 7th private), and its Flask test client."""
    store = StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"tenk-{uuid.uuid4().hex[:10]}")
    app = create_app({"STORE": store})
    client = app.test_client()
    api = ApiClient(flask_transport(client))
    with app.app_context():
        from api.resources.context import game_log

        log = game_log()
        write_games(log, GAMES, template(log), private_every=7)
    api.create(["Aiko", "Ben"], title="Made by the API")
    yield api, client
    with app.app_context():
        datastore: Any = game_log().stores.all[0].recorder.datastore
        for key in list(datastore.client.scan_iter(match=f"{{{store.redis_prefix}:*", count=5000)):
            datastore.client.unlink(key)


def test_the_list_of_ten_thousand_games_answers_page_after_page(api: tuple[ApiClient, Any]) -> None:
    client, _ = api
    public = 2 + GAMES - GAMES // 7  # the API's game, the template, the bulk games but every 7th (private)
    first = client.get("/api/games")
    assert first.status == 200 and first.body["total"] == public and first.body["complete"]
    assert len(first.body["games"]) == 50 and first.body["previous"] is None
    assert first.body["games"][0]["title"] == "Made by the API", "newest first"
    seen = [game["game_id"] for game in first.body["games"]]
    page = first.body
    for _ in range(3):
        page = client.get(page["next"]).body
        seen += [game["game_id"] for game in page["games"]]
    assert len(seen) == len(set(seen)) == 200
    back = client.get(page["previous"]).body
    assert [game["game_id"] for game in back["games"]] == seen[100:150]
    deep = client.get("/api/games?limit=3&offset=8000").body
    assert len(deep["games"]) == 3 and deep["total"] == public
    last = client.get(f"/api/games?limit=200&offset={public - 10}").body
    assert len(last["games"]) == 10 and last["next"] is None


def test_a_search_among_ten_thousand_games(api: tuple[ApiClient, Any]) -> None:
    client, _ = api
    found = client.get("/api/games?search=aiko&limit=20").body
    assert found["complete"] and 0 < found["total"] < GAMES
    assert all("Aiko" in game["players"] for game in found["games"])
    both = client.get("/api/games?search=aiko%20club&limit=200").body
    assert all("Aiko" in game["players"] and "club" in game["title"].casefold() for game in both["games"])
    assert both["total"] < found["total"]
    broad = client.get("/api/games?search=a&limit=5").body
    assert len(broad["games"]) == 5 and broad["total"] > 0


def test_a_page_of_ten_thousand_games_is_two_round_trips_to_redis(
    api: tuple[ApiClient, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, _ = api
    client.get("/api/games?limit=50")
    sent: list[bytes] = []
    send = redis.connection.AbstractConnection.send_packed_command
    monkeypatch.setattr(
        redis.connection.AbstractConnection,
        "send_packed_command",
        lambda self, command, check_health=True: sent.append(b"") or send(self, command, check_health),
    )
    assert client.get("/api/games?limit=50").status == 200
    assert len(sent) == 2, "the page, then its games' versions: never one round trip per game"


def test_the_home_page_lists_them_too(api: tuple[ApiClient, Any]) -> None:
    _, client = api
    answer = client.get("/")
    assert answer.status_code == 200 and b"Made by the API" in answer.data and b'rel="next"' in answer.data
    assert client.get("/?search=aiko").status_code == 200
