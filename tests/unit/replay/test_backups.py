"""Backing up a whole store to a folder and restoring it (replay.backups), on the in-memory store."""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

import domain
from replay import backups, exports
from replay.access import OWNER, hash_token
from replay.application import GameLog
from replay.backups import BackupRefused, NotABackup, Outcome
from replay.config import StoreConfig, open_log
from tests.replay_helpers import club_archive, pick


def memory_log(shards: int = 1) -> GameLog:
    return open_log(StoreConfig(kind="memory", shards=shards))


def restored_copy(source: GameLog, folder: Path, shards: int = 1) -> tuple[GameLog, backups.RestoreReport]:
    """``source`` backed up into ``folder`` and restored into a fresh in-memory store, with the restore's report."""
    backups.backup(source, folder)
    target = memory_log(shards)
    return target, backups.restore(target, folder)


def every_export(log: GameLog) -> dict[str, Any]:
    """Each game's export as JSON data, by id, as a restore keeps it: what must come back equal after a move
    (a comment's grant does not travel: :func:`replay.backups.as_restored`)."""
    return {
        str(game_id): backups.as_restored(json.loads(exports.json_text(log.export(game_id))))
        for game_id in log.iter_game_ids()
    }


@pytest.fixture
def archive() -> tuple[GameLog, dict[UUID, str]]:
    """A club's archive (see club_archive) and the owner tokens it was issued."""
    log = memory_log()
    return log, club_archive(log)


@pytest.fixture
def backup_folder(archive: tuple[GameLog, dict[UUID, str]], tmp_path: Path) -> Path:
    """The archive backed up into a fresh folder."""
    folder = tmp_path / "backup"
    backups.backup(archive[0], folder)
    return folder


def index_of(folder: Path) -> dict[str, Any]:
    return dict(json.loads((folder / backups.INDEX_FILE).read_text()))


def rewrite_index(folder: Path, index: dict[str, Any]) -> None:
    (folder / backups.INDEX_FILE).write_text(json.dumps(index))


def swapped(folder: Path, index: dict[str, Any], victim: dict[str, Any], text: str) -> None:
    """The victim's file replaced by ``text``, with a checksum in the index that agrees (what is inside the
    file has to be caught, not the checksum)."""
    path = folder / victim["file"]
    path.write_text(text)
    victim["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    rewrite_index(folder, index)


def test_every_game_comes_back_equal_in_a_fresh_store(
    archive: tuple[GameLog, dict[UUID, str]], tmp_path: Path
) -> None:
    source, _ = archive
    report = backups.backup(source, tmp_path / "backup")
    assert len(report.games) == 6 and report.private == 1 and report.forks == 1

    target = memory_log()
    restored = backups.restore(target, tmp_path / "backup")
    assert restored.ok and restored.count(Outcome.RESTORED) == 6
    before, after = every_export(source), every_export(target)
    assert after == before
    notes = [entry for document in after.values() for entry in document["annotations"]]
    assert {entry["type"] for entry in notes} == {"AnnotationAdded", "AnnotationEdited", "AnnotationDeleted"}
    assert {entry["type"] for document in after.values() for entry in document["events"]} >= {
        "MovesUndone",
        "MovesRedone",
        "MoveAmended",
        "GameAbandoned",
    }
    listed = {summary.game_id: summary for summary in target.list_games(include_private=True)}
    assert {summary.status for summary in listed.values()} == {"in progress", "finished", "abandoned"}
    assert sum(summary.private for summary in listed.values()) == 1
    assert [summary.parent for summary in listed.values() if summary.parent], "the fork keeps its parent"


def test_each_file_is_the_games_export_and_the_index_describes_it(
    archive: tuple[GameLog, dict[UUID, str]], tmp_path: Path
) -> None:
    source, _ = archive
    folder = tmp_path / "backup"
    report = backups.backup(source, folder, store="memory")
    index = index_of(folder)
    assert index["format"] == "heronlog.backup" and index["format_version"] == 1
    assert index["heronlog_version"] and index["created_at"] and index["store"] == "memory"
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        [backups.INDEX_FILE, *(f"{game_id}.json" for game_id in source.iter_game_ids())]
    )
    for entry in index["games"]:
        game_id = UUID(entry["game_id"])
        data = (folder / entry["file"]).read_bytes()
        assert data.decode() == exports.json_text(source.export(game_id)), "exactly what export prints"
        assert entry["sha256"] == hashlib.sha256(data).hexdigest() and entry["bytes"] == len(data)
        game = source.get(game_id)
        assert (entry["version"], entry["status"]) == (game.version, game.status)
        assert entry["players"] == [seat["name"] for seat in game.setup["players"]]
        assert entry["title"] == game.setup["title"]
        assert entry["parent_id"] == (game.parent["game_id"] if game.parent else None)
    assert report.bytes == sum(path.stat().st_size for path in folder.iterdir())
    assert [entry["created_at"] for entry in index["games"]] == sorted(
        entry["created_at"] for entry in index["games"]
    ), "oldest first"


