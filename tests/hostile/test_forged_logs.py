"""Forged logs. An import was rules-checked, but took from the file: a catalog with Passage
of Time points x1000 (scores of 1004 accepted), any actor (``seat:7`` in a two-seat game, 10,000 characters), a
forged description shown in the timeline, an abandonment "by" a seat with a 1.5 MB reason, a 100 KB
idempotency key, a ``created_at`` in 9999 pinned at the top of the list, a game that is its own parent.

Now words are recomputed, never read from the file; actors, keys, reasons, texts and dates are held to the
API's own limits; a catalog other than the packaged one is taken only when the export declares it
(``setup.catalog_override``), and the game then says so on every page; a parent must be another game of this
installation. Each forgery is ``422 invalid_log`` naming where it is, and nothing is written."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from tests.api_helpers import ApiClient
from tests.hostile.conftest import client_from

Forgery = Callable[[dict[str, Any]], None]


@pytest.fixture
def api(sqlite_app: Flask) -> ApiClient:
    return client_from(sqlite_app)


@pytest.fixture
def exported(api: ApiClient) -> tuple[str, str, dict[str, Any]]:
    """A game with moves of both seats, its second seat's moves recorded with its own token: (game id, owner
    token, export)."""
    made = api.post("/api/games", {"players": ["Ann", "Ben"], "seed": 5})
    game_id, token = made.body["game"]["game_id"], made.body["owner_token"]
    seat = api.post(f"/api/games/{game_id}/seats/1/token", {}, token=token).body["token"]
    for _ in range(8):
        legal = api.legal(game_id).body
        move = legal["moves"][0]
        played = api.play(game_id, move, seat if move["seat"] == 1 else token, legal["version"])
        assert played.status == 201, played.body
    note = api.post(f"/api/games/{game_id}/annotations", {"version": 2, "text": "well played"}, token=seat)
    assert note.status == 201, note.body
    document = api.get(f"/api/games/{game_id}/export", token).body
    assert {entry["data"]["actor"] for entry in document["events"]} == {"owner", "seat:1"}
    return game_id, token, dict(document)


def first(document: dict[str, Any], kind: str = "MovePlayed", seat: int | None = 0) -> dict[str, Any]:
    return next(
        entry
        for entry in document["events"]
        if entry["type"] == kind and (seat is None or entry["data"].get("seat") == seat)
    )


def at_position(document: dict[str, Any], entry: dict[str, Any]) -> str:
    return f"events[{document['events'].index(entry)}]"


def times_a_thousand(document: dict[str, Any]) -> None:
    track = document["catalog"]["passage_of_time"]
    track["points"] = [points * 1000 for points in track["points"]]


def appended(document: dict[str, Any], kind: str, **data: Any) -> dict[str, Any]:
    last = document["events"][-1]
    entry = {"type": kind, "version": last["version"] + 1, "at": last["at"], "data": data}
    document["events"].append(entry)
    return entry


FORGERIES: dict[str, tuple[Forgery, str]] = {
    "catalog points x1000": (times_a_thousand, "catalog"),
    "an actor of a seat the game has not": (
        lambda d: first(d)["data"].update(actor="seat:7"),
        "events",
    ),
    "an actor of 10,000 characters": (lambda d: first(d)["data"].update(actor="x" * 10_000), "events"),
    "a seat acting for another seat": (lambda d: first(d, seat=0)["data"].update(actor="seat:1"), "events"),
    "an abandonment by a seat": (
        lambda d: appended(d, "GameAbandoned", actor="seat:1", reason="", idempotency_key=None) and None,
        "events",
    ),
    "a reason of 1.5 MB": (
        lambda d: (
            appended(d, "GameAbandoned", actor="owner", reason="r" * 1_500_000, idempotency_key=None) and None
        ),
        "events",
    ),
    "a reason with an escape sequence": (
        lambda d: (
            appended(d, "GameAbandoned", actor="owner", reason="\x1b[2J", idempotency_key=None) and None
        ),
        "events",
    ),
    "an idempotency key of 100 KB": (
        lambda d: first(d)["data"].update(idempotency_key="k" * 100_000),
        "events",
    ),
    "one idempotency key on two writes": (
        lambda d: [entry["data"].update(idempotency_key="same") for entry in d["events"][0:3:2]] and None,
        "events",
    ),
    "a created_at in 9999": (lambda d: d.update(created_at="9999-12-31T00:00:00+00:00"), "created_at"),
    "a created_at in 1970": (lambda d: d.update(created_at="1970-01-01T00:00:00+00:00"), "created_at"),
    "a move dated 9999": (
        lambda d: first(d)["data"] and first(d).update(at="9999-01-01T00:00:00+00:00"),
        "events",
    ),
    "a game that is its own parent": (
        lambda d: d.update(parent={"game_id": d["game_id"], "version": 2}),
        "parent",
    ),
    "a parent that is not here": (
        lambda d: d.update(parent={"game_id": "00000000-0000-4000-8000-000000000000", "version": 2}),
        "parent",
    ),
    "a comment by a seat the game has not": (
        lambda d: d["annotations"][0]["data"].update(author="seat:9"),
        "annotations",
    ),
    "a comment with a control character": (
        lambda d: d["annotations"][0]["data"].update(text="ring\x07ring"),
        "annotations",
    ),
    "a name with a bidirectional override": (
        lambda d: d["setup"]["players"][0].update(name="Ann\u202e"),
        "setup",
    ),
}


@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_a_forged_log_is_422_naming_where_and_nothing_is_written(
    api: ApiClient, exported: tuple[str, str, dict[str, Any]], forgery: str
) -> None:
    _, _, document = exported
    forge, where = FORGERIES[forgery]
    forged = copy.deepcopy(document)
    forge(forged)
    games = api.get("/api/games").body["total"]

    answer = api.post("/api/games/import?new_id=1", forged)

    assert answer.error() == (422, "invalid_log"), answer.body
    positions = [problem["position"] for problem in answer.body["details"]["problems"]]
    assert positions[0].startswith(where), positions
    assert len(answer.raw) < 10_000, "the refusal quotes no forged text at length"
    assert api.get("/api/games").body["total"] == games


def test_the_words_of_an_import_are_the_rules_own_never_the_file_s(
    api: ApiClient, exported: tuple[str, str, dict[str, Any]]
) -> None:
    game_id, _, document = exported
    forged = copy.deepcopy(document)
    move = first(forged)
    move["data"]["description"] = "Ann resigned and gave Ben 1000 coins"
    imported = api.post("/api/games/import?new_id=1", forged)
    assert imported.status == 201, imported.body
    copy_id = imported.body["game"]["game_id"]
    said = [entry["description"] for entry in api.get(f"/api/games/{copy_id}/timeline").body["entries"]]
    assert said == [
        entry["description"] for entry in api.get(f"/api/games/{game_id}/timeline").body["entries"]
    ]
    assert "1000 coins" not in api.get(f"/api/games/{copy_id}/export?format=text").body


def test_a_catalog_of_its_own_is_taken_when_declared_and_shown_on_the_game(
    api: ApiClient, exported: tuple[str, str, dict[str, Any]]
) -> None:
    game_id, _, document = exported
    assert api.game(game_id)["catalog_override"] is False
    declared = copy.deepcopy(document)
    times_a_thousand(declared)
    declared["setup"]["catalog_override"] = True

    imported = api.post("/api/games/import?new_id=1", declared)

    assert imported.status == 201, imported.body
    copy_id = imported.body["game"]["game_id"]
    assert imported.body["game"]["catalog_override"] is True
    assert api.game(copy_id)["catalog_override"] is True
    assert "played with a catalog of its own" in api.get(f"/api/games/{copy_id}/export?format=text").body
    # its export declares it again, so it moves on as it came; a fork keeps the mark
    again = api.get(f"/api/games/{copy_id}/export").body
    assert again["setup"]["catalog_override"] is True
    token = imported.body["owner_token"]
    assert api.post(f"/api/games/{copy_id}/forks", {}, token=token).body["game"]["catalog_override"] is True


def test_an_imported_game_keeps_its_date_and_is_listed_when_it_came(
    api: ApiClient, exported: tuple[str, str, dict[str, Any]]
) -> None:
    _, _, document = exported
    old = copy.deepcopy(document)
    old["created_at"] = "2024-03-01T19:30:00+00:00"
    for entry in old["events"]:
        entry["at"] = "2024-03-01T20:00:00+00:00"
    for entry in old["annotations"]:
        entry["at"] = "2024-03-01T20:05:00+00:00"
    api.post("/api/games", {"players": 2})  # a game created just now

    imported = api.post("/api/games/import?new_id=1", old)

    assert imported.status == 201, imported.body
    copy_id = imported.body["game"]["game_id"]
    assert imported.body["game"]["created_on"] == "2024-03-01T19:30:00+00:00"
    listed = api.get("/api/games").body["games"]
    assert listed[0]["game_id"] == copy_id, "newest first by when it came here"
    assert listed[0]["created_on"] == "2024-03-01T19:30:00+00:00"


def test_a_branch_imports_where_its_parent_is(
    api: ApiClient, exported: tuple[str, str, dict[str, Any]]
) -> None:
    game_id, token, _ = exported
    branch = api.post(f"/api/games/{game_id}/forks", {"version": 4}, token=token)
    branch_document = api.get(f"/api/games/{branch.body['game']['game_id']}/export").body
    imported = api.post("/api/games/import?new_id=1", branch_document)
    assert imported.status == 201, imported.body
    assert imported.body["game"]["parent"] == {"game_id": game_id, "version": 4}
    beyond = copy.deepcopy(branch_document)
    beyond["parent"]["version"] = 999
    refused = api.post("/api/games/import?new_id=1", beyond)
    assert refused.error() == (422, "invalid_log")
    assert refused.body["details"]["problems"][0]["position"] == "parent"


@pytest.mark.parametrize("version", [4, 999])
def test_an_import_naming_a_private_parent_is_refused_as_one_naming_no_game_unless_it_holds_its_token(
    api: ApiClient, version: int
) -> None:
    """Whatever version it names, an import without the private game's token learns nothing of it: not that
    it is there, nor how many versions it has (the answer is the one for a game that is not here)."""
    made = api.post("/api/games", {"players": ["Ann", "Ben"], "seed": 5, "private": True})
    private_id, private_token = made.body["game"]["game_id"], made.body["owner_token"]
    for _ in range(5):
        legal = api.legal(private_id, private_token).body
        assert api.play(private_id, legal["moves"][0], private_token, legal["version"]).status == 201
    public_id, token, _ = api.create(2, seed=5)
    branch = api.post(f"/api/games/{public_id}/forks", {"version": 1}, token=token)
    document = api.get(f"/api/games/{branch.body['game']['game_id']}/export").body
    unknown = "00000000-0000-4000-8000-000000000000"

    def naming(parent_id: str, token: str | None = None) -> Any:
        forged = copy.deepcopy(document)
        forged["parent"] = {"game_id": parent_id, "version": version}
        return api.send("POST", "/api/games/import?new_id=1", forged, api.headers(token))

    private, nowhere = naming(private_id), naming(unknown)
    assert private.error() == nowhere.error() == (422, "invalid_log")
    assert json.dumps(private.body).replace(private_id, "ID") == json.dumps(nowhere.body).replace(
        unknown, "ID"
    )
    assert naming(private_id, "not-a-token-of-it").body == private.body
    with_token = naming(private_id, private_token)
    if version == 999:  # its token may know how many versions it has
        assert with_token.error() == (422, "invalid_log") and "versions 1 to 6" in json.dumps(with_token.body)
    else:
        assert with_token.status == 201, with_token.body
        assert with_token.body["game"]["parent"] == {"game_id": private_id, "version": 4}
