"""Corrections that keep the game: an amendment with resolutions.

A past move is corrected; each later move that no longer fits is answered by a resolution (the move really
played there, or none, or a move left out before it), found misfit by misfit with dry runs; the whole
correction is written at once, nothing deleted. The golden scenarios, the checks of resolutions, and what every
reader of a game (timeline, text record, annotations, undo and redo, branches, past versions, snapshots,
exports) makes of one.
"""

from __future__ import annotations

import copy
import uuid
from typing import Any

import pytest

import domain
from replay import (
    InvalidLog,
    InvalidResolution,
    ResolutionNotLater,
    ResolutionNotNeeded,
    ResolutionRepeated,
    ResolutionUnused,
)
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.decisions import line_at
from replay.events import MoveAmended, MoveResolved
from replay.exports import event_to_dict
from replay.game import GameSnapshot, fold, restore
from replay.history import timeline
from tests.replay_helpers import canonical
from tests.unit.replay.amend_support import (
    MOVE_10_RECORDED,
    MOVE_14_RECORDED,
    MOVE_14_RESOLVED,
    SEEDED_CORRECTION,
    SEEDED_RESOLUTIONS,
    TABLE_CORRECTIONS,
    golden_table_game,
    seeded_scenario,
)


@pytest.fixture
def log() -> GameLog:
    return open_log(StoreConfig(kind="memory"))


def move_at(log: GameLog, game_id: uuid.UUID, index: int) -> int:
    """The version of move ``index`` (from 1) of the line of play."""
    return log.get(game_id).line[index - 1]


def correct(
    log: GameLog,
    game_id: uuid.UUID,
    index: int,
    move: dict[str, Any],
    resolutions: list[dict[str, Any]],
    *,
    dry_run: bool = False,
) -> Any:
    game = log.get(game_id)
    return log.amend(
        game_id,
        game.line[index - 1],
        move,
        expected_version=game.version,
        actor="owner",
        dry_run=dry_run,
        resolutions=resolutions,
    )


def stored(log: GameLog, game_id: uuid.UUID) -> list[dict[str, Any]]:
    return [event_to_dict(event) for event in log.events_of(game_id)]


# --- the golden scenarios -----------------------------------------------------------------------------------


def test_the_issues_scenario_keeps_55_of_the_56_later_moves_once_move_14_is_resolved(log: GameLog) -> None:
    game_id = seeded_scenario(log)
    game = log.get(game_id)
    assert len(game.line) == 66 and game.status == "finished"
    assert game.records[game.line[9]].description == MOVE_10_RECORDED

    _, report = correct(log, game_id, 10, SEEDED_CORRECTION, [], dry_run=True)
    misfit = report.first_misfit
    assert (len(report.kept), len(report.dropped)) == (3, 53)  # without a resolution: today's answer
    assert misfit["index"] == 14 and misfit["rule"] == "R-P05"
    assert misfit["recorded_words"] == MOVE_14_RECORDED
    assert misfit["reason"] == "steward room 1 is full: dice are never stacked at 1-2 players"
    assert misfit["player"] == "Ben" and misfit["seat"] == 1 and not misfit["after_resolution"]
    assert SEEDED_RESOLUTIONS[0]["move"] in misfit["legal_moves"]

    written_before = stored(log, game_id)
    played, report = correct(log, game_id, 10, SEEDED_CORRECTION, SEEDED_RESOLUTIONS)
    assert report.all_fit and report.over and len(report.kept) == 55 and len(report.kept) >= 50
    assert report.resolved == (
        {
            "index": 14,
            "version": game.line[13],
            "recorded_words": MOVE_14_RECORDED,
            "words": [MOVE_14_RESOLVED],
            "kept": False,
        },
    )
    after = log.get(game_id)
    assert played.versions == (game.version + 1, game.version + 2)  # one write: the resolution, the amendment
    assert stored(log, game_id)[: len(written_before)] == written_before  # nothing rewritten
    assert after.status == "finished" and len(after.line) == 66
    assert after.line[10:13] == game.line[10:13] and after.line[14:] == game.line[14:]


