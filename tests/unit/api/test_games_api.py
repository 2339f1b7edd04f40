"""Creating, listing and reading games; the owner token; private games."""

from __future__ import annotations

import uuid

from tests.api_helpers import ApiClient


def test_creating_a_game_answers_201_with_the_game_its_etag_and_an_owner_token(api: ApiClient) -> None:
    answer = api.post("/api/games", {"players": ["Aiko", "Ben"], "seed": 7})
    assert answer.status == 201
    game = answer.body["game"]
    assert answer.headers["location"] == f"/api/games/{game['game_id']}"
    assert answer.etag == game["version"] == 1
    assert [p["name"] for p in game["players"]] == ["Aiko", "Ben"]
    assert len(answer.body["owner_token"]) >= 40
    uuid.UUID(game["game_id"])


def test_the_owner_token_is_shown_once_and_never_stored_in_clear(api: ApiClient, app) -> None:  # type: ignore[no-untyped-def]
    game_id, token, _ = api.create(2)
    assert token not in str(api.game(game_id))
    assert token not in str(api.get(f"/api/games/{game_id}/export").body)
    log = app.extensions["heronlog"].get().log
    stored = [
        repr(event)
        for event in log.stores.all[0].events.get(
            uuid.uuid5(uuid.NAMESPACE_URL, f"heronlog:access:{game_id}")
        )
    ]
    assert stored and all(token not in text for text in stored)


def test_reading_a_public_game_needs_only_its_id(api: ApiClient) -> None:
    game_id, _, created = api.create(3)
    answer = api.get(f"/api/games/{game_id}")
    assert answer.status == 200
    assert answer.etag == created["version"]
    assert answer.body["prompt"]["kind"] == "choose_start" and answer.body["prompt"]["seat"] in (0, 1, 2)


def test_a_private_game_needs_a_token_even_to_read(api: ApiClient) -> None:
    game_id, token, _ = api.create(2, private=True)
    assert api.get(f"/api/games/{game_id}").error() == (401, "unauthorized")
    assert api.get(f"/api/games/{game_id}/timeline").error() == (401, "unauthorized")
    assert api.get(f"/api/games/{game_id}", "not-a-token").error() == (401, "unauthorized")
    assert api.get(f"/api/games/{game_id}", token).status == 200
    seat = api.post(f"/api/games/{game_id}/seats/1/token", token=token).body["token"]
    assert api.get(f"/api/games/{game_id}/legal-moves", seat).status == 200


def test_the_list_shows_public_games_newest_first_and_never_private_ones(api: ApiClient) -> None:
    first, _, _ = api.create(["Aiko", "Ben"])
    second, _, _ = api.create(["Chie", "Dai"])
    api.create(["Eri", "Fumi"], private=True)
    listed = [game["game_id"] for game in api.get("/api/games").body["games"]]
    assert listed == [second, first]
    found = api.get("/api/games?search=chie").body["games"]
    assert [game["game_id"] for game in found] == [second]
    assert api.get("/api/games?limit=1&offset=1").body["games"][0]["game_id"] == first


def test_the_list_says_how_many_games_it_finds_and_where_its_next_page_is(api: ApiClient) -> None:
    for seed in range(5):
        api.create(["Aiko", "Ben"], seed=seed, title=f"Club night {seed}")
    api.create(["Aiko", "Ben"], title="Club night (private)", private=True)
    api.create(["Chie", "Dai"], title="At home")
    seen, page = [], api.get("/api/games?search=club&limit=2").body
    while True:
        assert page["total"] == 5 and page["limit"] == 2  # the private game is not counted
        seen += [game["title"] for game in page["games"]]
        if page["next"] is None:
            break
        assert page["next"].startswith("/api/games?") and "search=club" in page["next"]
        page = api.get(page["next"]).body
    assert seen == [f"Club night {seed}" for seed in reversed(range(5))]
    assert api.get("/api/games").body["total"] == 6 and api.get("/api/games").body["next"] is None


