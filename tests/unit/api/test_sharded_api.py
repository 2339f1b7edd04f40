"""The API over a sharded log (HERONLOG_SHARDS): games, their tokens and annotations land on each game's
shard, and every endpoint finds them there."""

from __future__ import annotations

import uuid
from typing import Any

from api.app import create_app
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport


def test_every_kind_of_write_works_across_shards() -> None:
    app = create_app({"STORE": StoreConfig(kind="memory", shards=3)})
    api = ApiClient(flask_transport(app.test_client()))
    log = app.extensions["heronlog"].get().log

    def shards_used() -> set[str]:
        return {log.stores.of(uuid.UUID(game_id)).name for game_id, _, _ in games}

    # Game ids are random: create games until every shard holds one (a fixed six fell on one shard in 0.4 %
    # of runs; sixty miss a shard with a chance of about 1e-10, and their 180 games fit one page of the list).
    games: list[tuple[str, str, dict[str, Any]]] = []
    while len(shards_used()) < 3 and len(games) < 60:
        games.append(api.create(2, seed=len(games)))
    assert len(shards_used()) == 3
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
    assert len(api.get("/api/games?limit=200").body["games"]) == 3 * len(games)
