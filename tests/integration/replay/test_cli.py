"""`heronlog export`, `import`, `check`, `revalidate`, `backup` and `restore` on the embedded SQLite store, as a
user runs them."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import domain
from replay.config import StoreConfig, open_log
from tests.replay_helpers import club_archive, play_random
from tests.unit.replay.amend_support import (
    MOVE_14_RESOLVED,
    SEEDED_CORRECTION,
    SEEDED_RESOLUTIONS,
    seeded_scenario,
)


def heronlog(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HERONLOG_DATA": str(data), "REDIS_URL": "", "HERONLOG_STORE": ""}
    return subprocess.run(
        [sys.executable, "-m", "api.server.cli", *args], env=env, capture_output=True, text=True, check=False
    )


def test_export_check_import_round_trip_on_the_command_line(tmp_path: Path) -> None:
    source = tmp_path / "club-a"
    log = open_log(StoreConfig(kind="sqlite", sqlite_path=source / "heronlog.sqlite"))
    game_id = log.create_game({"players": ["Ann", "Bo"], "seed": 3}).game_id
    list(play_random(log, game_id, 8, random.Random(3)))
    log.close()

    exported = tmp_path / "game.json"
    run = heronlog(source, "export", str(game_id), "-o", str(exported))
    assert run.returncode == 0, run.stderr
    assert heronlog(source, "check", str(exported)).stdout.startswith("ok: 8 effective moves")

    target = tmp_path / "club-b"
    run = heronlog(target, "import", str(exported))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == str(game_id), "a free id is kept"
    [token] = re.findall(r"owner token (\S+)", run.stderr)  # the game comes with an owner
    imported = open_log(StoreConfig(kind="sqlite", sqlite_path=target / "heronlog.sqlite"))
    grant = imported.authenticate(game_id, token)
    assert grant is not None and grant.role == "owner"
    imported.close()
    again = heronlog(target, "export", str(game_id))
    assert json.loads(again.stdout) == json.loads(exported.read_text())

    text = heronlog(target, "export", str(game_id), "--format", "text")
    assert "Ann" in text.stdout and "## Score sheet" in text.stdout
    assert heronlog(target, "revalidate").returncode == 0

    twice = heronlog(target, "import", str(exported))  # its id is taken now: a second game, and it is said
    assert twice.returncode == 0, twice.stderr
    second = twice.stdout.strip()
    assert second != str(game_id)
    assert f"the id {game_id} is taken here: imported as a new game, {second}" in twice.stderr
    fresh = heronlog(tmp_path / "club-c", "import", "--new-id", str(exported))
    assert "is taken" not in fresh.stderr, "a new id asked for is no surprise to report"


def test_check_reports_every_problem_with_its_position(tmp_path: Path) -> None:
    log = open_log(StoreConfig(kind="sqlite", sqlite_path=tmp_path / "heronlog.sqlite"))
    game_id = log.create_game({"players": 3, "seed": 4}).game_id
    list(play_random(log, game_id, 5, random.Random(4)))
    document = log.export(game_id)
    log.close()
    document = json.loads(json.dumps(document, default=str))
    document["events"][2]["data"]["move"]["seat"] = 7
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(document))
    run = heronlog(tmp_path, "check", str(broken))
    assert run.returncode == 1
    assert "events[2]" in run.stderr


def test_a_log_with_resolutions_is_checked_again_on_the_command_line(tmp_path: Path) -> None:
    """`check`, `import` and `export` of a game corrected with a resolution (the correction scenario): the
    resolution is part of the log, re-decided by the rules; a forged one is refused at its position."""
    log = open_log(StoreConfig(kind="sqlite", sqlite_path=tmp_path / "heronlog.sqlite"))
    game_id = seeded_scenario(log)
    game = log.get(game_id)
    log.amend(
        game_id,
        game.line[9],
        SEEDED_CORRECTION,
        expected_version=game.version,
        actor="owner",
        resolutions=SEEDED_RESOLUTIONS,
    )
    document = json.loads(json.dumps(log.export(game_id), default=str))
    log.close()
    exported = tmp_path / "corrected.json"
    exported.write_text(json.dumps(document))
    assert heronlog(tmp_path, "check", str(exported)).stdout.startswith("ok: 66 effective moves")
    run = heronlog(tmp_path / "club-b", "import", "--new-id", str(exported))
    assert run.returncode == 0, run.stderr
    text = heronlog(tmp_path / "club-b", "export", run.stdout.strip(), "--format", "text").stdout
    assert f"   14. {MOVE_14_RESOLVED}  [corrected; recorded first as: " in text

    last = len(document["events"]) - 1
    document["events"][last - 1]["data"]["move"]["space"] = "outside_1"  # Ben's black 1 went elsewhere
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(document))
    run = heronlog(tmp_path, "check", str(forged))
    assert run.returncode == 1 and f"events[{last}]" in run.stderr


@pytest.mark.parametrize("command", ["export", "revalidate"])
def test_an_unknown_game_is_a_clear_error(tmp_path: Path, command: str) -> None:
    # revalidate once ended in a traceback for both (GameNotFound, and ValueError for a malformed id)
    if command == "export":  # export only reads: where there is no store it says so, and creates none
        nothing = heronlog(tmp_path, command, "00000000-0000-4000-8000-000000000000")
        assert nothing.returncode == 1 and "no store at" in nothing.stderr and not list(tmp_path.iterdir())
    open_log(StoreConfig(kind="sqlite", sqlite_path=tmp_path / "heronlog.sqlite")).close()
    run = heronlog(tmp_path, command, "00000000-0000-4000-8000-000000000000")
    assert run.returncode == 1
    assert "no game" in run.stderr and "Traceback" not in run.stderr
    malformed = heronlog(tmp_path, command, "not-an-id")
    assert malformed.returncode == 2
    assert malformed.stderr == "heronlog: 'not-an-id' is not a game id\n"


def test_backup_and_restore_on_the_command_line(tmp_path: Path) -> None:
    source = tmp_path / "club-a"
    log = open_log(StoreConfig(kind="sqlite", sqlite_path=source / "heronlog.sqlite"))
    club_archive(log)
    log.close()

    backup = tmp_path / "backup"
    run = heronlog(source, "backup", str(backup))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("backed up 6 games (1 private, 1 fork) from sqlite file")
    index = json.loads((backup / "index.json").read_text())
    victim = index["games"][1]
    damaged = backup / victim["file"]
    damaged.write_text(damaged.read_text().replace('"events": [', '"events": [ ', 1))

    target = tmp_path / "club-b"
    run = heronlog(target, "restore", str(backup))
    assert run.returncode == 1, "a game that did not restore fails the command"
    tokens = re.findall(r"^restored (\S+) .*: owner token (\S+)$", run.stdout, re.MULTILINE)
    assert len(tokens) == 5 and victim["game_id"] not in dict(tokens)
    assert f"failed {victim['game_id']}" in run.stderr and f"games[1], {victim['file']}" in run.stderr
    assert "sha256" in run.stderr
    assert run.stdout.splitlines()[-1].startswith(
        "restored 5, already there 0, conflict 0, failed 1 of 6 games"
    )

    run = heronlog(target, "restore", str(backup))
    assert run.returncode == 1 and "owner token" not in run.stdout
    assert run.stdout.splitlines()[-1].startswith(
        "restored 0, already there 5, conflict 0, failed 1 of 6 games"
    )


def test_backup_refuses_a_folder_that_holds_something_else_on_the_command_line(tmp_path: Path) -> None:
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "minutes.txt").write_text("club minutes")
    run = heronlog(tmp_path / "data", "backup", str(folder))
    assert run.returncode == 2
    assert "not empty and holds no heronlog backup" in run.stderr
    assert [path.name for path in folder.iterdir()] == ["minutes.txt"]
    run = heronlog(tmp_path / "data", "backup", str(folder), "--force")
    assert run.returncode == 0, run.stderr
    assert (folder / "index.json").exists()
    assert heronlog(tmp_path / "data", "restore", str(tmp_path / "data")).returncode == 2, "not a backup"


def test_import_writes_its_owner_token_to_a_private_file_when_asked(tmp_path: Path) -> None:
    source = tmp_path / "club-a"
    log = open_log(StoreConfig(kind="sqlite", sqlite_path=source / "heronlog.sqlite"))
    game_id = log.create_game({"players": ["Ann", "Bo"], "seed": 5, "title": "Tuesday"}).game_id
    log.close()
    exported = tmp_path / "game.json"
    assert heronlog(source, "export", str(game_id), "-o", str(exported)).returncode == 0
    tokens = tmp_path / "tokens.tsv"
    first = heronlog(tmp_path / "club-b", "import", str(exported), "--tokens", str(tokens))
    again = heronlog(tmp_path / "club-b", "import", str(exported), "--tokens", str(tokens), "--new-id")
    assert first.returncode == again.returncode == 0, first.stderr + again.stderr
    assert "owner token written to" in first.stderr and "owner token written" in again.stderr
    lines = [line.split("\t") for line in tokens.read_text().splitlines()]
    assert [(line[0], line[2]) for line in lines] == [
        (str(game_id), "Tuesday"),
        (again.stdout.strip(), "Tuesday"),
    ]
    assert tokens.stat().st_mode & 0o777 == 0o600
    assert lines[0][1] not in first.stderr + first.stdout  # the secret is in the file alone


def test_revalidate_and_upgrade_keep_a_seeded_game_under_the_draw_it_was_recorded_with(
    tmp_path: Path,
) -> None:
    """On the command line: a seeded game of rules 0.3.0 passes the current rules move by move, but they would draw
    its chance from another generator, so `revalidate` says upgrade keeps it and `upgrade --apply` does (exit
    status 0: nothing refused); a table game moves."""
    log = open_log(StoreConfig(kind="sqlite", sqlite_path=tmp_path / "heronlog.sqlite"))
    seeded = log.create_game({"players": ["Ann", "Bo"], "seed": 3}, rules_version="0.3.0").game_id
    table = log.create_game({"players": ["Ann", "Bo"], "mode": "table"}, rules_version="0.3.0").game_id
    list(play_random(log, seeded, 6, random.Random(3)))
    log.close()
    kept = (
        f"a seeded game keeps the draw it was recorded with: rules {domain.RULES_VERSION} draw a seeded game's "
        "chance from SplitMix64, rules 0.3.0 from the Mersenne Twister"
    )

    checked = heronlog(tmp_path, "revalidate")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    lines = dict(line.split(": ", 1) for line in checked.stdout.splitlines())
    assert lines[str(seeded)].startswith(
        f"all moves pass the current rules (recorded under rules 0.3.0); upgrade keeps it there: {kept}"
    )
    assert lines[str(table)] == "all moves pass the current rules (recorded under rules 0.3.0)"

    moved = heronlog(tmp_path, "upgrade", "--apply")
    assert moved.returncode == 0, moved.stdout + moved.stderr
    assert f"{seeded}: stays under rules 0.3.0: {kept}" in moved.stdout
    assert f"{table}: moved from rules 0.3.0 to {domain.RULES_VERSION} (event 2)" in moved.stdout
    assert moved.stdout.splitlines()[-1] == (
        f"1 moved to rules {domain.RULES_VERSION}, 0 refused (left as recorded), 1 seeded kept under their rules' "
        "draw, 0 already under it"
    )
