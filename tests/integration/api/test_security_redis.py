"""The security review's findings, on a real Redis: where a move's answer is kept by the move's own append (one
script), and streams of one game live beside the game's, the fixes hold as they do in memory."""

from __future__ import annotations

import uuid
from uuid import NAMESPACE_URL, uuid5

from api.app import create_app
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport


def two_servers(redis_url: str) -> tuple[ApiClient, ApiClient]:
    """Two apps on one Redis key prefix, as two servers of one installation would be."""
    store = StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"security-{uuid.uuid4().hex[:10]}")
    first, second = (create_app({"STORE": store}) for _ in range(2))
    return ApiClient(flask_transport(first.test_client())), ApiClient(flask_transport(second.test_client()))


def test_a_retried_move_whose_seat_token_was_withdrawn_is_401_on_every_server(redis_url: str) -> None:
    # The move's answer is kept by its own append on Redis; a retry found it before any view checked the token.
    first, second = two_servers(redis_url)
    game_id, owner, _ = first.create(2, seed=4)  # a game whose seat 0 moves first
    path = f"/api/games/{game_id}/seats/0/token"
    seat = first.post(path, token=owner).body["token"]
    move = first.legal(game_id).body["moves"][0]
    played = first.play(game_id, move, seat, 1, key="tap-1")
    assert played.status == 201
    again = second.play(game_id, move, seat, 1, key="tap-1")
    assert (again.status, again.headers["idempotent-replayed"]) == (201, "true")
    assert second.delete(path, token=owner).status == 204
    for server in (first, second):
        assert server.play(game_id, move, seat, 1, key="tap-1").error() == (401, "unauthorized")


def test_an_import_never_takes_another_games_stream_id_on_redis(redis_url: str) -> None:
    first, second = two_servers(redis_url)
    game_id, owner, _ = first.create(2, seed=5)
    document = first.get(f"/api/games/{game_id}/export").body
    for derived in ("annotations", "access"):
        stream = str(uuid5(NAMESPACE_URL, f"heronlog:{derived}:{game_id}"))
        copy = second.post("/api/games/import", {**document, "game_id": stream})
        assert copy.status == 201 and copy.body["game"]["game_id"] not in (stream, game_id)
    note = first.post(f"/api/games/{game_id}/annotations", {"version": 1, "text": "mine"}, token=owner)
    assert note.status == 201
    assert [n["text"] for n in second.get(f"/api/games/{game_id}/annotations").body["annotations"]] == [
        "mine"
    ]
