"""The game log's behaviour, one suite run against all three stores: in-memory, SQLite (the library's module,
a real file) and Redis (heronlog's module against the redis-server that `make test` starts)."""

from __future__ import annotations

import json
import random
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

import domain
from replay import (
    GameClosed,
    GameNotFound,
    InvalidAnnotation,
    InvalidLog,
    NothingToRedo,
    NothingToUndo,
    StaleVersion,
    UnknownVersion,
    exports,
)
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.game import fold
from tests.replay_helpers import canonical, open_store, pick, play_random
from tests.unit.replay.amend_support import SEEDED_CORRECTION, SEEDED_RESOLUTIONS, seeded_scenario

STORES = ["memory", "sqlite", "redis"]


@pytest.fixture(params=STORES)
def log(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[GameLog]:
    """A fresh game log on each store in turn."""
    redis_url = request.getfixturevalue("redis_url") if request.param == "redis" else None
    app = open_store(request.param, tmp_path, redis_url)
    yield app
    app.close()


def new_game(log: GameLog, players: int = 3, seed: int = 7, mode: str = "seeded") -> uuid.UUID:
    return log.create_game({"players": [f"P{i}" for i in range(players)], "mode": mode, "seed": seed}).game_id


def test_a_new_game_stores_its_setup_catalog_and_rules_version(log: GameLog) -> None:
    game_id = new_game(log)
    game = log.get(game_id)
    assert game.version == 1
    assert [seat["name"] for seat in game.setup["players"]] == ["P0", "P1", "P2"]
    assert game.rules_version == domain.RULES_VERSION
    assert game.catalog == domain.catalog_of(game.state)
    assert domain.legal_moves(game.state), "a new seeded game waits on its first player"


def test_a_legal_move_is_recorded_and_described(log: GameLog) -> None:
    game_id = new_game(log)
    game = log.get(game_id)
    move = pick(game.state, random.Random(1))
    played = log.play(game_id, move, expected_version=1, actor="alice")
    assert played.versions == (2,)
    [entry] = log.timeline(game_id)
    assert entry.version == 2
    assert entry.description == domain.describe(game.state, move)
    assert entry.actor == "alice"
    assert len(entry.totals or ()) == 3


def test_an_illegal_move_is_refused_and_changes_nothing(log: GameLog) -> None:
    game_id = new_game(log)
    before = log.get(game_id)
    with pytest.raises(domain.DomainError) as caught:
        log.play(game_id, {"kind": "no_such_move", "seat": 0}, expected_version=1, actor="alice")
    assert caught.value.code in {"invalid_move", "illegal_move", "not_your_turn"}
    after = log.get(game_id)
    assert after.version == before.version == 1
    assert canonical(after.state) == canonical(before.state)


def test_a_stale_write_is_refused_with_the_current_version(log: GameLog) -> None:
    game_id = new_game(log)
    list(play_random(log, game_id, 2, random.Random(2)))
    state = log.get(game_id).state
    with pytest.raises(StaleVersion) as caught:
        log.play(game_id, pick(state, random.Random(3)), expected_version=1, actor="bob")
    assert caught.value.current_version == 3
    assert log.get(game_id).version == 3


def test_a_repeated_idempotency_key_returns_the_first_result_without_writing(log: GameLog) -> None:
    game_id = new_game(log)
    move = pick(log.get(game_id).state, random.Random(4))
    first = log.play(game_id, move, expected_version=1, actor="p", idempotency_key="k-1")
    again = log.play(game_id, move, expected_version=1, actor="p", idempotency_key="k-1")
    assert again.versions == first.versions == (2,)
    assert again.repeated
    assert log.get(game_id).version == 2


def test_a_batch_is_applied_all_or_nothing(log: GameLog) -> None:
    game_id = new_game(log)
    state = log.get(game_id).state
    good = pick(state, random.Random(5))
    with pytest.raises(domain.DomainError) as caught:
        log.play(game_id, [good, {"kind": "no_such_move", "seat": 0}], expected_version=1, actor="p")
    assert caught.value.details.get("batch_index") == 1
    assert log.get(game_id).version == 1
    second = pick(domain.apply(state, good), random.Random(6))
    played = log.play(game_id, [good, second], expected_version=1, actor="p")
    assert played.versions == (2, 3)


def test_undo_takes_back_the_last_move_and_keeps_it_in_the_log(log: GameLog) -> None:
    game_id = new_game(log)
    list(play_random(log, game_id, 3, random.Random(8)))
    before_last = log.state_at(game_id, 3)
    played = log.undo(game_id, expected_version=4, actor="carol")
    assert played.versions == (5,)
    game = log.get(game_id)
    assert canonical(game.state) == canonical(before_last)
    assert game.line == (2, 3)
    undone = [entry for entry in log.timeline(game_id, include_undone=True) if entry.undone]
    assert [entry.version for entry in undone] == [4]
    assert game.audit[-1].kind == "undo" and game.audit[-1].actor == "carol"


def test_undo_to_a_version_takes_back_several_moves_and_redo_replays_them(log: GameLog) -> None:
    game_id = new_game(log)
    list(play_random(log, game_id, 5, random.Random(9)))
    live = canonical(log.get(game_id).state)
    log.undo(game_id, to_version=3, expected_version=6, actor="p")
    assert log.get(game_id).line == (2, 3)
    log.redo(game_id, expected_version=7, actor="p")
    assert log.get(game_id).line == (2, 3, 4)
    log.redo(game_id, count=2, expected_version=8, actor="p")
    game = log.get(game_id)
    assert game.line == (2, 3, 4, 5, 6)
    assert canonical(game.state) == live
    with pytest.raises(NothingToRedo):
        log.redo(game_id, expected_version=9, actor="p")


def test_a_new_move_ends_what_could_be_redone(log: GameLog) -> None:
    game_id = new_game(log)
    list(play_random(log, game_id, 2, random.Random(10)))
    log.undo(game_id, expected_version=3, actor="p")
    game = log.get(game_id)
    log.play(game_id, pick(game.state, random.Random(11)), expected_version=4, actor="p")
    with pytest.raises(NothingToRedo):
        log.redo(game_id, expected_version=5, actor="p")


def test_undo_with_nothing_to_undo_is_refused(log: GameLog) -> None:
    game_id = new_game(log)
    with pytest.raises(NothingToUndo):
        log.undo(game_id, expected_version=1, actor="p")
    with pytest.raises(UnknownVersion):
        log.undo(game_id, to_version=99, expected_version=1, actor="p")


def test_amend_replaces_a_past_move_and_reports_what_still_fits(log: GameLog) -> None:
    game_id = new_game(log, seed=12)
    list(play_random(log, game_id, 6, random.Random(12)))
    game = log.get(game_id)
    target = game.line[1]
    before = game.state_after(1)
    alternatives = [
        move
        for move in domain.legal_moves(before)
        if move != game.records[target].move and move["kind"] != "convert"
    ]
    if not alternatives:
        pytest.skip("no alternative at that point for this seed")  # pragma: no cover
    played, report = log.amend(game_id, target, alternatives[0], expected_version=game.version, actor="ref")
    amended = log.get(game_id)
    assert amended.records[played.versions[0]].amends == target
    assert set(report.kept) | set(report.dropped) == set(game.line[2:])
    assert amended.line == (game.line[0], played.versions[0], *report.kept)
    # The amended line of play refolds to the same state from scratch.
    assert canonical(fold(log.events_of(game_id)).state) == canonical(amended.state)


def test_an_amendment_with_resolutions_is_one_write_that_keeps_the_game(log: GameLog) -> None:
    """The correction scenario on each store: move 10 corrected, move 14 resolved, written in one atomic append
    (the resolution's move and the amendment); a cold read, a snapshot's, an export and its import agree."""
    game_id = seeded_scenario(log)
    game = log.get(game_id)
    written_before = [exports.event_to_dict(event) for event in log.events_of(game_id)]
    played, report = log.amend(
        game_id,
        game.line[9],
        SEEDED_CORRECTION,
        expected_version=game.version,
        actor="owner",
        resolutions=SEEDED_RESOLUTIONS,
    )
    assert played.versions == (game.version + 1, game.version + 2)
    assert report.all_fit and len(report.kept) == 55 and report.over
    # the same write again is stale: nothing is written twice
    with pytest.raises(StaleVersion):
        log.amend(
            game_id,
            game.line[9],
            SEEDED_CORRECTION,
            expected_version=game.version,
            actor="owner",
            resolutions=SEEDED_RESOLUTIONS,
        )
    stored = log.events_of(game_id)
    assert [exports.event_to_dict(event) for event in stored[: len(written_before)]] == written_before
    assert [type(event).__name__ for event in stored[-2:]] == ["MoveResolved", "MoveAmended"]
    amended = log.get(game_id)
    assert amended.status == "finished" and len(amended.line) == 66
    cold = fold(stored)
    assert cold.line == amended.line and canonical(cold.state) == canonical(amended.state)
    assert canonical(log.state_at(game_id, game.version + 1)) == canonical(game.state)
    imported = log.import_log(log.export(game_id), keep_id=False).game_id
    assert canonical(log.get(imported).state) == canonical(amended.state)


def test_fork_starts_a_linked_game_at_the_chosen_version(log: GameLog) -> None:
    game_id = new_game(log)
    list(play_random(log, game_id, 4, random.Random(13)))
    branch = log.fork(game_id, 3).game_id
    forked = log.get(branch)
    assert forked.parent == {"game_id": str(game_id), "version": 3}
    assert canonical(forked.state) == canonical(log.state_at(game_id, 3))
    list(play_random(log, branch, 2, random.Random(14)))
    assert log.get(game_id).version == 5, "playing on a branch leaves its parent alone"


def test_state_at_gives_the_state_that_was_live_at_each_version(log: GameLog) -> None:
    game_id = new_game(log)
    seen = {1: canonical(log.get(game_id).state)}
    for version in play_random(log, game_id, 6, random.Random(15)):
        seen[version] = canonical(log.get(game_id).state)
    log.undo(game_id, to_version=4, expected_version=7, actor="p")
    seen[8] = seen[4]
    for version, state in seen.items():
        assert canonical(log.state_at(game_id, version)) == state, version


def test_annotations_live_in_their_own_stream_and_survive_undo(log: GameLog) -> None:
    game_id = new_game(log)
    list(play_random(log, game_id, 2, random.Random(16)))
    note = log.annotate(game_id, version=3, author="teacher", text="Good tempo", glyph="!").annotation
    log.undo(game_id, expected_version=3, actor="p")
    [kept] = log.annotations(game_id)
    assert (kept.id, kept.text, kept.glyph, kept.version) == (note.id, "Good tempo", "!", 3)
    assert log.get(game_id).version == 4, "annotating never wrote to the game's stream"
    edited = log.edit_annotation(
        game_id, note.id, editor="teacher", text="Great tempo", glyph="!!"
    ).annotation
    assert (edited.text, edited.glyph, edited.edited_by) == ("Great tempo", "!!", "teacher")
    log.delete_annotation(game_id, note.id, actor="teacher")
    assert log.annotations(game_id) == []
    with pytest.raises(InvalidAnnotation):
        log.annotate(game_id, version=1, author="x", text="bad glyph", glyph="!!!")
    with pytest.raises(InvalidAnnotation):
        log.annotate(game_id, version=99, author="x", text="beyond the game")


def test_an_exported_game_imports_back_equal(log: GameLog) -> None:
    game_id = new_game(log)
    list(play_random(log, game_id, 6, random.Random(17)))
    log.undo(game_id, expected_version=7, actor="owner")
    log.redo(game_id, expected_version=8, actor="owner")
    log.annotate(game_id, version=4, author="seat:1", text="note", target={"kind": "bridge", "id": "coral"})
    exported = json.loads(json.dumps(log.export(game_id), default=str))
    copy = log.import_log(exported, keep_id=False).game_id
    again = json.loads(json.dumps(log.export(copy), default=str))
    assert again.pop("game_id") == str(copy)
    exported.pop("game_id")
    for entry in again["annotations"]:
        entry["data"]["game_id"] = str(game_id)
    assert again == exported
    assert canonical(log.get(copy).state) == canonical(log.get(game_id).state)


def test_import_reports_every_problem_with_its_position(log: GameLog) -> None:
    game_id = new_game(log)
    list(play_random(log, game_id, 8, random.Random(18)))
    exported = json.loads(json.dumps(log.export(game_id), default=str))
    exported["events"][1]["data"]["move"] = {"kind": "no_such_move", "seat": 0}
    exported["events"][3]["version"] = 42
    with pytest.raises(InvalidLog) as caught:
        log.check_log(exported)
    problems = {problem["position"]: problem["message"] for problem in caught.value.problems}
    last = len(exported["events"]) - 1
    # Each problem once, where it is: the events after a refused one were once each reported "version N
    # should be 3", as if they were wrong too, where they only cannot be replayed past it.
    assert list(problems) == ["events[1]", "events[3]", f"events[2..{last}]"]
    assert problems["events[3]"] == "version 42 should be 5"
    assert problems[f"events[2..{last}]"] == "not replayed by the rules: they come after events[1]"


def test_an_abandoned_game_can_be_read_but_not_played(log: GameLog) -> None:
    game_id = new_game(log)
    log.abandon(game_id, expected_version=1, actor="owner", reason="table closed")
    with pytest.raises(GameClosed):
        log.play(game_id, pick(log.get(game_id).state, random.Random(1)), expected_version=2, actor="p")
    assert log.list_games()[0].status == "abandoned"


def test_the_list_of_games_is_searchable_and_hides_private_games(log: GameLog) -> None:
    a = log.create_game({"players": ["Ann", "Bo"], "seed": 1}).game_id
    log.create_game({"players": ["Cy", "Di"], "seed": 2, "private": True})
    c = log.create_game({"players": ["Ann", "Ed"], "seed": 3, "title": "Club night"}).game_id
    assert [summary.game_id for summary in log.list_games()] == [str(c), str(a)]
    assert [summary.game_id for summary in log.list_games(search="club")] == [str(c)]
    assert len(log.list_games(include_private=True)) == 3


def test_a_complete_game_exports_its_score_sheet_text_and_bgstats_play(log: GameLog) -> None:
    game_id = new_game(log, players=2, seed=19)
    list(play_random(log, game_id, 2000, random.Random(19)))
    game = log.get(game_id)
    assert domain.is_over(game.state)
    text = log.export_text(game_id)
    assert "## Round 3" in text and "## Score sheet" in text
    # the setup's choices are headed as the replay page names them, not as a "Turn 0"
    assert "### Setup: " in text and "### Turn 0" not in text and "### Turn 1: " in text
    play = log.export_bgstats(game_id)
    scores = play["plays"][0]["playerScores"]
    assert sorted(score["rank"] for score in scores) == [1, 2]
    assert sum(score["winner"] for score in scores) == 1
    assert log.list_games()[0].status == "finished"
    assert log.revalidate(game_id)["ok"]


@pytest.mark.parametrize("kind", ["sqlite", "redis"])
def test_a_game_and_its_grants_read_together_show_what_another_process_recorded_since(
    kind: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Every request with a token reads the game and its access stream together (GameStore.read_together):
    both as they stand, moves and tokens written by another process included, exactly as reading each alone."""
    if kind == "redis":
        config = StoreConfig(
            kind="redis", redis_url=request.getfixturevalue("redis_url"), redis_prefix=f"t-{uuid.uuid4().hex}"
        )
    else:
        config = StoreConfig(kind="sqlite", sqlite_path=tmp_path / "games.sqlite")
    here, there = open_log(config), open_log(config)
    try:
        issued = here.create_game({"players": ["Ann", "Bo"], "seed": 5})
        game_id = issued.game_id
        for _ in range(2):  # the first read caches the access stream; the second finds both cached
            game, grant = here.game_and_grant(game_id, issued.token)
            assert game.version == 1 and grant is not None and grant.role == "owner"
        versions = list(play_random(there, game_id, 3, random.Random(5)))
        seat = there.issue_seat_token(game_id, 1, by="owner")
        game, grant = here.game_and_grant(game_id, seat.token)
        assert game.version == versions[-1] == there.get(game_id).version
        assert game.state == there.get(game_id).state
        assert here.access(game_id) == there.access(game_id), "read together or alone, the same grants"
        assert grant is not None and grant.seat == 1
        assert here.game_and_grant(game_id, "not-a-token")[1] is None

        there.revoke_seat(game_id, 1, by="owner")
        assert here.game_and_grant(game_id, seat.token)[1] is None
        assert here.game_and_grant(game_id, issued.token)[1] is not None
        with pytest.raises(GameNotFound):
            here.game_and_grant(uuid.uuid4(), issued.token)
    finally:
        here.close()
        there.close()
