"""The JSON API end to end: a real `heronlog serve` (gunicorn) on SQLite and on Redis, spoken to over HTTP.

The main scenario records a complete seeded four-player game through `legal-moves` only (each seat with its
own token, as players at a table would), then undoes, redoes, amends, forks, annotates, replays (states,
timeline, changes, the event stream), exports in every format and imports the export again; the last check
proves that the scenario called every operation of the OpenAPI document.
"""

from __future__ import annotations

import json
import random
import socket
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.api_helpers import ApiClient
from tests.e2e.api.conftest import RecordingClient, serving
from tests.e2e.conftest import open_tab


def record_whole_game(
    web: ApiClient, game_id: str, tokens: dict[int | None, str], rng: random.Random
) -> tuple[dict[int, list[dict[str, Any]]], dict[int, dict[str, Any]]]:
    """Play until the game ends, every move taken from `legal-moves` and posted as-is by the token of its seat
    (the owner's for chance moves); returns the moves that were listed at each version, and the one played
    there, by version."""
    listed: dict[int, list[dict[str, Any]]] = {}
    played: dict[int, dict[str, Any]] = {}
    while True:
        listing = web.legal(game_id)
        if listing.body["over"]:
            return listed, played
        moves = listing.body["moves"]
        listed[listing.etag] = moves
        answers = [move for move in moves if move.get("kind") != "convert"] or moves
        move = played[listing.etag] = rng.choice(answers)
        key = f"move-{listing.etag}"
        answer = web.play(game_id, move, tokens.get(move.get("seat"), tokens[None]), listing.etag, key=key)
        assert answer.status == 201, (move, answer.body)
        assert answer.body["versions"] == [listing.etag + 1] and answer.etag == listing.etag + 1


