"""One error envelope for everything that is not a success, and the statuses of docs/api/errors.md."""

from __future__ import annotations

import pytest
from eventsourcing.persistence import OperationalError
from flask import Flask

from api.app import create_app
from api.resources.errors import STATUS
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport


def test_unknown_routes_and_wrong_methods_answer_in_the_envelope(api: ApiClient) -> None:
    assert api.get("/api/nothing-here").error() == (404, "not_found")
    wrong = api.send("PUT", "/api/games", {}, {})
    assert wrong.error() == (405, "method_not_allowed")
    assert "POST" in wrong.headers["allow"]


def test_a_body_over_the_limit_is_413() -> None:
    app = create_app({"STORE": StoreConfig(kind="memory"), "MAX_CONTENT_LENGTH": 1000})
    api = ApiClient(flask_transport(app.test_client()))
    answer = api.post("/api/games", {"players": ["x" * 2000]})
    assert answer.error() == (413, "payload_too_large")
    assert answer.body["details"]["limit"] == 1000


def test_a_body_that_does_not_fit_its_schema_is_400_naming_the_fields(api: ApiClient) -> None:
    answer = api.post("/api/games", {"players": 2, "seed": "many", "private": "perhaps"})
    assert answer.error() == (400, "invalid_request")
    assert set(answer.body["details"]["fields"]["json"]) == {"seed", "private"}
    assert api.post("/api/games", b"[[[").error() == (400, "invalid_request")
    assert api.get("/api/games?limit=0").error() == (400, "invalid_request")


@pytest.mark.parametrize("seed", [1.5, "7", True])
def test_a_seed_that_is_not_a_json_whole_number_is_400_not_another_seed(api: ApiClient, seed: object) -> None:
    # 1.5 was taken as seed 1 (and "7" as 7): a game dealt from a seed the client never sent
    answer = api.post("/api/games", {"players": ["A", "B"], "seed": seed})
    assert answer.error() == (400, "invalid_request")
    assert set(answer.body["details"]["fields"]["json"]) == {"seed"}
    assert api.get("/api/games").body["total"] == 0


def rate_limited_client(per_address: int, per_token: int) -> ApiClient:
    """A client of an app on the in-memory store with these write limits, in a window far longer than a test
    (windows are aligned to multiples of it), so that no window boundary can fall between its requests on a
    slow machine."""
    app = create_app(
        {
            "STORE": StoreConfig(kind="memory"),
            "RATE_LIMIT_PER_ADDRESS": per_address,
            "RATE_LIMIT_PER_TOKEN": per_token,
            "RATE_LIMIT_WINDOW": 10**9,
        }
    )
    return ApiClient(flask_transport(app.test_client()))


def test_writes_over_the_rate_limit_are_429_with_retry_after() -> None:
    api = rate_limited_client(per_address=2, per_token=3)
    game_id, token, _ = api.create(2)
    api.create(2)
    limited = api.post("/api/games", {"players": 2})
    assert limited.error() == (429, "rate_limited")
    assert int(limited.headers["retry-after"]) >= 1  # until the window ends
    assert len(api.get("/api/games").body["games"]) == 2  # nothing written; reads are not limited
    # a token has its own budget
    note = {"version": 1, "text": "n"}
    assert [api.post(f"/api/games/{game_id}/annotations", note, token=token).status for _ in range(4)] == [
        201,
        201,
        201,
        429,
    ]


