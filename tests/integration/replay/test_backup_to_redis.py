"""Moving a club's archive from the embedded SQLite store to Redis with `heronlog backup` and `heronlog restore`,
as the README's how-to does it, against the redis-server that `make test` starts."""

from __future__ import annotations

import json
import os
import random
import stat
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any
from uuid import UUID

import domain
from replay import backups, exports
from replay.access import OWNER
from replay.config import StoreConfig, open_log
from tests.replay_helpers import club_archive, pick


def heronlog(environ: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "api.server.cli", *args],
        env={**os.environ, **environ},
        capture_output=True,
        text=True,
        check=False,
    )


def every_export(log: Any) -> dict[str, Any]:
    """Each game's export as its JSON reads back, by game id."""
    return {
        str(game_id): json.loads(exports.json_text(log.export(game_id))) for game_id in log.iter_game_ids()
    }


def club_backup(tmp_path: Path) -> tuple[dict[str, Any], Path]:
    """A club's archive on the embedded SQLite store, backed up with the command: every export, and the folder."""
    source = open_log(StoreConfig(kind="sqlite", sqlite_path=tmp_path / "club" / "heronlog.sqlite"))
    club_archive(source)
    before = {game_id: backups.as_restored(document) for game_id, document in every_export(source).items()}
    source.close()
    backup = tmp_path / "backup"
    run = heronlog({"HERONLOG_DATA": str(tmp_path / "club"), "REDIS_URL": ""}, "backup", str(backup))
    assert run.returncode == 0, run.stderr
    return before, backup


def test_an_archive_moves_from_sqlite_to_redis_and_plays_on_there(tmp_path: Path, redis_url: str) -> None:
    before, backup = club_backup(tmp_path)

    prefix = f"test-move-{uuid.uuid4().hex[:12]}"
    tokens = tmp_path / "owner-tokens.tsv"
    to_redis = {"REDIS_URL": redis_url, "REDIS_KEY_PREFIX": prefix, "HERONLOG_STORE": ""}
    run = heronlog(to_redis, "restore", str(backup), "--tokens", str(tokens))
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1].startswith(
        "restored 6, already there 0, conflict 0, failed 0 of 6 games"
    )
    assert f"into redis {redis_url}" in run.stdout
    assert stat.S_IMODE(tokens.stat().st_mode) == 0o600
    owners = {line.split("\t")[0]: line.split("\t")[1] for line in tokens.read_text().splitlines()}
    assert set(owners) == set(before)
    assert not any(token in run.stdout for token in owners.values()), "with --tokens, no token on the screen"

    target = open_log(StoreConfig(kind="redis", redis_url=redis_url, redis_prefix=prefix))
    try:
        after = every_export(target)
        assert after == before
        played = 0
        for summary in target.list_games(include_private=True):
            game_id = UUID(summary.game_id)
            grant = target.authenticate(game_id, owners[summary.game_id])
            assert grant is not None and grant.role == OWNER
            if summary.status != "in progress":
                continue
            game = target.get(game_id)
            move = pick(game.state, random.Random(game.version))
            assert move in domain.legal_moves(game.state)
            target.play(game_id, move, expected_version=game.version, actor=grant.actor)
            assert target.export(game_id)["events"][-1]["data"]["move"] == move
            played += 1
        assert played == 4, "every game in progress (the fork among them) took a move on Redis"
    finally:
        target.close()

    run = heronlog(to_redis, "restore", str(backup), "--tokens", str(tokens))
    assert run.returncode == 1, "the games played on since are conflicts now"
    assert run.stdout.splitlines()[-1].startswith(
        "restored 0, already there 2, conflict 4, failed 0 of 6 games"
    )
    assert len(tokens.read_text().splitlines()) == 6, "the tokens of the first restore are kept"


def test_a_backup_restores_into_three_shards_of_the_redis_cluster(tmp_path: Path, cluster_url: str) -> None:
    # The production layout: games spread over three shards, each with its own hash tag on the 3-master cluster
    before, backup = club_backup(tmp_path)

    prefix = f"test-shards-{uuid.uuid4().hex[:12]}"
    to_cluster = {
        "REDIS_URL": cluster_url,
        "REDIS_KEY_PREFIX": prefix,
        "HERONLOG_SHARDS": "3",
        "HERONLOG_STORE": "",
    }
    for run_number, expected in ((1, "restored 6, already there 0"), (2, "restored 0, already there 6")):
        run = heronlog(to_cluster, "restore", str(backup), "--tokens", str(tmp_path / "tokens.tsv"))
        assert run.returncode == 0, (run_number, run.stderr)
        assert run.stdout.splitlines()[-1].startswith(f"{expected}, conflict 0, failed 0 of 6 games")

    target = open_log(StoreConfig(kind="redis", redis_url=cluster_url, redis_prefix=prefix, shards=3))
    try:
        after = every_export(target)
        assert after == before
        assert len(target.stores) > 1
        homes = {target.stores.all.index(target.stores.of(UUID(game_id))) for game_id in after}
        assert len(homes) > 1, "the games are spread over the shards"
        for index, shard in enumerate(
            target.stores.all
        ):  # each game is stored in its own shard, and only there
            assert {str(game_id) for game_id in target.index.game_ids(shard)} == {
                game_id for game_id in after if target.stores.of(UUID(game_id)) is shard
            }, index
    finally:
        target.close()
