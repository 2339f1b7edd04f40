"""What each request sends Redis, on a game this worker keeps warm: every request reads its game once (the write
guard's count reads it for a write, in the same script), and each endpoint's commands are counted here with
MONITOR, exactly, so a read added on any path fails a test. A pipeline's commands are listed one by one (they
travel in one round trip): the test says where one is sent."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask

from replay.store.errors import OutcomeUnknownError
from tests.api_helpers import Answer, ApiClient, flask_transport
from tests.integration.api.test_limits_redis import two_apps
from tests.integration.api.test_read_ahead_redis import sent_by_clients
from tests.unit.api.test_observability import scrape


@pytest.fixture
def app(redis_url: str, no_snapshot_due: None) -> Flask:
    return two_apps(
        redis_url, RATE_LIMIT_PER_TOKEN=1000, RATE_LIMIT_PER_ADDRESS=1000, RATE_LIMIT_WINDOW=10**9
    )[0]


@pytest.fixture
def api(app: Flask) -> ApiClient:
    return ApiClient(flask_transport(app.test_client()))


@pytest.fixture
def prefix(app: Flask) -> str:
    """The app's key prefix: the commands counted are those naming it, not those of another test's threads."""
    return str(app.config["STORE"].redis_prefix)


def warm_game(api: ApiClient) -> tuple[str, str, int]:
    """A seeded game of two with three moves played and a comment written, read once since (all warm)."""
    game_id, owner, _ = api.create(2, seed=11)
    for number in range(3):  # with keys, as the pages send them: every script is loaded once here
        listing = api.legal(game_id, owner)
        answer = api.play(game_id, listing.body["moves"][0], owner, listing.etag, key=f"warm-{number}")
        assert answer.status == 201
    assert (
        api.post(f"/api/games/{game_id}/annotations", {"version": 2, "text": "hm"}, token=owner).status == 201
    )
    version = api.legal(game_id, owner).etag
    return game_id, owner, version


def sent(redis_url: str, prefix: str, request: Callable[[], Answer], status: int) -> list[str]:
    answers: list[Answer] = []
    commands = sent_by_clients(redis_url, lambda: answers.append(request()), about=prefix)
    assert answers[0].status == status, answers[0].body
    return commands


# Each endpoint, and the commands its request sends on a warm game (the token sent with every request).
COUNT_AND_READ = ["EVALSHA"]  # the write guard's count with the read of the game and its grants, one script
APPEND = ["EVALSHA"]  # the write's events, with their version check, one script
READ_GAME = ["EVALSHA"]  # the game and its grants brought up to date, one script
ONE_TRIP = ["EVALSHA"]  # a move: what it was decided on checked, counted and appended, one script


def test_a_move_on_a_warm_game_is_counted_checked_and_appended_in_one_round_trip(
    api: ApiClient, redis_url: str, prefix: str
) -> None:
    game_id, owner, version = warm_game(api)
    move = api.legal(game_id, owner).body["moves"][0]
    commands = sent(redis_url, prefix, lambda: api.play(game_id, move, owner, version, key="m-1"), 201)
    assert commands == ONE_TRIP


def test_without_one_trip_moves_a_move_reads_its_game_once_with_its_count(
    redis_url: str, no_snapshot_due: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REDIS_ONE_TRIP_MOVES", "no")
    app = two_apps(
        redis_url, RATE_LIMIT_PER_TOKEN=1000, RATE_LIMIT_PER_ADDRESS=1000, RATE_LIMIT_WINDOW=10**9
    )[0]
    api = ApiClient(flask_transport(app.test_client()))
    game_id, owner, version = warm_game(api)
    move = api.legal(game_id, owner).body["moves"][0]
    prefix = str(app.config["STORE"].redis_prefix)
    commands = sent(redis_url, prefix, lambda: api.play(game_id, move, owner, version, key="m-1"), 201)
    assert commands == [*COUNT_AND_READ, *APPEND]


def test_an_undo_reads_its_game_once_with_its_count(api: ApiClient, redis_url: str, prefix: str) -> None:
    game_id, owner, version = warm_game(api)
    undo = lambda: api.post(f"/api/games/{game_id}/undo", {}, token=owner, if_match=version, key="u-1")  # noqa: E731
    assert sent(redis_url, prefix, undo, 200) == [*COUNT_AND_READ, *APPEND]


def test_an_amendment_reads_its_game_once_with_its_count(api: ApiClient, redis_url: str, prefix: str) -> None:
    game_id, owner, version = warm_game(api)
    before = api.get(f"/api/games/{game_id}/legal-moves?before=2", owner).body
    other = next(move for move in before["moves"] if move != before["recorded"])
    body = {"version": 2, "move": other}
    amend = lambda: api.post(f"/api/games/{game_id}/amend", body, token=owner, if_match=version, key="a-1")  # noqa: E731
    assert sent(redis_url, prefix, amend, 200) == [*COUNT_AND_READ, *APPEND]


def test_a_creation_is_counted_and_saved(api: ApiClient, redis_url: str, prefix: str) -> None:
    warm_game(api)  # every connection and script of a creation made once
    create = lambda: api.post("/api/games", {"players": 2, "seed": 3})  # noqa: E731
    # the count (a pipeline: INCRBY, EXPIRE), the list's next position, the game with its list entry and
    # its owner grant, the list's summary of it, its players' facts
    assert sent(redis_url, prefix, create, 201) == [
        "INCRBY",
        "EXPIRE",
        "EVALSHA",
        "EVALSHA",
        "EVALSHA",
        "EVALSHA",
    ]


@pytest.mark.parametrize(
    ("path", "after"),
    [
        ("/states/{v}", []),
        ("/timeline", []),
        ("/legal-moves", []),
        ("/annotations", ["EVALSHA"]),  # the annotation stream, brought up to date
        ("/export", ["EVALSHA"]),  # the annotation events and the game's events, together
    ],
)
def test_a_read_reads_its_game_once(
    api: ApiClient, redis_url: str, prefix: str, path: str, after: list[str]
) -> None:
    game_id, owner, version = warm_game(api)
    url = f"/api/games/{game_id}" + path.format(v=version - 1)
    assert sent(redis_url, prefix, lambda: api.get(url, owner), 200) == [*READ_GAME, *after]


def test_an_annotation_is_counted_with_its_game_read_then_its_stream_read_and_saved(
    api: ApiClient, redis_url: str, prefix: str
) -> None:
    game_id, owner, _ = warm_game(api)
    body: dict[str, Any] = {"version": 2, "text": "again"}
    write = lambda: api.post(f"/api/games/{game_id}/annotations", body, token=owner, key="n-1")  # noqa: E731
    assert sent(redis_url, prefix, write, 201) == [*COUNT_AND_READ, "EVALSHA", *APPEND]


def test_a_games_last_move_keeps_its_players_facts_and_leaves_the_ratings_to_the_next_read(
    api: ApiClient, redis_url: str, prefix: str
) -> None:
    """A game's last move: its one trip (checked, counted and appended), then the list's summary and the players'
    facts, kept in one change from those this worker kept at the game's creation (their stamp guarding them); the
    ratings are not worked out in it (docs/api/players.md): the next read of the players does that, and sees the
    game rated."""
    warm_game(api)
    played = api.play_random(*api.create(2, seed=5)[:2], random.Random(5))
    game_id, owner, game = api.create(2, seed=5)  # the same game again, up to its last move
    version = game["version"]
    for move in played[:-1]:
        answer = api.play(game_id, move, owner, version)
        assert answer.status == 201, answer.body
        version = answer.etag
    last = lambda: api.play(game_id, played[-1], owner, version, key="last")  # noqa: E731
    summary_and_facts = ["EVALSHA", "EVALSHA"]
    assert sent(redis_url, prefix, last, 201) == [*ONE_TRIP, *summary_and_facts]
    rated = api.get("/api/players?order=rating").body["players"]
    assert [player["rating"]["games"] for player in rated if player["rating"]] == [2, 2]


def test_a_move_decided_on_a_game_another_worker_moved_on_is_refused_then_made_the_ordinary_way(
    redis_url: str, no_snapshot_due: None
) -> None:
    """The client's version is this worker's too, and both are behind: the one-trip script refuses the move
    (writing and counting nothing), and the ordinary write reads the game and answers as it always did."""
    apps = two_apps(redis_url, RATE_LIMIT_PER_TOKEN=1000, RATE_LIMIT_WINDOW=10**9)
    first, second = (ApiClient(flask_transport(app.test_client())) for app in apps)
    game_id, owner, version = warm_game(first)
    move = first.legal(game_id, owner).body["moves"][0]
    assert second.play(game_id, move, owner, version, key="k-1").status == 201
    late = lambda: first.play(game_id, move, owner, version, key="k-2")  # noqa: E731
    prefix = str(apps[0].config["STORE"].redis_prefix)
    assert sent(redis_url, prefix, late, 412) == [*ONE_TRIP, *COUNT_AND_READ]
    assert first.legal(game_id, owner).etag == version + 1, "one move stored, the other worker's"
    trips = {
        labels: value
        for (name, labels), value in scrape(first).items()
        if name == "heronlog_one_trip_moves_total"
    }
    assert trips == {(("outcome", "stored"),): 3, (("outcome", "made_again"),): 1}, "warm_game's moves stored"


def test_a_refused_move_is_counted_once(api: ApiClient) -> None:
    """A refused move (a kind of move the game does not know) is refused as held, then made again the ordinary way
    and counted there: once."""
    game_id, owner, version = warm_game(api)
    listing = api.legal(game_id, owner)
    played = api.play(game_id, listing.body["moves"][0], owner, version)
    assert played.status == 201
    remaining = int(played.headers["ratelimit-remaining"])
    refused = api.play(game_id, {"kind": "no-such-move"}, owner, played.etag)
    assert refused.status == 400 and int(refused.headers["ratelimit-remaining"]) == remaining - 1
    again = api.play(game_id, played.body["legal_moves"]["moves"][0], owner, played.etag)
    assert again.status == 201 and int(again.headers["ratelimit-remaining"]) == remaining - 2


def test_a_one_trip_move_whose_outcome_is_unknown_is_never_made_again(
    api: ApiClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store took the move but its reply was lost, and it cannot tell: the answer is 503, as the ordinary way
    gives. Made again, the move (sent without a key) would be refused as stale, 412, though it is stored."""
    game_id, owner, version = warm_game(api)
    (store,) = app.extensions["heronlog"].get().log.stores.all
    recorder = store.recorder
    real = recorder._append_counted

    def taken_then_lost(stored_events: Any, counted: Any) -> Any:
        real(stored_events, counted)
        counted.appended, counted.count = False, None  # its reply never reached this process
        raise OutcomeUnknownError("no reply, and the server cannot tell")

    monkeypatch.setattr(recorder, "_append_counted", taken_then_lost)
    move = api.legal(game_id, owner).body["moves"][0]
    assert api.play(game_id, move, owner, version).error()[0] == 503
    monkeypatch.undo()
    assert api.legal(game_id, owner).etag == version + 1, "stored once"


def test_a_one_trip_move_whose_lost_reply_is_found_stored_is_answered_and_counted_once(
    api: ApiClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id, owner, version = warm_game(api)
    played = api.play(game_id, api.legal(game_id, owner).body["moves"][0], owner, version)
    remaining = int(played.headers["ratelimit-remaining"])
    (store,) = app.extensions["heronlog"].get().log.stores.all
    datastore = store.recorder.datastore
    real, lost = datastore.write_script, []

    def reply_lost_once(*args: Any) -> Any:
        answer = real(*args)
        if not lost:
            lost.append(True)
            raise OutcomeUnknownError("no reply")
        return answer

    monkeypatch.setattr(datastore, "write_script", reply_lost_once)
    again = api.play(game_id, played.body["legal_moves"]["moves"][0], owner, played.etag)
    monkeypatch.undo()
    assert lost and again.status == 201 and again.etag == played.etag + 1
    assert int(again.headers["ratelimit-remaining"]) == remaining - 1, "counted once, by its script"