@pytest.mark.parametrize("name", sorted(TABLE_CORRECTIONS))
def test_a_finished_table_game_corrected_misfit_by_misfit_keeps_80_percent_of_its_later_moves_in_one_write(
    log: GameLog, name: str
) -> None:
    index, move, resolutions = TABLE_CORRECTIONS[name]
    game_id = golden_table_game(log)
    game = log.get(game_id)
    assert game.status == "finished"
    later = len(game.line) - index
    # found one at a time: each dry run names the next misfit to resolve
    for found in range(len(resolutions)):
        _, report = correct(log, game_id, index, move, resolutions[:found], dry_run=True)
        assert report.first_misfit is not None
        assert report.first_misfit["index"] == resolutions[found]["index"]
    played, report = correct(log, game_id, index, move, resolutions)
    after = log.get(game_id)
    assert report.all_fit and len(report.kept) >= 0.8 * later
    assert len(report.resolved) == len(resolutions)
    if name == "first placement":
        assert report.over and after.status == "finished"
    else:
        # Ana's last die now leaves her a seal for her Action card's Gardener action, which nobody recorded
        # (she had none at the table): the report says the game waits for it, and her answer ends it again.
        assert not report.over and after.status == "in progress"
        assert domain.prompt_of(after.state)["kind"] == "actions"
        log.play(game_id, {"kind": "done", "seat": 0}, expected_version=after.version, actor="owner")
        assert log.get(game_id).status == "finished"
    assert after.version == played.versions[-1] and len(played.versions) == 1 + sum(
        len(r.get("moves", [r.get("move")])) for r in resolutions
    )
    # table mode: chance is what happened at the table; the recorded dice, cards and tiles kept are as they were
    assert report.redrawn == {}
    chance = [v for v in game.line[index:] if game.records[v].seat is None]
    assert chance and all(after.records[v] == game.records[v] for v in chance if v in report.kept)
    assert {after.records[v].move["kind"] for v in chance if v in report.kept} >= {"roll"}


# --- what a resolution may be ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("resolutions", "error", "details"),
    [
        ([{"index": 10, "move": {"kind": "done", "seat": 1}}], ResolutionNotLater, {"index": 10}),
        ([{"index": 3, "move": {"kind": "done", "seat": 1}}], ResolutionNotLater, {"index": 3}),
        ([{"index": 67, "move": {"kind": "done", "seat": 1}}], ResolutionNotLater, {"index": 67}),
        ([SEEDED_RESOLUTIONS[0], SEEDED_RESOLUTIONS[0]], ResolutionRepeated, {"index": 14}),
        ([{"index": 12, "move": {"kind": "done", "seat": 0}}], ResolutionNotNeeded, {"index": 12}),
        ([{"index": 30, "moves": []}], ResolutionUnused, {"indexes": [30], "first_misfit": 14}),
        (["well"], InvalidResolution, {"resolution": 0}),
        ([{"index": 14}], InvalidResolution, {"resolution": 0}),
        ([{"index": "14", "moves": []}], InvalidResolution, {"resolution": 0}),
        ([{"index": 14, "move": {"kind": "x"}, "moves": []}], InvalidResolution, {"resolution": 0}),
        ([{"index": 14, "moves": [{"seat": 1}]}], InvalidResolution, {"resolution": 0}),
        ([{"index": 14, "moves": [], "keep_recorded": "yes"}], InvalidResolution, {"resolution": 0}),
        ([{"index": 14, "moves": [], "after": 13}], InvalidResolution, {"resolution": 0}),
    ],
    ids=[
        "the corrected move",
        "an earlier move",
        "beyond the line",
        "twice the same index",
        "a move that still fits",
        "after a misfit left without one",
        "not an object",
        "no move",
        "an index as text",
        "move and moves",
        "a move without a kind",
        "keep_recorded not a boolean",
        "an unknown field",
    ],
)
def test_a_resolution_that_does_not_fit_the_correction_is_refused_and_nothing_is_written(
    log: GameLog, resolutions: list[Any], error: type[Exception], details: dict[str, Any]
) -> None:
    game_id = seeded_scenario(log)
    written = stored(log, game_id)
    for dry_run in (True, False):
        with pytest.raises(error) as refused:
            correct(log, game_id, 10, SEEDED_CORRECTION, resolutions, dry_run=dry_run)
        assert details.items() <= refused.value.details.items()  # type: ignore[attr-defined]
        assert refused.value.message  # type: ignore[attr-defined]
    assert stored(log, game_id) == written


def test_a_resolution_the_rules_refuse_is_their_error_naming_the_resolution(log: GameLog) -> None:
    game_id = seeded_scenario(log)
    written = stored(log, game_id)
    full = {"kind": "place_die", "seat": 1, "space": "steward_1"}  # the room the correction filled
    with pytest.raises(domain.IllegalMove) as refused:
        correct(log, game_id, 10, SEEDED_CORRECTION, [{"index": 14, "move": full}])
    assert refused.value.rule == "R-P05" and refused.value.details["resolution_index"] == 14
    assert stored(log, game_id) == written


