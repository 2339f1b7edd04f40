"""Annotations over HTTP: reading is open (for public games), writing needs a token, authors own theirs."""

from __future__ import annotations

from tests.api_helpers import ApiClient


def test_annotating_needs_a_token_and_never_changes_the_game_version(api: ApiClient) -> None:
    game_id, owner, game = api.create(2, seed=5)
    note = {
        "version": 1,
        "text": "watch the coral bridge",
        "glyph": "!?",
        "target": {"kind": "bridge", "id": "coral"},
    }
    assert api.post(f"/api/games/{game_id}/annotations", note).error() == (401, "unauthorized")
    assert api.post(f"/api/games/{game_id}/annotations", note, token="forged").error() == (
        401,
        "unauthorized",
    )
    added = api.post(f"/api/games/{game_id}/annotations", note, token=owner)
    assert added.status == 201
    assert added.body["author"] == "owner" and added.body["glyph"] == "!?"
    assert added.body["target"] == {"kind": "bridge", "id": "coral"}
    assert api.game(game_id)["version"] == game["version"]
    listed = api.get(f"/api/games/{game_id}/annotations").body["annotations"]
    assert [item["id"] for item in listed] == [added.body["id"]]
    assert api.get(f"/api/games/{game_id}/annotations/{added.body['id']}").body == added.body


def test_an_invalid_annotation_is_400(api: ApiClient) -> None:
    game_id, owner, _ = api.create(2, seed=5)
    path = f"/api/games/{game_id}/annotations"
    assert api.post(path, {"version": 1, "text": "x", "glyph": "??!"}, token=owner).error() == (
        400,
        "invalid_annotation",
    )
    assert api.post(path, {"version": 5, "text": "x"}, token=owner).error() == (400, "invalid_annotation")
    assert api.post(path, {"version": 1}, token=owner).error() == (400, "invalid_request")


def test_a_seat_token_edits_and_deletes_its_own_annotations_only(api: ApiClient) -> None:
    game_id, owner, _ = api.create(2, seed=5)
    seat0 = api.post(f"/api/games/{game_id}/seats/0/token", token=owner).body["token"]
    seat1 = api.post(f"/api/games/{game_id}/seats/1/token", token=owner).body["token"]
    mine = api.post(f"/api/games/{game_id}/annotations", {"version": 1, "text": "mine"}, token=seat0).body
    assert mine["author"] == "seat:0" and mine["author_name"] == "Player 1"
    path = f"/api/games/{game_id}/annotations/{mine['id']}"
    assert api.patch(path, {"text": "theirs"}, token=seat1).error() == (403, "forbidden")
    assert api.delete(path, token=seat1).error() == (403, "forbidden")
    edited = api.patch(path, {"glyph": "!"}, token=seat0)
    assert edited.status == 200 and edited.body["text"] == "mine" and edited.body["glyph"] == "!"
    assert edited.body["edited_by"] == "seat:0"
    by_owner = api.patch(path, {"text": "fixed"}, token=owner)
    assert by_owner.body["text"] == "fixed" and by_owner.body["edited_by"] == "owner"
    assert api.delete(path, token=seat0).status == 204
    assert api.get(path).error() == (404, "annotation_not_found")
    assert api.get(f"/api/games/{game_id}/annotations").body["annotations"] == []


def test_annotations_survive_undo(api: ApiClient) -> None:
    game_id, owner, _ = api.create(2, seed=5)
    listing = api.legal(game_id)
    api.play(game_id, listing.body["moves"][0], owner, 1)
    api.post(f"/api/games/{game_id}/annotations", {"version": 2, "text": "hasty"}, token=owner)
    api.post(f"/api/games/{game_id}/undo", {}, token=owner, if_match=2)
    assert [n["text"] for n in api.get(f"/api/games/{game_id}/annotations").body["annotations"]] == ["hasty"]


