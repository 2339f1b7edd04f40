"""HTTP's own conventions (RFC 9110, RFC 9457, the IETF RateLimit draft) as the API follows them: a stale
If-Match is 412, a read whose If-None-Match names the current ETag is 304, errors are problem documents, and
every write says where its rate limit stands."""

from __future__ import annotations

import pytest

from api.app import create_app
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport


def test_a_stale_if_match_is_412_precondition_failed_keeping_the_current_version(api: ApiClient) -> None:
    game_id, owner, game = api.create(2, seed=4)
    move = api.legal(game_id).body["moves"][0]
    assert api.play(game_id, move, owner, game["version"]).status == 201
    stale = api.play(game_id, move, owner, game["version"])
    assert stale.error() == (412, "stale_version")
    assert stale.body["details"]["current_version"] == game["version"] + 1
    assert stale.body["title"] == "The game has moved on" and "version" in stale.body["detail"]
    # the same version named in the body instead of the header: the same answer
    body = {**move, "expected_version": game["version"]}
    assert api.post(f"/api/games/{game_id}/moves", body, token=owner).error() == (412, "stale_version")


def test_if_match_compares_strongly_a_weak_tag_is_412_and_a_list_matches_by_any_member(
    api: ApiClient,
) -> None:
    """RFC 9110 13.1.1: If-Match uses the strong comparison (a weak tag never matches, even the current one),
    and a list of tags matches when one of its members does."""
    game_id, owner, game = api.create(2, seed=4)
    version, moves = game["version"], f"/api/games/{game_id}/moves"
    move = api.legal(game_id).body["moves"][0]
    weak = api.post(moves, move, token=owner, if_match=f'W/"{version}"')
    assert weak.error() == (412, "weak_etag")
    assert weak.body["details"]["current_version"] == version
    assert api.game(game_id)["version"] == version  # nothing written
    assert api.post(moves, move, token=owner, if_match=f'W/"{version}", W/"{version - 1}"').status == 412
    # a list: the current version anywhere in it matches; a weak member beside it is no harm
    listed = api.post(moves, move, token=owner, if_match=f'W/"{version}", "{version - 1}", "{version}"')
    assert listed.status == 201, listed.body
    # a list of which no member is the current version: the game moved on
    move = api.legal(game_id).body["moves"][0]
    stale = api.post(moves, move, token=owner, if_match=f'"{version - 1}", "{version}"')
    assert stale.error() == (412, "stale_version")
    assert stale.body["details"]["current_version"] == version + 1
    assert api.post(moves, move, token=owner, if_match=f'"{version + 1}", x').error() == (
        400,
        "invalid_request",
    )


def test_a_read_naming_the_current_etag_in_if_none_match_is_304_without_a_body(api: ApiClient) -> None:
    game_id, owner, game = api.create(2, seed=4)
    etag = f'"{game["version"]}"'
    for path in ("", "/legal-moves", "/timeline", "/score", "/export?format=text"):
        fresh = api.get(f"/api/games/{game_id}{path}", **{"If-None-Match": etag})
        assert (fresh.status, fresh.raw, fresh.headers["etag"]) == (304, b"", etag), path
    assert (
        api.get(f"/api/games/{game_id}", **{"If-None-Match": f'W/"{game["version"]}", "999"'}).status == 304
    )
    assert api.get(f"/api/games/{game_id}", **{"If-None-Match": "*"}).status == 304
    # once the game moves on, the old ETag no longer matches: the whole answer
    move = api.legal(game_id).body["moves"][0]
    api.play(game_id, move, owner, game["version"])
    moved = api.get(f"/api/games/{game_id}", **{"If-None-Match": etag})
    assert moved.status == 200 and moved.etag == game["version"] + 1
    # an error is never turned into a 304
    missing = "00000000-0000-4000-8000-000000000000"
    assert api.get(f"/api/games/{missing}", **{"If-None-Match": "*"}).error() == (404, "game_not_found")


def test_a_past_state_is_cached_as_immutable_under_a_validator_of_its_own(api: ApiClient) -> None:
    game_id, owner, game = api.create(2, seed=4)
    api.play(game_id, api.legal(game_id).body["moves"][0], owner, game["version"])
    past = api.get(f"/api/games/{game_id}/states/2")
    assert past.status == 200 and past.headers["etag"] == '"state-2"'
    assert past.headers["cache-control"] == "public, max-age=86400, immutable"
    # the game moves on; the past state does not, and revalidates
    api.play(game_id, api.legal(game_id).body["moves"][0], owner, game["version"] + 1)
    again = api.get(f"/api/games/{game_id}/states/2", **{"If-None-Match": '"state-2"'})
    assert (again.status, again.raw, again.headers["etag"]) == (304, b"", '"state-2"')
    assert "immutable" in again.headers["cache-control"]
    assert api.get(f"/api/games/{game_id}/states/2").body == past.body
    # on the current line a state follows amendments: the game's version is its validator, no cache lifetime
    on_line = api.get(f"/api/games/{game_id}/states/2?current_line=1")
    assert on_line.etag == game["version"] + 2 and "cache-control" not in on_line.headers
    # a private game's past state is for the token holder's own cache only
    private_id, private_owner, private = api.create(2, seed=4, private=True)
    api.play(
        private_id, api.legal(private_id, private_owner).body["moves"][0], private_owner, private["version"]
    )
    hidden = api.get(f"/api/games/{private_id}/states/2", private_owner)
    assert hidden.headers["cache-control"] == "private, max-age=86400, immutable"


