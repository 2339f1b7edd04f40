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
from replay import backups
from replay.config import StoreConfig, open_log
from replay.errors import GameCorrupt
from replay.game import fold
from replay.index import index_id
from replay.integrity import is_sealed
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
        problems = {(p.stream, p.what.split(":")[0]) for p in verify(log).problems}
        assert (str(index), "damaged record") in problems
        assert (str(archive["kept"]), "the game is missing from the list of games") in problems
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
