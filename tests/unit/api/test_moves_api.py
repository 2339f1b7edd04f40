"""Recording moves over HTTP: legal-moves round trip, rule errors, batches, versions, tokens, idempotency."""

from __future__ import annotations

import json
import random
from uuid import UUID

import pytest
from flask import Flask

from tests.api_helpers import ApiClient, moves_after


def test_every_move_listed_by_legal_moves_is_accepted_as_is(api: ApiClient) -> None:
    game_id, _token, _ = api.create(3, seed=11)
    listing = api.legal(game_id)
    for move in listing.body["moves"]:
        fork = api.post(f"/api/games/{game_id}/forks", {"version": listing.etag}).body
        answer = api.play(fork["game"]["game_id"], move, fork["owner_token"], listing.etag)
        assert answer.status == 201, answer.body
        assert answer.body["versions"] == [listing.etag + 1]


def test_a_whole_game_played_through_legal_moves_ends_with_a_score_sheet(api: ApiClient) -> None:
    game_id, token, _ = api.create(4, seed=3)
    played = api.play_random(game_id, token, random.Random(3))
    game = api.game(game_id)
    assert game["over"] and game["status"] == "finished"
    assert game["moves"] == len(played)
    score = api.get(f"/api/games/{game_id}/score").body
    assert score["over"] and sorted(sheet["rank"] for sheet in score["sheets"])[0] == 1
    assert api.legal(game_id).body["moves"] == []
    late = api.play(
        game_id, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"}, token, game["version"]
    )
    assert late.error() == (422, "game_over")
    assert api.game(game_id)["version"] == game["version"]


def test_an_illegal_move_is_422_with_its_rule_and_changes_nothing(api: ApiClient) -> None:
    game_id, token, game = api.create(2, seed=4)
    move = {"kind": "choose_start", "seat": 0, "resource": "no-such-card"}
    answer = api.play(game_id, move, token, game["version"])
    assert answer.error() == (422, "illegal_move")
    assert answer.body["rule"].startswith("R-")
    assert api.game(game_id)["version"] == game["version"]
    assert api.get(f"/api/games/{game_id}/changes?since=1").body["events"] == []


def test_a_move_out_of_turn_is_422_not_your_turn(api: ApiClient) -> None:
    game_id, token, game = api.create(2, seed=4)
    move = {**api.legal(game_id).body["moves"][0], "seat": 1}
    answer = api.play(game_id, move, token, game["version"])
    assert answer.error() == (422, "not_your_turn")
    assert api.game(game_id)["version"] == game["version"]


def test_a_malformed_move_is_400(api: ApiClient) -> None:
    game_id, token, game = api.create(2, seed=4)
    assert api.play(game_id, {"kind": "dance", "seat": 0}, token, 1).error() == (400, "invalid_move")
    assert api.play(game_id, {"kind": "choose_start", "seat": 0}, token, 1).error() == (400, "invalid_move")
    assert api.play(game_id, {"seat": 0}, token, 1).error() == (400, "invalid_request")
    assert api.play(game_id, {"kind": "choose_start", "seat": "0"}, token, 1).error() == (
        400,
        "invalid_request",
    )
    bad = api.post(f"/api/games/{game_id}/moves", b"{not json", token=token, if_match=1)
    assert bad.error() == (400, "invalid_request")
    assert api.game(game_id)["version"] == game["version"]


def test_a_batch_is_applied_all_or_nothing(api: ApiClient) -> None:
    game_id, token, _ = api.create(2, seed=4)
    first = api.legal(game_id).body["moves"][0]
    second = moves_after(api, game_id, first)[0]
    third = moves_after(api, game_id, first, second)[0]
    refused = api.post(
        f"/api/games/{game_id}/moves",
        {"moves": [first, second, {**third, "seat": 1 - third["seat"]}]},
        token=token,
        if_match=1,
    )
    assert refused.error() == (422, "not_your_turn")
    assert refused.body["details"]["batch_index"] == 2
    assert api.game(game_id)["version"] == 1
    accepted = api.post(
        f"/api/games/{game_id}/moves", {"moves": [first, second, third]}, token=token, if_match=1
    )
    assert accepted.status == 201
    assert accepted.body["versions"] == [2, 3, 4]
    assert accepted.etag == 4


def test_a_stale_write_is_412_precondition_failed_with_the_current_version(api: ApiClient) -> None:
    game_id, token, _ = api.create(2, seed=4)
    move = api.legal(game_id).body["moves"][0]
    assert api.play(game_id, move, token, 1).status == 201
    stale = api.play(game_id, api.legal(game_id).body["moves"][0], token, 1)
    assert stale.error() == (412, "stale_version")
    assert stale.body["details"]["current_version"] == 2
    assert api.game(game_id)["version"] == 2


