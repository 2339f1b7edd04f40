"""The solo game over the API (R-SO01..R-SO06): creating it, the rival's seat marked automatic, the rival's
turns shown in the timeline and the text record, table-mode solo cards, seat tokens, export and import."""

from __future__ import annotations

import random

from tests.api_helpers import ApiClient


def test_a_solo_game_is_created_with_the_rival_in_the_second_seat(api: ApiClient) -> None:
    answer = api.post("/api/games", {"players": ["Aiko"], "solo": "hard", "seed": 5})
    assert answer.status == 201, answer.body
    game = answer.body["game"]
    assert game["solo"] == "hard" and game["title"] == "Aiko vs Rival"
    assert game["players"] == [
        {"name": "Aiko", "colour": "purple"},
        {"name": "Rival", "colour": "green", "automatic": True},
    ]
    state = game["state"]
    assert state["solo"]["difficulty"] == "hard" and state["players"][1]["automatic"] is True
    assert state["turn_order"] == [1, 0] and state["players"][1]["cp"] >= 8
    # the rival played first, in seeded mode with no move: its die is on the board and its turn in its notes
    assert state["solo"]["line"] and state["solo"]["notes"][0].startswith("reveals ")
    assert game["prompt"]["seat"] == 0


def test_a_multiplayer_game_shows_no_solo_fields(api: ApiClient) -> None:
    game = api.create(["Aiko", "Ben"], seed=3)[2]
    assert "solo" not in game and all("automatic" not in player for player in game["players"])
    assert "solo" not in game["state"]


def test_a_solo_game_takes_one_player_and_a_known_difficulty(api: ApiClient) -> None:
    assert api.post("/api/games", {"players": ["Aiko", "Ben"], "solo": "easy"}).error() == (
        400,
        "invalid_setup",
    )
    assert api.post("/api/games", {"players": 1, "solo": "expert"}).status == 400
    assert api.post("/api/games", {"players": ["Aiko"]}).error() == (400, "invalid_setup")
    created = api.post("/api/games", {"players": 1, "solo": "easy", "options": {"rival_scoring": "cp_only"}})
    assert created.status == 201 and created.body["game"]["state"]["solo"]["scoring"] == "cp_only"


def test_the_rival_gets_no_seat_token(api: ApiClient) -> None:
    game_id, owner, _ = api.create(["Aiko"], solo="easy", seed=1)
    assert api.post(f"/api/games/{game_id}/seats/1/token", token=owner).error() == (400, "invalid_seat")
    assert api.post(f"/api/games/{game_id}/seats/0/token", token=owner).status == 201


def test_a_seeded_solo_game_played_over_the_api_shows_the_rival_in_the_timeline(api: ApiClient) -> None:
    game_id, owner, _ = api.create(["Aiko"], solo="medium", seed=12)
    played = api.play_random(game_id, owner, random.Random(12))
    assert played and all(move["seat"] != 1 for move in played)
    game = api.game(game_id)
    assert game["over"] and game["status"] == "finished"
    entries = api.get(f"/api/games/{game_id}/timeline").body["entries"]
    rival_lines = [entry["chance"][i] for entry in entries for i in entry["automatic_chance"]]
    assert rival_lines and all(line.startswith(("Rival (automatic) ", "Chance: ")) for line in rival_lines)
    assert any("Rival (automatic) reveals SO" in line for line in rival_lines)
    assert all(not entry["automatic"] or entry["seat"] in (0, None) for entry in entries)
    text = api.get(f"/api/games/{game_id}/export?format=text").body
    assert (
        "solo game against the rival, difficulty medium" in text and "(Rival (automatic) reveals SO" in text
    )
    score = api.get(f"/api/games/{game_id}/score").body
    assert [sheet["player"] for sheet in score["sheets"]] == ["Aiko", "Rival"]
    bgstats = api.get(f"/api/games/{game_id}/export?format=bgstats").body
    starts = [p["startPlayer"] for p in bgstats["plays"][0]["playerScores"]]
    assert starts == [False, True]  # medium: the rival plays first


def test_in_table_mode_the_recorder_enters_the_rivals_solo_cards(api: ApiClient) -> None:
    game_id, owner, _ = api.create(["Aiko"], solo="hard", mode="table")
    rng = random.Random(4)
    seen = 0
    while seen < 3:
        listing = api.legal(game_id).body
        prompt = listing["prompt"]
        if prompt["kind"] == "solo_card":
            assert prompt["seat"] is None and prompt["context"]["automatic"] is True
            assert all(move["kind"] == "solo_card" for move in listing["moves"])
            seen += 1
        move = rng.choice([m for m in listing["moves"] if m["kind"] != "convert"])
        assert api.play(game_id, move, owner, listing["version"]).status == 201
    entries = api.get(f"/api/games/{game_id}/timeline").body["entries"]
    cards = [entry for entry in entries if entry["kind"] == "solo_card"]
    assert len(cards) >= 3
    for entry in cards:
        assert entry["automatic"] and entry["player"] == "Rival" and entry["seat"] is None
        assert entry["description"].startswith("Rival (automatic) reveals SO")


def test_a_solo_game_exports_and_imports_again(api: ApiClient) -> None:
    game_id, owner, _ = api.create(["Aiko"], solo="hard", seed=21)
    api.play_random(game_id, owner, random.Random(21), limit=40)
    exported = api.get(f"/api/games/{game_id}/export").body
    imported = api.post("/api/games/import?new_id=1", exported)
    assert imported.status == 201, imported.body
    copy = imported.body["game"]
    original = api.game(game_id)
    assert copy["solo"] == "hard" and copy["version"] == original["version"]
    assert copy["state"] == original["state"]
