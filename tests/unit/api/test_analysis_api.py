"""Computer analysis over HTTP on the in-memory store (its jobs run in threads of the app's process): asking for
a game's analysis, reading it as it comes, its marks and staleness, and one position evaluated for bots."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from flask import Flask

import domain
from tests.api_helpers import ApiClient


@pytest.fixture
def app() -> Any:
    from api.app import create_app
    from replay.config import StoreConfig

    yield create_app({"STORE": StoreConfig(kind="memory"), "TESTING": True, "ANALYSIS_PLAYOUTS": 12})


def played_game(api: ApiClient, moves: int = 14, players: int = 2) -> tuple[str, str]:
    game_id, token, _ = api.create(players, seed=5)
    api.play_random(game_id, token, random.Random(3), limit=moves)
    return game_id, token


def finished(api: ApiClient, game_id: str, token: str | None = None, seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        answer = api.get(f"/api/games/{game_id}/analysis", token)
        assert answer.status == 200, answer.body
        if answer.body["status"] == "finished" or time.monotonic() > deadline:
            return dict(answer.body)
        time.sleep(0.05)


def test_an_analysis_covers_every_decision_of_the_line_with_its_error(api: ApiClient) -> None:
    game_id, token = played_game(api)
    version = api.game(game_id)["version"]
    asked = api.post(f"/api/games/{game_id}/analysis", {}, token=token, if_match=version)
    assert asked.status == 202, asked.body
    assert asked.headers["location"] == f"/api/games/{game_id}/analysis"
    assert asked.body["run"]["total"] == 14
    body = finished(api, game_id)
    assert body["status"] == "finished" and body["stale"] is None
    assert body["run"]["evaluated"] == 14 and body["run"]["playouts"] == 12
    for decision in body["decisions"]:
        assert decision["status"] == "evaluated"
        best, played = decision["best"], decision["played"]
        assert best["playouts"] >= 2 and best["margin_se"] >= 0 and 0 <= best["win"] <= 1
        assert played is not None and played["playouts"] >= 2 and played["cost_se"] >= 0
        assert decision["note"]["text"].startswith("Computer analysis")
        assert decision["moves"][0]["cost"] == 0


def test_asking_again_for_the_same_line_answers_the_same_analysis(api: ApiClient) -> None:
    game_id, token = played_game(api, moves=4)
    first = api.post(f"/api/games/{game_id}/analysis", {}, token=token, if_match="*")
    again = api.post(f"/api/games/{game_id}/analysis", {}, token=token, if_match="*")
    assert (first.status, again.status) == (202, 200)
    assert first.body["run"]["number"] == again.body["run"]["number"]


def test_one_analysis_runs_at_a_time_per_game(app: Flask, api: ApiClient) -> None:
    game_id, token = played_game(api, moves=4)
    service = app.extensions["heronlog.analysis"].get()
    service.queue.send = lambda jobs: None  # nobody takes the jobs: the first run stays under way
    api.post(f"/api/games/{game_id}/analysis", {}, token=token, if_match="*")
    legal = api.legal(game_id, token)
    api.play(game_id, legal.body["moves"][0], token, legal.etag)
    refused = api.post(f"/api/games/{game_id}/analysis", {}, token=token, if_match="*")
    assert refused.error() == (409, "analysis_running")


def test_an_undo_makes_the_analysis_stale_and_a_new_one_may_be_asked(api: ApiClient) -> None:
    game_id, token = played_game(api, moves=5)
    api.post(f"/api/games/{game_id}/analysis", {}, token=token, if_match="*")
    assert finished(api, game_id)["stale"] is None
    version = api.game(game_id)["version"]
    undone = api.post(f"/api/games/{game_id}/undo", {}, token=token, if_match=version)
    assert undone.status in (200, 201), undone.body
    stale = finished(api, game_id)
    assert stale["stale"] and "corrected or undone" in stale["stale"]
    renewed = api.post(f"/api/games/{game_id}/analysis", {}, token=token, if_match="*")
    assert renewed.status == 202 and renewed.body["run"]["number"] > stale["run"]["number"]


def test_asking_needs_a_token_and_the_current_version(api: ApiClient) -> None:
    game_id, token = played_game(api, moves=3)
    assert api.post(f"/api/games/{game_id}/analysis", {}).error() == (401, "unauthorized")
    assert api.post(f"/api/games/{game_id}/analysis", {}, token=token).error() == (
        428,
        "precondition_required",
    )
    assert api.post(f"/api/games/{game_id}/analysis", {}, token=token, if_match=1).error() == (
        412,
        "stale_version",
    )
    too_few = api.post(f"/api/games/{game_id}/analysis", {"playouts": 1}, token=token, if_match="*")
    assert too_few.error() == (400, "invalid_request")


def test_a_game_with_no_decision_has_nothing_to_analyse(api: ApiClient) -> None:
    game_id, token, _ = api.create(2, seed=5)
    answer = api.post(f"/api/games/{game_id}/analysis", {}, token=token, if_match="*")
    assert answer.error() == (409, "nothing_to_analyse")
    assert api.get(f"/api/games/{game_id}/analysis").body["status"] == "none"


def position_of(seed: int = 7, moves: int = 12) -> dict[str, Any]:
    state = domain.new_game(2, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state = domain.apply(state, rng.choice(domain.legal_moves(state)))
    return domain.state_to_dict(state)


def test_a_bot_gets_every_legal_move_of_a_position_evaluated(api: ApiClient) -> None:
    position = position_of()
    answer = api.post("/api/analyse", {"position": position, "playouts": 20, "seed": 3})
    assert answer.status == 200, answer.body
    legal = domain.legal_moves(domain.state_from_dict(position))
    assert sorted(map(str, (move["move"] for move in answer.body["moves"]))) == sorted(map(str, legal))
    assert answer.body["playouts"] >= 20 and answer.body["moves"][0]["words"]
    assert api.post("/api/analyse", {"position": position, "playouts": 20, "seed": 3}).body == answer.body
    assert "ratelimit-remaining" in answer.headers


def test_a_position_sent_without_its_catalog_takes_the_one_sent_beside_it(api: ApiClient) -> None:
    position = position_of()
    catalog = position.pop("catalog")
    assert api.post("/api/analyse", {"position": position}).error() == (400, "invalid_position")
    assert api.post("/api/analyse", {"position": position, "catalog": catalog, "playouts": 4}).status == 200


def test_what_is_no_position_is_refused_never_a_500(api: ApiClient) -> None:
    assert api.post("/api/analyse", {"position": {"hello": 1}}).error() == (400, "invalid_position")
    broken = position_of()
    broken["stack"] = [{"frame": "nonsense"}]
    assert api.post("/api/analyse", {"position": broken}).error()[0] in (400, 422)
    over = domain.new_game(2, seed=2, mode="table", draw=False)
    answer = api.post("/api/analyse", {"position": domain.state_to_dict(over)})
    assert answer.error() == (422, "nothing_to_evaluate")


def test_a_bot_analysis_weighs_its_playouts_in_the_rate_limit(app: Flask, api: ApiClient) -> None:
    app.config.update(RATE_LIMIT_PER_ADDRESS=10, ANALYSE_PLAYOUTS_PER_WRITE=10, ANALYSE_MAX_PLAYOUTS=2000)
    answer = api.post("/api/analyse", {"position": position_of(), "playouts": 200})
    assert answer.error() == (429, "rate_limited")
    assert answer.body["details"]["weight"] == 20


def test_the_event_stream_carries_the_progress_of_an_analysis_under_way(app: Flask, api: ApiClient) -> None:
    from tests.unit.api.test_stream_api import parse

    app.config.update(STREAM_POLL_SECONDS=0.02)
    game_id, token = played_game(api, moves=6)
    service = app.extensions["heronlog.analysis"].get()
    sent: list[Any] = []
    service.queue.send = sent.extend  # the jobs are run below, one at a time, while the stream is open
    version = api.game(game_id)["version"]
    api.post(f"/api/games/{game_id}/analysis", {}, token=token, if_match=version)
    for job in sent[:2]:
        service.run_job(job)
    client = app.test_client()
    text = client.get(f"/api/games/{game_id}/stream?after={version}&timeout=0.3").get_data(as_text=True)
    progress = [event for event in parse(text) if event.get("event") == "AnalysisProgressed"]
    assert progress and progress[0]["data"] == {
        "run": 1,
        "status": "running",
        "evaluated": 2,
        "failed": 0,
        "total": 6,
    }
    assert "id" not in progress[0], "a progress event is no game version: resuming is by the game's versions"
    for job in sent[2:]:
        service.run_job(job)
    finished_text = client.get(f"/api/games/{game_id}/stream?after={version}&timeout=0.1").get_data(
        as_text=True
    )
    assert not [e for e in parse(finished_text) if e.get("event") == "AnalysisProgressed"]


def test_a_bot_analysis_runs_at_most_the_servers_playouts(app: Flask, api: ApiClient) -> None:
    """A request asking for more playouts than ``ANALYSE_MAX_PLAYOUTS`` gets that many: its CPU stays within
    about 100 normal moves, and it weighs what it runs."""
    app.config.update(ANALYSE_MAX_PLAYOUTS=24, ANALYSE_MAX_SECONDS=60)
    answer = api.post("/api/analyse", {"position": position_of(), "playouts": 100_000, "seed": 1})
    assert answer.status == 200, answer.body
    assert answer.body["playouts"] <= 24 + len(answer.body["moves"])