def test_the_list_pages_back_by_its_previous_link_and_refuses_a_forged_cursor(api: ApiClient) -> None:
    made = [api.create(["Aiko", "Ben"], seed=seed, title=f"Game {seed}")[0] for seed in range(5)]
    first = api.get("/api/games?limit=2").body
    second = api.get(first["next"]).body
    assert [game["game_id"] for game in second["games"]] == made[2:0:-1] and "limit=2" in second["next"]
    assert api.get(second["previous"]).body["games"] == first["games"]
    assert first["previous"] is None and first["complete"] is True
    assert api.get("/api/games?after=12_nope").error() == (400, "invalid_request")
    cursor = first["next"].split("after=")[1]
    assert api.get(f"/api/games?after={cursor}&before={cursor}").error() == (400, "invalid_request")


def test_an_unknown_game_is_404_in_the_error_envelope(api: ApiClient) -> None:
    answer = api.get(f"/api/games/{uuid.uuid4()}")
    assert answer.error() == (404, "game_not_found")
    assert api.get("/api/games/not-a-uuid").error() == (404, "not_found")


def test_a_malformed_setup_is_400_and_creates_nothing(api: ApiClient) -> None:
    assert api.post("/api/games", {"players": []}).error() == (400, "invalid_setup")
    assert api.post("/api/games", {"players": 9}).error() == (400, "invalid_setup")
    assert api.post("/api/games", {"players": 2, "options": {"no_such_option": 1}}).error() == (
        400,
        "invalid_setup",
    )
    assert api.post("/api/games", {"mode": "seeded"}).error() == (400, "invalid_request")
    assert api.post("/api/games", {"players": 2, "mode": "dice"}).error() == (400, "invalid_request")
    assert api.get("/api/games").body["games"] == []


def test_table_mode_lists_chance_moves_for_the_recorder(api: ApiClient) -> None:
    game_id, token, game = api.create(2, mode="table")
    listing = api.legal(game_id)
    assert listing.body["prompt"]["seat"] is None
    roll = listing.body["moves"][0]
    assert roll["seat"] is None
    assert api.play(game_id, roll, token, game["version"]).status == 201


def test_the_catalog_is_served_once_apart_from_the_board(api: ApiClient) -> None:
    game_id, _, game = api.create(2, seed=5)
    assert "catalog" not in game["state"]
    catalog = api.get(f"/api/games/{game_id}/catalog")
    assert catalog.status == 200 and catalog.etag == game["version"]
    assert catalog.body["rules_version"] == game["rules_version"]
    assert {"stewards", "gardens"} <= set(catalog.body["catalog"])
    # the parts a comment may point at, each with the icon the pages show beside its name
    said = catalog.body["words"]
    assert set(said["part_icons"]) == set(said["annotations"])
    assert said["part_icons"]["well:"] == "well" and said["part_icons"]["bridge:coral"] == "tile:coral"
    assert (
        said["part_icons"]["garden:coral_plant"] == "plant"
        and said["part_icons"]["room:steward_1"] == "courtier"
    )


def test_the_id_of_another_stream_is_no_game(api: ApiClient) -> None:
    game_id, token, _ = api.create(2, seed=5)
    api.post(f"/api/games/{game_id}/annotations", {"version": 1, "text": "n"}, token=token)
    for kind in ("annotations", "access"):
        other = uuid.uuid5(uuid.NAMESPACE_URL, f"heronlog:{kind}:{game_id}")
        assert api.get(f"/api/games/{other}").error() == (404, "game_not_found")
        assert api.get(f"/api/games/{other}/timeline").error() == (404, "game_not_found")
    index = uuid.uuid5(uuid.NAMESPACE_URL, "heronlog:index:GameLog")
    assert api.get(f"/api/games/{index}").error() == (404, "game_not_found")


def test_an_absurd_player_count_is_refused_at_once(api: ApiClient) -> None:
    assert api.post("/api/games", {"players": 10**15}).error() == (400, "invalid_setup")
    assert api.post("/api/games", {"players": -3}).error() == (400, "invalid_setup")
