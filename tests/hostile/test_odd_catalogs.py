"""Odd catalogs. An import declaring a catalog of its own took any JSON: an override nested 500 deep was stored
(201), and then every read of the game's catalog was a 500 (Python's recursion limit); Passage of Time points of
2^63 or below zero were taken, and scores followed.

Now a catalog from outside is held to the catalog's schema (depth, size, types, ranges: docs/api/limits.md) before
the rules read it, and a game stored before the schema, whatever its depth, still reads."""

from __future__ import annotations

import copy
import uuid
from typing import Any

import pytest
from flask import Flask

from api.resources import fastjson
from api.resources.context import game_log
from api.resources.present import plain
from domain import catalog_schema
from tests.api_helpers import ApiClient
from tests.hostile.conftest import client_from, played_export


@pytest.fixture
def api(sqlite_app: Flask) -> ApiClient:
    return client_from(sqlite_app)


def nested(depth: int) -> Any:
    value: Any = "deep"
    for _ in range(depth):
        value = {"a": [value]}
    return value


def own_catalog(document: dict[str, Any], change: Any) -> dict[str, Any]:
    declared = copy.deepcopy(document)
    declared["setup"]["catalog_override"] = True
    change(declared["catalog"])
    return declared


def points(value: int) -> Any:
    def change(catalog: dict[str, Any]) -> None:
        track = catalog["passage_of_time"]["points"]
        track[0] = value

    return change


ODD = {
    "a note nested 40 levels deep": lambda catalog: catalog.update(odd=nested(20)),
    "Passage of Time points of 2^63": points(2**63),
    "Passage of Time points below zero": points(-1),
    "Passage of Time points past the documented maximum": points(catalog_schema.MAX_POINTS + 1),
    "Passage of Time points as text": points("7"),  # type: ignore[arg-type]
    "a garden's points as a fraction": lambda catalog: catalog["gardens"][0].update(cp=2.5),
}


@pytest.mark.parametrize("odd", list(ODD))
def test_an_odd_catalog_is_422_at_catalog_and_nothing_is_stored(api: ApiClient, odd: str) -> None:
    _, _, document = played_export(api)
    games = api.get("/api/games").body["total"]

    answer = api.post("/api/games/import?new_id=1", own_catalog(document, ODD[odd]))

    assert answer.error() == (422, "invalid_log"), answer.body
    assert answer.body["details"]["problems"][0]["position"] == "catalog"
    assert api.get("/api/games").body["total"] == games


def test_the_audit_s_override_nested_500_deep_is_400_as_json_nested_too_deeply(api: ApiClient) -> None:
    _, _, document = played_export(api)
    games = api.get("/api/games").body["total"]

    answer = api.post(
        "/api/games/import?new_id=1", own_catalog(document, lambda c: c.update(odd=nested(250)))
    )

    assert answer.error() == (400, "invalid_request"), answer.body
    assert f"more than {fastjson.MAX_DEPTH} levels" in answer.body["detail"]
    assert api.get("/api/games").body["total"] == games


def test_a_catalog_within_the_schema_is_taken(api: ApiClient) -> None:
    _, _, document = played_export(api)
    answer = api.post("/api/games/import?new_id=1", own_catalog(document, points(catalog_schema.MAX_POINTS)))
    assert answer.status == 201, answer.body


def test_a_position_with_an_odd_catalog_is_not_analysed(api: ApiClient) -> None:
    game_id, _, _ = played_export(api)
    position = dict(api.get(f"/api/games/{game_id}").body["state"])
    position["catalog"] = api.get(f"/api/games/{game_id}/catalog").body["catalog"]
    position["catalog"]["passage_of_time"]["points"][0] = 2**63

    answer = api.post("/api/analyse", {"position": position, "playouts": 10})

    assert answer.error() == (400, "invalid_position")


def test_a_game_stored_before_the_schema_with_a_catalog_500_levels_deep_still_reads(
    sqlite_app: Flask, api: ApiClient
) -> None:
    _, _, document = played_export(api)
    declared = own_catalog(document, lambda catalog: catalog.update(odd=nested(250)))  # 500 levels
    with sqlite_app.app_context():  # a restore takes a backup as it is: the game comes back as it was stored
        issued = game_log().import_log(declared, game_id=uuid.uuid4())
    game_id, token = issued.game_id, issued.token

    catalog = api.get(f"/api/games/{game_id}/catalog", token)

    assert catalog.status == 200, catalog.body
    assert catalog.body["catalog"]["odd"] == nested(250)
    for path in ("", "/export", "/export/text", "/timeline", "/score"):
        assert api.get(f"/api/games/{game_id}{path}", token).status == 200, path


def test_plain_walks_a_structure_of_any_depth_without_recursion() -> None:
    deep: Any = 1
    for index in range(50_000):
        deep = {index: (deep, "x")} if index % 2 else [deep]
    out = plain(deep)
    for index in reversed(range(50_000)):
        out = out[str(index)][0] if index % 2 else out[0]
    assert out == 1