def test_a_write_must_name_the_version_it_expects(api: ApiClient) -> None:
    game_id, token, _ = api.create(2, seed=4)
    move = api.legal(game_id).body["moves"][0]
    missing = api.post(f"/api/games/{game_id}/moves", move, token=token)
    assert missing.error() == (428, "precondition_required")
    assert api.post(f"/api/games/{game_id}/moves", {**move, "expected_version": 1}, token=token).status == 201
    garbled = api.post(f"/api/games/{game_id}/moves", move, token=token, if_match="yesterday")
    assert garbled.error() == (400, "invalid_request")
    both = api.post(f"/api/games/{game_id}/moves", {**move, "expected_version": 1}, token=token, if_match=2)
    assert both.error() == (400, "invalid_request")


def test_writes_need_a_valid_token_and_write_nothing_without_one(api: ApiClient) -> None:
    game_id, _, _ = api.create(2, seed=4)
    move = api.legal(game_id).body["moves"][0]
    assert api.post(f"/api/games/{game_id}/moves", move, if_match=1).error() == (401, "unauthorized")
    assert api.play(game_id, move, "forged", 1).error() == (401, "unauthorized")
    _other_game, other_token, _ = api.create(2, seed=4)
    assert api.play(game_id, move, other_token, 1).error() == (401, "unauthorized")
    assert api.game(game_id)["version"] == 1


def test_a_seat_token_records_moves_of_its_own_seat_only(api: ApiClient) -> None:
    game_id, owner, _ = api.create(2, seed=4)
    seat0 = api.post(f"/api/games/{game_id}/seats/0/token", token=owner).body["token"]
    seat1 = api.post(f"/api/games/{game_id}/seats/1/token", token=owner).body["token"]
    move = api.legal(game_id).body["moves"][0]
    assert move["seat"] == 0
    forbidden = api.play(game_id, move, seat1, 1)
    assert forbidden.error() == (403, "forbidden")
    assert api.game(game_id)["version"] == 1
    assert api.play(game_id, move, seat0, 1).status == 201
    timeline = api.get(f"/api/games/{game_id}/timeline").body["entries"]
    assert timeline[-1]["actor"] == "seat:0"
    # the owner acts for anyone
    assert api.play(game_id, api.legal(game_id).body["moves"][0], owner, 2).status == 201
    assert api.get(f"/api/games/{game_id}/timeline").body["entries"][-1]["actor"] == "owner"


def test_only_the_owner_issues_seat_tokens_and_a_new_one_retires_the_old(api: ApiClient) -> None:
    game_id, owner, _ = api.create(2, seed=4)
    old = api.post(f"/api/games/{game_id}/seats/0/token", token=owner).body["token"]
    assert api.post(f"/api/games/{game_id}/seats/1/token", token=old).error() == (403, "forbidden")
    new = api.post(f"/api/games/{game_id}/seats/0/token", token=owner)
    assert new.status == 201 and new.body["actor"] == "seat:0"
    move = api.legal(game_id).body["moves"][0]
    assert api.play(game_id, move, old, 1).error() == (401, "unauthorized")
    assert api.play(game_id, move, new.body["token"], 1).status == 201
    assert api.post(f"/api/games/{game_id}/seats/7/token", token=owner).error() == (400, "invalid_seat")
    assert api.delete(f"/api/games/{game_id}/seats/0/token", token=owner).status == 204
    assert api.get(f"/api/games/{game_id}/access", new.body["token"]).error() == (401, "unauthorized")
    grants = api.get(f"/api/games/{game_id}/access", owner).body
    assert grants["you"] == "owner" and [g["actor"] for g in grants["grants"]] == ["owner"]


def test_a_retried_move_with_the_same_idempotency_key_answers_as_the_first(api: ApiClient) -> None:
    game_id, token, _ = api.create(2, seed=4)
    move = api.legal(game_id).body["moves"][0]
    first = api.play(game_id, move, token, 1, key="tap-1")
    again = api.play(game_id, move, token, 1, key="tap-1")
    assert first.status == again.status == 201
    assert again.body == first.body
    assert again.headers["idempotent-replayed"] == "true"
    assert api.game(game_id)["version"] == 2
    other = api.play(game_id, {**move, "resource": "another"}, token, 1, key="tap-1")
    assert other.error() == (422, "idempotency_key_reused")