def test_the_openapi_document_and_other_static_answers_carry_validators(api: ApiClient) -> None:
    for path in (
        "/api/openapi.json",
        "/api/docs",
        "/api/problems/stale_version",
        "/api/games/layout-form?players=2",
    ):
        first = api.get(path)
        assert first.status == 200 and first.headers["etag"].startswith('"'), (path, first.headers)
        assert first.headers["cache-control"] == "no-cache", path
        fresh = api.get(path, **{"If-None-Match": first.headers["etag"]})
        assert (fresh.status, fresh.raw, fresh.headers["etag"]) == (304, b"", first.headers["etag"]), path
    # another answer of the same endpoint has another validator
    assert (
        api.get("/api/problems/weak_etag").headers["etag"]
        != api.get("/api/problems/stale_version").headers["etag"]
    )


def test_errors_are_problem_documents_whose_type_is_described_at_its_uri(api: ApiClient) -> None:
    refused = api.get("/api/games?limit=0")
    assert refused.error() == (400, "invalid_request")
    described = api.get(refused.body["type"])
    assert described.status == 200
    assert described.body["error_code"] == "invalid_request" and described.body["status"] == 400
    assert described.body["title"] == refused.body["title"]
    assert api.get("/api/problems/no_such_problem").error() == (404, "not_found")


def test_every_write_answer_carries_the_state_of_its_rate_limit_window() -> None:
    app = create_app(
        {
            "STORE": StoreConfig(kind="memory"),
            "RATE_LIMIT_PER_ADDRESS": 2,
            "RATE_LIMIT_PER_TOKEN": 5,
            "RATE_LIMIT_WINDOW": 10**9,
        }
    )
    api = ApiClient(flask_transport(app.test_client()))
    first = api.post("/api/games", {"players": 2, "seed": 1})
    assert first.status == 201
    assert first.headers["ratelimit-policy"] == f'"writes";q=2;w={10**9}'
    assert first.headers["ratelimit-limit"] == "2" and first.headers["ratelimit-remaining"] == "1"
    reset = int(first.headers["ratelimit-reset"])
    assert 0 < reset <= 10**9
    assert first.headers["ratelimit"] == f'"writes";r=1;t={reset}'
    api.post("/api/games", {"players": 2, "seed": 2})
    refused = api.post("/api/games", {"players": 2, "seed": 3})
    assert refused.error() == (429, "rate_limited")
    assert refused.headers["ratelimit-remaining"] == "0" and refused.headers["retry-after"]
    # a write to a game counts against its token's own window
    game_id, owner = first.body["game"]["game_id"], first.body["owner_token"]
    move = api.legal(game_id).body["moves"][0]
    played = api.play(game_id, move, owner, first.etag)
    assert played.headers["ratelimit-limit"] == "5" and played.headers["ratelimit-remaining"] == "4"
    # reads are not counted, and say nothing of it
    assert "ratelimit-limit" not in api.get(f"/api/games/{game_id}").headers


def test_cors_is_off_unless_origins_are_allowed_and_then_exposes_the_api_headers() -> None:
    origin = {"Origin": "https://club.example"}
    closed = ApiClient(flask_transport(create_app({"STORE": StoreConfig(kind="memory")}).test_client()))
    assert "access-control-allow-origin" not in closed.get("/api/games", **origin).headers
    app = create_app(
        {"STORE": StoreConfig(kind="memory"), "CORS_ORIGINS": "https://club.example, https://b.example"}
    )
    client = app.test_client()
    api = ApiClient(flask_transport(client))
    game_id, owner, game = api.create(2, seed=4)
    # a preflight of a write with a token, If-Match and Idempotency-Key
    preflight = client.options(
        f"/api/games/{game_id}/moves",
        headers={
            **origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization, content-type, if-match, idempotency-key",
        },
    )
    assert preflight.headers["Access-Control-Allow-Origin"] == "https://club.example"
    allowed = preflight.headers["Access-Control-Allow-Headers"].lower()
    assert {"authorization", "if-match", "idempotency-key"} <= {h.strip() for h in allowed.split(",")}
    assert "Access-Control-Allow-Credentials" not in preflight.headers  # bearer tokens, never cookies
    move = api.legal(game_id).body["moves"][0]
    played = client.post(
        f"/api/games/{game_id}/moves",
        json=move,
        headers={**origin, "Authorization": f"Bearer {owner}", "If-Match": f'"{game["version"]}"'},
    )
    assert (
        played.status_code == 201 and played.headers["Access-Control-Allow-Origin"] == "https://club.example"
    )
    exposed = {h.strip() for h in played.headers["Access-Control-Expose-Headers"].split(",")}
    assert {
        "ETag",
        "Location",
        "Retry-After",
        "RateLimit",
        "RateLimit-Policy",
        "Idempotent-Replayed",
    } <= exposed
    # another origin gets no permission
    other = client.get("/api/games", headers={"Origin": "https://elsewhere.example"})
    assert "Access-Control-Allow-Origin" not in other.headers
    with pytest.raises(ValueError, match="not an origin"):
        create_app({"STORE": StoreConfig(kind="memory"), "CORS_ORIGINS": "https://club.example/page"})
