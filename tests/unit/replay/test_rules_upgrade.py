"""Rules upgrades never lock an archive. A future build that no longer plays rules 0.1.0 stands in as
``replay.rules.COMPATIBLE`` narrowed to the current version: games of 0.1.0 are still listed, exported and
backed up, read as recorded and flagged; ``revalidate`` reports and never raises; ``upgrade`` checks them under
the new rules (a dry run first, writing nothing), moves those that pass with a ``RulesUpgraded`` event, after which
they are replayed and played on under the new rules, and leaves the others as recorded."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

import domain
import domain.game as domain_game
from api.app import create_app
from api.server.cli import main as heronlog
from replay import backups, rules
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.errors import RulesVersionUnsupported
from replay.events import RulesUpgraded
from replay.game import fold
from tests.api_helpers import ApiClient, flask_transport
from tests.replay_helpers import canonical, pick, play_random

OLD = "0.1.0"


def old_game(log: GameLog, seed: int, moves: int) -> UUID:
    """A 2-player game recorded by a build of rules 0.1.0 (its opening as 0.1.0 deals seed ``seed``), then
    played on for ``moves`` moves while that build still played them."""
    template = log.create_game({"players": ["Aiko", "Ben"], "seed": seed}).game_id
    document = json.loads(json.dumps(log.export(template), default=str))
    _, drawn = rules.draw_opening(rules.fresh_state(document["setup"], document["catalog"], OLD))
    game_id = log.import_log({**document, "rules_version": OLD, "opening": drawn}, keep_id=False).game_id
    rng = random.Random(seed)
    for _ in range(moves):
        game = log.get(game_id)
        log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="owner")
    return game_id


@pytest.fixture
def archive(tmp_path: Path) -> dict[str, Any]:
    """An archive on SQLite: a 0.1.0 game the current rules refuse (seed 94 deals a one-colour room), a 0.1.0
    game they accept, and a game of the current rules."""
    store = StoreConfig(kind="sqlite", sqlite_path=tmp_path / "archive.sqlite")
    log = open_log(store)
    games = {
        "refused": old_game(log, 94, 6),
        "passes": old_game(log, 7, 9),
        "current": log.create_game({"players": 3, "seed": 5}).game_id,
    }
    log.close()
    return {"store": store, **games}


@pytest.fixture
def future(monkeypatch: pytest.MonkeyPatch) -> None:
    """This build as a future one that no longer replays rules 0.1.0."""
    monkeypatch.setattr(rules, "COMPATIBLE", frozenset({domain.RULES_VERSION}))


@pytest.fixture
def dropped(monkeypatch: pytest.MonkeyPatch, future: None) -> None:
    """This build as a future one whose engine no longer knows rules 0.1.0 at all: it builds no state, deals
    nothing and packages no catalog for them."""
    later = tuple(version for version in domain.RULES_VERSIONS if version != OLD)
    monkeypatch.setattr(domain_game, "RULES_VERSIONS", later)
    monkeypatch.setattr(domain, "RULES_VERSIONS", later)
    monkeypatch.setattr(rules, "_PACKAGED", {})  # a fresh process of that build has packaged nothing yet


def test_games_of_dropped_rules_are_listed_exported_and_backed_up(
    archive: dict[str, Any], dropped: None, tmp_path: Path
) -> None:
    log = open_log(archive["store"])
    try:
        listed = {summary.game_id: summary for summary in log.list_games(limit=50)}
        for name in ("refused", "passes"):
            game_id = archive[name]
            assert listed[str(game_id)].status == "rules unsupported"
            game = log.get(game_id)  # read as recorded: moves, words, undo, without states
            assert game.rules_version == OLD and not game.playable and len(game.line) > 0
            with pytest.raises(RulesVersionUnsupported) as refused:
                _ = game.state
            assert refused.value.details["game_id"] == str(game_id)
            assert log.export(game_id)["rules_version"] == OLD
        assert listed[str(archive["current"])].status == "in progress"
        report = backups.backup(log, tmp_path / "backup")
        assert report.ok and len(report.games) == 5  # with the two games the old ones were made from
    finally:
        log.close()


def test_revalidate_reports_and_never_raises_for_a_rules_version(
    archive: dict[str, Any], future: None
) -> None:
    log = open_log(archive["store"])
    try:
        reports = {report["game_id"]: report for report in log.revalidate_all()}
        refused = reports[str(archive["refused"])]
        assert (refused["ok"], refused["version"], refused["error"]["rule"], refused["rules_version"]) == (
            False,
            1,
            "R-S05",
            OLD,
        )
        assert reports[str(archive["passes"])]["ok"] and reports[str(archive["current"])]["ok"]
    finally:
        log.close()


def test_upgrade_dry_runs_then_moves_the_games_that_pass_and_leaves_the_others_as_recorded(
    archive: dict[str, Any], future: None, tmp_path: Path
) -> None:
    log = open_log(archive["store"])
    try:
        versions = {name: log.get(archive[name]).version for name in ("refused", "passes", "current")}
        dry = {name: log.upgrade(archive[name]) for name in ("refused", "passes", "current")}
        assert [dry[name]["outcome"] for name in ("refused", "passes", "current")] == [
            "refused",
            "would move",
            "current",
        ]
        assert {name: log.get(archive[name]).version for name in versions} == versions  # nothing written
        # seeded, and under rules this build no longer replays: moving is the only way on, and its draw changes
        assert dry["passes"]["draw_kept"] is None
        assert dry["passes"]["draw_change"] == (
            f"rules {domain.RULES_VERSION} draw a seeded game's chance from SplitMix64, rules {OLD} from the "
            "Mersenne Twister"
        )

        moved = log.upgrade(archive["passes"], apply=True)
        assert moved["outcome"] == "moved" and moved["version"] == versions["passes"] + 1
        game = log.get(archive["passes"])
        assert game.rules_version == game.state.rules_version == domain.RULES_VERSION
        assert isinstance(log.events_of(archive["passes"])[-1], RulesUpgraded)
        assert canonical(fold(log.events_of(archive["passes"])).state) == canonical(game.state)
        played = log.play(archive["passes"], pick(game.state, random.Random(1)), expected_version=game.version,
                          actor="owner")  # fmt: skip
        assert played.game.version == game.version + 1
        assert log.upgrade(archive["refused"], apply=True)["outcome"] == "refused"
        assert not log.get(archive["refused"]).playable
        assert log.get(archive["refused"]).version == versions["refused"]
    finally:
        log.close()
    # Read again by another process (its snapshot and events), and its export imported into this build.
    again = open_log(archive["store"])
    try:
        game = again.get(archive["passes"])
        assert game.playable and game.audit[-1].kind == "upgrade"
        copy = again.import_log(
            json.loads(json.dumps(again.export(archive["passes"]), default=str)), keep_id=False
        )
        assert canonical(again.get(copy.game_id).state) == canonical(game.state)
    finally:
        again.close()


def test_over_http_a_game_of_dropped_rules_is_listed_flagged_exported_and_named(
    archive: dict[str, Any], dropped: None
) -> None:
    api = ApiClient(flask_transport(create_app({"STORE": archive["store"]}).test_client()))
    game_id = str(archive["refused"])
    statuses = {game["game_id"]: game["status"] for game in api.get("/api/games").body["games"]}
    assert statuses[game_id] == "rules unsupported"
    answer = api.get(f"/api/games/{game_id}")
    assert answer.error() == (422, "rules_version_unsupported")
    assert answer.body["details"]["game_id"] == game_id and answer.body["details"]["rules_version"] == OLD
    exported = api.get(f"/api/games/{game_id}/export")
    assert exported.status == 200 and exported.body["rules_version"] == OLD


def test_an_engine_without_the_old_rules_exports_and_backs_up_their_games_before_and_after_an_upgrade(
    archive: dict[str, Any], dropped: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command line of a build whose engine dropped 0.1.0: export, backup, list and read every game, before
    and after ``upgrade --apply`` moved the one that passes, and the backup restores into a store of its own."""
    assert archive["store"].sqlite_path is not None
    monkeypatch.setattr("replay.config.SQLITE_FILENAME", archive["store"].sqlite_path.name)
    data = ["--store", "sqlite", "--data", str(archive["store"].sqlite_path.parent)]
    for step, upgrade in (("before", []), ("after", ["upgrade", "--apply", *data])):
        if upgrade:
            assert heronlog(upgrade) == 1  # the refused game stays as recorded: exit 1, said
        for name in ("refused", "passes", "current"):
            assert heronlog(["export", str(archive[name]), "-o", str(tmp_path / f"{name}.json"), *data]) == 0
            document = json.loads((tmp_path / f"{name}.json").read_text())
            assert document["game_id"] == str(archive[name])
        assert heronlog(["backup", str(tmp_path / step), *data]) == 0
        index = json.loads((tmp_path / step / "index.json").read_text())
        assert len(index["games"]) == 5 and not index["failed"]
    log = open_log(archive["store"])
    try:
        assert log.get(archive["passes"]).playable and not log.get(archive["refused"]).playable
        listed = {summary.game_id: summary.status for summary in log.list_games()}
        assert listed[str(archive["refused"])] == "rules unsupported" and len(listed) == 5
    finally:
        log.close()


