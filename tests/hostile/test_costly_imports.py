"""Costly imports. An export padded to 2 MiB with undo/redo pairs (17,000 events) cost about
3 s of CPU to import, ten at once delayed a plain read by 17 s, and each grew SQLite by 7 MB.

Now an import holds at most ``IMPORT_MAX_EVENTS`` events (1,000: five full four-player games' worth),
refused before any event is read; it weighs one write per ``IMPORT_EVENTS_PER_WRITE`` (50) of its events in
the rate limit of its address; and a process refolds one heavy import at a time, the others answered at once
with ``503 too_many_imports``, so that reads and moves find the CPU and the threads they need."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from replay import exports
from tests.hostile.conftest import AppMaker, body_bytes, client_from, padded, played_export


def test_an_export_over_the_event_cap_is_413_before_any_event_is_read_and_nothing_is_stored(
    make_app: AppMaker, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    api = client_from(app)
    _, _, document = played_export(api)
    costly = padded(document, 12_000)
    assert (
        body_bytes(costly) < app.config["MAX_CONTENT_LENGTH"]
    )  # within the body limit: the cap is the events'
    read: list[Any] = []
    parse = exports._parse
    monkeypatch.setattr(exports, "_parse", lambda *args: read.append(args) or parse(*args))
    listed = api.get("/api/games").body["total"]
    files = {path: path.stat().st_size for path in tmp_path.glob("*.sqlite*")}

    answer = api.post("/api/games/import?new_id=1", costly)

    assert answer.error() == (413, "import_too_large")
    assert answer.body["details"] == {
        "events": exports.event_count(costly),
        "limit": app.config["IMPORT_MAX_EVENTS"],
    }
    assert exports.event_count(costly) == 12_000 + exports.event_count(document)
    assert read == [], "no event of the import was even parsed"
    assert api.get("/api/games").body["total"] == listed
    assert {path: path.stat().st_size for path in tmp_path.glob("*.sqlite*")} == files


def test_an_import_weighs_one_write_per_fifty_events_in_the_limit_of_its_address(make_app: AppMaker) -> None:
    app = make_app(RATE_LIMIT_PER_ADDRESS=120, RATE_LIMIT_WINDOW=10**9, IMPORT_MAX_EVENTS=5000)
    setup = client_from(app, "10.0.0.1")
    _, _, document = played_export(setup)
    heavy = padded(document, 4990 - exports.event_count(document))
    assert exports.event_count(heavy) == 4990  # weighs 100 writes
    api = client_from(app, "10.0.0.2")

    assert api.post("/api/games/import?new_id=1", heavy).status == 201
    # 100 of the address's 120 writes of the window are spent: 20 are left
    made = 0
    while api.post("/api/games", {"players": 2}).status == 201:
        made += 1
        assert made <= 120
    assert made == 20


def test_an_import_refused_by_the_rate_limit_gives_its_weight_back(make_app: AppMaker) -> None:
    app = make_app(RATE_LIMIT_PER_ADDRESS=120, RATE_LIMIT_WINDOW=10**9, IMPORT_MAX_EVENTS=5000)
    _, _, document = played_export(client_from(app, "10.0.0.1"))
    heavy = padded(document, 4990 - exports.event_count(document))
    api = client_from(app, "10.0.0.3")
    for _ in range(30):
        assert api.post("/api/games", {"players": 2}).status == 201

    refused = api.post("/api/games/import?new_id=1", heavy)

    assert refused.error() == (429, "rate_limited")
    assert refused.body["details"]["weight"] == 100 and "retry-after" in refused.headers
    # the refused import counted once (an attempt), not 100 times: 120 - 30 - 1 = 89 writes are left
    made = sum(api.post("/api/games", {"players": 2}).status == 201 for _ in range(100))
    assert made == 89


def test_one_heavy_import_at_a_time_the_others_are_503_at_once_and_a_read_is_answered_meanwhile(
    make_app: AppMaker, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    owner = client_from(app, "10.0.1.1")
    game_id, _, document = played_export(owner)
    heavy = padded(document, 600)
    inside, release = threading.Event(), threading.Event()
    refold = exports.refold
    holding: list[bool] = []

    def held_refold(*args: Any, **kwargs: Any) -> Any:
        if not holding:  # the first import stays in its refold until the test lets it go
            holding.append(True)
            inside.set()
            release.wait(timeout=60)
        return refold(*args, **kwargs)

    monkeypatch.setattr(exports, "refold", held_refold)
    answers: dict[int, Any] = {}

    def import_from(number: int) -> None:
        answers[number] = client_from(app, f"10.0.2.{number}").post("/api/games/import?new_id=1", heavy)

    first = threading.Thread(target=import_from, args=(0,))
    first.start()
    assert inside.wait(timeout=60), "the first import reached its refold"
    others = [threading.Thread(target=import_from, args=(number,)) for number in range(1, 10)]
    for thread in others:
        thread.start()
    for thread in others:
        thread.join(timeout=120)
    read = client_from(app, "10.0.3.1").get(f"/api/games/{game_id}")
    release.set()
    first.join(timeout=120)

    assert read.status == 200, "a read is answered while a heavy import refolds"
    assert [answers[number].error() for number in range(1, 10)] == [(503, "too_many_imports")] * 9
    assert all(answers[number].headers["retry-after"] == "2" for number in range(1, 10))
    assert answers[0].status == 201
    # the slot is free again: the next heavy import goes through
    assert client_from(app, "10.0.2.99").post("/api/games/import?new_id=1", heavy).status == 201


def test_a_light_import_never_waits_for_a_heavy_one(sqlite_app: Flask) -> None:
    """Only an import of more than 500 events needs the slot: a game's own export (a hundred or two events)
    costs no more than a few moves."""
    api = client_from(sqlite_app)
    _, _, document = played_export(api)
    slots = sqlite_app.extensions["heronlog.import_slots"]
    with slots.held():  # a heavy import is refolding
        assert api.post("/api/games/import?new_id=1", document).status == 201
        assert api.post("/api/games/import?new_id=1", padded(document, 600)).error() == (
            503,
            "too_many_imports",
        )
