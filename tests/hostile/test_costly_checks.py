"""Costly checks. A table's castle list of 32,000 entries (188 KiB) cost 55 s of CPU to refuse, because each problem
found was compared with every one found before it; a name padded to 2 MiB was read character by character in
Python; a batch of 300,000 moves, a move of 150,000 fields or a player of 150,000 tallies were each read item by
item before their length was looked at.

Now every check costs at most linear time in its body, and most stop at once: a layout past any table's entries, a
list or an open object past its bound, are refused before their items are read; texts are scanned in C. Nothing is
timed here: each test counts the steps a check took (the entries a walk read, the items a schema read, the
characters looked at one by one) on a body at the size limit."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from marshmallow import fields

from api.resources import fastjson, schemas
from domain import layout
from replay import text
from replay.players import names
from tests.api_helpers import ApiClient
from tests.hostile.conftest import AppMaker, client_from, raw

LIMIT = 2 * 1024 * 1024


@pytest.fixture
def app(make_app: AppMaker) -> Flask:
    """The app with its rate limits off: each test sends several bodies at the size limit."""
    return make_app(RATE_LIMIT_PER_ADDRESS=0, RATE_LIMIT_PER_TOKEN=0, RATE_LIMIT_PER_SOURCE=0)


@pytest.fixture
def api(app: Flask) -> ApiClient:
    return client_from(app)


def filled(make: Callable[[int], Any]) -> Any:
    """``make(n)`` for the largest ``n`` whose JSON fits the body limit."""
    room = LIMIT - 4096
    low, high = 1, 2
    while len(json.dumps(make(high))) <= room:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if len(json.dumps(make(middle))) <= room else (low, middle)
    return make(low)


class Steps:
    """Counts the calls of functions a test puts it in place of (each then runs as before)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.calls: dict[str, int] = {}

    def count(self, owner: Any, name: str, stop_after: int | None = None) -> None:
        real = getattr(owner, name)
        self.calls[name] = 0

        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            if stop_after is not None and self.calls[name] > stop_after:
                raise AssertionError(f"{name} was called more than {stop_after} times")  # fail fast, not slow
            return real(*args, **kwargs)

        self.monkeypatch.setattr(owner, name, counted)


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> Iterator[Steps]:
    yield Steps(monkeypatch)


def game(api: ApiClient) -> tuple[str, str]:
    made = api.post("/api/games", {"players": ["Ann", "Ben"], "seed": 5})
    assert made.status == 201, made.body
    return made.body["game"]["game_id"], made.body["owner_token"]


# --- creation -----------------------------------------------------------------------------------------------


def test_a_castle_list_of_32000_entries_is_refused_after_reading_at_most_a_layout_s_entries(
    api: ApiClient, steps: Steps
) -> None:
    steps.count(layout, "_whole", stop_after=layout.MAX_ENTRIES + 1)  # called once for each entry read
    steps.count(layout.Problems, "add", stop_after=layout.MAX_ENTRIES)
    castle = {f"x{i}": "S1" for i in range(32_000)}

    answer = api.post("/api/games", {"players": ["A", "B"], "mode": "table", "layout": {"castle": castle}})

    assert answer.error() == (422, "invalid_layout")
    assert answer.body["details"]["field"] == "layout"
    assert answer.body["details"]["limit"] == layout.MAX_ENTRIES == 500
    assert steps.calls["_whole"] <= layout.MAX_ENTRIES + 1, "the walk stopped at the first entry too many"
    assert api.get("/api/games").body["total"] == 0


def test_a_layout_nested_past_its_depth_is_refused_without_walking_the_depth(
    api: ApiClient, steps: Steps
) -> None:
    deep: Any = "S1"
    for _ in range(90):  # within the JSON depth a body may have (fastjson.MAX_DEPTH)
        deep = {"a": deep}
    steps.count(layout, "_whole", stop_after=10)

    answer = api.post("/api/games", {"players": ["A", "B"], "mode": "table", "layout": {"castle": deep}})

    assert answer.error() == (422, "invalid_layout")
    assert "three levels deep" in answer.body["detail"]


