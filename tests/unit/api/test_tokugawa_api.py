"""The Tokugawa game over the API (R-TK01..R-TK07, the solo rival with Matcha): created with both a difficulty and
the expansion, the starting choice and the choices made for the rival answered by the player's seat and marked
automatic, the rival's symbols in the timeline and the text record, the rival's geishas on its score sheet, and
an export imported back equal."""

from __future__ import annotations

import random

from tests.api_helpers import ApiClient


def test_a_tokugawa_game_is_created_and_waits_for_the_starting_choice(api: ApiClient) -> None:
    answer = api.post(
        "/api/games", {"players": ["Aiko"], "solo": "medium", "expansions": ["matcha"], "seed": 5}
    )
    assert answer.status == 201, answer.body
    game = answer.body["game"]
    assert game["solo"] == "medium" and game["expansions"] == ["matcha"]
    assert game["players"][1] == {"name": "Rival", "colour": "green", "automatic": True}
    assert game["prompt"]["kind"] == "choose_start_cards" and game["prompt"]["seat"] == 0
    listing = api.legal(game["game_id"]).body
    moves = [move for move in listing["moves"] if move["kind"] == "choose_start_cards"]
    assert 2 <= len(moves) <= 8 and {"resource", "action", "token"} <= set(moves[0])
    assert len(game["state"]["board"]["offer"]) == 2
    catalog = api.get(f"/api/games/{game['game_id']}/catalog").body["catalog"]
    assert len(catalog["solo_cards"]) == 12 and catalog["tokugawa_cards_verified"] is False


def test_a_seeded_tokugawa_game_played_over_the_api_shows_the_rivals_symbols(api: ApiClient) -> None:
    game_id, owner, _ = api.create(["Aiko"], solo="hard", seed=31, expansions=["matcha"])
    played = api.play_random(game_id, owner, random.Random(31))
    assert played and all(move["seat"] != 1 for move in played)
    assert {"choose_start_cards", "rival_discard"} <= {move["kind"] for move in played}
    game = api.game(game_id)
    assert game["over"] and game["status"] == "finished"
    entries = api.get(f"/api/games/{game_id}/timeline").body["entries"]
    rival_lines = [entry["chance"][i] for entry in entries for i in entry["automatic_chance"]]
    assert any("reveals TK" in line and "symbol" in line for line in rival_lines)
    chosen = [entry for entry in entries if entry["kind"] in ("rival_geisha", "rival_discard")]
    assert chosen and all(entry["automatic"] and entry["seat"] == 0 for entry in chosen)
    assert all(
        "for the rival's geisha" in e["description"] or "geisha of the rival" in e["description"]
        for e in chosen
    )
    text = api.get(f"/api/games/{game_id}/export?format=text").body
    assert "solo game against the rival, difficulty hard" in text and "Rival (automatic) reveals TK" in text
    score = api.get(f"/api/games/{game_id}/score").body
    assert [sheet["player"] for sheet in score["sheets"]] == ["Aiko", "Rival"]
    rival = score["sheets"][1]
    assert [line["label"] for line in rival["lines"]][-1] == "geishas"
    assert rival["total"] == sum(line["points"] for line in rival["lines"])


def test_a_tokugawa_game_exports_and_imports_again(api: ApiClient) -> None:
    game_id, owner, _ = api.create(["Aiko"], solo="easy", seed=44, expansions=["matcha"])
    api.play_random(game_id, owner, random.Random(44), limit=60)
    exported = api.get(f"/api/games/{game_id}/export").body
    imported = api.post("/api/games/import?new_id=1", exported)
    assert imported.status == 201, imported.body
    copy = imported.body["game"]
    original = api.game(game_id)
    assert (
        copy["solo"] == "easy" and copy["expansions"] == ["matcha"] and copy["version"] == original["version"]
    )
    assert copy["state"] == original["state"]