def test_a_retried_move_spelled_otherwise_in_json_is_the_same_request(api: ApiClient, app: Flask) -> None:
    # The fingerprint was taken over the body's bytes: a client that re-serialised the same move on retry
    # (compact, keys in another order) was refused 422 idempotency_key_reused, as if it were another move.
    game_id, token, _ = api.create(2, seed=4)
    move = api.legal(game_id).body["moves"][0]
    headers = {"Authorization": f"Bearer {token}", "If-Match": '"1"', "Idempotency-Key": "tap-5"}
    client = app.test_client()
    path = f"/api/games/{game_id}/moves"
    first = client.post(
        path, data=json.dumps(move, indent=2), content_type="application/json", headers=headers
    )
    assert first.status_code == 201
    respelled = json.dumps(dict(reversed(list(move.items()))), separators=(",", ":"))
    again = client.post(path, data=respelled, content_type="application/json", headers=headers)
    assert again.status_code == 201 and again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert api.game(game_id)["version"] == 2
    other = client.post(
        path,
        data=json.dumps({**move, "resource": "another"}),
        content_type="application/json",
        headers=headers,
    )
    assert other.status_code == 422 and other.get_json()["error_code"] == "idempotency_key_reused"


def test_a_key_with_blanks_around_it_is_the_same_key_and_cannot_pass_another_move_off_as_a_retry(
    api: ApiClient,
) -> None:
    # The log trims the key it stores with a move; the answer cache once did not, so " tap-3" missed the
    # cached answer of "tap-3", and the log then took a different move for a retry: 201, nothing recorded.
    game_id, token, _ = api.create(2, seed=4)
    move = api.legal(game_id).body["moves"][0]
    first = api.play(game_id, move, token, 1, key="tap-3")
    assert first.status == 201
    other = api.play(game_id, api.legal(game_id).body["moves"][0], token, 2, key=" tap-3 ")
    assert other.error() == (422, "idempotency_key_reused")
    assert api.game(game_id)["version"] == 2
    retried = api.play(game_id, move, token, 1, key="tap-3\t")
    assert retried.status == 201 and retried.body == first.body


@pytest.mark.parametrize(
    "key", ["", "   ", "k" * 201, "tap\x7f"], ids=["empty", "blank", "too long", "control"]
)
@pytest.mark.parametrize("write", ["undo", "abandon", "annotations", "forks"])
def test_a_malformed_idempotency_key_is_refused_on_every_write_and_changes_nothing(
    api: ApiClient, key: str, write: str
) -> None:
    game_id, token, _ = api.create(2, seed=4)
    assert api.play(game_id, api.legal(game_id).body["moves"][0], token, 1).status == 201
    body = {"version": 2, "text": "x"} if write in ("annotations", "forks") else {}
    refused = api.post(f"/api/games/{game_id}/{write}", body, token=token, if_match=2, key=key)
    assert refused.error() == (400, "invalid_request")
    assert "Idempotency-Key" in refused.body["detail"]
    game = api.game(game_id)
    assert game["version"] == 2 and game["status"] != "abandoned"
    assert api.get(f"/api/games/{game_id}/annotations").body["annotations"] == []


def test_a_retried_move_is_answered_from_the_log_byte_for_byte_after_later_moves(
    api: ApiClient, app: Flask
) -> None:
    # No answer is kept anywhere: the retry's answer is rebuilt from the log as the game stood right after
    # the move, so it is the first answer even when the game has moved on since (another phone's move).
    game_id, token, _ = api.create(2, seed=4)
    move = api.legal(game_id).body["moves"][0]
    first = api.play(game_id, move, token, 1, key="tap-2")
    assert api.play(game_id, first.body["legal_moves"]["moves"][0], token, 2).status == 201
    again = api.play(game_id, move, token, 1, key="tap-2")
    assert again.status == 201 and again.headers["idempotent-replayed"] == "true"
    assert again.raw == first.raw
    assert again.headers["etag"] == first.headers["etag"] == '"2"'
    assert api.game(game_id)["version"] == 3


def test_a_key_reused_for_another_move_is_refused_with_the_versions_it_holds(api: ApiClient) -> None:
    # The log keeps each move's key for good; it once matched the key alone, so a new move sent with an old
    # key was answered 201 "repeated" and not recorded.
    game_id, token, _ = api.create(2, seed=4)
    first = api.play(game_id, api.legal(game_id).body["moves"][0], token, 1, key="tap-4")
    assert first.status == 201
    other = api.play(game_id, api.legal(game_id).body["moves"][0], token, 2, key="tap-4")
    assert other.error() == (422, "idempotency_key_reused")
    assert other.body["details"]["versions"] == [2]
    assert api.game(game_id)["version"] == 2


