"""The smaller ones, over real HTTP where the server's reading of a body matters:

* a chunked body over the size limit was ``400 "Invalid JSON body"``: it is ``413 payload_too_large``, as a
  body whose ``Content-Length`` says it is too long;
* a chunked ``text/plain`` body went past the check of the content type (it has no ``Content-Length``): it is
  refused like any other;
* ``If-Match`` is part of an idempotent write's fingerprint: a retry that expects another version is not a
  retry of the write recorded;
* an annotation's author is the token that wrote it, not whoever holds its seat later;
* ``/metrics`` can require a token (``HERONLOG_METRICS_TOKEN``)."""

from __future__ import annotations

import contextlib
import json
import socket
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from tests.api_helpers import ApiClient, http_transport
from tests.e2e.conftest import Served, serve
from tests.hostile.conftest import client_from, played_export

METRICS_TOKEN = "hostile-suite-metrics"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`heronlog serve` on SQLite, its metrics behind a token."""
    folder = tmp_path_factory.mktemp("hostile-http")
    env = {
        "HERONLOG_DATA": str(folder / "data"),
        "REDIS_URL": "",
        "HERONLOG_STORE": "",
        "HERONLOG_METRICS_TOKEN": METRICS_TOKEN,
    }
    yield from serve(folder, env)


def chunked(server: Served, path: str, chunks: list[bytes], content_type: str = "application/json") -> Any:
    """POST ``chunks`` with ``Transfer-Encoding: chunked`` on a raw connection; (status, JSON body)."""
    host, port = server.url.removeprefix("http://").split(":")
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: {content_type}\r\n"
        "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    ).encode()
    body = b"".join(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n" for chunk in chunks) + b"0\r\n\r\n"
    with socket.create_connection((host, int(port)), timeout=60) as connection:
        # the server may answer and close before reading it all: its answer is still there to read
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            connection.sendall(head + body)
        received = b""
        while True:
            try:
                data = connection.recv(65536)
            except ConnectionResetError:
                break
            if not data:
                break
            received += data
    status_line, _, rest = received.partition(b"\r\n")
    _, _, payload = rest.partition(b"\r\n\r\n")
    return int(status_line.split()[1]), json.loads(payload)


def test_a_chunked_body_over_the_size_limit_is_413(server: Served) -> None:
    games = server.get_json("/api/games")[1]["total"]
    status, body = chunked(server, "/api/games", [b'{"players": 2, "x": "', b"a" * (3 * 1024 * 1024), b'"}'])
    assert (status, body["error_code"]) == (413, "payload_too_large"), body
    assert server.get_json("/api/games")[1]["total"] == games
    # a chunked body within the limit is read as any other
    status, body = chunked(server, "/api/games", [b'{"players": ', b"2}"])
    assert status == 201, body


def test_a_chunked_text_body_is_refused_like_any_other(server: Served) -> None:
    games = server.get_json("/api/games")[1]["total"]
    status, body = chunked(server, "/api/games", [b'{"players": 2}'], content_type="text/plain")
    assert (status, body["error_code"]) == (400, "invalid_request"), body
    assert "Content-Type: application/json" in body["detail"]
    assert server.get_json("/api/games")[1]["total"] == games


def test_metrics_need_their_token_when_one_is_set(server: Served) -> None:
    def scrape(header: str | None) -> tuple[int, bytes]:
        request = urllib.request.Request(server.url + "/metrics")
        if header:
            request.add_header("Authorization", header)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    for header in (None, "Bearer wrong", f"Basic {METRICS_TOKEN}", f"Bearer {METRICS_TOKEN}x"):
        status, body = scrape(header)
        assert status == 401 and json.loads(body)["error_code"] == "unauthorized", header
    status, body = scrape(f"Bearer {METRICS_TOKEN}")
    assert status == 200 and b"heronlog" in body


def test_if_match_is_part_of_an_idempotent_write(server: Served) -> None:
    api = ApiClient(http_transport(server.url))
    game_id, token, _ = played_export(api, moves=1)
    legal = api.legal(game_id).body
    move, version = legal["moves"][0], legal["version"]
    first = api.play(game_id, move, token, version, key="table-7-move")
    assert first.status == 201
    again = api.play(game_id, move, token, version, key="table-7-move")
    assert again.status == 201 and again.headers.get("idempotent-replayed") == "true"
    assert again.raw == first.raw
    other = api.play(game_id, move, token, version - 1, key="table-7-move")
    assert other.error() == (422, "idempotency_key_reused")
    assert api.game(game_id)["version"] == version + 1


def test_an_annotation_s_author_is_its_token_not_the_seat_s_next_holder(
    sqlite_app: Flask, tmp_path: Path
) -> None:
    api = client_from(sqlite_app)
    game_id, owner, _ = played_export(api, moves=2)
    seat = f"/api/games/{game_id}/seats/1/token"
    first_holder = api.post(seat, {}, token=owner).body["token"]
    note = api.post(
        f"/api/games/{game_id}/annotations", {"version": 2, "text": "my plan"}, token=first_holder
    )
    assert note.status == 201 and note.body["author"] == "seat:1" and note.body["yours"] is True
    path = f"/api/games/{game_id}/annotations/{note.body['id']}"
    assert api.patch(path, {"text": "my plan, better"}, token=first_holder).status == 200
    next_holder = api.post(seat, {}, token=owner).body["token"]  # the seat changes hands

    assert api.patch(path, {"text": "not your plan"}, token=next_holder).error() == (403, "forbidden")
    assert api.delete(path, token=next_holder).error() == (403, "forbidden")
    assert api.get(path).body["text"] == "my plan, better"
    # the pages offer Edit and Delete only where the API says the token may change it
    assert api.get(path, token=next_holder).body["yours"] is False
    assert api.get(path, token=owner).body["yours"] is True
    assert api.get(path).body["yours"] is False
    listed = api.get(f"/api/games/{game_id}/annotations", token=next_holder).body["annotations"]
    assert [n["yours"] for n in listed if n["id"] == note.body["id"]] == [False]
    # what the next holder writes is theirs; the owner may change anything
    theirs = api.post(f"/api/games/{game_id}/annotations", {"version": 2, "text": "mine"}, token=next_holder)
    assert (
        api.patch(
            f"/api/games/{game_id}/annotations/{theirs.body['id']}", {"text": "mine!"}, token=next_holder
        ).status
        == 200
    )
    assert api.delete(path, token=owner).status == 204