def test_a_seeded_four_player_game_recorded_replayed_branched_and_moved_between_stores(
    web: RecordingClient,
) -> None:
    rng = random.Random(2024)
    created = web.post(
        "/api/games", {"players": ["Aiko", "Ben", "Chie", "Dai"], "seed": 77, "title": "Club night"}
    )
    assert created.status == 201
    game_id, owner = created.body["game"]["game_id"], created.body["owner_token"]
    tokens: dict[int | None, str] = {None: owner}
    for seat in range(4):
        issued = web.post(f"/api/games/{game_id}/seats/{seat}/token", token=owner)
        assert issued.status == 201 and issued.body["actor"] == f"seat:{seat}"
        tokens[seat] = issued.body["token"]
    access = web.get(f"/api/games/{game_id}/access", owner).body
    assert sorted(grant["actor"] for grant in access["grants"]) == [
        "owner",
        "seat:0",
        "seat:1",
        "seat:2",
        "seat:3",
    ]

    # --- the whole game, through legal-moves only -------------------------------------------------------
    listed, played = record_whole_game(web, game_id, tokens, rng)
    game = web.game(game_id)
    assert game["over"] and game["status"] == "finished"
    final = game["version"]
    assert game["moves"] == final - 1 == len(listed)
    score = web.get(f"/api/games/{game_id}/score").body
    assert score["over"] and sorted(sheet["rank"] for sheet in score["sheets"])[0] == 1
    assert web.get("/api/games?search=club").body["games"][0]["status"] == "finished"
    # a retried submission (same Idempotency-Key) answers as the first time and writes nothing
    first = web.get(f"/api/games/{game_id}/timeline").body["entries"][0]
    retried = web.play(game_id, played[1], owner, 1, key="move-1")
    assert retried.status == 201 and retried.body["versions"] == [2]
    # the key with another move is no retry, though the answer cache (kept per token) does not know it
    another = next(move for move in listed[1] if move != played[1])
    assert web.play(game_id, another, owner, 1, key="move-1").error() == (422, "idempotency_key_reused")
    assert web.game(game_id)["version"] == final

    # --- undo and redo the last move --------------------------------------------------------------------
    last = web.get(f"/api/games/{game_id}/timeline").body["entries"][-1]
    seat_token = tokens.get(last["seat"], owner)
    undone = web.post(f"/api/games/{game_id}/undo", {}, token=seat_token, if_match=final)
    assert undone.status == 200 and not undone.body["game"]["over"] and undone.body["game"]["redoable"] == 1
    redone = web.post(f"/api/games/{game_id}/redo", {"count": 1}, token=seat_token, if_match=final + 1)
    assert redone.status == 200 and redone.body["game"]["over"] and redone.etag == final + 2

    # --- replay: states by version and by round/turn, changes since a version --------------------------------
    opening = web.get(f"/api/games/{game_id}/states/1").body
    assert opening["version"] == 1 and "current_version" not in opening  # a past state never changes
    entries = web.get(f"/api/games/{game_id}/timeline").body["entries"]
    round2 = next(entry for entry in entries if entry["round"] == 2)
    at_turn = web.get(f"/api/games/{game_id}/states?round=2&turn={round2['turn']}").body
    assert at_turn["version"] == round2["version"] - 1 and at_turn.pop("current_version") == final + 2
    assert at_turn == web.get(f"/api/games/{game_id}/states/{round2['version'] - 1}").body
    changes = web.get(f"/api/games/{game_id}/changes?since={final}").body
    assert [event["type"] for event in changes["events"]] == ["MovesUndone", "MovesRedone"]

    # --- amend a late move with another move that was legal then ----------------------------------------
    target = max(v for v, moves in listed.items() if len({m["kind"] for m in moves}) < len(moves))
    played_then = web.get(f"/api/games/{game_id}/timeline").body["entries"][target - 1]
    assert played_then["version"] == target + 1
    other = next(
        m for m in listed[target] if m["kind"] == listed[target][0]["kind"] and m != listed[target][0]
    )
    version = final + 2
    dry = web.post(
        f"/api/games/{game_id}/amend",
        {"version": target + 1, "move": other, "dry_run": True},
        token=owner,
        if_match=version,
    )
    assert dry.status == 200 and dry.etag == version
    amended = web.post(
        f"/api/games/{game_id}/amend", {"version": target + 1, "move": other}, token=owner, if_match=version
    )
    assert amended.status == 200 and amended.etag == version + 1
    assert amended.body["report"] == dry.body["report"]
    version += 1
    timeline = web.get(f"/api/games/{game_id}/timeline?include_undone=1").body["entries"]
    assert any(entry["amends"] == target + 1 for entry in timeline)
    assert any(entry["undone"] for entry in timeline)

    # --- annotations (their own stream: the game version does not move) --------------------------------------
    note = web.post(
        f"/api/games/{game_id}/annotations",
        {
            "version": 5,
            "text": "Ben opens on the red bridge",
            "glyph": "!?",
            "target": {"kind": "bridge", "id": "coral"},
        },
        token=tokens[1],
    )
    assert note.status == 201 and note.body["author"] == "seat:1" and note.body["author_name"] == "Ben"
    teacher = web.post(
        f"/api/games/{game_id}/annotations", {"version": 9, "text": "too early"}, token=owner
    ).body
    path = f"/api/games/{game_id}/annotations/{note.body['id']}"
    assert web.patch(path, {"glyph": "!"}, token=tokens[1]).body["glyph"] == "!"
    assert web.get(path).body["text"] == "Ben opens on the red bridge"
    assert web.delete(f"/api/games/{game_id}/annotations/{teacher['id']}", token=owner).status == 204
    assert [n["id"] for n in web.get(f"/api/games/{game_id}/annotations").body["annotations"]] == [
        note.body["id"]
    ]
    assert web.game(game_id)["version"] == version

    # --- a branch ("what if") ----------------------------------------------------------------------------------
    fork = web.post(f"/api/games/{game_id}/forks", {"version": 20})
    assert fork.status == 201 and fork.body["game"]["parent"] == {"game_id": game_id, "version": 20}
    branch, branch_owner = fork.body["game"]["game_id"], fork.body["owner_token"]
    branch_listing = web.legal(branch)
    assert web.play(branch, branch_listing.body["moves"][0], branch_owner, branch_listing.etag).status == 201
    closed = web.post(
        f"/api/games/{branch}/abandon",
        {"reason": "enough"},
        token=branch_owner,
        if_match=branch_listing.etag + 1,
    )
    assert closed.status == 200 and closed.body["game"]["status"] == "abandoned"

    # --- the spectators' stream, resumed from a version --------------------------------------------------------
    events = read_stream(web, f"/api/games/{game_id}/stream?timeout=1", last_event_id=final)
    assert [(event["id"], event["event"]) for event in events] == [
        (str(final + 1), "MovesUndone"),
        (str(final + 2), "MovesRedone"),
        (str(final + 3), "MoveAmended"),
    ]

    # --- analysis: one position for a bot, and a game's analysis asked for and read -------------------------------
    position = dict(web.game(branch)["state"])
    catalog = web.get(f"/api/games/{branch}/catalog").body["catalog"]
    evaluated = web.post("/api/analyse", {"position": position, "catalog": catalog, "playouts": 4, "seed": 1})
    assert evaluated.status == 200 and evaluated.body["moves"]
    asked = web.post(f"/api/games/{game_id}/analysis", {}, token=owner, if_match="*")
    assert asked.status == 202, asked.body
    assert web.get(f"/api/games/{game_id}/analysis").body["run"]["total"] == asked.body["run"]["total"]

    # --- exports, and the import of the export ----------------------------------------------------------------
    exported = web.get(f"/api/games/{game_id}/export")
    assert exported.status == 200 and exported.etag == version
    text = web.get(f"/api/games/{game_id}/export?format=text").body
    assert "Club night" in text and "Ben opens on the red bridge" in text
    bgstats = web.get(f"/api/games/{game_id}/export?format=bgstats").body
    assert [p["name"] for p in bgstats["players"]] == ["Aiko", "Ben", "Chie", "Dai"]
    assert web.get(f"/api/games/{game_id}/export/text").body == text
    bgg = web.get(f"/api/games/{game_id}/export/bgg")
    assert bgg.headers["content-type"].startswith("text/xml") and 'objectid="371942"' in bgg.body
    imported = web.post("/api/games/import?new_id=1", exported.body)
    assert imported.status == 201
    copy = imported.body["game"]["game_id"]
    assert copy != game_id and imported.body["owner_token"] != owner
    assert web.game(copy)["state"] == web.game(game_id)["state"]
    assert (
        web.get(f"/api/games/{copy}/timeline").body["entries"]
        == web.get(f"/api/games/{game_id}/timeline").body["entries"]
    )
    assert web.get(f"/api/games/{copy}/export").body["events"] == exported.body["events"]
    assert (
        web.get(f"/api/games/{copy}/annotations").body["annotations"][0]["text"]
        == "Ben opens on the red bridge"
    )

    # --- players across games: the game and its imported copy, the same four names ---------------------------
    seats = web.get(f"/api/games/{copy}/players")
    assert [seat["player"] for seat in seats.body["seats"]] == ["Aiko", "Ben", "Chie", "Dai"]
    aiko, ben, dai = (seats.body["seats"][seat]["player_id"] for seat in (0, 1, 3))
    assert {p["name"] for p in web.get("/api/players?order=rating").body["players"]} >= {"Aiko", "Dai"}
    assert web.get(f"/api/players/{aiko}").body["record"]["games"] == 2
    listed = web.get(f"/api/players/{aiko}/games").body["games"]  # the abandoned branch listed, not counted
    assert sorted(game["status"] for game in listed) == ["abandoned", "finished", "finished"]
    assert web.get(f"/api/players/{aiko}/versus/{ben}").body["games_together"] == 2
    copy_owner = imported.body["owner_token"]
    linked = web.post(
        f"/api/games/{copy}/players", {"seat": 3, "name": "Dai T"}, token=copy_owner, if_match=seats.etag
    )
    assert linked.status == 200, linked.body
    typo = web.get(f"/api/games/{copy}/players").body["seats"][3]["player_id"]
    held = {"Game-Tokens": f"{copy}={copy_owner}"}
    merged = web.send(
        "POST",
        f"/api/players/{typo}/merge",
        {"into": dai},
        {**held, "If-Match": web.get(f"/api/players/{typo}").headers["etag"]},
    )
    assert merged.status == 200 and web.get(f"/api/players/{dai}").body["record"]["games"] == 2
    split = web.send(
        "POST",
        f"/api/players/{dai}/split",
        {"name": "Dai K", "seats": [{"game_id": copy, "seat": 3}]},
        {**held, "If-Match": web.get(f"/api/players/{dai}").headers["etag"]},
    )
    assert split.status == 200 and web.get(f"/api/players/{dai}").body["record"]["games"] == 1
    bgstats_file = {"players": [{"id": 1, "name": "aiko", "uuid": "0c5fa2a2-7b61-4f3c-9b8a-2a0f0c1d2e3f"}]}
    referred = web.send("POST", "/api/players/bgstats", {**bgstats_file, "plays": [], "games": []}, held)
    assert referred.status == 200 and referred.body["referred"][0]["player_id"] == aiko

    # --- the rest of the surface ----------------------------------------------------------------------------
    sheet = web.post(
        "/api/score-sheets", {"players": [{"name": "Eri", "cp": 40, "coins": 5}, {"name": "Fumi", "cp": 38}]}
    )
    assert sheet.status == 200 and [s["total"] for s in sheet.body["sheets"]] == [41, 38]
    assert web.delete(f"/api/games/{game_id}/seats/3/token", token=owner).status == 204
    refused = web.get(f"/api/games/{game_id}", tokens[3])
    assert refused.error() == (401, "unauthorized")
    assert web.get(refused.body["type"]).body["status"] == 401  # the problem type says what it means
    assert "stewards" in web.get(f"/api/games/{game_id}/catalog").body["catalog"]
    laid = web.get(f"/api/games/{game_id}/layout").body
    assert laid["complete"] and len(laid["layout"]["offer"]) == 5
    form = web.get("/api/games/layout-form?players=4").body
    assert [section["id"] for section in form["sections"]][:2] == ["dice", "stack"]
    entered = urllib.parse.quote(json.dumps({"castle": {"steward_1": "S4"}}))
    choices = web.get(f"/api/games/layout-choices?players=4&layout={entered}").body
    assert "S4" in choices["fields"]["castle.steward_1"] and "S4" not in choices["fields"]["castle.steward_2"]
    document = web.get("/api/openapi.json").body
    assert web.get("/api/docs").status == 200
    assert web.get("/healthz").status == 200
    documented = {
        (m, p)
        for p, item in document["paths"].items()
        for m in item
        if m in {"get", "post", "patch", "delete"}
    }
    assert documented - web.operations(document) == set()
    assert first["version"] == 2