def test_a_token_sent_with_a_write_that_takes_none_does_not_escape_the_address_limit() -> None:
    """Creating or importing a game and scoring a sheet take no token, so they are counted per address. A
    made-up Bearer token sent with them was counted as a token of its own: a fresh one per request created
    games without any limit (found by the security review)."""
    api = rate_limited_client(per_address=2, per_token=100)
    created = [api.post("/api/games", {"players": 2}, token=f"made-up-{n}").status for n in range(3)]
    assert created == [201, 201, 429]
    sheet = {"players": [{"name": "Ann", "cp": 3}]}
    assert api.post("/api/score-sheets", sheet, token="another").error() == (429, "rate_limited")
    assert api.get("/api/games").body["total"] == 2
    # a write to a game is still counted per token: the game's tokens have their own budget
    game_id = api.get("/api/games").body["games"][0]["game_id"]
    assert api.post(f"/api/games/{game_id}/undo", {}, token="made-up").error() == (401, "unauthorized")
    # ... but a fork creates a game: it is counted by address whatever token it sends
    assert api.post(f"/api/games/{game_id}/forks", {}, token="made-up").error() == (429, "rate_limited")


def test_an_unexpected_error_is_logged_and_answered_500_internal_error(app: Flask) -> None:
    @app.get("/api/broken-on-purpose")
    def broken() -> None:
        raise RuntimeError("a bug")

    answer = ApiClient(flask_transport(app.test_client())).get("/api/broken-on-purpose")
    assert answer.error() == (500, "internal_error")
    assert "a bug" not in answer.body["detail"]


def test_an_unreachable_store_is_503_store_unavailable(
    api: ApiClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, _, _ = api.create(2)

    def down(*_: object, **__: object) -> None:
        raise OperationalError("connection refused")

    monkeypatch.setattr(app.extensions["heronlog"].get().log, "get_game", down)
    answer = api.get(f"/api/games/{game_id}")
    assert answer.error() == (503, "store_unavailable")
    assert answer.headers["retry-after"]


def test_every_error_code_has_a_client_or_server_status() -> None:
    assert all(400 <= status < 600 for status in STATUS.values())
    assert [code for code, status in STATUS.items() if status >= 500] == [
        "internal_error",
        "game_corrupt",
        "store_unavailable",
        "too_many_streams",
        "too_many_imports",
        "too_many_analyses",
        "analysis_unavailable",
        "server_unavailable",  # said by the compose deployment's nginx (docker/nginx.conf), never by the app
    ]


def test_the_score_sheet_scores_tallies_and_stores_nothing(api: ApiClient) -> None:
    answer = api.post(
        "/api/score-sheets",
        {"players": [{"name": "Aiko", "cp": 30, "coins": 7, "seals": 3}, {"name": "Ben", "cp": 31}]},
    )
    assert answer.status == 200
    sheets = answer.body["sheets"]
    assert [(s["player"], s["total"], s["rank"]) for s in sheets] == [("Aiko", 32, 1), ("Ben", 31, 2)]
    lines = {line["label"]: line["points"] for line in sheets[0]["lines"]}
    assert lines["coins and seals"] == 2 and sum(lines.values()) == 32
    # the words of each line and the icons of what it counts, served with it (the pages relabel nothing)
    icons = {line["label"]: line["icons"] for line in sheets[0]["lines"]}
    assert icons == {
        "CP during the game": ["cp"],
        "coins and seals": ["coin", "seal"],
        "resources": ["food", "iron", "pearl"],
        "Passage of Time": ["pot"],
        "courtiers": ["courtier"],
        "warriors": ["warrior"],
        "gardeners": ["gardener"],
    }
    assert api.get("/api/games").body["games"] == []
    bad = api.post("/api/score-sheets", {"players": [{"name": "Aiko", "cp": "lots"}]})
    assert bad.error() == (400, "invalid_tallies")
    assert api.post("/api/score-sheets", {"players": []}).error() == (400, "invalid_request")


def test_the_app_starts_while_redis_is_down_and_answers_503_until_it_is_up() -> None:
    app = create_app({"STORE": StoreConfig(kind="redis", redis_url="redis://127.0.0.1:1/0")})
    api = ApiClient(flask_transport(app.test_client()))
    assert api.get("/readyz").status == 503
    assert api.get("/healthz").status == 200  # liveness: the process answers
    assert api.get("/api/games").error() == (503, "store_unavailable")
    assert api.post("/api/games", {"players": 2}).error() == (503, "store_unavailable")
