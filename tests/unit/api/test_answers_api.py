"""What a recording client gets back: every write's answer carries the next legal moves (one request per move),
the hot answers are sent as built yet are exactly their schemas' dumps, and JSON goes in and out through
msgspec with the standard library's behaviour kept where msgspec differs (api.resources.fastjson)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from flask import Flask

from api.resources import fastjson
from api.resources.schemas import CreatedGameSchema, GameSchema, LegalMovesSchema, PlayedSchema
from tests.api_helpers import ApiClient


def assert_dumped(schema: Any, body: dict[str, Any]) -> None:
    """The body is already what the schema's dump makes of it: nothing added, dropped or reshaped."""
    assert schema.dump(body) == body


@pytest.mark.parametrize(
    "setup",
    [{"players": 3}, {"players": ["Aiko"], "solo": "medium"}, {"players": 2, "expansions": ["matcha"]}],
    ids=["three players", "solo", "matcha"],
)
def test_a_game_recorded_with_one_request_per_move_from_the_answers_alone(
    api: ApiClient, setup: dict[str, Any]
) -> None:
    created = api.post("/api/games", {**setup, "seed": 5})
    assert created.status == 201, created.body
    assert_dumped(CreatedGameSchema(), created.body)
    game_id, token = created.body["game"]["game_id"], created.body["owner_token"]
    listing = created.body["legal_moves"]
    assert listing == api.legal(game_id).body
    rng = random.Random(5)
    moves = 0
    while not listing["over"]:
        answer = api.play(game_id, rng.choice(listing["moves"]), token, listing["version"])
        assert answer.status == 201, answer.body
        assert_dumped(PlayedSchema(), answer.body)
        listing = answer.body["legal_moves"]
        assert listing["version"] == answer.etag == answer.body["game"]["version"]
        assert listing["prompt"] == answer.body["game"]["prompt"]
        moves += 1
        if moves % 25 == 0:  # now and then, the carried listing against a fresh GET (and its dump)
            fresh = api.legal(game_id).body
            assert listing == fresh
            assert_dumped(LegalMovesSchema(), fresh)
            assert_dumped(GameSchema(), api.game(game_id))
    assert listing["moves"] == [] and api.game(game_id)["over"]
    assert moves > 20


def test_undo_redo_and_a_repeated_key_answer_the_legal_moves_of_the_version_they_leave(
    api: ApiClient,
) -> None:
    game_id, token, game = api.create(2, seed=9)
    first = api.legal(game_id).body
    played = api.play(game_id, first["moves"][0], token, game["version"], key="k-1")
    undone = api.post(f"/api/games/{game_id}/undo", {}, token=token, if_match=played.etag)
    assert undone.status == 200, undone.body
    assert_dumped(PlayedSchema(), undone.body)
    assert {**undone.body["legal_moves"], "version": first["version"]} == first
    assert undone.body["legal_moves"] == api.legal(game_id).body
    redone = api.post(f"/api/games/{game_id}/redo", {"count": 1}, token=token, if_match=undone.etag)
    assert redone.body["legal_moves"] == api.legal(game_id).body
    again = api.play(game_id, first["moves"][0], token, game["version"], key="k-1")
    assert again.status == 201 and again.body == played.body  # the first answer, as it was sent


def test_answers_keep_non_ascii_text_and_the_schema_field_order(api: ApiClient, client: Any) -> None:
    game_id, _token, _ = api.create(["Chié", "Zoë"], seed=1)
    raw = client.get(f"/api/games/{game_id}").get_data()
    assert "Chié".encode() in raw  # UTF-8, not \\u escapes
    game = json.loads(raw)
    assert list(game) == [name for name in GameSchema().fields if name in game]
    assert [player["name"] for player in game["players"]] == ["Chié", "Zoë"]


def test_decode_reads_what_the_standard_library_reads_and_refuses_what_is_not_json_text() -> None:
    assert fastjson.decode(b'{"a": [1, 2.5, "x"], "b": null}') == {"a": [1, 2.5, "x"], "b": None}
    assert (
        fastjson.decode(b'{"big": 123456789012345678901234567890}')["big"] == 123456789012345678901234567890
    )
    # msgspec refuses these and the standard library reads them; none is JSON text a game may hold
    for refused in (b'{"a": NaN}', b"[Infinity]", b'"\\ud800"', b'{"\\udc00": 1}', b"1" * 4301):
        with pytest.raises(json.JSONDecodeError):
            fastjson.decode(refused)
    with pytest.raises(json.JSONDecodeError):
        fastjson.decode(b"{not json")


def test_encode_writes_what_the_standard_library_would_read_back() -> None:
    value = {"name": "Chié", "seats": (0, 1), "n": 2**70, "f": 0.1}
    assert json.loads(fastjson.encode(value)) == {"name": "Chié", "seats": [0, 1], "n": 2**70, "f": 0.1}
    assert json.loads(fastjson.encode({"s": "\ud800"})) == {"s": "\ud800"}  # the fallback's escapes
    with pytest.raises(TypeError):
        fastjson.encode({"x": object()})


def test_bodies_msgspec_refuses_still_get_the_answers_they_got_before(app: Flask) -> None:
    client = app.test_client()
    nan_seed = client.post("/api/games", data=b'{"players": 2, "seed": NaN}', content_type="application/json")
    assert nan_seed.status_code == 400 and nan_seed.get_json()["error_code"] == "invalid_request"
    broken = client.post("/api/games", data=b'{"players": 2,', content_type="application/json")
    assert broken.status_code == 400 and broken.get_json()["error_code"] == "invalid_request"
    named = client.post(
        "/api/games", data=b'{"players": ["A\\u00efko", "Ben"]}', content_type="application/json"
    )
    assert named.status_code == 201 and named.get_json()["game"]["players"][0]["name"] == "Aïko"


@pytest.mark.parametrize("keyed", [False, True])
@pytest.mark.parametrize("depth", [1_000, 20_000])
def test_json_nested_past_the_recursion_limit_is_a_400_on_every_write_and_changes_nothing(
    api: ApiClient, app: Flask, depth: int, keyed: bool
) -> None:
    # Both JSON readers recurse: a body nested a thousand levels deep raised RecursionError, answered as a 500.
    # With an Idempotency-Key the body is read once more, for its fingerprint (api.app), before the view
    # reads it: that reading raised it too (a 500 found by the security review).
    game_id, token, _ = api.create(2, seed=3)
    before = api.get(f"/api/games/{game_id}").body
    nested = b"[" * depth + b"]" * depth
    client = app.test_client()
    writes = [
        ("POST", "/api/games"),
        ("POST", "/api/score-sheets"),
        ("POST", "/api/games/import"),
        *(
            ("POST", f"/api/games/{game_id}/{what}")
            for what in ("moves", "undo", "redo", "amend", "abandon", "forks", "annotations")
        ),
    ]
    for method, path in writes:
        answer = client.open(
            path,
            method=method,
            data=nested,
            content_type="application/json",
            headers={
                "Authorization": f"Bearer {token}",
                **({"Idempotency-Key": f"deep-{path}"} if keyed else {}),
            },
        )
        assert answer.status_code == 400, (path, answer.get_data()[:200])
        assert answer.get_json()["error_code"] == "invalid_request", path
    assert api.get(f"/api/games/{game_id}").body == before
    with pytest.raises(json.JSONDecodeError):
        fastjson.decode(nested)