def read_stream(web: RecordingClient, path: str, *, last_event_id: int) -> list[dict[str, str]]:
    """Read a whole (time-limited) event stream over HTTP; returns its events as fields."""
    web.calls.append(("GET", path.split("?", 1)[0]))
    request = urllib.request.Request(web.base_url + path, headers={"Last-Event-ID": str(last_event_id)})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.headers["Content-Type"].startswith("text/event-stream")
        text = response.read().decode()
    events = []
    for block in text.split("\n\n"):
        fields = dict(
            line.split(": ", 1)
            for line in block.splitlines()
            if line and not line.startswith(":") and ": " in line
        )
        if "data" in fields:
            json.loads(fields["data"])
            events.append(fields)
    return events


def test_refusals_write_nothing(web: RecordingClient) -> None:
    game_id, owner, game = web.create(["Aiko", "Ben"], seed=4)  # a game whose seat 0 moves first
    seat1 = web.post(f"/api/games/{game_id}/seats/1/token", token=owner).body["token"]
    move = web.legal(game_id).body["moves"][0]
    assert move["seat"] == 0
    illegal = web.play(game_id, {**move, "resource": "no-such-card"}, owner, 1)
    assert illegal.error() == (422, "illegal_move") and illegal.body["rule"].startswith("R-")
    assert web.play(game_id, move, "forged-token", 1).error() == (401, "unauthorized")
    assert web.post(f"/api/games/{game_id}/moves", move, if_match=1).error() == (401, "unauthorized")
    assert web.play(game_id, move, seat1, 1).error() == (403, "forbidden")
    assert web.game(game_id)["version"] == game["version"] == 1
    assert web.play(game_id, move, owner, 1).status == 201
    stale = web.play(game_id, web.legal(game_id).body["moves"][0], owner, 1)
    assert stale.error() == (412, "stale_version") and stale.body["details"]["current_version"] == 2
    assert web.game(game_id)["version"] == 2
    assert web.send("POST", "/api/games", b"{", {"Content-Type": "application/json"}).error() == (
        400,
        "invalid_request",
    )
    assert web.get("/api/nowhere").error() == (404, "not_found")