def test_an_annotation_points_at_a_part_of_a_matcha_board(api: ApiClient) -> None:
    game_id, owner, game = api.create(2, seed=5, expansions=["matcha"])
    path = f"/api/games/{game_id}/annotations"
    platform = {"kind": "tea_garden", "id": "viewing_platform"}
    added = api.post(path, {"version": 1, "text": "one CP per clan here", "target": platform}, token=owner)
    assert added.status == 201 and added.body["target"] == platform
    assert [note["target"] for note in api.get(path).body["annotations"]] == [platform]
    room = {"kind": "tea_house", "id": game["state"]["board"]["matcha"]["tea_house"][0]["id"]}
    assert room["id"] == "tea_house_upper"
    assert api.patch(f"{path}/{added.body['id']}", {"target": room}, token=owner).status == 200
    assert api.get(f"{path}/{added.body['id']}").body["target"] == room


def test_a_target_the_board_does_not_have_is_refused_on_post_and_patch(api: ApiClient) -> None:
    """A target's id is one of the board's parts (domain.board_parts, what the replay page outlines): a room
    "nowhere" used to be kept, exported as "{owner [nowhere]: x}" and outlined nothing."""
    game_id, owner, _ = api.create(2, seed=5)
    path = f"/api/games/{game_id}/annotations"
    refused = api.post(
        path, {"version": 1, "text": "x", "target": {"kind": "room", "id": "nowhere"}}, token=owner
    )
    assert refused.error() == (400, "invalid_annotation")
    assert "steward_1" in refused.body["detail"] and "diplomat_2" in refused.body["detail"]
    assert refused.body["details"]["ids"][0] == "steward_1"
    for target in (
        {"kind": "bridge", "id": "green"},  # Matcha's bridge, not in a base game
        {"kind": "tea_room", "id": "tea_room_left"},
        {"kind": "domain", "id": "2"},  # a game for two has seats 0 and 1
        {"kind": "well", "id": "somewhere"},  # the Well is one thing: no id
    ):
        body = {"version": 1, "text": "x", "target": target}
        assert api.post(path, body, token=owner).error() == (400, "invalid_annotation"), target
    for target in (
        {"kind": "room", "id": "diplomat_2"},
        {"kind": "domain", "id": 1},
        {"kind": "well"},
        {"kind": "garden", "id": "white_stone"},
    ):
        body = {"version": 1, "text": "x", "target": target}
        assert api.post(path, body, token=owner).status == 201, target
    note = api.post(path, {"version": 1, "text": "x"}, token=owner).body
    edit = api.patch(f"{path}/{note['id']}", {"target": {"kind": "yard", "id": "yard_9"}}, token=owner)
    assert edit.error() == (400, "invalid_annotation") and "yard_3" in edit.body["detail"]
    assert api.get(f"{path}/{note['id']}").body["target"] is None


def test_matcha_board_parts_are_targets_in_a_matcha_game(api: ApiClient) -> None:
    game_id, owner, _ = api.create(2, seed=5, expansions=["matcha"])
    path = f"/api/games/{game_id}/annotations"
    for target in ({"kind": "tea_garden", "id": "viewing_platform"}, {"kind": "bridge", "id": "green"}):
        assert api.post(path, {"version": 1, "text": "x", "target": target}, token=owner).status == 201


def test_annotation_writes_take_no_version_and_answer_the_games_etag(api: ApiClient) -> None:
    """Annotations are exempt from If-Match (README, "Versions, concurrency and retries"): they never change the
    game's version, a write without If-Match or with a stale one succeeds (the later edit wins), and every
    answer carries the game's version as ETag, as every answer about a game does (POST, PATCH, DELETE and one
    annotation's GET had none)."""
    game_id, owner, game = api.create(2, seed=5)
    path = f"/api/games/{game_id}/annotations"
    added = api.post(path, {"version": 1, "text": "first"}, token=owner)
    assert added.status == 201 and added.etag == game["version"]
    one = f"{path}/{added.body['id']}"
    assert api.get(one).etag == game["version"]
    stale = api.send("PATCH", one, {"text": "second"}, {**api.headers(owner), "If-Match": '"999"'})
    assert stale.status == 200 and stale.etag == game["version"] and stale.body["text"] == "second"
    later = api.patch(one, {"text": "third"}, token=owner)
    assert later.status == 200 and later.body["text"] == "third"
    refused = api.patch(one, {"text": "x", "expected_version": 1}, token=owner)
    assert refused.error() == (400, "invalid_request")  # not a field of an annotation: no version is named
    gone = api.delete(one, token=owner)
    assert gone.status == 204 and gone.etag == game["version"]
    assert api.game(game_id)["version"] == game["version"]
