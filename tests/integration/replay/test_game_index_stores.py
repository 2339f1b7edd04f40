"""The list of games on every store: the same archive answers the same pages on memory, SQLite, Redis
and three Redis Cluster shards; an archive written before the list was a read model is projected on its first
page (twice at once, harmlessly); paging by cursor stays stable while other writers create games."""

from __future__ import annotations

import random
import threading
import uuid
from pathlib import Path
from typing import Any

import pytest
import redis

from replay import index
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.index import Key
from tests.replay_helpers import open_store, play_random

KINDS = ["memory", "sqlite", "redis", "shards"]
NAMES = ["Aiko", "Ann", "Anna", "Ben", "Bo", "Chie", "Chieko", "Dai", "Éric", "Ｆｕｍｉ"]
QUERIES = [
    None,
    "a",
    "an",
    "ann",
    "chie",
    "club",
    "club an",
    "night 1",
    "ｃｈｉｅ",
    "éric",
    "zz",
    "b",
    "table b",
]


def open_kind(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, prefix: str | None = None
) -> GameLog:
    if kind == "shards":
        url = request.getfixturevalue("cluster_url")
        config = StoreConfig(
            kind="redis", redis_url=url, redis_prefix=prefix or f"list-{uuid.uuid4().hex[:10]}", shards=3
        )
        return open_log(config)
    if kind == "redis" and prefix is not None:
        url = request.getfixturevalue("redis_url")
        return open_log(StoreConfig(kind="redis", redis_url=url, redis_prefix=prefix))
    return open_store(kind, tmp_path, request.getfixturevalue("redis_url") if kind == "redis" else None)


def archive(log: GameLog, count: int = 30) -> None:
    """A small club archive, the same on every store (titles and players from a seeded draw)."""
    rng = random.Random(4)
    for number in range(count):
        players = rng.sample(NAMES, 3)
        kind = rng.choice(["Club night", "Table", "Home"])
        setup = {"players": players, "seed": number, "title": f"{kind} {number}", "private": number % 7 == 3}
        game_id = log.create_game(setup).game_id
        if number % 5 == 0:
            list(play_random(log, game_id, 3, rng))
        if number % 9 == 4:
            log.abandon(game_id, expected_version=log.get(game_id).version, actor="owner")


def every_page(log: GameLog, search: str | None, limit: int) -> list[tuple[list[str], int, bool]]:
    """Every page of a search, by cursor, then back to the first by the pages' "newer" cursors: (titles,
    total, complete) each."""
    pages = []
    after: Key | None = None
    while True:
        page = log.page_of_games(search=search, limit=limit, after=after)
        pages.append(([summary.title for summary in page.summaries], page.total, page.complete))
        if page.older is None:
            break
        after = page.older
    while page.newer is not None:
        page = log.page_of_games(search=search, limit=limit, before=page.newer)
        pages.append(([summary.title for summary in page.summaries], page.total, page.complete))
    return pages


