"""Seats over HTTP: the URLs and the JSON count seats from 0, every word written for people counts them from 1
and names the player, as the turn errors do ("it is Ben's turn (seat 2), not Aiko's (seat 1)"). The seat
token routes, a seat the game does not have, the solo rival's seat, a token acting for another seat, a turn
looked up by seat, and the text record's annotations."""

from __future__ import annotations

from typing import Any

import pytest

from tests.api_helpers import Answer, ApiClient

AIKO_AND_BEN = [{"name": "Aiko", "colour": "purple"}, {"name": "Ben", "colour": "green"}]
SEATS_OF_AIKO_AND_BEN = "this game has seats 1 to 2: Aiko (seat 1) and Ben (seat 2)"


def aiko_and_ben(api: ApiClient, **setup: Any) -> tuple[str, str, str]:
    """A game of Aiko (index 0) and Ben (index 1): (game id, owner token, Ben's seat token)."""
    game_id, owner, _ = api.create(AIKO_AND_BEN, **{"seed": 4, **setup})
    ben = api.post(f"/api/games/{game_id}/seats/1/token", token=owner)
    assert ben.status == 201 and ben.body["seat"] == 1 and ben.body["actor"] == "seat:1"
    return game_id, owner, ben.body["token"]


def refused(answer: Answer, status: int, code: str) -> str:
    """The message of an error answer, once its status and error_code are the ones expected."""
    assert answer.error() == (status, code), answer.body
    return str(answer.body["detail"])


@pytest.mark.parametrize("method", ["post", "delete"])
@pytest.mark.parametrize("seat", [2, 7, -1, 10**20])
def test_a_seat_the_game_does_not_have_is_400_invalid_seat_listing_its_seats_counted_from_1(
    api: ApiClient, method: str, seat: int
) -> None:
    game_id, owner, _ = api.create(AIKO_AND_BEN, seed=4)
    answer = getattr(api, method)(f"/api/games/{game_id}/seats/{seat}/token", token=owner)
    assert refused(answer, 400, "invalid_seat") == f"there is no seat {seat + 1}: {SEATS_OF_AIKO_AND_BEN}"
    assert answer.body["details"] == {"seat": seat, "seats": 2}  # the index as sent, and how many seats
    grants = api.get(f"/api/games/{game_id}/access", owner).body["grants"]
    assert [grant["actor"] for grant in grants] == ["owner"]


def test_a_game_of_four_lists_its_four_seats_by_name(api: ApiClient) -> None:
    game_id, owner, _ = api.create(["Aiko", "Ben", "Chie", "Dai"], seed=4)
    answer = api.post(f"/api/games/{game_id}/seats/4/token", token=owner)
    assert refused(answer, 400, "invalid_seat") == (
        "there is no seat 5: this game has seats 1 to 4: Aiko (seat 1), Ben (seat 2), Chie (seat 3) and "
        "Dai (seat 4)"
    )


def test_the_seat_in_the_url_and_the_json_is_the_index_from_0(api: ApiClient) -> None:
    game_id, owner, ben = aiko_and_ben(api)
    access = api.get(f"/api/games/{game_id}/access", ben).body
    assert access["you"] == "seat:1" and [grant["seat"] for grant in access["grants"]] == [1]
    assert api.delete(f"/api/games/{game_id}/seats/1/token", token=owner).status == 204
    assert api.get(f"/api/games/{game_id}/access", ben).error() == (401, "unauthorized")
    # a seat that has no token has nothing to withdraw: still 204
    assert api.delete(f"/api/games/{game_id}/seats/0/token", token=owner).status == 204


def test_the_solo_rivals_seat_takes_no_token_and_the_refusal_names_it_from_1(api: ApiClient) -> None:
    game_id, owner, game = api.create(["Aiko"], solo="easy", seed=1)
    assert game["players"][1]["name"] == "Rival"
    answer = api.post(f"/api/games/{game_id}/seats/1/token", token=owner)
    assert refused(answer, 400, "invalid_seat") == (
        "Rival (seat 2) is the solo rival, played by the rules engine: it takes no token"
    )
    assert answer.body["details"] == {"seat": 1, "seats": 2}
    beyond = api.post(f"/api/games/{game_id}/seats/2/token", token=owner)
    assert refused(beyond, 400, "invalid_seat") == (
        "there is no seat 3: this game has seats 1 to 2: Aiko (seat 1) and Rival (seat 2)"
    )


def test_a_seat_token_recording_another_seats_move_is_403_naming_both_players_from_1(api: ApiClient) -> None:
    game_id, _owner, ben = aiko_and_ben(api)
    move = api.legal(game_id).body["moves"][0]
    assert move["seat"] == 0
    answer = api.play(game_id, move, ben, 1)
    assert refused(answer, 403, "forbidden") == (
        "Ben's token (seat 2) may only record its own seat's moves, not Aiko's (seat 1)"
    )
    assert answer.body["details"] == {"actor": "seat:1", "seats": [0]}  # the seats as the moves name them
    assert api.game(game_id)["version"] == 1


