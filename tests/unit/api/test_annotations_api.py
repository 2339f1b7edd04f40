"""Annotations over HTTP: reading is open (for public games), writing needs a token, authors own theirs."""

from __future__ import annotations

from tests.api_helpers import ApiClient


def test_annotating_needs_a_token_and_never_changes_the_game_version(api: ApiClient) -> None:
    game_id, owner, game = api.create(2, seed=5)
    note = {
        "version": 1,
        "text": "watch the blue bridge",
        "glyph": "!?",
        "target": {"kind": "bridge", "id": "blue"},
    }
    assert api.post(f"/api/games/{game_id}/annotations", note).error() == (401, "unauthorized")
    assert api.post(f"/api/games/{game_id}/annotations", note, token="forged").error() == (
        401,
        "unauthorized",
    )
    added = api.post(f"/api/games/{game_id}/annotations", note, token=owner)
    assert added.status == 201
    assert added.body["author"] == "owner" and added.body["glyph"] == "!?"
    assert added.body["target"] == {"kind": "bridge", "id": "blue"}
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
