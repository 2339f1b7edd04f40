"""Clients that mean harm to the players: names that hide what they say, markup for the pages, private games
fished for through every players' answer, token lists forged or huge, and BG Stats files built to cost. Each
ends in a clear 4xx or an answer that says nothing of a private game, on SQLite and on Redis."""

from __future__ import annotations

import random
from typing import Any
from uuid import UUID

import domain
from replay.players.names import id_of
from tests.api_helpers import ApiClient
from tests.hostile.conftest import AppMaker, client_from
from tests.replay_helpers import pick


def finish(app: Any, api: ApiClient, names: list[str], seed: int, **setup: Any) -> tuple[str, str]:
    game_id, token, _ = api.create(names, seed=seed, **setup)
    log = app.extensions["heronlog"].get().log
    rng = random.Random(seed)
    game = log.get(UUID(game_id))
    while not domain.is_over(game.state):
        game = log.play(game.id, pick(game.state, rng), expected_version=game.version, actor="owner").game
    return game_id, token


def test_a_link_to_a_name_with_control_or_bidirectional_characters_is_400_and_changes_nothing(
    make_app: AppMaker,
) -> None:
    app = make_app()
    api = client_from(app)
    game_id, token = finish(app, api, ["Aiko", "Ben"], 1)
    for name in ("Ben\u202e", "Ben\x1b[2J", "Ben\u2028x", "\u200b", "Be\ud800n", "x" * 41):
        answer = api.post(f"/api/games/{game_id}/players", {"seat": 1, "name": name}, token=token, if_match=0)
        assert answer.status == 400, (name, answer.body)
    assert api.get(f"/api/games/{game_id}/players").etag == 0
    assert {p["name"] for p in api.get("/api/players").body["players"]} == {"Aiko", "Ben"}


def test_names_that_look_alike_are_one_player_and_markup_stays_text_on_the_pages(make_app: AppMaker) -> None:
    app = make_app()
    api = client_from(app)
    finish(app, api, ["<b>Ann</b>", "Ben"], 1)
    finish(app, api, ["<B>ANN</B> ", "Bеn"], 2)  # a Cyrillic е: Ben, as names are compared
    players = api.get("/api/players").body["players"]
    assert sorted(p["games"] for p in players) == [2, 2]
    page = app.test_client().get("/players").get_data(as_text=True)
    assert "<b>Ann</b>" not in page and "&lt;b&gt;" in page.lower()


def test_no_players_answer_says_a_private_game_exists_to_a_request_without_its_token(
    make_app: AppMaker,
) -> None:
    app = make_app()
    api = client_from(app)
    finish(app, api, ["Aiko", "Ben"], 1)
    before = {
        path: api.get(path).body
        for path in (
            "/api/players",
            "/api/players?order=wins",
            "/api/players?order=rating",
            "/api/players?search=aiko",
            f"/api/players/{id_of('Aiko')}",
            f"/api/players/{id_of('Aiko')}/games",
            f"/api/players/{id_of('Aiko')}/versus/{id_of('Ben')}",
        )
    }
    finish(app, api, ["Aiko", "Ben", "Secret"], 2, private=True)
    for path, answer in before.items():
        assert api.get(path).body == answer, path
    for path in (
        f"/api/players/{id_of('Secret')}",
        f"/api/players/{id_of('Secret')}/games",
        f"/api/players/{id_of('Aiko')}/versus/{id_of('Secret')}",
    ):
        assert api.get(path).status == 404, path
    assert api.get("/api/players?search=secret").body["players"] == []
    for page in ("/players", "/players?search=secret", f"/?player={id_of('Secret')}"):
        assert "Secret" not in app.test_client().get(page).get_data(as_text=True), page


def test_forged_or_huge_token_lists_are_refused(make_app: AppMaker) -> None:
    app = make_app()
    api = client_from(app)
    game_id, token = finish(app, api, ["Aiko", "Ben"], 1)
    for header in (
        f"{game_id}",
        f"{game_id}=",
        "=" + token,
        f"{game_id}={token}," * 51,
        f"{game_id}={token};{game_id}={token}",
        "x" * 6000,
    ):
        answer = api.get("/api/players", **{"Game-Tokens": header})
        assert answer.status == 400, header[:80]
        assert answer.body["error_code"] == "invalid_request"
    wrong = api.get("/api/players", **{"Game-Tokens": f"{game_id}={token}x"})
    assert (wrong.status, wrong.body["error_code"]) == (401, "unauthorized")


def test_a_merge_with_a_seat_token_or_anothers_game_moves_nothing(make_app: AppMaker) -> None:
    app = make_app()
    api = client_from(app)
    game_id, token = finish(app, api, ["Aikko", "Ben"], 1)
    seat = api.post(f"/api/games/{game_id}/seats/1/token", {}, token=token).body["token"]
    other, _ = finish(app, api, ["Aiko", "Chie"], 2)
    etag = api.get(f"/api/players/{id_of('Aikko')}").headers["etag"]
    done = api.send(
        "POST",
        f"/api/players/{id_of('Aikko')}/merge",
        {"into": id_of("Aiko")},
        {"Game-Tokens": f"{game_id}={seat}", "If-Match": etag},
    )
    assert done.status == 200 and done.body == {"games": [], "left": 1}
    assert api.get(f"/api/players/{id_of('Aikko')}").body["record"]["games"] == 1
    assert other


def test_a_bgstats_file_too_big_or_malformed_is_400_and_one_with_strangers_refers_nobody(
    make_app: AppMaker,
) -> None:
    app = make_app()
    api = client_from(app)
    game_id, token = finish(app, api, ["Aiko", "Ben"], 1)
    uuid = "0C5FA2A2-7B61-4F3C-9B8A-2A0F0C1D2E3F"
    big = {"players": [{"name": f"P{n}", "uuid": uuid} for n in range(5001)]}
    assert api.post("/api/players/bgstats", big).status == 400
    assert api.post("/api/players/bgstats", {"players": [{"name": "Aiko", "uuid": "not-one"}]}).status == 400
    assert api.post("/api/players/bgstats", {"players": "Aiko"}).status == 400
    alone = api.post("/api/players/bgstats", {"players": [{"name": "Aiko", "uuid": uuid}]})
    assert alone.status == 200 and alone.body == {
        "referred": [],
        "not_here": ["Aiko"],
    }  # no game of theirs owned
    assert api.get(f"/api/players/{id_of('Aiko')}").body["bgstats"] is None
    assert game_id and token
