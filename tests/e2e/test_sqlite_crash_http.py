"""A create retried after a crash makes no second game, on SQLite. ``heronlog serve``'s worker is
killed (SIGKILL) in the middle of creating a game with an Idempotency-Key: after its receipt is kept and before
the game's events are written, or right after they are written and before any answer leaves. The client, which
got no answer, sends the same request again: there is exactly one game, the retry's answer is the first
attempt's (its id and its owner token, which works), and the list of games shows it once."""

from __future__ import annotations

import http.client
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.api_helpers import Answer, ApiClient, http_transport
from tests.e2e.test_faults_http import ROOT, served, until

SETUP = {"players": [{"name": "Aiko"}, {"name": "Ben"}], "title": "Crash at the club", "seed": 12}


def created_through_a_crash(tmp_path: Path, point: str) -> tuple[Answer, ApiClient]:
    hold_file = tmp_path / "held.pid"
    env = {
        "HERONLOG_STORE": "sqlite",
        "HERONLOG_DATA": str(tmp_path / "data"),
        "HERONLOG_TEST_HOLD_FILE": str(hold_file),
        "PYTHONPATH": str(ROOT),
        "HERONLOG_RATE_LIMIT_PER_ADDRESS": "0",
    }
    command = [
        sys.executable, "-m", "gunicorn", "--bind", "127.0.0.1:{port}", "--workers", "1", "--threads", "4",
        "--worker-class", "gthread", "tests.e2e.held_app:create()",
    ]  # fmt: skip
    with served(tmp_path, env, command=command) as server:
        api = ApiClient(http_transport(server.url, timeout=30))
        headers = {"Idempotency-Key": "create-once", "X-Test-Hold": point, "Content-Type": "application/json"}
        lost: list[BaseException] = []

        def first_try() -> None:
            try:
                api.send("POST", "/api/games", SETUP, headers)
            except (OSError, http.client.HTTPException) as error:
                lost.append(error)

        attempt = threading.Thread(target=first_try)
        attempt.start()
        until(hold_file.exists, 30, f"the creation held {point}")
        os.kill(int(hold_file.read_text()), signal.SIGKILL)
        attempt.join(timeout=30)
        assert lost, "the killed worker's client got no answer"
        answer: Answer | None = None
        deadline = time.monotonic() + 30
        while answer is None and time.monotonic() < deadline:
            try:
                answer = api.post("/api/games", SETUP, key="create-once")
            except (OSError, http.client.HTTPException):
                time.sleep(0.2)  # the master is still starting the new worker
        assert answer is not None, "no worker answered the retry"
        assert "was sent SIGKILL" in server.output()
        checks(api, answer)
        return answer, api


def checks(api: ApiClient, answer: Answer) -> None:
    assert answer.status == 201, answer.body
    game_id, token = answer.body["game"]["game_id"], answer.body["owner_token"]
    games = api.get("/api/games").body["games"]
    assert [game["game_id"] for game in games] == [game_id], "exactly one game"
    listing = api.legal(game_id, token)
    played = api.play(game_id, listing.body["moves"][0], token, listing.etag)
    assert played.status == 201, "the token handed to the retry owns the game"


@pytest.mark.timeout(120)
@pytest.mark.parametrize("point", ["create-before-commit", "create-after-commit"])
def test_a_create_retried_after_a_worker_crash_makes_exactly_one_game_on_sqlite(
    tmp_path: Path, point: str
) -> None:
    answer, _ = created_through_a_crash(tmp_path, point)
    # after the commit, the game was there: the retry was answered from the receipt, and wrote nothing
    assert (answer.headers.get("idempotent-replayed") == "true") is (point == "create-after-commit")
