"""Small things a client reads: each refusal says what was wrong, and alike things answer alike."""

from __future__ import annotations

import pytest

from tests.api_helpers import ApiClient


def test_reading_the_access_list_without_a_token_says_reading(api: ApiClient) -> None:
    game_id, _, _ = api.create(2, seed=1)
    answer = api.get(f"/api/games/{game_id}/access")
    assert answer.error() == (401, "unauthorized")
    assert "reading" in answer.body["detail"] and "writing" not in answer.body["detail"]


def test_a_quoted_star_in_if_match_is_told_about_the_star(api: ApiClient) -> None:
    game_id, owner, _ = api.create(2, seed=1)
    answer = api.post(f"/api/games/{game_id}/undo", {}, token=owner, if_match='"*"')
    assert answer.error() == (400, "invalid_request") and "*" in answer.body["detail"]


def test_expected_version_star_is_refused_saying_star_is_if_matchs_only(api: ApiClient) -> None:
    """README: `*` is sent as If-Match only; the body's expected_version is a number."""
    game_id, owner, _ = api.create(2, seed=1)
    answer = api.post(f"/api/games/{game_id}/undo", {"expected_version": "*"}, token=owner)
    assert answer.error() == (400, "invalid_request")
    assert "If-Match" in str(answer.body["details"]["fields"]["json"]["expected_version"])


def test_a_json_body_sent_as_text_plain_is_told_to_send_application_json(api: ApiClient) -> None:
    answer = api.send("POST", "/api/games", '{"players": ["A", "B"]}', {"Content-Type": "text/plain"})
    assert answer.error() == (400, "invalid_request")
    assert "application/json" in answer.body["detail"] and "Missing" not in answer.body["detail"]
    assert api.post("/api/games", {"players": ["A", "B"]}).status == 201


@pytest.mark.parametrize("version", [-1, 0, -(2**70)])
def test_a_version_below_one_is_unknown_version_like_zero(api: ApiClient, version: int) -> None:
    game_id, _, _ = api.create(2, seed=1)
    assert api.get(f"/api/games/{game_id}/states/{version}").error() == (404, "unknown_version")


@pytest.mark.parametrize("value", ["yes", "true", 1, "1"])
def test_booleans_in_a_body_are_json_booleans_only(api: ApiClient, value: object) -> None:
    answer = api.post("/api/games", {"players": ["A", "B"], "private": value})
    assert answer.error() == (400, "invalid_request")
    assert "private" in answer.body["details"]["fields"]["json"]
    assert api.post("/api/games", {"players": ["A", "B"], "private": True}).status == 201


@pytest.mark.parametrize(
    "players", [["Ann", "ann"], ["Ann", " Ann "], [{"name": "Ben", "colour": "blue"}, {"name": "BEN"}]]
)
def test_two_players_of_one_name_are_refused(api: ApiClient, players: list[object]) -> None:
    answer = api.post("/api/games", {"players": players})
    assert answer.error() == (400, "invalid_setup")
    assert "name" in answer.body["detail"]


@pytest.mark.parametrize(
    "players",
    [
        [{"name": "Ann", "colour": "blue"}, {"name": "Bo", "colour": "Blue"}],
        [{"name": "Ann", "colour": "red"}, "Bo", {"name": "Cy", "colour": " red "}],
    ],
)
def test_two_players_of_one_colour_are_refused(api: ApiClient, players: list[object]) -> None:
    answer = api.post("/api/games", {"players": players})
    assert answer.error() == (400, "invalid_setup")
    assert "colour" in answer.body["detail"] and answer.body["details"]["colour"] in {"Blue", "red"}


def test_a_player_given_no_colour_takes_one_nobody_chose(api: ApiClient) -> None:
    # "purple" is the first seat's default colour: chosen by the second player, the first takes another
    players = ["Ann", {"name": "Bo", "colour": "purple"}, "Cy"]
    answer = api.post("/api/games", {"players": players})
    assert answer.status == 201
    colours = [player["colour"] for player in answer.body["game"]["players"]]
    assert colours == ["green", "purple", "blue"]
