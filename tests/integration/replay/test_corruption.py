"""Corruption is detected and contained, on Redis and on SQLite. Bytes flipped in a stored event make
that game (and only it) answer ``500 game_corrupt`` naming the game and the version; the list of games answers
and flags it; a backup goes on past it and reports it; ``heronlog verify`` finds it and exits 1. A damaged
snapshot is dropped and the game refolded; a damaged entry of the list of games hides no other game; a snapshot
written before snapshots carried a checksum, whose contents were changed, is not served."""

from __future__ import annotations

import json
import random
import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from eventsourcing.persistence import Mapper

import domain
from api.app import create_app
from api.resources.context import EXTENSION
from api.server.cli import main as heronlog
from replay import access, backups
from replay.config import StoreConfig, open_log
from replay.errors import GameCorrupt
from replay.game import fold
from replay.index import index_id
from replay.integrity import HEADER_SIZE, is_sealed
from replay.snapshots import drop
from replay.verify import verify
from tests.api_helpers import ApiClient, flask_transport
from tests.replay_helpers import canonical, first_format_snapshot, play_random


@pytest.fixture(params=["sqlite", "redis"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> StoreConfig:
    if request.param == "sqlite":
        return StoreConfig(kind="sqlite", sqlite_path=tmp_path / "games.sqlite")
    url = request.getfixturevalue("redis_url")
    return StoreConfig(kind="redis", redis_url=url, redis_prefix=f"corrupt-{uuid.uuid4().hex[:8]}")


def flip(data: bytes, at: int = -3) -> bytes:
    """``data`` with one byte changed (one bit flipped), as a failing disk or memory would."""
    position = at % len(data)
    return data[:position] + bytes([data[position] ^ 0x01]) + data[position + 1 :]


def damage_event(store: StoreConfig, stream: uuid.UUID, version: int, purpose: str = "events") -> None:
    """Flip a byte of the stored record at ``version`` of ``stream`` (an event, or a snapshot)."""
    if store.kind == "sqlite":
        assert store.sqlite_path is not None
        table = "stored_events" if purpose == "events" else "stored_snapshots"
        with sqlite3.connect(store.sqlite_path) as connection:
            [(state,)] = connection.execute(
                f"SELECT state FROM {table} WHERE originator_id = ? AND originator_version = ?",
                (stream.hex, version),
            ).fetchall()
            connection.execute(
                f"UPDATE {table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
                (flip(state), stream.hex, version),
            )
        return
    with redis.Redis.from_url(str(store.redis_url)) as client:
        tag = "{" + store.redis_prefix + ":GameLog}"
        if purpose == "events":
            [notification] = client.zrange(f"{tag}:events:seq:{stream}", version, version, byscore=True)
            record = client.hget(f"{tag}:events:log", notification)
            assert record is not None
            client.hset(f"{tag}:events:log", notification, flip(record))
        else:
            key = f"{tag}:snapshots:agg:{stream}"
            [member] = client.zrange(key, version, version, byscore=True)
            client.zremrangebyscore(key, version, version)
            client.zadd(key, {flip(member): version})


@pytest.fixture
def archive(store: StoreConfig) -> Iterator[dict[str, Any]]:
    log = open_log(store)
    rng = random.Random(4)
    games = {name: log.create_game({"players": 3, "seed": seed}).game_id for name, seed in
             (("damaged", 1), ("kept", 2), ("snapshotted", 3))}  # fmt: skip
    for game_id in games.values():
        list(play_random(log, game_id, 60, rng))
    log.annotate(games["kept"], version=3, author="coach", text="well played")
    snapshots = log.stores.of(games["snapshotted"]).snapshots
    assert snapshots is not None
    taken = [snapshot.originator_version for snapshot in snapshots.get(games["snapshotted"])]
    assert taken, "the game was snapshotted"
    log.close()
    yield {"store": store, **games, "snapshot": taken[-1]}


def test_a_damaged_event_names_its_game_and_version_and_stops_no_other_game(
    archive: dict[str, Any], tmp_path: Path
) -> None:
    store = archive["store"]
    damage_event(store, archive["damaged"], 7)
    log = open_log(store)
    try:
        with pytest.raises(GameCorrupt) as found:
            log.get(archive["damaged"])
        assert (
            found.value.details["game_id"] == str(archive["damaged"]) and found.value.details["version"] == 7
        )
        for name in ("kept", "snapshotted"):
            game = log.get(archive[name])
            assert canonical(game.state) == canonical(fold(log.events_of(archive[name])).state)
        statuses = {summary.game_id: summary.status for summary in log.list_games()}
        assert statuses[str(archive["damaged"])] == "damaged" and len(statuses) == 3

        report = backups.backup(log, tmp_path / "backup")
        assert [failed.game_id for failed in report.failed] == [str(archive["damaged"])]
        assert len(report.games) == 2 and not report.ok
        checked = verify(log)
        assert [(p.stream, p.version) for p in checked.problems] == [(str(archive["damaged"]), 7)]
        assert "damaged record" in checked.problems[0].what
    finally:
        log.close()

    app = create_app({"STORE": store})
    api = ApiClient(flask_transport(app.test_client()))
    answer = api.get(f"/api/games/{archive['damaged']}")
    assert answer.error() == (500, "game_corrupt")
    assert str(archive["damaged"]) in answer.body["detail"] and "version 7" in answer.body["detail"]
    assert api.get(f"/api/games/{archive['damaged']}/export").error() == (500, "game_corrupt")
    listing = api.get("/api/games")
    assert listing.status == 200 and len(listing.body["games"]) == 3
    assert api.get(f"/api/games/{archive['kept']}").status == 200
    app.extensions[EXTENSION].get().log.close()


def test_backup_and_verify_exit_non_zero_and_say_which_game(
    archive: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    store = archive["store"]
    damage_event(store, archive["damaged"], 12)
    if store.kind == "sqlite":
        assert store.sqlite_path is not None
        monkeypatch.setenv("HERONLOG_DATA", str(store.sqlite_path.parent))
        monkeypatch.delenv("REDIS_URL", raising=False)
        arguments = ["--store", "sqlite"]
        monkeypatch.setattr(  # the test's file name, not heronlog.sqlite
            "replay.config.SQLITE_FILENAME", store.sqlite_path.name
        )
    else:
        monkeypatch.setenv("REDIS_URL", str(store.redis_url))
        monkeypatch.setenv("REDIS_KEY_PREFIX", store.redis_prefix)
        arguments = ["--store", "redis"]
    assert heronlog(["backup", str(tmp_path / "backup"), *arguments]) == 1
    said = capsys.readouterr()
    assert f"not backed up: {archive['damaged']}" in said.err and "backed up 2 games" in said.out
    index = json.loads((tmp_path / "backup" / "index.json").read_text())
    assert [entry["game_id"] for entry in index["failed"]] == [str(archive["damaged"])]
    assert heronlog(["verify", *arguments]) == 1
    said = capsys.readouterr()
    assert f"{archive['damaged']} version 12: damaged record" in said.out and "1 problem" in said.out


def test_a_damaged_snapshot_is_dropped_and_the_game_refolded(archive: dict[str, Any]) -> None:
    store, game_id, version = archive["store"], archive["snapshotted"], archive["snapshot"]
    damage_event(store, game_id, version, purpose="snapshots")
    log = open_log(store)
    try:
        assert [p.version for p in verify(log).problems] == [version]
        game = log.get(game_id)
        assert canonical(game.state) == canonical(fold(log.events_of(game_id)).state)
        assert canonical(log.state_at(game_id, version)) == canonical(
            fold(log.events_of(game_id)[:version]).state
        )
        kept = log.stores.of(game_id).snapshots
        assert kept is not None and version not in [s.originator_version for s in kept.get(game_id)]
        assert verify(log).ok
    finally:
        log.close()


def test_a_damaged_entry_of_the_list_hides_no_other_game(archive: dict[str, Any]) -> None:
    store = archive["store"]
    log = open_log(store)
    index = index_id(log.stores.all[0])
    entries = [event for event in log.stores.all[0].stream_events(index)]
    position = next(e.originator_version for e in entries if e.game_id == str(archive["kept"]))  # type: ignore[attr-defined]
    log.close()
    damage_event(store, index, position)
    log = open_log(store)
    try:
        listed = {summary.game_id for summary in log.list_games()}
        assert listed == {str(archive["damaged"]), str(archive["snapshotted"])}
        assert log.get(archive["kept"]).version > 1  # the game itself is whole
        [problem] = verify(log).problems  # named once, as the list's, with the game no readable entry names
        assert (problem.stream, problem.version) == (str(index), position)
        assert problem.what.startswith("a damaged entry of the list of games")
        assert problem.what.endswith(f"games no readable entry names: {archive['kept']}")
    finally:
        log.close()


def test_a_snapshot_written_before_checksums_whose_contents_changed_is_not_served(
    archive: dict[str, Any],
) -> None:
    """A player's coins changed in a snapshot of the earlier format (no checksum): the game is folded from its
    events instead, and a sealed snapshot takes the old one's place."""
    store, game_id = archive["store"], archive["kept"]
    log = open_log(store)
    game = log.get(game_id)
    true_coins = game.state.players[0].coins
    old = first_format_snapshot(game)
    data = json.loads(old.state)
    data["engine"]["players"][0]["coins"] = true_coins + 5
    plain = Mapper(transcoder=log.stores.of(game_id).mapper.transcoder)  # as snapshots were written before
    record = plain.to_stored_event(type(old)(old.originator_id, old.originator_version, old.timestamp, old.topic,
                                             json.dumps(data)))  # fmt: skip
    snapshots = log.stores.of(game_id).snapshots
    assert snapshots is not None
    drop(
        log.stores.of(game_id), game_id, game.version
    )  # the policy may have taken one there (its phase is random)
    snapshots.recorder.insert_events([record])
    log.close()
    cold = open_log(store)
    try:
        read = cold.get(game_id)
        assert read.state.players[0].coins == true_coins and domain.state_to_dict(read.state) == (
            domain.state_to_dict(game.state)
        )
        kept = cold.stores.of(game_id).snapshots
        assert kept is not None
        [latest] = kept.recorder.select_events(game_id, desc=True, limit=1)
        assert latest.originator_version == game.version and is_sealed(latest)
    finally:
        cold.close()


def delete_event(store: StoreConfig, stream: uuid.UUID, version: int) -> None:
    """Delete the stored record at ``version`` of ``stream`` from the log (on Redis, what ``HDEL`` of its
    notification does: the stream's index still names it)."""
    if store.kind == "sqlite":
        assert store.sqlite_path is not None
        with sqlite3.connect(store.sqlite_path) as connection:
            connection.execute(
                "DELETE FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                (stream.hex, version),
            )
        return
    with redis.Redis.from_url(str(store.redis_url)) as client:
        tag = "{" + store.redis_prefix + ":GameLog}"
        [notification] = client.zrange(f"{tag}:events:seq:{stream}", version, version, byscore=True)
        assert client.hdel(f"{tag}:events:log", notification) == 1


def strip_checksum(store: StoreConfig, stream: uuid.UUID, version: int, change: tuple[bytes, bytes]) -> None:
    """Remove the checksum of the stored record at ``version`` of ``stream`` and change its contents."""
    if store.kind == "sqlite":
        assert store.sqlite_path is not None
        with sqlite3.connect(store.sqlite_path) as connection:
            [(state,)] = connection.execute(
                "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
                (stream.hex, version),
            ).fetchall()
            assert change[0] in state
            connection.execute(
                "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
                (state[HEADER_SIZE:].replace(*change), stream.hex, version),
            )
        return
    with redis.Redis.from_url(str(store.redis_url)) as client:
        tag = "{" + store.redis_prefix + ":GameLog}"
        [notification] = client.zrange(f"{tag}:events:seq:{stream}", version, version, byscore=True)
        record = client.hget(f"{tag}:events:log", notification)
        assert record is not None
        head, state = record.split(b"\n", 3)[:3], record.split(b"\n", 3)[3]
        assert change[0] in state
        client.hset(
            f"{tag}:events:log", notification, b"\n".join([*head, state[HEADER_SIZE:].replace(*change)])
        )


@pytest.fixture
def six_games(store: StoreConfig) -> list[uuid.UUID]:
    """Six games recorded one after the other (each created, then played), so that the records of a game come
    after those of every earlier game in the store's log."""
    log = open_log(store)
    rng = random.Random(6)
    games = []
    for seed in range(6):
        game_id = log.create_game({"players": 2, "seed": seed}).game_id
        list(play_random(log, game_id, 8, rng))
        games.append(game_id)
    log.close()
    return games


def test_one_event_deleted_hides_no_later_game_from_backup_or_verify(
    store: StoreConfig, six_games: list[uuid.UUID], tmp_path: Path
) -> None:
    damaged = six_games[1]
    delete_event(store, damaged, 3)
    log = open_log(store)
    try:
        report = backups.backup(log, tmp_path / "backup")
        assert {game.game_id for game in report.games} == {str(g) for g in six_games if g != damaged}
        [failed] = report.failed
        assert failed.game_id == str(damaged) and "version 3" in failed.message
        checked = verify(log)
        assert checked.games == 6 and {(p.stream, p.version) for p in checked.problems} == {(str(damaged), 3)}
        assert len(checked.problems) == 1
    finally:
        log.close()


def test_a_game_whose_first_event_is_gone_is_listed_damaged_and_reported_by_backup_and_verify(
    store: StoreConfig, six_games: list[uuid.UUID], tmp_path: Path
) -> None:
    damaged = six_games[2]
    delete_event(store, damaged, 1)
    log = open_log(store)
    try:
        with pytest.raises(GameCorrupt) as found:
            log.get(damaged)
        assert found.value.details["version"] == 1
        statuses = {summary.game_id: summary.status for summary in log.list_games()}
        assert statuses[str(damaged)] == "damaged" and len(statuses) == 6
        report = backups.backup(log, tmp_path / "backup")
        assert [failed.game_id for failed in report.failed] == [str(damaged)] and len(report.games) == 5
        assert [(p.stream, p.version) for p in verify(log).problems] == [(str(damaged), 1)]
    finally:
        log.close()


def test_damage_to_a_game_s_grants_is_named_under_the_game(
    store: StoreConfig, six_games: list[uuid.UUID], tmp_path: Path
) -> None:
    game_id = six_games[0]
    log = open_log(store)
    created = log.create_game({"players": 2, "seed": 9})
    log.close()
    game_id = created.game_id
    damage_event(store, access.stream_id(game_id), 1)
    log = open_log(store)
    try:
        problems = [(p.stream, p.part, p.version) for p in verify(log).problems]
        assert problems == [(str(game_id), "grants", 1)]
        assert "grants" in str(verify(log).problems[0])
    finally:
        log.close()
    app = create_app({"STORE": store})
    api = ApiClient(flask_transport(app.test_client()))
    legal = api.get(f"/api/games/{game_id}/legal-moves")
    answer = api.play(str(game_id), legal.body["moves"][0], created.token, legal.etag)
    assert answer.error() == (500, "game_corrupt")
    assert answer.body["details"]["game_id"] == str(game_id) and answer.body["details"]["part"] == "grants"
    assert api.get(f"/api/games/{game_id}").status == 200  # reading needs no grant
    app.extensions[EXTENSION].get().log.close()


def test_a_record_whose_checksum_was_removed_and_contents_changed_is_not_served_and_verify_names_it(
    store: StoreConfig, six_games: list[uuid.UUID], tmp_path: Path
) -> None:
    game_id = six_games[3]
    strip_checksum(store, game_id, 4, (b'"actor":"owner"', b'"actor":"seat:1"'))
    log = open_log(store)
    try:
        with pytest.raises(GameCorrupt) as found:
            log.get(game_id)
        assert found.value.details["version"] == 4
        [problem] = verify(log).problems
        assert (problem.stream, problem.version) == (str(game_id), 4) and "no checksum" in problem.what
        assert [failed.game_id for failed in backups.backup(log, tmp_path / "backup").failed] == [
            str(game_id)
        ]
    finally:
        log.close()


@pytest.fixture(params=["sqlite", "redis", "shards"])
def any_store(request: pytest.FixtureRequest, tmp_path: Path) -> StoreConfig:
    """SQLite, Redis, or three shards on the Redis Cluster (each with its own hash tag, on its own node)."""
    if request.param == "sqlite":
        return StoreConfig(kind="sqlite", sqlite_path=tmp_path / "games.sqlite")
    prefix = f"first-{uuid.uuid4().hex[:8]}"
    if request.param == "redis":
        return StoreConfig(kind="redis", redis_url=request.getfixturevalue("redis_url"), redis_prefix=prefix)
    return StoreConfig(
        kind="redis", redis_url=request.getfixturevalue("cluster_url"), redis_prefix=prefix, shards=3
    )


def delete_first_event(store: StoreConfig, tag: str, stream: uuid.UUID) -> None:
    """Delete the first stored record (version 1, the ``GameCreated``) of ``stream``, whose keys on Redis
    carry ``tag``."""
    if store.kind == "sqlite":
        delete_event(store, stream, 1)
        return
    client: Any = (redis.RedisCluster if store.shards > 1 else redis.Redis).from_url(str(store.redis_url))
    try:
        [notification] = client.zrange(f"{tag}:events:seq:{stream}", 1, 1, byscore=True)
        assert client.hdel(f"{tag}:events:log", notification) == 1
    finally:
        client.close()


def cli_arguments(store: StoreConfig, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The environment and arguments that point ``heronlog`` at ``store``."""
    if store.kind == "sqlite":
        assert store.sqlite_path is not None
        monkeypatch.setenv("HERONLOG_DATA", str(store.sqlite_path.parent))
        monkeypatch.delenv("REDIS_URL", raising=False)
        monkeypatch.setattr("replay.config.SQLITE_FILENAME", store.sqlite_path.name)
        return ["--store", "sqlite"]
    monkeypatch.setenv("REDIS_URL", str(store.redis_url))
    monkeypatch.setenv("REDIS_KEY_PREFIX", store.redis_prefix)
    monkeypatch.setenv("HERONLOG_SHARDS", str(store.shards))
    return ["--store", "redis"]


def test_a_game_whose_first_event_is_gone_is_listed_damaged_by_a_process_that_never_read_it(
    any_store: StoreConfig,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each store reads its page's first records with the page (one round trip a store): a new app lists the
    game damaged before anything read it, every other game as it stands, and ``heronlog backup`` names it."""
    log = open_log(any_store)
    rng = random.Random(7)
    games = [
        log.create_game({"players": 2, "seed": seed, "title": f"Game {seed}"}).game_id for seed in range(5)
    ]
    for game_id in games[:3]:
        list(play_random(log, game_id, 4, rng))
    log.abandon(games[4], expected_version=1, actor="owner")
    expected = {str(game_id): "in progress" for game_id in games} | {str(games[4]): "abandoned"}
    damaged = games[1]
    tag = getattr(log.stores.of(damaged).recorder, "tag", "")
    log.close()
    delete_first_event(any_store, tag, damaged)
    expected[str(damaged)] = "damaged"
    if any_store.shards == 1:  # and one whose first record fails its checksum
        damage_event(any_store, games[3], 1)
        expected[str(games[3])] = "damaged"

    app = create_app({"STORE": any_store})
    api = ApiClient(flask_transport(app.test_client()))
    listing = api.get("/api/games")
    assert listing.status == 200
    assert {game["game_id"]: game["status"] for game in listing.body["games"]} == expected
    page = app.test_client().get("/").get_data(as_text=True)
    shown = {
        game_id: row.split('data-label="Status">', 1)[1].split("<", 1)[0]
        for row in page.split("<tr>")
        for game_id in expected
        if game_id in row
    }
    assert {game_id: status.split(",")[0] for game_id, status in shown.items()} == expected
    app.extensions[EXTENSION].get().log.close()

    arguments = cli_arguments(any_store, monkeypatch)
    assert heronlog(["backup", str(tmp_path / "backup"), *arguments]) == 1
    said = capsys.readouterr()
    intact = [game_id for game_id, status in expected.items() if status != "damaged"]
    assert f"not backed up: {damaged}" in said.err and f"backed up {len(intact)} games" in said.out