def test_a_restored_game_has_a_fresh_owner_token_and_the_backup_holds_none(
    archive: tuple[GameLog, dict[UUID, str]], tmp_path: Path
) -> None:
    source, tokens = archive
    backups.backup(source, tmp_path / "backup")
    written = "".join(path.read_text() for path in (tmp_path / "backup").iterdir())
    for token in tokens.values():
        assert token not in written and hash_token(token) not in written

    target = memory_log()
    report = backups.restore(target, tmp_path / "backup")
    for game in report.games:
        assert game.token is not None
        grant = target.authenticate(UUID(game.game_id), game.token)
        assert grant is not None and grant.role == OWNER
        assert target.authenticate(UUID(game.game_id), tokens[UUID(game.game_id)]) is None, (
            "old tokens stay behind"
        )


def test_restoring_twice_finds_every_game_already_there_and_writes_nothing(
    archive: tuple[GameLog, dict[UUID, str]], tmp_path: Path
) -> None:
    target, _ = restored_copy(archive[0], tmp_path / "backup")
    written = target.stores.all[0].recorder.max_notification_id()

    again = backups.restore(target, tmp_path / "backup")
    assert again.ok
    assert [game.outcome for game in again.games] == [Outcome.ALREADY_THERE] * 6
    assert all(game.token is None for game in again.games), "no second owner for a game already there"
    assert target.stores.all[0].recorder.max_notification_id() == written


def test_a_restored_comment_keeps_its_author_and_a_second_restore_finds_it_already_there(
    archive: tuple[GameLog, dict[UUID, str]], tmp_path: Path
) -> None:
    """A comment written with a token names its grant; grants do not travel, so the restored comment names
    none (only the new owner may change it), and the game is still the backup's: already there."""
    source = archive[0]
    [public] = [
        game_id
        for game_id in source.iter_game_ids()
        if source.get(game_id).setup["title"] == "Tuesday table 1"
    ]
    written = source.annotations(public)
    assert any(note.author_grant for note in written)
    target, first = restored_copy(source, tmp_path / "backup")
    assert first.ok
    restored = target.annotations(public)
    assert [(n.author, n.text, n.glyph) for n in restored] == [(n.author, n.text, n.glyph) for n in written]
    assert all(note.author_grant is None for note in restored)
    again = backups.restore(target, tmp_path / "backup")
    assert [game.outcome for game in again.games] == [Outcome.ALREADY_THERE] * 6, again.games


def test_a_tampered_file_is_reported_and_every_other_game_restores(
    archive: tuple[GameLog, dict[UUID, str]], backup_folder: Path
) -> None:
    source, _ = archive
    folder = backup_folder
    victim = index_of(folder)["games"][2]
    path = folder / victim["file"]
    path.write_text(path.read_text().replace(victim["title"], "Someone else's game"))

    target = memory_log()
    report = backups.restore(target, folder)
    assert not report.ok
    [failed] = [game for game in report.games if game.outcome is Outcome.FAILED]
    assert (failed.game_id, failed.position, failed.file) == (victim["game_id"], "games[2]", victim["file"])
    assert "sha256" in failed.message
    assert report.count(Outcome.RESTORED) == 5
    assert set(every_export(target)) == set(every_export(source)) - {victim["game_id"]}


