"""A Matcha game over HTTP: created with "expansions": ["matcha"], its board and catalog served, played to the
end through legal-moves, scored with the geisha line; the scorer takes Matcha tallies."""

from __future__ import annotations

import random

from tests.api_helpers import ApiClient


def test_a_matcha_game_is_created_and_played_over_http(api: ApiClient) -> None:
    game_id, token, game = api.create(["Aiko", "Ben", "Chie"], seed=31, expansions=["matcha"])
    assert game["expansions"] == ["matcha"]
    board = game["state"]["board"]
    assert board["bridges"][-1]["colour"] == "green" and len(board["bridges"][-1]["middle"]) == 2
    assert set(board["matcha"]) >= {"tea_room", "himeji", "pond", "tea_house", "platform_token"}
    catalog = api.get(f"/api/games/{game_id}/catalog").body["catalog"]
    assert "matcha" in catalog and len(catalog["ceremony_faces"]) == 20
    played = api.play_random(game_id, token, random.Random(31))
    kinds = {move["kind"] for move in played}
    assert {"take_die", "place_die"} <= kinds
    finished = api.game(game_id)
    assert finished["over"] and finished["coordinates"]["round"] == 3
    sheets = api.get(f"/api/games/{game_id}/score").body["sheets"]
    labels = [line["label"] for line in sheets[0]["lines"]]
    assert labels[-2:] == ["gardeners", "geishas"]
    # each line with the icons of what it counts: the whisks among the resources, the geishas' line its own
    icons = {line["label"]: line["icons"] for line in sheets[0]["lines"]}
    assert icons["resources"] == ["food", "iron", "pearl", "whisk"] and icons["geishas"] == ["geisha"]
    assert all(sheet["total"] == sum(line["points"] for line in sheet["lines"]) for sheet in sheets)


def test_a_geisha_move_round_trips_over_http(api: ApiClient) -> None:
    game_id, token, _ = api.create(3, seed=32, expansions=["matcha"])
    for _ in range(400):
        listing = api.legal(game_id, token)
        moves = listing.body["moves"]
        wanted = [m for m in moves if m["kind"] in ("send_geisha", "advance_geisha")]
        tea_room = [m for m in moves if m.get("space", "").startswith("tea_room")]
        move = (wanted or tea_room or [m for m in moves if m["kind"] != "convert"] or moves)[0]
        answer = api.play(game_id, move, token, listing.etag)
        assert answer.status == 201, answer.body
        if move["kind"] == "send_geisha":
            break
    state = api.game(game_id)["state"]
    assert state["board"]["matcha"]["entrance"]
    timeline = api.get(f"/api/games/{game_id}/timeline").body["entries"]
    assert any("Tea Garden entrance" in entry["description"] for entry in timeline)


def test_unknown_expansions_are_400(api: ApiClient) -> None:
    answer = api.post("/api/games", {"players": 2, "expansions": ["tokugawa"]})
    assert answer.error()[0] == 400
    game = api.create(2, seed=1)[2]
    assert game["expansions"] == [] and "matcha" not in game["state"]["board"]


def test_the_scorer_takes_matcha_tallies(api: ApiClient) -> None:
    body = {
        "expansions": ["matcha"],
        "players": [
            {
                "name": "Aiko",
                "whisks": 3,
                "gardeners": ["SG1", "SG3", "SG5"],
                "courtiers": {"gate": 1, "steward": 3},
                "geishas": {"viewing_platform": 1, "path_1": 1, "tea_house_upper": 2, "tea_house_lower": 1},
            }
        ],
    }
    answer = api.post("/api/score-sheets", body)
    assert answer.status == 200, answer.body
    lines = {line["label"]: line["points"] for line in answer.body["sheets"][0]["lines"]}
    assert lines["geishas"] == 24 and lines["resources"] == 1
    plain = api.post("/api/score-sheets", {"players": [{"name": "Ben", "cp": 3}]}).body["sheets"][0]["lines"]
    assert "geishas" not in [line["label"] for line in plain]


def test_the_board_of_a_matcha_game_equals_its_state_as_json_without_the_catalog() -> None:
    """api.resources.present's encoder (one per type) and the engine's serialiser agree on every Matcha state: the green
    die colour, the expansion board, the clan board's fields left out at their defaults."""
    import json

    import domain
    from api.resources import present

    rng = random.Random(12)
    state = domain.new_game(4, seed=12, expansions=["matcha"])
    checked = 0
    while not domain.is_over(state):
        expected = present.plain(domain.state_to_dict(state))
        del expected["catalog"]
        assert json.dumps(present.board(state)) == json.dumps(expected)
        legal = domain.legal_moves(state)
        acting = [move for move in legal if move["kind"] not in ("done", "convert")]
        state = domain.apply(state, rng.choice(acting if acting and rng.random() < 0.85 else legal))
        checked += 1
    assert checked > 100
