"""Fork floods. After 120 creations the same address made 300 forks in 3.7 s with one owner
token, and the forks' own tokens made more: a fork was counted against the token it sent, and every fork
hands out a token of its own.

Now a fork is a creation like any other: counted against the address that asks for it, whatever token it
sends; and a fork or an import counts against the game it comes from too (``RATE_LIMIT_PER_SOURCE``), so a game
cannot be copied in bulk from many addresses either."""

from __future__ import annotations

from tests.hostile.conftest import AppMaker, client_from, played_export


def test_after_its_creations_an_address_cannot_fork_with_any_token(make_app: AppMaker) -> None:
    app = make_app(RATE_LIMIT_PER_ADDRESS=5, RATE_LIMIT_WINDOW=10**9)
    api = client_from(app, "10.1.0.1")
    games = [api.post("/api/games", {"players": 2}) for _ in range(4)]
    assert [game.status for game in games] == [201] * 4
    game_id, token = games[0].body["game"]["game_id"], games[0].body["owner_token"]

    fork = api.post(f"/api/games/{game_id}/forks", {}, token=token)  # the address's fifth creation
    assert fork.status == 201
    fork_id, fork_token = fork.body["game"]["game_id"], fork.body["owner_token"]

    assert api.post(f"/api/games/{game_id}/forks", {}, token=token).error() == (429, "rate_limited")
    assert api.post(f"/api/games/{fork_id}/forks", {}, token=fork_token).error() == (429, "rate_limited")
    assert api.post(f"/api/games/{game_id}/forks", {}).error() == (429, "rate_limited")
    assert api.get("/api/games").body["total"] == 5
    # the game's own writes keep their own budget (a token's): the owner still plays
    legal = api.legal(game_id, token).body
    assert api.play(game_id, legal["moves"][0], token, legal["version"]).status == 201


def test_a_game_is_forked_at_most_the_source_limit_a_window_from_any_number_of_addresses(
    make_app: AppMaker,
) -> None:
    app = make_app(RATE_LIMIT_PER_SOURCE=3, RATE_LIMIT_WINDOW=10**9)
    game_id, token, _ = played_export(client_from(app, "10.2.0.1"), moves=2)
    forks = [
        client_from(app, f"10.2.1.{number}").post(f"/api/games/{game_id}/forks", {}, token=token)
        for number in range(5)
    ]
    assert [fork.status for fork in forks] == [201, 201, 201, 429, 429]
    assert forks[3].body["detail"].startswith("too many forks and imports of this game")
    # another game's forks are counted apart
    other_id, other_token, _ = played_export(client_from(app, "10.2.0.2"), moves=1)
    assert (
        client_from(app, "10.2.2.1").post(f"/api/games/{other_id}/forks", {}, token=other_token).status == 201
    )


def test_imports_of_one_export_count_against_the_game_it_was_taken_from(make_app: AppMaker) -> None:
    app = make_app(RATE_LIMIT_PER_SOURCE=2, RATE_LIMIT_WINDOW=10**9)
    game_id, token, document = played_export(client_from(app, "10.3.0.1"), moves=2)
    imports = [
        client_from(app, f"10.3.1.{number}").post("/api/games/import?new_id=1", document)
        for number in range(3)
    ]
    assert [answer.status for answer in imports] == [201, 201, 429]
    # a fork of that game now finds the game's budget spent too
    assert client_from(app, "10.3.2.1").post(f"/api/games/{game_id}/forks", {}, token=token).error() == (
        429,
        "rate_limited",
    )