def test_a_file_that_breaks_the_rules_is_reported_with_the_position_of_each_problem(
    backup_folder: Path,
) -> None:
    folder = backup_folder
    index = index_of(folder)
    victim = next(entry for entry in index["games"] if entry["version"] > 5 and not entry["parent_id"])
    document = json.loads((folder / victim["file"]).read_text())
    document["events"][2]["data"]["move"]["seat"] = 7  # a seat the game does not have
    swapped(folder, index, victim, exports.json_text(document))  # the rules catch it

    report = backups.restore(memory_log(), folder)
    [failed] = [game for game in report.games if game.outcome is Outcome.FAILED]
    assert failed.game_id == victim["game_id"]
    assert "events[2]" in [problem["position"] for problem in failed.problems]
    assert report.count(Outcome.RESTORED) == 5


def test_a_game_that_differs_in_the_target_is_a_conflict_and_left_untouched(backup_folder: Path) -> None:
    folder = backup_folder
    target = memory_log()
    backups.restore(target, folder)
    moved_on = UUID(index_of(folder)["games"][0]["game_id"])
    game = target.get(moved_on)
    target.play(moved_on, pick(game.state, random.Random(5)), expected_version=game.version, actor="owner")
    kept = json.loads(exports.json_text(target.export(moved_on)))

    report = backups.restore(target, folder)
    assert not report.ok
    [conflict] = [game for game in report.games if game.outcome is Outcome.CONFLICT]
    assert conflict.game_id == str(moved_on)
    assert "1 more event" in conflict.message
    assert report.count(Outcome.ALREADY_THERE) == 5
    assert json.loads(exports.json_text(target.export(moved_on))) == kept


def test_forks_are_restored_after_their_parents_whatever_the_order_of_the_index(backup_folder: Path) -> None:
    folder = backup_folder
    index = index_of(folder)
    index["games"].reverse()  # the fork now comes before its parent
    rewrite_index(folder, index)
    [fork] = [entry for entry in index["games"] if entry["parent_id"]]
    assert index["games"].index(fork) < [entry["game_id"] for entry in index["games"]].index(
        fork["parent_id"]
    )

    report = backups.restore(memory_log(), folder)
    order = [game.game_id for game in report.games]
    assert report.ok and len(order) == 6
    assert order.index(fork["parent_id"]) < order.index(fork["game_id"])


def test_a_restore_into_several_shards_puts_each_game_on_its_own_shard(
    archive: tuple[GameLog, dict[UUID, str]], tmp_path: Path
) -> None:
    source, _ = archive
    target, report = restored_copy(source, tmp_path / "backup", shards=3)
    assert report.ok
    assert every_export(target) == every_export(source)
    game_id = next(iter(source.iter_game_ids()))
    assert target.stores.of(game_id).exists(game_id)
    assert target.get(game_id).version == source.get(game_id).version


def test_a_backup_refuses_a_folder_that_holds_something_else(
    archive: tuple[GameLog, dict[UUID, str]], tmp_path: Path
) -> None:
    source, _ = archive
    folder = tmp_path / "papers"
    folder.mkdir()
    (folder / "minutes.txt").write_text("club minutes")
    with pytest.raises(BackupRefused) as refused:
        backups.backup(source, folder)
    assert "not empty" in refused.value.message and "--force" in refused.value.message
    assert sorted(path.name for path in folder.iterdir()) == ["minutes.txt"], "nothing was written"

    report = backups.backup(source, folder, force=True)
    assert len(report.games) == 6 and (folder / "minutes.txt").exists()


def test_a_backup_over_an_earlier_one_replaces_it(tmp_path: Path) -> None:
    folder = tmp_path / "nightly"
    first, second = memory_log(), memory_log()
    club_archive(first, seed=1)
    backups.backup(first, folder)
    club_archive(second, seed=2)
    report = backups.backup(second, folder)  # no --force needed over a backup
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        [backups.INDEX_FILE, *(game.file for game in report.games)]
    ), "the files of games the earlier backup listed are gone"
    target = memory_log()
    assert backups.restore(target, folder).ok
    assert every_export(target) == every_export(second)