def test_a_spectator_sees_a_move_as_it_is_recorded(web: RecordingClient) -> None:
    game_id, owner, game = web.create(["Aiko", "Ben"], seed=8)
    seen: list[list[dict[str, str]]] = []
    spectator = threading.Thread(
        target=lambda: seen.append(
            read_stream(web, f"/api/games/{game_id}/stream?timeout=3", last_event_id=1)
        )
    )
    spectator.start()
    time.sleep(1)
    move = web.legal(game_id).body["moves"][0]
    assert web.play(game_id, move, owner, game["version"]).status == 201
    spectator.join(timeout=30)
    [events] = seen
    assert [(event["id"], event["event"]) for event in events] == [("2", "MovePlayed")]
    assert json.loads(events[0]["data"])["data"]["move"] == move


def test_a_solo_game_played_over_http_with_the_rival_moving_by_itself(web: RecordingClient) -> None:
    """R-SO01..R-SO06 end to end: one player against the hard rival, every move from legal-moves; the rival's
    turns come inside the player's moves, marked automatic in the timeline; the export imports back equal."""
    created = web.post("/api/games", {"players": ["Aiko"], "solo": "hard", "seed": 31})
    assert created.status == 201, created.body
    game_id, owner = created.body["game"]["game_id"], created.body["owner_token"]
    assert created.body["game"]["players"][1] == {"name": "Rival", "colour": "green", "automatic": True}
    played = web.play_random(game_id, owner, random.Random(31))
    assert played and all(move.get("seat") != 1 for move in played)
    game = web.game(game_id)
    assert game["over"] and game["state"]["solo"]["difficulty"] == "hard"
    entries = web.get(f"/api/games/{game_id}/timeline").body["entries"]
    rival = [entry["chance"][i] for entry in entries for i in entry["automatic_chance"]]
    # the rival's 9 turns (3 a round), each revealing one solo card or more; its first turn is in the opening
    assert sum("Rival (automatic) reveals SO" in line for line in rival) >= 8
    sheets = web.get(f"/api/games/{game_id}/score").body["sheets"]
    assert [sheet["player"] for sheet in sheets] == ["Aiko", "Rival"]
    assert sorted(sheet["rank"] for sheet in sheets) == [1, 2]
    exported = web.get(f"/api/games/{game_id}/export").body
    copy = web.post("/api/games/import?new_id=1", exported)
    assert copy.status == 201, copy.body
    assert copy.body["game"]["state"] == game["state"] and copy.body["game"]["solo"] == "hard"