def test_a_seat_token_undoing_redoing_or_amending_another_seats_move_names_both_from_1(
    api: ApiClient,
) -> None:
    game_id, owner, ben = aiko_and_ben(api)
    listing = api.legal(game_id).body["moves"]
    assert listing[0]["seat"] == listing[1]["seat"] == 0
    assert api.play(game_id, listing[0], owner, 1).status == 201

    undo = api.post(f"/api/games/{game_id}/undo", {}, token=ben, if_match=2)
    assert refused(undo, 403, "forbidden") == (
        "Ben's token (seat 2) may only undo its own seat's moves, not Aiko's (seat 1)"
    )
    amend = api.post(f"/api/games/{game_id}/amend", {"version": 2, "move": listing[1]}, token=ben, if_match=2)
    assert refused(amend, 403, "forbidden") == (
        "Ben's token (seat 2) may only amend its own seat's moves, not Aiko's (seat 1)"
    )
    assert api.post(f"/api/games/{game_id}/undo", {}, token=owner, if_match=2).status == 200
    redo = api.post(f"/api/games/{game_id}/redo", {}, token=ben, if_match=3)
    assert refused(redo, 403, "forbidden") == (
        "Ben's token (seat 2) may only redo its own seat's moves, not Aiko's (seat 1)"
    )
    assert api.game(game_id)["version"] == 3


def test_a_seat_token_answering_chance_is_told_it_is_chances_move(api: ApiClient) -> None:
    game_id, _owner, ben = aiko_and_ben(api, mode="table", seed=None)
    chance = api.legal(game_id).body["moves"][0]
    assert chance["seat"] is None
    alone = api.play(game_id, chance, ben, 1)
    assert refused(alone, 403, "forbidden") == (
        "Ben's token (seat 2) may only record its own seat's moves, not chance's"
    )
    batch = api.post(
        f"/api/games/{game_id}/moves",
        {"moves": [chance, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"}]},
        token=ben,
        if_match=1,
    )
    assert refused(batch, 403, "forbidden") == (
        "Ben's token (seat 2) may only record its own seat's moves, not Aiko's (seat 1) or chance's"
    )
    assert batch.body["details"]["seats"] == [0, None]  # chance is null, as in the moves


@pytest.mark.parametrize(
    ("seat", "whose"),
    [(7, "seat 8's"), (-1, "seat 0's"), ("x", "those of seat 'x'"), ([0], "those of seat [0]")],
)
def test_a_seat_token_naming_a_seat_that_is_none_of_the_games_is_still_a_403_in_words(
    api: ApiClient, seat: Any, whose: str
) -> None:
    # in a batch: a single move's seat must be an integer (its schema), a batch's moves are only the engine's
    game_id, _owner, ben = aiko_and_ben(api)
    batch = {"moves": [{"kind": "take_die", "seat": seat, "bridge": "coral", "end": "left"}]}
    answer = api.post(f"/api/games/{game_id}/moves", batch, token=ben, if_match=1)
    assert refused(answer, 403, "forbidden") == (
        f"Ben's token (seat 2) may only record its own seat's moves, not {whose}"
    )


def test_a_turn_looked_up_by_seat_names_the_player_from_1_when_there_is_none(api: ApiClient) -> None:
    game_id, _owner, _ben = aiko_and_ben(api)
    answer = api.get(f"/api/games/{game_id}/states?round=1&turn=1&seat=1")
    assert refused(answer, 404, "unknown_version") == "no move of Ben (seat 2) in round 1, turn 1"
    assert answer.body["details"] == {"round": 1, "turn": 1, "seat": 1}
    beyond = api.get(f"/api/games/{game_id}/states?round=1&turn=1&seat=5")
    assert refused(beyond, 404, "unknown_version") == "no move of seat 6 in round 1, turn 1"
    anyone = api.get(f"/api/games/{game_id}/states?round=3&turn=1")
    assert refused(anyone, 404, "unknown_version") == "no move in round 3, turn 1"


def test_the_text_record_names_a_seats_annotations_and_domain_as_people_count(api: ApiClient) -> None:
    game_id, owner, ben = aiko_and_ben(api)
    note = {"version": 1, "text": "watch this", "glyph": "!", "target": {"kind": "domain", "id": 1}}
    assert api.post(f"/api/games/{game_id}/annotations", note, token=ben).status == 201
    mine = {"version": 1, "text": "a plan", "target": {"kind": "room", "id": "steward_1"}}
    assert api.post(f"/api/games/{game_id}/annotations", mine, token=owner).status == 201
    text = api.get(f"/api/games/{game_id}/export?format=text").body
    assert "{! Ben (seat 2) [Ben's domain (seat 2)]: watch this}" in text
    assert "{owner [steward room 1]: a plan}" in text
    # the JSON keeps the actor as recorded
    notes = api.get(f"/api/games/{game_id}/annotations").body["annotations"]
    assert [n["author"] for n in notes] == ["seat:1", "owner"]


def test_the_openapi_document_says_seats_count_from_0_in_urls_and_json(api: ApiClient) -> None:
    document = api.get("/api/openapi.json").body
    item = document["paths"]["/api/games/{game_id}/seats/{seat}/token"]
    [seat] = [p for p in item["parameters"] if p["name"] == "seat"]
    assert "from 0" in seat["description"] and "minimum" not in seat["schema"]
    assert "400" in item["post"]["responses"] and "400" in item["delete"]["responses"]
    schemas = document["components"]["schemas"]
    for name in ("SeatToken", "Grant", "Prompt", "Coordinates", "TimelineEntry"):
        assert "from 0" in schemas[name]["properties"]["seat"]["description"], name
    assert "from 0" in schemas["SeatToken"]["properties"]["actor"]["description"]
