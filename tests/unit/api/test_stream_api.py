"""The spectators' stream: server-sent events of each new event, resumable with Last-Event-ID."""

from __future__ import annotations

import json
import socket
from typing import Any

from flask.testing import FlaskClient

from api.app import create_app
from api.resources.stream import _departure_check
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport


def parse(text: str) -> list[dict[str, Any]]:
    """The events of an event-stream text (comments dropped)."""
    events = []
    for block in text.split("\n\n"):
        fields: dict[str, Any] = {}
        for line in block.splitlines():
            if line.startswith(":") or ":" not in line:
                continue
            name, _, value = line.partition(":")
            fields[name] = value.strip()
        if "data" in fields:
            fields["data"] = json.loads(fields["data"])
            events.append(fields)
    return events


def streamed(client: FlaskClient, path: str, **headers: str) -> tuple[str, str]:
    response = client.get(path, headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.mimetype, response.get_data(as_text=True)


def quick_app(**settings: float) -> tuple[FlaskClient, ApiClient]:
    """An app on the in-memory store whose streams look for news every 10 ms and end after 0.2 s, unless
    ``settings`` say otherwise."""
    app = create_app(
        {
            "STORE": StoreConfig(kind="memory"),
            "STREAM_POLL_SECONDS": 0.01,
            "STREAM_MAX_SECONDS": 0.2,
            **settings,
        }
    )
    client = app.test_client()
    return client, ApiClient(flask_transport(client))


def test_the_stream_sends_each_event_with_the_version_as_its_id() -> None:
    client, api = quick_app()
    game_id, token, _ = api.create(2, seed=5)
    for version in (1, 2):
        api.play(game_id, api.legal(game_id).body["moves"][0], token, version)
    mimetype, text = streamed(client, f"/api/games/{game_id}/stream?after=1")
    assert mimetype == "text/event-stream"
    events = parse(text)
    assert [(e["id"], e["event"]) for e in events] == [("2", "MovePlayed"), ("3", "MovePlayed")]
    assert events[0]["data"]["data"]["actor"] == "owner" and events[0]["data"]["version"] == 2
    assert text.startswith("retry: ")


def test_the_stream_resumes_after_last_event_id() -> None:
    client, api = quick_app()
    game_id, token, _ = api.create(2, seed=5)
    for version in (1, 2, 3):
        api.play(game_id, api.legal(game_id).body["moves"][0], token, version)
    _, text = streamed(client, f"/api/games/{game_id}/stream?after=1", **{"Last-Event-ID": "3"})
    assert [e["id"] for e in parse(text)] == ["4"]


def test_a_new_spectator_gets_only_new_events_and_heartbeats() -> None:
    client, api = quick_app(STREAM_MAX_SECONDS=0.1, STREAM_HEARTBEAT_SECONDS=0.02)
    game_id, token, _ = api.create(2, seed=5)
    api.play(game_id, api.legal(game_id).body["moves"][0], token, 1)
    _, text = streamed(client, f"/api/games/{game_id}/stream")
    assert parse(text) == []
    assert ": heartbeat" in text


def test_the_stream_of_a_private_game_needs_a_token_and_bad_resume_points_are_400() -> None:
    _client, api = quick_app()
    game_id, token, _ = api.create(2, private=True)
    assert api.get(f"/api/games/{game_id}/stream").error() == (401, "unauthorized")
    assert api.get(f"/api/games/{game_id}/stream", token).status == 200
    bad = api.get(f"/api/games/{game_id}/stream", token, **{"Last-Event-ID": "yesterday"})
    assert bad.error() == (400, "invalid_request")
    assert api.get(f"/api/games/{game_id}/stream?timeout=-1", token).error() == (400, "invalid_request")


def test_an_open_stream_of_a_private_game_ends_when_its_token_is_withdrawn() -> None:
    """A withdrawn or replaced token stops working everywhere, an event stream already open with it too: the
    stream sends nothing more and ends (its reconnection is then 401). It served every event until its
    timeout (up to 300 s) before."""
    client, api = quick_app()
    game_id, owner, _ = api.create(2, seed=5, private=True)
    seat = api.post(f"/api/games/{game_id}/seats/0/token", {}, token=owner).body["token"]
    watching = client.get(f"/api/games/{game_id}/stream", headers={"Authorization": f"Bearer {seat}"})
    assert watching.status_code == 200  # opened with a working token; its events are produced as it is read
    assert api.delete(f"/api/games/{game_id}/seats/0/token", token=owner).status == 204
    api.play(game_id, api.legal(game_id, owner).body["moves"][0], owner, 1)
    assert parse(watching.get_data(as_text=True)) == []
    assert api.get(f"/api/games/{game_id}/stream", seat).error() == (401, "unauthorized")
    # the owner's stream, whose token still works, gets the move
    _, text = streamed(client, f"/api/games/{game_id}/stream?after=1", Authorization=f"Bearer {owner}")
    assert [e["id"] for e in parse(text)] == ["2"]


def test_streams_beyond_the_processs_cap_are_503_and_a_closed_one_gives_its_slot_back() -> None:
    """Each open stream holds a thread: 40 streams opened by one client of a public game (no token needed)
    held every thread of a served process, and every other request, moves included, waited (found by the
    security review). Beyond ``STREAM_MAX_OPEN`` a stream is refused with 503 and Retry-After (the page tries
    again later, as after any 5xx); a stream closed gives its slot back, started or not."""
    client, api = quick_app(STREAM_MAX_SECONDS=0.05, STREAM_MAX_OPEN=2)
    game_id, _, _ = api.create(2, seed=5)
    path = f"/api/games/{game_id}/stream"
    held = [client.get(path) for _ in range(2)]  # open, not read: each holds its slot
    assert [response.status_code for response in held] == [200, 200]
    refused = api.get(path)
    assert refused.error() == (503, "too_many_streams")
    assert refused.headers["retry-after"] == "5"
    assert api.get(f"/api/games/{game_id}").status == 200  # the rest of the API is not held up
    held[0].close()  # closed before it was read: its slot is free again
    read = client.get(path)
    assert read.get_data(as_text=True).startswith("retry: ")
    read.close()  # read to its end, then closed, as a server closes every answer
    assert [client.get(path).status_code for _ in range(2)] == [200, 503]


def test_a_stream_sees_its_client_leave_by_the_socket_the_server_hands_over() -> None:
    ours, theirs = socket.socketpair()
    with ours:
        departed = _departure_check({"gunicorn.socket": ours})
        assert departed() is False  # connected, nothing sent
        theirs.sendall(b"GET /next HTTP/1.1\r\n\r\n")  # a pipelined request is no departure
        assert departed() is False
        theirs.close()
        assert departed() is False  # what was sent is still to be read
        ours.recv(100)
        assert departed() is True
    assert _departure_check({})() is False  # a server that hands no socket over: never known to have left
