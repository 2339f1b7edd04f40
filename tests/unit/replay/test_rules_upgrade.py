"""Rules upgrades never lock an archive (issue 27.6). A future build that no longer plays rules 0.1.0 stands in as
``replay.rules.COMPATIBLE`` narrowed to the current version: games of 0.1.0 are still listed, exported and
backed up, read as recorded and flagged; ``revalidate`` reports and never raises; ``upgrade`` checks them under
the new rules (a dry run first, writing nothing), moves those that pass with a ``RulesUpgraded`` event, after which
they are replayed and played on under the new rules, and leaves the others as recorded."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

import domain
from api.app import create_app
from replay import backups, rules
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.errors import RulesVersionUnsupported
from replay.events import RulesUpgraded
from replay.game import fold
from tests.api_helpers import ApiClient, flask_transport
from tests.replay_helpers import canonical, pick

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
    """This build as a future one that no longer plays rules 0.1.0."""
    monkeypatch.setattr(rules, "COMPATIBLE", frozenset({domain.RULES_VERSION}))


def test_games_of_dropped_rules_are_listed_exported_and_backed_up(
    archive: dict[str, Any], future: None, tmp_path: Path
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
    archive: dict[str, Any], future: None
) -> None:
    api = ApiClient(flask_transport(create_app({"STORE": archive["store"]}).test_client()))
    game_id = str(archive["refused"])
    statuses = {game["game_id"]: game["status"] for game in api.get("/api/games").body["games"]}
    assert statuses[game_id] == "rules unsupported"
    answer = api.get(f"/api/games/{game_id}")
    assert answer.error() == (422, "rules_version_unsupported")
    assert answer.body["details"]["game_id"] == game_id and answer.body["details"]["rules_version"] == OLD
    assert api.get(f"/api/games/{game_id}/export").status == 200
