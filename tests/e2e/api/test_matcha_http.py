"""A Matcha game over real HTTP against `heronlog serve`, on each store (SQLite and Redis): created with the
expansion, every move taken from legal-moves and posted as-is until the end, scored with the geisha line, and
exported and imported back equal (R-M01..R-M19 end to end)."""

from __future__ import annotations

import random

from tests.e2e.api.conftest import RecordingClient


def test_a_matcha_game_played_over_http_exports_and_imports_back_equal(web: RecordingClient) -> None:
    created = web.post(
        "/api/games", {"players": ["Aiko", "Ben", "Chie"], "seed": 41, "expansions": ["matcha"]}
    )
    assert created.status == 201, created.body
    game_id, owner = created.body["game"]["game_id"], created.body["owner_token"]
    assert created.body["game"]["expansions"] == ["matcha"]
    played = web.play_random(game_id, owner, random.Random(41))
    assert sum(move["kind"] == "take_die" for move in played) == 3 * 3 * 4  # 4 turns a round (R-M02)
    game = web.game(game_id)
    assert game["over"] and len(game["state"]["board"]["bridges"]) == 4
    sheets = web.get(f"/api/games/{game_id}/score").body["sheets"]
    assert all([line["label"] for line in sheet["lines"]][-1] == "geishas" for sheet in sheets)
    exported = web.get(f"/api/games/{game_id}/export").body
    assert exported["setup"]["expansions"] == ["matcha"] and "matcha" in exported["catalog"]
    copy = web.post("/api/games/import?new_id=1", exported)
    assert copy.status == 201, copy.body
    assert copy.body["game"]["state"] == game["state"] and copy.body["game"]["expansions"] == ["matcha"]