def test_without_a_resolution_a_misfit_still_drops_the_rest_as_before(log: GameLog) -> None:
    game_id = seeded_scenario(log)
    game = log.get(game_id)
    played, report = correct(log, game_id, 10, SEEDED_CORRECTION, [])
    after = log.get(game_id)
    assert report.dropped == game.line[13:] and not report.resolved
    assert after.line == (*game.line[:9], played.versions[-1], *game.line[10:13])
    [amended] = log.events_of(game_id, after=game.version)
    assert isinstance(amended, MoveAmended) and amended.resolutions == []


def test_a_move_left_out_of_the_record_goes_before_the_recorded_move_which_stays(log: GameLog) -> None:
    index, move, resolutions = TABLE_CORRECTIONS["well to steward room 1"]
    game_id = golden_table_game(log)
    game = log.get(game_id)
    inserted = resolutions[0]  # Bo declined steward room 1's action, then Ana took the black 2 (move 67)
    _, report = correct(log, game_id, index, move, [inserted], dry_run=True)
    assert report.resolved[0]["kept"] and report.resolved[0]["words"] == [
        "Bo declines the rest (steward room 1)"
    ]
    assert game.line[66] in report.kept and report.first_misfit["index"] == 70

    # a move left out before one that still does not fit after it: the same misfit, to be resolved further
    early = {"index": 67, "moves": [], "keep_recorded": True}
    _, report = correct(log, game_id, index, move, [early], dry_run=True)
    assert report.first_misfit["index"] == 67 and report.first_misfit["after_resolution"]
    assert report.dropped[0] == game.line[66] and not report.resolved[0]["kept"]


def test_a_recorded_move_that_never_happened_leaves_the_line_without_taking_anything_with_it(
    log: GameLog,
) -> None:
    index, move, resolutions = TABLE_CORRECTIONS["well to steward room 1"]
    game_id = golden_table_game(log)
    game = log.get(game_id)
    skipped = [entry for entry in resolutions if entry.get("moves") == []]
    assert skipped
    correct(log, game_id, index, move, resolutions)
    after = log.get(game_id)
    for entry in skipped:
        version = game.line[entry["index"] - 1]
        assert version not in after.line and version in after.records  # off the line, still in the log


# --- what the readers of a game make of it ----------------------------------------------------------------------


def corrected_scenario(log: GameLog) -> tuple[uuid.UUID, Any, Any]:
    """The correction scenario, corrected and resolved: the game id, the game before and after."""
    game_id = seeded_scenario(log)
    game = log.get(game_id)
    correct(log, game_id, 10, SEEDED_CORRECTION, SEEDED_RESOLUTIONS)
    return game_id, game, log.get(game_id)


def test_the_timeline_reads_a_resolved_move_as_a_corrected_move(log: GameLog) -> None:
    _, game, after = corrected_scenario(log)
    entries = {entry.index: entry for entry in timeline(after)}
    ten, fourteen, fifteen = entries[10], entries[14], entries[15]
    assert (ten.correction, ten.amends, ten.stands_for) == ("amended", game.line[9], (game.line[9],))
    assert ten.replaced == MOVE_10_RECORDED
    assert ten.description == (
        "Ben places the coral 2 on steward room 1, paying 1 coin; with the Lantern Reward and steward room 1: gains "
        "2 food and 1 iron"
    )
    assert fourteen.correction == "resolved" and fourteen.amends == game.line[13]
    assert fourteen.description == MOVE_14_RESOLVED
    assert fourteen.replaced == MOVE_14_RECORDED
    assert (fifteen.correction, fifteen.amends, fifteen.version) == (None, None, game.line[14])
    undone = {entry.version: entry for entry in timeline(after, include_undone=True) if entry.undone}
    assert set(undone) == {game.line[9], game.line[13]}


def test_the_text_record_marks_a_resolved_move_as_corrected(log: GameLog) -> None:
    game_id, game, _ = corrected_scenario(log)
    lines = log.export_text(game_id).splitlines()
    fourteen = (
        "   14. Ben places the black 1 on the Well; with the Lantern Reward and the Well: gains 1 coin, 1 seal, 1 food "
        "and 1 CP  [corrected; recorded first as: Ben places the black 1 on steward room 1, paying 2 coins; with the "
        "Lantern Reward and steward room 1: gains 2 food and 1 pearl]"
    )
    assert fourteen in lines
    assert (
        "   10. Ben places the coral 2 on steward room 1, paying 1 coin; with the Lantern Reward and steward room 1: "
        "gains 2 food and 1 iron  [corrected; recorded first as: Ben places the coral 2 on the Well, gaining 1 coin; "
        "with the Lantern Reward and the Well: gains 1 coin, 1 seal, 1 food and 1 CP]" in lines
    )
    fifteen = next(line for line in lines if line.startswith("   15. "))
    assert fifteen == f"   15. {game.records[game.line[14]].description}"  # kept: no mark


