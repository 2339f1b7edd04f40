"""A JSON object that names a key twice is refused, on every route that takes a JSON body.

``{"players": 2, "private": false, "private": true}`` made a private game: the reader kept the last of the two
keys, and a proxy, a log reader or a person reading the body may well have taken the first. JSON leaves the
meaning of a repeated key open (RFC 8259, section 4), so the API refuses it: ``400 invalid_request`` naming the
key, nothing stored."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from tests.hostile.conftest import client_from, played_export, raw


def json_operations(api: Any) -> list[tuple[str, str]]:
    """(method, path template) of every operation of the OpenAPI document whose request body is JSON."""
    document = api.get("/api/openapi.json").body
    found = []
    for path, item in document["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            content = (operation.get("requestBody") or {}).get("content", {})
            if "application/json" in content:
                found.append((method.upper(), path))
    return found


def test_a_repeated_key_is_refused_on_every_route_that_takes_json(sqlite_app: Flask) -> None:
    api = client_from(sqlite_app)
    game_id, token, _ = played_export(api, moves=2)
    note_id = api.get(f"/api/games/{game_id}/annotations").body["annotations"][0]["id"]
    values = {"game_id": game_id, "annotation_id": note_id, "version": "2", "seat": "0"}
    operations = json_operations(api)
    assert len(operations) >= 10, operations
    games = api.get("/api/games").body["total"]
    for method, template in operations:
        path = re.sub(r"\{(\w+)\}", lambda match: values.get(match.group(1), "0"), template)
        # the key is one the body of every route may hold, nested one level down too
        for body in (
            '{"version": 2, "version": 3}',
            '[{"text": "a", "text": "b"}]',
            '{"x": {"y": 1, "y": 2}}',
        ):
            answer = raw(api, method, path, body, Authorization=f"Bearer {token}")
            assert answer.error() == (400, "invalid_request"), (method, path, body, answer.body)
            assert "appears twice" in answer.body["detail"], answer.body
    assert api.get("/api/games").body["total"] == games


def test_a_game_is_not_made_private_by_a_second_private_key(sqlite_app: Flask) -> None:
    api = client_from(sqlite_app)
    before = api.get("/api/games").body["total"]
    answer = raw(api, "POST", "/api/games", '{"players": 2, "private": false, "private": true}')
    assert answer.error() == (400, "invalid_request"), answer.body
    assert "'private' appears twice" in answer.body["detail"]
    assert api.get("/api/games").body["total"] == before
    # The same body without the repetition is a game, as before.
    assert raw(api, "POST", "/api/games", '{"players": 2, "private": false}').status == 201