def test_a_name_padded_to_the_body_limit_is_never_read_character_by_character(
    api: ApiClient, steps: Steps
) -> None:
    for name in ("invisible", "control", "surrogate"):
        steps.count(text, name)
    body = filled(lambda n: {"players": ["Ann" + "\u200b" * n, "Ben"]})

    made = api.post("/api/games", body)
    long_name = api.post("/api/games", filled(lambda n: {"players": ["A" * n, "Ben"]}))

    assert made.status == 201, made.body
    assert [player["name"] for player in made.body["game"]["players"]] == ["Ann", "Ben"]
    assert long_name.error() == (400, "invalid_setup")
    # name_key compares the names as kept (a few characters each); the 2 MiB were scanned by regular expressions
    assert sum(steps.calls.values()) < 20, steps.calls


def test_setup_options_filling_the_body_are_refused_before_any_is_read(api: ApiClient) -> None:
    answer = api.post(
        "/api/games", filled(lambda n: {"players": 2, "options": {f"o{i}": True for i in range(n)}})
    )

    assert answer.error() == (400, "invalid_request")
    assert len(answer.raw) < 2_000, "the refusal does not quote the options back"


# --- moves, amendments --------------------------------------------------------------------------------------


def test_a_batch_of_moves_filling_the_body_is_refused_before_any_move_is_read(
    api: ApiClient, steps: Steps
) -> None:
    game_id, token = game(api)
    steps.count(schemas.MoveField, "_deserialize")
    body = filled(lambda n: {"moves": [{"kind": "roll"}] * n})
    assert len(body["moves"]) > 100_000

    answer = api.post(f"/api/games/{game_id}/moves", body, token=token, if_match="*")

    assert answer.error() == (400, "invalid_request")
    assert steps.calls["_deserialize"] == 0


def test_a_move_of_as_many_fields_as_the_body_holds_is_refused_by_its_shape(
    api: ApiClient, steps: Steps
) -> None:
    game_id, token = game(api)
    steps.count(fields.Field, "deserialize")
    body = filled(lambda n: {"kind": "roll", "seat": 0, **{f"k{i}": 1 for i in range(n)}})

    answer = api.post(f"/api/games/{game_id}/moves", body, token=token, if_match="*")

    assert answer.error() == (400, "invalid_request")
    assert f"at most {schemas.MAX_MOVE_FIELDS} fields" in json.dumps(answer.body["details"])
    assert steps.calls["deserialize"] < 10, "no field of the move was read"


def test_resolutions_filling_the_body_are_refused_before_any_move_is_read(
    api: ApiClient, steps: Steps
) -> None:
    game_id, token = game(api)
    steps.count(schemas.MoveField, "_deserialize")
    body = filled(
        lambda n: {
            "version": 2,
            "move": {"kind": "roll"},
            "resolutions": [{"index": 2, "moves": [{"kind": "roll"}] * 50} for _ in range(n)],
        }
    )

    answer = api.post(f"/api/games/{game_id}/amend", body, token=token, if_match="*")

    assert answer.error() == (400, "invalid_request")
    assert steps.calls["_deserialize"] <= 1, "the corrected move at most: no move of a resolution was read"


def test_corrected_moves_filling_the_body_are_refused_before_any_is_read(
    api: ApiClient, steps: Steps
) -> None:
    game_id, token = game(api)
    steps.count(schemas.MoveField, "_deserialize")
    body = filled(lambda n: {"version": 2, "moves": [{"kind": "roll"}] * n})

    answer = api.post(f"/api/games/{game_id}/amend", body, token=token, if_match="*")

    assert answer.error() == (400, "invalid_request")
    assert steps.calls["_deserialize"] == 0


# --- annotations, score sheets --------------------------------------------------------------------------------


def test_an_annotation_target_filling_the_body_is_refused_before_any_field_is_read(
    api: ApiClient, steps: Steps
) -> None:
    game_id, token = game(api)
    steps.count(fields.Field, "deserialize")
    body = filled(lambda n: {"version": 1, "text": "a", "target": {f"k{i}": "x" for i in range(n)}})

    answer = api.post(f"/api/games/{game_id}/annotations", body, token=token)

    assert answer.error() == (400, "invalid_request")
    assert steps.calls["deserialize"] < 10


def test_a_player_of_as_many_tallies_as_the_body_holds_is_refused_before_any_is_read(
    api: ApiClient, steps: Steps
) -> None:
    steps.count(fields.Field, "deserialize")
    body = filled(lambda n: {"players": [{f"k{i}": 1 for i in range(n)}]})

    answer = api.post("/api/score-sheets", body)

    assert answer.error() == (400, "invalid_request")
    assert steps.calls["deserialize"] < 10