def test_annotations_stay_with_the_moves_they_were_on(log: GameLog) -> None:
    game_id = seeded_scenario(log)
    game = log.get(game_id)
    for index in (10, 14, 30):
        log.annotate(game_id, version=game.line[index - 1], author="coach", text=f"about move {index}")
    correct(log, game_id, 10, SEEDED_CORRECTION, SEEDED_RESOLUTIONS)
    after = log.get(game_id)
    # move 30 was kept: same version, same place, its note still anchored to it
    notes = {note.text: note.version for note in log.annotations(game_id)}
    assert notes["about move 30"] == game.line[29] == after.line[29]
    # the notes on moves 10 and 14 read beside the moves that stand in their place now
    entries = {entry.index: entry for entry in timeline(after)}
    assert notes["about move 10"] in entries[10].stands_for
    assert notes["about move 14"] in entries[14].stands_for
    lines = log.export_text(game_id).splitlines()
    for index in (10, 14, 30):
        at = next(n for n, line in enumerate(lines) if line.startswith(f"{index:>5}. "))
        assert lines[at + 1 + (1 if lines[at + 1].startswith("       (") else 0)].endswith(
            f"about move {index}}}"
        )
    assert "Notes on undone moves" not in "\n".join(lines)


def test_undo_and_redo_of_the_later_moves_play_the_corrected_line_again(log: GameLog) -> None:
    game_id, _, after = corrected_scenario(log)
    version = after.version
    undone = log.undo(game_id, to_version=after.line[8], expected_version=version, actor="owner").game
    assert undone.line == after.line[:9]
    redone = log.redo(game_id, count=len(after.line) - 9, expected_version=undone.version, actor="owner").game
    assert redone.line == after.line and canonical(redone.state) == canonical(after.state)
    assert redone.status == "finished"
    assert fold(log.events_of(game_id)).line == redone.line


def test_every_version_of_the_write_reads_as_a_game_and_forks_as_it_stood(log: GameLog) -> None:
    game_id, game, after = corrected_scenario(log)
    resolved, amended = game.version + 1, game.version + 2
    # the resolution's own event leaves the line as it was: the amendment after it puts the move in place
    assert log.get_game(game_id, resolved).line == game.line
    assert line_at(after, resolved) == game.line and line_at(after, amended) == after.line
    for version in range(1, after.version + 1):
        then = log.get_game(game_id, version)
        assert line_at(after, version) == then.line, version
        assert canonical(log.state_at(game_id, version)) == canonical(then.state), version
    for version, expected in ((resolved, game), (amended, after)):
        branch = log.get(log.fork(game_id, version).game_id)
        assert canonical(branch.state) == canonical(expected.state)
        assert [branch.records[v].move for v in branch.line] == [
            expected.records[v].move for v in expected.line
        ]


def test_a_snapshot_of_a_resolved_game_restores_it(log: GameLog) -> None:
    _, _, after = corrected_scenario(log)
    snapshot = GameSnapshot.take(after)
    mapper = log.stores.all[0].mapper
    restored = restore(mapper.to_domain_event(mapper.to_stored_event(snapshot)), log.events_of(after.id))
    assert restored is not None
    assert restored.records == after.records and restored.line == after.line and restored.audit == after.audit
    assert canonical(restored.state) == canonical(after.state)
    assert timeline(restored) == timeline(after)


def test_a_resolved_move_may_be_corrected_in_turn(log: GameLog) -> None:
    game_id, game, after = corrected_scenario(log)
    resolved = after.records[after.line[13]].move
    other = next(move for move in domain.legal_moves(after.state_after(13)) if move != resolved)
    correct(log, game_id, 14, other, _resolved_all(log, game_id, 14, other))
    again = log.get(game_id)
    assert fold(log.events_of(game_id)).line == again.line
    fourteen = {entry.index: entry for entry in timeline(again)}[14]
    assert fourteen.stands_for == (after.line[13], game.line[13])  # corrected twice: stands for both