@pytest.mark.parametrize("store", ["redis", "cluster"])
def test_a_spectator_on_redis_is_woken_by_the_move_not_by_polling(
    store: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """On Redis a stream sleeps until its game changes (replay.watch): with polling and heartbeats set to ten
    minutes, a move recorded through another server (on the cluster) reaches a stream opened for two minutes
    well within the 30 s this test waits. A stream that only polled would look again when it ends, two
    minutes later."""
    ten_minutes = {"HERONLOG_STREAM_POLL_SECONDS": "600", "HERONLOG_STREAM_HEARTBEAT_SECONDS": "600"}
    with serving(store, request, tmp_path, **ten_minutes) as servers:
        web = RecordingClient(servers[-1].url)
        game_id, owner, game = web.create(["Aiko", "Ben"], seed=8)
        opened = threading.Event()
        seen: list[dict[str, str]] = []

        def spectate() -> None:
            stream = urllib.request.urlopen(
                f"{servers[0].url}/api/games/{game_id}/stream?timeout=120", timeout=150
            )
            with stream:
                fields: dict[str, str] = {}
                for raw in stream:
                    line = raw.decode().rstrip("\n")
                    opened.set()  # the stream's first line: it has read the game and waits
                    if line:
                        name, _, value = line.partition(": ")
                        fields[name] = value
                    elif "event" in fields:
                        seen.append(fields)
                        return
                    else:
                        fields = {}

        spectator = threading.Thread(target=spectate, daemon=True)
        spectator.start()
        assert opened.wait(timeout=15)
        move = web.legal(game_id).body["moves"][0]
        assert web.play(game_id, move, owner, game["version"]).status == 201
        spectator.join(timeout=30)
        assert [(event["id"], event["event"]) for event in seen] == [("2", "MovePlayed")]
        assert json.loads(seen[0]["data"])["data"]["move"] == move


@pytest.mark.parametrize("store", ["sqlite", "redis"])
def test_a_spectator_who_leaves_gives_its_slot_back_before_the_next_heartbeat(
    store: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Each open stream holds one of the worker's stream slots. With two slots and heartbeats ten minutes apart,
    two spectators open a stream and close their tab: the server must notice they left (it looks at the
    socket while the stream waits) and answer the next stream, not hold both slots until a heartbeat's write
    fails."""
    quiet = {
        "HERONLOG_WORKERS": "1",
        "HERONLOG_STREAM_HEARTBEAT_SECONDS": "600",
        "HERONLOG_STREAM_MAX_OPEN": "2",
    }
    with serving(store, request, tmp_path, **quiet) as servers:
        served = servers[0]
        game_id, _, _ = RecordingClient(served.url).create(["Aiko", "Ben"], seed=8)
        host, port = served.url.removeprefix("http://").split(":")
        for _ in range(2):
            with socket.create_connection((host, int(port)), timeout=15) as tab:
                tab.sendall(
                    f"GET /api/games/{game_id}/stream?timeout=300 HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()
                )
                received = b""
                while b"retry:" not in received:  # the stream has begun: it waits for news
                    chunk = tab.recv(4096)
                    assert chunk, received
                    received += chunk
        # Both tabs are closed: a third stream is served once the server has noticed, long before a heartbeat.
        deadline = time.monotonic() + 20
        while True:
            tab, received = open_tab(served, f"/api/games/{game_id}/stream?timeout=300")
            tab.close()
            if received.startswith(b"HTTP/1.1 200"):
                break
            assert time.monotonic() < deadline, received
            time.sleep(0.5)


def test_streams_are_capped_and_give_their_slot_back(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    """One client may open stream after stream of a public game (no token needed). A worker holds at most
    `HERONLOG_STREAM_MAX_OPEN` at once (two here): the next are 503 too_many_streams at once, the API answers
    meanwhile, and a tab closed gives its slot back."""
    with serving("sqlite", request, tmp_path, HERONLOG_WORKERS="1", HERONLOG_STREAM_MAX_OPEN="2") as servers:
        served = servers[0]
        web = RecordingClient(served.url)
        game_id, owner, game = web.create(["Aiko", "Ben"], seed=8)
        path = f"/api/games/{game_id}/stream?timeout=300"
        tabs = [open_tab(served, path) for _ in range(6)]
        heads = [received.split(b"\r\n", 1)[0] for _, received in tabs]
        assert heads.count(b"HTTP/1.1 200 OK") == 2 and heads.count(b"HTTP/1.1 503 SERVICE UNAVAILABLE") == 4
        started = time.monotonic()
        move = web.legal(game_id).body["moves"][0]
        assert web.play(game_id, move, owner, game["version"]).status == 201
        assert time.monotonic() - started < 5
        for tab, _ in tabs:
            tab.close()
        deadline = time.monotonic() + 15
        while True:  # each closed stream notices its tab has gone within about a second
            tab, received = open_tab(served, path)
            tab.close()
            if received.startswith(b"HTTP/1.1 200"):
                break
            assert time.monotonic() < deadline, received
            time.sleep(0.5)