def test_an_idempotent_game_creation_creates_one_game(api: ApiClient) -> None:
    first = api.post("/api/games", {"players": 2}, key="new-game")
    again = api.post("/api/games", {"players": 2}, key="new-game")
    assert again.body == first.body
    assert len(api.get("/api/games").body["games"]) == 1


def access_version(app: Flask, game_id: str) -> int:
    """The version of the game's access stream: every grant and revocation adds one."""
    return int(app.extensions["heronlog"].get().log.access(UUID(game_id)).version)


def test_a_retried_seat_token_request_answers_the_same_token_while_it_still_works(
    api: ApiClient, app: Flask
) -> None:
    game_id, owner, _ = api.create(2, seed=4)
    first = api.post(f"/api/games/{game_id}/seats/1/token", token=owner, key="seat-2")
    assert first.status == 201
    version = access_version(app, game_id)
    again = api.post(f"/api/games/{game_id}/seats/1/token", token=owner, key="seat-2")
    assert (again.status, again.body) == (201, first.body)
    assert again.headers["idempotent-replayed"] == "true"
    assert access_version(app, game_id) == version
    assert api.get(f"/api/games/{game_id}/access", first.body["token"]).status == 200


@pytest.mark.parametrize("since", ["replaced", "withdrawn"])
def test_a_retried_seat_token_request_whose_token_stopped_working_is_409_token_superseded(
    api: ApiClient, app: Flask, since: str
) -> None:
    # The retry once answered 201 with the first token, revoked since: a client that had lost the first
    # answer stored a token that no longer worked, and was not told.
    game_id, owner, _ = api.create(2, seed=4)
    path = f"/api/games/{game_id}/seats/1/token"
    first = api.post(path, token=owner, key="seat-2").body["token"]
    if since == "replaced":
        newer = api.post(path, token=owner, key="seat-2-again").body["token"]
    else:
        newer = None
        assert api.delete(path, token=owner).status == 204
    version = access_version(app, game_id)

    retried = api.post(path, token=owner, key="seat-2")
    assert retried.error() == (409, "token_superseded")
    assert retried.body["details"] == {"seat": 1}
    message = retried.body["detail"]
    assert "Player 2 (seat 2)" in message and "new Idempotency-Key" in message
    assert ("replaced" if since == "replaced" else "withdrawn") in message
    assert first not in json.dumps(retried.body) and (newer is None or newer not in json.dumps(retried.body))
    assert "idempotent-replayed" not in retried.headers

    # nothing written: the newer token still works, the first is still refused, and a retry says the same
    assert access_version(app, game_id) == version
    assert api.get(f"/api/games/{game_id}/access", first).error() == (401, "unauthorized")
    if newer is not None:
        assert api.get(f"/api/games/{game_id}/access", newer).status == 200
    assert api.post(path, token=owner, key="seat-2").error() == (409, "token_superseded")
    # the key sent with another request is still refused as reused, before anything else
    other = api.post(f"/api/games/{game_id}/seats/0/token", token=owner, key="seat-2")
    assert other.error() == (422, "idempotency_key_reused")
    assert access_version(app, game_id) == version


@pytest.mark.parametrize("since", ["replaced", "withdrawn"])
def test_a_retry_sent_with_a_token_that_stopped_working_is_401_not_its_kept_answer(
    api: ApiClient, since: str
) -> None:
    """A withdrawn or replaced token stops working everywhere, retries too: a write's kept answer was given
    back (201, Idempotent-Replayed) before any view checked the token, to a seat token withdrawn since, for
    as long as the answer is kept (a day), with the game's board in it."""
    game_id, owner, _ = api.create(2, seed=4)
    seat_path = f"/api/games/{game_id}/seats/0/token"
    seat = api.post(seat_path, token=owner).body["token"]
    move = api.legal(game_id).body["moves"][0]
    assert api.play(game_id, move, seat, 1, key="tap-1").status == 201
    note = {"version": 2, "text": "mine"}
    assert api.post(f"/api/games/{game_id}/annotations", note, token=seat, key="note-1").status == 201
    if since == "replaced":
        assert api.post(seat_path, token=owner).status == 201
    else:
        assert api.delete(seat_path, token=owner).status == 204

    for retried in (
        api.play(game_id, move, seat, 1, key="tap-1"),
        api.post(f"/api/games/{game_id}/annotations", note, token=seat, key="note-1"),
    ):
        assert retried.error() == (401, "unauthorized")
        assert "idempotent-replayed" not in retried.headers
    # a retry whose token still works is answered as the first time
    path = f"/api/games/{game_id}/annotations"
    first = api.post(path, note, token=owner, key="note-2")
    again = api.post(path, note, token=owner, key="note-2")
    assert (again.status, again.body) == (201, first.body) and again.headers["idempotent-replayed"] == "true"
