"""The players over HTTP: the list, a player, their games, head to head, who sat in a game's seats, links, merges,
splits and BG Stats files; private games count only for a request that sends their tokens."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

import pytest
from flask import Flask

import domain
from replay.players.names import id_of
from tests.api_helpers import ApiClient
from tests.replay_helpers import pick


def finish(app: Flask, api: ApiClient, names: list[str], seed: int, **setup: Any) -> tuple[str, str]:
    """A game created over HTTP and played to its end (moves through the game log, for speed)."""
    game_id, token, _ = api.create(names, seed=seed, **setup)
    log = app.extensions["heronlog"].get().log
    rng = random.Random(seed)
    game = log.get(UUID(game_id))
    while not domain.is_over(game.state):
        game = log.play(game.id, pick(game.state, rng), expected_version=game.version, actor="owner").game
    return game_id, token


def test_two_finished_games_with_the_same_three_names_list_three_players_of_two_games_each(
    app: Flask, api: ApiClient
) -> None:
    finish(app, api, ["Aiko", "Ben", "Chie"], 1)
    finish(app, api, ["Chie", "aiko", " Ben "], 2)
    answer = api.get("/api/players")
    assert answer.status == 200
    players = answer.body["players"]
    assert sorted(player["games"] for player in players) == [2, 2, 2] and answer.body["total"] == 3
    assert all(player["rating"] is not None and player["rating"]["games"] == 2 for player in players)
    aiko = api.get(f"/api/players/{id_of('Aiko')}")
    assert aiko.status == 200 and aiko.headers.get("etag")
    assert {rival["name"] for rival in aiko.body["versus"]} == {"Ben", "Chie"}
    assert all(rival["games_together"] == 2 for rival in aiko.body["versus"])
    assert aiko.body["record"]["games"] == 2 and len(aiko.body["history"]) == 2


def test_a_player_who_is_not_here_is_404_player_not_found(app: Flask, api: ApiClient) -> None:
    finish(app, api, ["Aiko", "Ben"], 1)
    for path in ("/api/players/nobody", f"/api/players/{id_of('Zed')}", f"/api/players/{id_of('Zed')}/games"):
        answer = api.get(path)
        assert (answer.status, answer.body["error_code"]) == (404, "player_not_found"), path
    answer = api.get(f"/api/players/{id_of('Aiko')}/versus/{id_of('Zed')}")
    assert answer.body["error_code"] == "player_not_found"


def test_a_players_games_page_and_the_list_is_searched_and_sorted(app: Flask, api: ApiClient) -> None:
    for seed in range(3):
        finish(app, api, ["Aiko", "Chieko" if seed else "Ben"], seed)
    games = api.get(f"/api/players/{id_of('Aiko')}/games?limit=2")
    assert games.body["total"] == 3 and len(games.body["games"]) == 2 and games.body["next"]
    rest = api.get(games.body["next"])
    assert len(rest.body["games"]) == 1 and rest.body["next"] is None
    assert [p["name"] for p in api.get("/api/players?search=chie").body["players"]] == ["Chieko"]
    assert api.get("/api/players?search=iko").body["players"] == []
    wins = api.get("/api/players?order=wins").body["players"]
    assert [p["won"] for p in wins] == sorted((p["won"] for p in wins), reverse=True)
    assert api.get("/api/players?order=elo").status == 400


def test_the_owner_links_a_seat_with_if_match_and_nothing_else_may(app: Flask, api: ApiClient) -> None:
    game_id, token = finish(app, api, ["Aiko", "Ben"], 1)
    seats = api.get(f"/api/games/{game_id}/players")
    assert seats.etag == 0 and [seat["player"] for seat in seats.body["seats"]] == ["Aiko", "Ben"]
    path = f"/api/games/{game_id}/players"
    assert (
        api.post(path, {"seat": 0, "name": "Aiko T"}, token=token).body["error_code"]
        == "precondition_required"
    )
    assert api.post(path, {"seat": 0, "name": "Aiko T"}, if_match=0).status == 401
    seat = api.post(f"/api/games/{game_id}/seats/1/token", {}, token=token)
    refused = api.post(path, {"seat": 0, "name": "Aiko T"}, token=seat.body["token"], if_match=0)
    assert refused.status == 403
    linked = api.post(path, {"seat": 0, "name": "Aiko T"}, token=token, if_match=0)
    assert linked.status == 200 and linked.etag == 1 and linked.body["seats"][0]["linked"]
    stale = api.post(path, {"seat": 1, "name": "Ben T"}, token=token, if_match=0)
    assert (stale.status, stale.body["error_code"]) == (412, "stale_version")
    twice = api.post(path, {"seat": 1, "player_id": id_of("Aiko T")}, token=token, if_match=1)
    assert (twice.status, twice.body["error_code"]) == (409, "player_already_seated")
    assert api.post(path, {"seat": 5, "name": "X"}, token=token, if_match=1).status == 400
    assert (
        api.post(path, {"seat": 0, "name": "X", "player_id": id_of("Ben")}, token=token, if_match=1).status
        == 400
    )
    assert api.post(path, {"seat": 0, "player_id": id_of("Nobody")}, token=token, if_match=1).status == 404
    assert {p["name"] for p in api.get("/api/players").body["players"]} == {"Aiko T", "Ben"}


def test_a_merge_names_the_players_etag_and_moves_the_seats_of_the_games_whose_tokens_it_sends(
    app: Flask, api: ApiClient
) -> None:
    one, token_one = finish(app, api, ["Aikko", "Ben"], 1)
    two, _ = finish(app, api, ["Aikko", "Chie"], 2)
    finish(app, api, ["Aiko", "Dai"], 3)
    path = f"/api/players/{id_of('Aikko')}/merge"
    body = {"into": id_of("Aiko")}
    headers = {"Game-Tokens": f"{one}={token_one}"}
    assert api.send("POST", path, body, headers).body["error_code"] == "precondition_required"
    stale = api.send("POST", path, body, {**headers, "If-Match": '"0123456789abcdef"'})
    assert (stale.status, stale.body["error_code"]) == (412, "stale_version")
    etag = api.get(f"/api/players/{id_of('Aikko')}").headers["etag"]
    done = api.send("POST", path, body, {**headers, "If-Match": etag})
    assert done.status == 200 and done.body == {"games": [{"game_id": one, "version": 1}], "left": 1}
    assert api.get(f"/api/players/{id_of('Aiko')}").body["record"]["games"] == 2
    assert api.get(f"/api/players/{id_of('Aikko')}/games").body["games"][0]["game_id"] == two


def test_a_split_moves_the_seats_it_names(app: Flask, api: ApiClient) -> None:
    one, token_one = finish(app, api, ["Ben", "Aiko"], 1)
    two, token_two = finish(app, api, ["Ben", "Chie"], 2)
    etag = api.get(f"/api/players/{id_of('Ben')}").headers["etag"]
    done = api.send(
        "POST",
        f"/api/players/{id_of('Ben')}/split",
        {"name": "Ben K", "seats": [{"game_id": two, "seat": 0}]},
        {"Game-Tokens": f"{one}={token_one},{two}={token_two}", "If-Match": etag},
    )
    assert done.status == 200 and [game["game_id"] for game in done.body["games"]] == [two]
    assert api.get(f"/api/players/{id_of('Ben K')}").body["record"]["games"] == 1
    assert api.get(f"/api/players/{id_of('Ben')}").body["record"]["games"] == 1


def test_a_private_game_counts_only_for_a_request_that_sends_its_token(app: Flask, api: ApiClient) -> None:
    finish(app, api, ["Aiko", "Ben"], 1)
    secret, token = finish(app, api, ["Aiko", "Zed"], 2, private=True)
    public = api.get("/api/players").body
    assert {p["name"] for p in public["players"]} == {"Aiko", "Ben"} and public["total"] == 2
    assert api.get(f"/api/players/{id_of('Zed')}").status == 404
    assert api.get(f"/api/players/{id_of('Aiko')}").body["record"]["games"] == 1
    assert api.get(f"/api/players/{id_of('Aiko')}/versus/{id_of('Zed')}").status == 404
    held = {"Game-Tokens": f"{secret}={token}"}
    assert {p["name"] for p in api.get("/api/players", **held).body["players"]} == {"Aiko", "Ben", "Zed"}
    aiko = api.get(f"/api/players/{id_of('Aiko')}", **held).body
    assert aiko["record"]["games"] == 2 and aiko["rating"]["games"] == 1  # a private game moves no rating
    assert api.get(f"/api/players/{id_of('Zed')}/games", **held).body["games"][0]["private"] is True
    assert api.get(f"/api/players/{id_of('Aiko')}/versus/{id_of('Zed')}", **held).body["games_together"] == 1


@pytest.mark.parametrize(
    ("header", "status"),
    [("not a list", 400), ("00000000-0000-4000-8000-000000000000=abc", 404), (",".join(["x=y"] * 60), 400)],
)
def test_game_tokens_that_are_no_list_or_no_game_are_refused(
    app: Flask, api: ApiClient, header: str, status: int
) -> None:
    finish(app, api, ["Aiko", "Ben"], 1)
    assert api.get("/api/players", **{"Game-Tokens": header}).status == status


def test_a_token_that_is_not_the_games_is_401(app: Flask, api: ApiClient) -> None:
    game_id, _ = finish(app, api, ["Aiko", "Ben"], 1)
    answer = api.get("/api/players", **{"Game-Tokens": f"{game_id}=wrong"})
    assert (answer.status, answer.body["error_code"]) == (401, "unauthorized")


def test_a_bgstats_file_links_its_players_by_name_and_the_exports_name_them_so(
    app: Flask, api: ApiClient
) -> None:
    game_id, token = finish(app, api, ["Aiko", "Ben"], 1)
    file = {
        "players": [
            {"id": 1, "name": "aiko", "uuid": "0c5fa2a2-7b61-4f3c-9b8a-2a0f0c1d2e3f", "isAnonymous": False},
            {"id": 2, "name": "Someone Else", "uuid": "1c5fa2a2-7b61-4f3c-9b8a-2a0f0c1d2e3f"},
        ],
        "plays": [],
        "games": [],
    }
    answer = api.send("POST", "/api/players/bgstats", file, {"Game-Tokens": f"{game_id}={token}"})
    assert answer.status == 200
    assert answer.body["referred"] == [
        {"player_id": id_of("Aiko"), "name": "aiko", "uuid": "0C5FA2A2-7B61-4F3C-9B8A-2A0F0C1D2E3F"}
    ]
    assert answer.body["not_here"] == ["Someone Else"]
    exported = api.get(f"/api/games/{game_id}/export?format=bgstats")
    people = {player["name"]: player["uuid"] for player in exported.body["players"]}
    assert people["Aiko"] == "0C5FA2A2-7B61-4F3C-9B8A-2A0F0C1D2E3F"
    again = api.get(f"/api/games/{game_id}/export?format=bgstats")
    assert {p["name"]: p["uuid"] for p in again.body["players"]} == people
    assert api.get(f"/api/players/{id_of('Aiko')}").body["bgstats"] == "0C5FA2A2-7B61-4F3C-9B8A-2A0F0C1D2E3F"


def test_a_linked_seat_is_its_players_in_the_bgstats_exports(app: Flask, api: ApiClient) -> None:
    game_id, token = finish(app, api, ["Aikko", "Ben"], 1)
    before = api.get(f"/api/games/{game_id}/export?format=bgstats").body["players"][0]["uuid"]
    api.post(f"/api/games/{game_id}/players", {"seat": 0, "name": "Aiko"}, token=token, if_match=0)
    exported = api.get(f"/api/games/{game_id}/export?format=bgstats").body["players"][0]
    assert exported["name"] == "Aiko" and exported["uuid"] != before
    link = api.get(f"/api/games/{game_id}/export?format=bgstats-link").body["play"]["players"][0]
    assert (link["name"], link["sourcePlayerId"]) == ("Aiko", "aiko")


def test_the_players_are_in_the_openapi_document(api: ApiClient) -> None:
    paths = api.get("/api/openapi.json").body["paths"]
    for path in (
        "/api/players",
        "/api/players/{player_id}",
        "/api/players/{player_id}/games",
        "/api/players/{player_id}/versus/{other_id}",
        "/api/players/{player_id}/merge",
        "/api/players/{player_id}/split",
        "/api/players/bgstats",
        "/api/games/{game_id}/players",
    ):
        assert path in paths, path


def test_the_players_answers_sent_as_built_are_exactly_their_schemas_dumps(
    app: Flask, api: ApiClient
) -> None:
    from api.resources.player_schemas import (
        PlayerGamesSchema,
        PlayerListSchema,
        PlayerProfileSchema,
        VersusSchema,
    )

    finish(app, api, ["Aiko", "Ben", "Chie"], 1, expansions=["matcha"])
    finish(app, api, ["Aiko", "Ben"], 2)
    finish(app, api, ["Aiko"], 3, solo="easy")
    for schema, path in (
        (PlayerListSchema(), "/api/players"),
        (PlayerListSchema(), "/api/players?order=rating&search=a"),
        (PlayerProfileSchema(), f"/api/players/{id_of('Aiko')}"),
        (PlayerGamesSchema(), f"/api/players/{id_of('Aiko')}/games"),
        (VersusSchema(), f"/api/players/{id_of('Aiko')}/versus/{id_of('Ben')}"),
    ):
        body = api.get(path).body
        assert schema.dump(body) == body, path
