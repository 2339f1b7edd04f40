"""The API over a sharded log (HERONLOG_SHARDS): games, their tokens and annotations land on each game's
shard, and every endpoint finds them there."""

from __future__ import annotations

import uuid

from api.app import create_app
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport


def test_every_kind_of_write_works_across_shards() -> None:
    app = create_app({"STORE": StoreConfig(kind="memory", shards=3)})
    api = ApiClient(flask_transport(app.test_client()))
    games = [api.create(2, seed=seed) for seed in range(6)]
    log = app.extensions["heronlog"].get().log
    assert len({log.shard_for(uuid.UUID(game_id)).name for game_id, _, _ in games}) > 1
    for game_id, owner, _ in games:
        seat = api.post(f"/api/games/{game_id}/seats/0/token", token=owner).body["token"]
        listing = api.legal(game_id)
        mover = seat if listing.body["moves"][0]["seat"] == 0 else owner
        assert api.play(game_id, listing.body["moves"][0], mover, listing.etag).status == 201
        assert (
            api.post(f"/api/games/{game_id}/annotations", {"version": 2, "text": "x"}, token=seat).status
            == 201
        )
        fork = api.post(f"/api/games/{game_id}/forks", {"version": 2}).body
        branch = fork["game"]["game_id"]
        assert api.post(f"/api/games/{branch}/undo", {}, token=fork["owner_token"], if_match=2).status == 200
        copy = api.post("/api/games/import?new_id=1", api.get(f"/api/games/{game_id}/export").body).body
        assert api.game(copy["game"]["game_id"])["state"] == api.game(game_id)["state"]
    assert len(api.get("/api/games?limit=200").body["games"]) == 18