def test_a_backup_creates_its_folder_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    log = memory_log()
    game_id = log.create_game({"players": ["Ann", "Bo"], "seed": 3}).game_id
    folder = tmp_path / "a" / "b"
    backups.backup(log, folder)
    assert sorted(path.name for path in folder.iterdir()) == sorted([backups.INDEX_FILE, f"{game_id}.json"])


def test_a_file_nested_past_the_interpreter_s_limit_is_reported_not_a_traceback(backup_folder: Path) -> None:
    folder = backup_folder
    index = index_of(folder)
    victim = index["games"][1]
    swapped(folder, index, victim, "[" * 100_000 + "]" * 100_000)

    report = backups.restore(memory_log(), folder)
    [failed] = [game for game in report.games if game.outcome is Outcome.FAILED]
    assert failed.file == victim["file"] and "not JSON heronlog reads" in failed.message
    assert report.count(Outcome.RESTORED) == 5
    (folder / backups.INDEX_FILE).write_text("{" * 100_000)
    with pytest.raises(NotABackup, match="cannot read"):
        backups.restore(memory_log(), folder)


def test_a_restore_refuses_a_folder_that_is_not_a_backup(tmp_path: Path) -> None:
    with pytest.raises(NotABackup):
        backups.restore(memory_log(), tmp_path)
    (tmp_path / backups.INDEX_FILE).write_text(json.dumps({"format": "heronlog.backup", "format_version": 9}))
    with pytest.raises(NotABackup, match="format version 9"):
        backups.restore(memory_log(), tmp_path)


def test_an_index_entry_pointing_outside_the_backup_is_refused(tmp_path: Path) -> None:
    log = memory_log()
    log.create_game({"players": ["Ann", "Bo"], "seed": 3})
    folder = tmp_path / "backup"
    backups.backup(log, folder)
    index = index_of(folder)
    outside = tmp_path / "elsewhere.json"
    outside.write_text((folder / index["games"][0]["file"]).read_text())
    index["games"][0]["file"] = "../elsewhere.json"
    rewrite_index(folder, index)
    report = backups.restore(memory_log(), folder)
    [game] = report.games
    assert game.outcome is Outcome.FAILED and "not the name of a file in the backup" in game.message


def test_a_restored_game_is_played_on_like_any_other(
    archive: tuple[GameLog, dict[UUID, str]], tmp_path: Path
) -> None:
    target, _ = restored_copy(archive[0], tmp_path / "backup")
    for summary in target.list_games(include_private=True):
        if summary.status != "in progress":
            continue
        game = target.get(UUID(summary.game_id))
        move = pick(game.state, random.Random(summary.version))
        assert move in domain.legal_moves(game.state)
        played = target.play(game.id, move, expected_version=game.version, actor="owner")
        assert played.versions == (game.version + 1,)


def test_a_game_annotated_while_it_is_backed_up_still_restores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = memory_log()
    game_id = log.create_game({"players": ["Ann", "Bo"], "seed": 3}).game_id
    read = log.events_of

    def read_then_someone_plays_and_annotates(game: UUID, after: int = 0) -> list[Any]:
        events = read(game, after)
        monkeypatch.setattr(log, "events_of", read)  # once
        current = log.get(game)
        played = log.play(
            game, pick(current.state, random.Random(1)), expected_version=current.version, actor="x"
        )
        log.annotate(game, version=played.game.version, author="coach", text="just now")
        return events

    monkeypatch.setattr(log, "events_of", read_then_someone_plays_and_annotates)
    backups.backup(log, tmp_path / "backup")
    [entry] = index_of(tmp_path / "backup")["games"]
    assert (entry["game_id"], entry["version"], entry["status"]) == (str(game_id), 1, "in progress")
    assert entry["annotations"] == 0, "the note came after the game was read"
    assert backups.restore(memory_log(), tmp_path / "backup").ok