def seeded_and_table_games(log: GameLog) -> dict[str, UUID]:
    """Games recorded under rules before 0.4.0, each played a few moves: seeded under 0.3.0 and 0.2.0 (both
    drawn by the Mersenne Twister), and a table game of 0.3.0."""
    games = {
        "seeded": log.create_game({"players": ["Aiko", "Ben"], "seed": 7}, rules_version="0.3.0").game_id,
        "older": log.create_game({"players": ["Aiko", "Ben"], "seed": 7}, rules_version="0.2.0").game_id,
        "table": log.create_game(
            {"players": ["Aiko", "Ben"], "mode": "table"}, rules_version="0.3.0"
        ).game_id,
    }
    for game_id in games.values():
        list(play_random(log, game_id, 6, random.Random(7)))
    return games


def test_a_seeded_game_keeps_the_draw_it_was_recorded_with_while_this_build_replays_its_rules() -> None:
    """Rules 0.4.0 on draw a seeded game's chance from SplitMix64 (`domain.chance`): a seeded game of 0.3.0
    moved to them would draw its later chance, and the chance drawn again after a correction, otherwise than
    its seed did. Every move of it passes them, but upgrade keeps it (dry run and --apply alike), and says
    why; a seeded game of 0.2.0 may move as far as 0.3.0, the latest rules that draw as it did; a table game
    moves (its chance was entered, never drawn)."""
    log = open_log(StoreConfig(kind="memory"))
    games = seeded_and_table_games(log)
    change = (
        f"rules {domain.RULES_VERSION} draw a seeded game's chance from SplitMix64, rules 0.3.0 from the Mersenne "
        "Twister"
    )

    checked = log.revalidate(games["seeded"])
    assert (checked["ok"], checked["draw_change"]) == (True, change)
    assert checked["draw_kept"] == (
        f"a seeded game keeps the draw it was recorded with: {change}, so what it draws from here on, and again "
        "after a correction, would not be what its seed draws under rules 0.3.0"
    )
    versions = {name: log.get(game_id).version for name, game_id in games.items()}
    for apply in (False, True):
        report = log.upgrade(games["seeded"], apply=apply)
        assert (report["outcome"], report["draw_kept"]) == ("kept", checked["draw_kept"])
        older = log.upgrade(games["older"], apply=apply)
        assert older["outcome"] == "kept"
        assert older["draw_kept"].endswith(
            "under rules 0.2.0 (--to 0.3.0: the latest rules that draw as it did)"
        )
    assert {name: log.get(game_id).version for name, game_id in games.items()} == versions  # nothing written

    moved = log.upgrade(games["older"], to="0.3.0", apply=True)
    assert (moved["outcome"], moved["draw_change"], moved["draw_kept"]) == ("moved", None, None)
    assert log.get(games["older"]).state.rules_version == "0.3.0"
    table = log.upgrade(games["table"], apply=True)
    assert (table["outcome"], table["draw_change"]) == ("moved", None)
    assert log.get(games["table"]).state.rules_version == domain.RULES_VERSION