def _resolved_all(log: GameLog, game_id: uuid.UUID, index: int, move: dict[str, Any]) -> list[dict[str, Any]]:
    """Resolutions for the misfits of a correction: the first legal move at each (a table in a hurry)."""
    resolutions: list[dict[str, Any]] = []
    for _ in range(80):
        _, report = correct(log, game_id, index, move, resolutions, dry_run=True)
        if report.all_fit:
            return resolutions
        legal = report.first_misfit["legal_moves"]
        answers = [m for m in legal if m["kind"] != "convert"] or legal
        if not answers:  # nothing is legal there (the game is over): the rest is dropped
            return resolutions
        resolutions.append({"index": report.first_misfit["index"], "move": answers[0]})
    raise AssertionError("the misfits never ended")  # pragma: no cover


# --- exports --------------------------------------------------------------------------------------------------


def test_an_export_with_resolutions_imports_back_equal_and_each_is_checked_again(log: GameLog) -> None:
    game_id, _, after = corrected_scenario(log)
    document = log.export(game_id)
    types = [entry["type"] for entry in document["events"]]
    assert types[-2:] == ["MoveResolved", "MoveAmended"]
    imported = log.import_log(document, keep_id=False).game_id
    assert log.export(imported)["events"] == document["events"]
    assert canonical(log.get(imported).state) == canonical(after.state)
    assert log.export_text(imported).split("## Round 1")[1] == log.export_text(game_id).split("## Round 1")[1]


def forged(document: dict[str, Any], change: Any) -> dict[str, Any]:
    copied = copy.deepcopy(document)
    change(copied["events"])
    return copied


def swapped(events: list[dict[str, Any]]) -> None:
    """The amendment written before the move of its resolution (each keeping its place's version)."""
    events[-2]["type"], events[-1]["type"] = events[-1]["type"], events[-2]["type"]
    events[-2]["data"], events[-1]["data"] = events[-1]["data"], events[-2]["data"]


@pytest.mark.parametrize(
    ("change", "last"),
    [
        (lambda events: events[-2]["data"]["move"].update(space="outside_1"), 1),
        (lambda events: events[-2]["data"].update(replaces=events[-2]["data"]["replaces"] + 1), 1),
        (lambda events: events[-2]["data"].update(seat=0), 1),
        (lambda events: events[-1]["data"]["resolutions"][0].update(kept=True), 1),
        (lambda events: events[-1]["data"]["resolutions"][0].update(index=15), 1),
        (lambda events: events[-1]["data"]["resolutions"].clear(), 1),
        (lambda events: events[-1]["data"]["resolutions"][0].update(moves=["x"]), 1),
        (lambda events: events[-1]["data"].update(dropped=[events[-1]["version"] - 3]), 1),
        (lambda events: events.pop(), 1),
        (swapped, 2),
    ],
    ids=[
        "another move",
        "in place of another move",
        "another seat",
        "kept flipped",
        "another index",
        "no resolutions",
        "malformed",
        "a move dropped",
        "no amendment",
        "the amendment first",
    ],
)
def test_an_import_refuses_a_forged_resolution_with_its_position(
    log: GameLog, change: Any, last: int
) -> None:
    game_id, _, _ = corrected_scenario(log)
    document = log.export(game_id)
    changed = forged(document, change)
    with pytest.raises(InvalidLog) as refused:
        log.check_log(changed)
    problems = refused.value.problems
    # the first problem is said at the event that cannot be re-decided (``last``: counted from the end)
    assert problems[0]["position"] == f"events[{len(changed['events']) - last}]", problems
    assert problems[0]["message"]
    log.check_log(document)  # the document as exported refolds


def test_an_export_written_before_resolutions_still_imports(log: GameLog) -> None:
    game_id = seeded_scenario(log)
    correct(log, game_id, 10, SEEDED_CORRECTION, [])
    document = log.export(game_id)
    del document["events"][-1]["data"]["resolutions"]
    imported = log.import_log(document, keep_id=False).game_id
    assert log.get(imported).line == log.get(game_id).line


def test_the_events_of_one_write_are_the_resolutions_moves_then_the_amendment(log: GameLog) -> None:
    game_id = golden_table_game(log)
    index, move, resolutions = TABLE_CORRECTIONS["well to steward room 1"]
    game = log.get(game_id)
    played, _ = correct(log, game_id, index, move, resolutions)
    events = log.events_of(game_id, after=game.version)
    *moves, amended = events
    assert all(isinstance(event, MoveResolved) for event in moves) and isinstance(amended, MoveAmended)
    assert [entry["index"] for entry in amended.resolutions] == [entry["index"] for entry in resolutions]
    assert [v for entry in amended.resolutions for v in entry["moves"]] == [
        e.originator_version for e in moves
    ]
    assert tuple(e.originator_version for e in events) == played.versions