# --- players ---------------------------------------------------------------------------------------------------


def test_a_bgstats_file_of_the_most_players_is_matched_without_reading_a_name_character_by_character(
    api: ApiClient, steps: Steps
) -> None:
    game_id, token = game(api)
    for name in ("invisible", "control", "surrogate"):
        steps.count(text, name)
    steps.count(names, "name_key", stop_after=4 * 5000)
    people = [{"name": f"Player {i:04d} " + "n" * 180, "uuid": f"{i:032x}"} for i in range(5000)]

    answer = api.send(
        "POST", "/api/players/bgstats", {"players": people}, {"Game-Tokens": f"{game_id}={token}"}
    )

    assert answer.status == 200, answer.body
    assert len(answer.body["not_here"]) == 5000
    assert steps.calls["invisible"] == steps.calls["control"] == steps.calls["surrogate"] == 0
    assert steps.calls["name_key"] <= 4 * 5000, "each name keyed a few times, never against every other"


def test_a_bgstats_file_of_as_many_players_as_the_body_holds_is_refused_before_any_is_read(
    api: ApiClient, steps: Steps
) -> None:
    steps.count(fields.Field, "deserialize")
    body = filled(lambda n: {"players": [{"name": "A", "uuid": "0" * 32}] * n})
    assert len(body["players"]) > 5000

    answer = api.post("/api/players/bgstats", body)

    assert answer.error() == (400, "invalid_request")
    assert steps.calls["deserialize"] < 10


# --- JSON text ------------------------------------------------------------------------------------------------


def test_a_lone_surrogate_behind_a_million_values_is_placed_by_a_bounded_search(
    api: ApiClient, steps: Steps
) -> None:
    steps.count(fastjson, "has_surrogate")
    values = ",".join(["1"] * 1_000_000)
    body = '{"players": ["Ann", "\\ud800"], "pad": [' + values + "]}"
    assert len(body) < LIMIT

    answer = raw(api, "POST", "/api/games", body)

    assert answer.error() == (400, "invalid_request")
    assert steps.calls["has_surrogate"] <= fastjson.LOCATE_LIMIT + 1


# --- the weight of a body -------------------------------------------------------------------------------------


def test_a_body_weighs_its_bytes_in_writes_refused_or_not(make_app: AppMaker) -> None:
    app = make_app(RATE_LIMIT_PER_ADDRESS=120, RATE_LIMIT_WINDOW=10**9, BODY_BYTES_PER_WRITE=1024)
    api = client_from(app, "10.0.0.7")
    castle = {f"x{i}": "S1" for i in range(700)}  # about 10 KiB
    body = {"players": ["A", "B"], "mode": "table", "layout": {"castle": castle}}
    sent = json.dumps(body)
    weight = -(-len(sent.encode()) // 1024)
    assert weight == 10

    refused = raw(api, "POST", "/api/games", sent)

    assert refused.error() == (422, "invalid_layout")
    made = 0
    while api.post("/api/games", {"players": 2}).status == 201:
        made += 1
        assert made <= 120
    assert made == 120 - weight, "the refused body counted as the writes it weighs"


def test_a_write_to_a_game_weighs_its_body_against_its_token(make_app: AppMaker) -> None:
    app = make_app(RATE_LIMIT_PER_TOKEN=50, RATE_LIMIT_WINDOW=10**9, BODY_BYTES_PER_WRITE=1024)
    api = client_from(app)
    game_id, token = game(api)
    heavy = json.dumps({"kind": "roll", "seat": 0, "pad": "x" * 20_000})  # 20 KiB: weighs 20 writes
    auth = {"Authorization": f"Bearer {token}", "If-Match": "*"}

    assert raw(api, "POST", f"/api/games/{game_id}/moves", heavy, **auth).status in (400, 422)
    assert raw(api, "POST", f"/api/games/{game_id}/moves", heavy, **auth).status in (400, 422)
    third = raw(api, "POST", f"/api/games/{game_id}/moves", heavy, **auth)

    assert third.error() == (429, "rate_limited")
    assert third.body["details"]["weight"] == 20
