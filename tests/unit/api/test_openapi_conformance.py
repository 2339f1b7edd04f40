"""schemathesis against the app's own OpenAPI document: generated requests (valid and invalid) to every
operation never get a 5xx, and every answer matches what the document says (status, content type, headers,
body schema). Bounded: a few examples per operation, so the run stays well under two minutes."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.app import create_app
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


# The schema is loaded when the module is collected (schemathesis makes one test per operation from it); the
# app is on the in-memory store, without rate limits, with short event streams.
APP = create_app(
    {
        "STORE": StoreConfig(kind="memory"),
        "RATE_LIMIT_PER_TOKEN": 0,
        "RATE_LIMIT_PER_ADDRESS": 0,
        "STREAM_MAX_SECONDS": 0.05,
        "STREAM_POLL_SECONDS": 0.01,
    }
)
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", APP)


@pytest.fixture(scope="module")
def known_game() -> dict[str, Any]:
    """One game played a little: its id and owner token are slipped into most generated requests, so that
    they reach past the 404 of an unknown game and the 401 of a missing token."""
    api = ApiClient(flask_transport(APP.test_client()))
    game_id, token, _ = api.create(3, seed=21)
    for _ in range(6):
        listing = api.legal(game_id)
        api.play(game_id, listing.body["moves"][0], token, listing.etag)
    api.post(f"/api/games/{game_id}/annotations", {"version": 2, "text": "opening"}, token=token)
    return {"game_id": game_id, "token": token, "turn": itertools.count()}


@schema.parametrize()
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
)
def test_no_request_gets_a_server_error_and_every_answer_matches_the_document(
    case: Any, known_game: dict[str, Any]
) -> None:
    known = known_game
    turn = next(known["turn"])
    if case.path_parameters and "game_id" in case.path_parameters and turn % 4:
        case.path_parameters["game_id"] = known["game_id"]
        if turn % 2:
            case.headers = {**(case.headers or {}), "Authorization": f"Bearer {known['token']}"}
    case.call_and_validate(checks=CHECKS)