def test_once_a_build_drops_its_rules_a_seeded_game_moves_and_draws_as_the_new_rules_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A build that no longer replays 0.3.0 (stood in for by ``COMPATIBLE`` narrowed): kept under its rules, the
    game could only be read; it moves, and its chance is drawn by SplitMix64 from the move on."""
    log = open_log(StoreConfig(kind="memory"))
    game_id = seeded_and_table_games(log)["seeded"]
    monkeypatch.setattr(rules, "COMPATIBLE", frozenset({domain.RULES_VERSION}))
    moved = log.upgrade(game_id, apply=True)
    assert (moved["outcome"], moved["draw_kept"]) == ("moved", None)
    assert moved["draw_change"].startswith(
        f"rules {domain.RULES_VERSION} draw a seeded game's chance from SplitMix64"
    )
    game = log.get(game_id)
    rng = random.Random(1)
    while True:  # on to the first move that chance follows
        state, move = game.state, pick(game.state, rng)
        game = log.play(game_id, move, expected_version=game.version, actor="owner").game
        drawn = game.records[game.line[-1]].chance
        if drawn:
            break
    assert state.rules_version == domain.RULES_VERSION
    assert list(drawn) == list(domain.step(state, move).chance)
    assert list(drawn) != list(domain.step(dataclasses.replace(state, rules_version="0.3.0"), move).chance)