@pytest.mark.parametrize("kind", KINDS)
def test_every_store_answers_every_page_alike(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = open_kind("memory", tmp_path / "memory", request)
    log = open_kind(kind, tmp_path, request)
    archive(expected)
    archive(log)
    for capped in (False, True):
        if capped:
            if kind == "shards":
                break  # each shard scans its own newest games: a cut-short search differs, by design
            monkeypatch.setattr(index, "SEARCH_CAP", 6)
            monkeypatch.setattr(index, "EXPANSION_MAX", 2)
        for query in QUERIES:
            for limit in (4, 50):
                assert every_page(log, query, limit) == every_page(expected, query, limit), (
                    query,
                    limit,
                    capped,
                )
    summaries = {summary.title: summary for summary in log.list_games(limit=200)}
    for summary in expected.list_games(limit=200):
        theirs = summaries[summary.title]
        assert (theirs.status, theirs.round, theirs.version, theirs.players) == (
            summary.status,
            summary.round,
            summary.version,
            summary.players,
        )
    log.close()
    expected.close()


@pytest.mark.parametrize("kind", KINDS)
def test_a_search_right_after_a_creation_finds_the_new_game(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    log = open_kind(kind, tmp_path, request)
    log.create_game({"players": ["Aiko", "Ben"], "seed": 1, "title": "Club night"})
    assert [summary.title for summary in log.page_of_games(search="club").summaries] == ["Club night"]
    log.create_game({"players": ["Chie", "Dai"], "seed": 2, "title": "Club lunch"})
    assert [summary.title for summary in log.page_of_games(search="lunch").summaries] == ["Club lunch"]
    assert log.page_of_games(search="club chie").total == 1 and log.page_of_games(search="zzz").total == 0
    log.close()


def drop_projection(log: GameLog, kind: str) -> None:
    """Forget the list's projection, as an archive written before it existed has none."""
    for store in log.stores:
        recorder: Any = store.recorder
        if kind in ("redis", "shards"):
            client = recorder.datastore.client
            for key in list(client.scan_iter(match=f"{recorder.tag}:view:games:*", count=1000)):
                client.delete(key)
        else:
            with recorder.datastore.transaction(commit=True) as cursor:
                for table in ("games", "game_summaries", "game_words", "words", "listings"):
                    cursor.execute(f"DROP TABLE heronlog_{table}")


@pytest.mark.parametrize("kind", ["sqlite", "redis", "shards"])
def test_an_archive_without_the_projection_is_projected_on_its_first_page_even_twice_at_once(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    prefix = f"migrate-{uuid.uuid4().hex[:10]}"
    first = open_kind(kind, tmp_path, request, prefix)
    archive(first)
    wanted = every_page(first, None, 5), every_page(first, "an", 3), every_page(first, "club", 50)
    drop_projection(first, kind)
    first.close()
    # Two processes open the old archive and answer their first pages at the same moment.
    logs = [open_kind(kind, tmp_path, request, prefix) for _ in range(2)]
    results: list[Any] = [None, None]
    start = threading.Barrier(2)

    def read(number: int) -> None:
        start.wait()
        results[number] = logs[number].page_of_games(limit=5)

    threads = [threading.Thread(target=read, args=(number,)) for number in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(result is not None and result.total == 26 for result in results)
    for log in logs:
        got = every_page(log, None, 5), every_page(log, "an", 3), every_page(log, "club", 50)
        assert got == wanted, "the same pages, totals and word counts: projected once, however many ran"
    assert [summary.status for summary in logs[0].list_games(limit=200)].count("abandoned") == 3
    for log in logs:
        log.close()


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_paging_by_cursor_is_stable_while_another_writer_creates_games(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    prefix = f"stable-{uuid.uuid4().hex[:10]}"
    log = open_kind(kind, tmp_path, request, prefix)
    other = open_kind(kind, tmp_path, request, prefix) if kind == "redis" else log  # one SQLite process
    existing = [
        str(log.create_game({"players": 2, "seed": n, "title": f"Old {n}"}).game_id) for n in range(25)
    ]
    stop = threading.Event()
    created: list[str] = []

    def create() -> None:
        while not stop.is_set():
            created.append(str(other.create_game({"players": 2, "seed": 1, "title": "New"}).game_id))

    writer = threading.Thread(target=create)
    writer.start()
    try:
        seen: list[Any] = []
        after: Key | None = None
        while True:
            page = log.page_of_games(limit=4, after=after)
            seen += page.summaries
            if page.older is None:
                break
            after = page.older
    finally:
        stop.set()
        writer.join()
    ids = [summary.game_id for summary in seen]
    assert len(ids) == len(set(ids)), "no game twice"
    assert [summary.key for summary in seen] == sorted((summary.key for summary in seen), reverse=True)
    assert set(existing) <= set(ids), "every game that existed when paging began"
    assert created, "the other writer created games meanwhile"
    assert log.page_of_games(limit=500).total == len(existing) + len(created)
    log.close()
    if other is not log:
        other.close()


def test_a_redis_page_is_a_few_round_trips_whatever_the_number_of_games(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = open_log(
        StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"trips-{uuid.uuid4().hex[:10]}")
    )
    for n in range(60):
        log.create_game({"players": 2, "seed": n, "title": f"Game {n}"})
    log.page_of_games(limit=1)  # the projection catches up once
    log.page_of_games(search="game", limit=1)  # and each script is loaded once
    sent: list[bytes] = []
    send = redis.connection.AbstractConnection.send_packed_command
    monkeypatch.setattr(
        redis.connection.AbstractConnection,
        "send_packed_command",
        lambda self, command, check_health=True: sent.append(b"") or send(self, command, check_health),
    )
    for limit in (1, 50):
        sent.clear()
        page = log.page_of_games(limit=limit)
        assert len(page.summaries) == limit and len(sent) == 2, "the page, then its games' versions"
    sent.clear()
    log.page_of_games(search="game", limit=50)
    assert len(sent) == 3, "the search's words, the page, the versions"
    log.close()


def test_games_share_nothing_between_stores_of_one_redis(redis_url: str) -> None:
    one = open_log(StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"a-{uuid.uuid4().hex[:10]}"))
    two = open_log(StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=f"b-{uuid.uuid4().hex[:10]}"))
    one.create_game({"players": 2, "seed": 1, "title": "Only here"})
    assert one.page_of_games().total == 1 and two.page_of_games().total == 0
    one.close()
    two.close()
