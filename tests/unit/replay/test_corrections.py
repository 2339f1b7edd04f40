"""Every kind of correction a table makes, each one request and one write: a move replaced (by several, a
conversion with it), a forgotten move inserted, a move that never happened removed, two seats swapped, the setup
of a laid-out game; undo right after a correction, and redo; what imports, snapshots and past versions make of
them (docs/api/amend.md)."""

from __future__ import annotations

import itertools
import json
import random
import uuid
from typing import Any

import pytest

import domain
from replay import InvalidLog
from replay.access import SEAT, Forbidden
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.corrections import Correction
from replay.decisions import line_at
from replay.errors import InvalidCorrection, UnknownVersion
from replay.events import CorrectionRedone, CorrectionUndone, LineCorrected, MoveAmended, MoveResolved
from replay.exports import event_to_dict
from replay.game import Game, GameSnapshot, fold, history, restore
from replay.history import timeline
from replay.suggestions import HORIZON
from tests.replay_helpers import canonical, pick
from tests.unit.replay import mistakes
from tests.unit.replay.mistakes import Mistake, Recorded, Truth


def game_of(truth: Truth, mistake: Mistake | None) -> Recorded:
    assert mistake is not None, "the game has a mistake of that family"
    return mistakes.recorded(truth, mistake)


def full(log: GameLog, game_id: uuid.UUID) -> Game:
    return log.reaching(log.get(game_id), 0)


def agrees_with_its_events(log: GameLog, game_id: uuid.UUID) -> Game:
    """The game as the log holds it, checked against its events folded from scratch, read without the rules,
    and restored from a snapshot of it."""
    game = full(log, game_id)
    events = log.events_of(game_id)
    folded = fold(events)
    assert folded.line == game.line and folded.opening == game.opening and folded.records == game.records
    assert canonical(folded.state) == canonical(game.state)
    read = history(events)
    assert (read.line, read.opening, read.corrected, read.uncorrected) == (
        game.line,
        game.opening,
        game.corrected,
        game.uncorrected,
    )
    mapper = log.stores.all[0].mapper
    restored = restore(mapper.to_domain_event(mapper.to_stored_event(GameSnapshot.take(game))), events)
    assert restored is not None and restored.line == game.line and restored.opening == game.opening
    assert canonical(restored.state) == canonical(game.state)
    return game


def every_version_reads_as_it_stood(log: GameLog, game_id: uuid.UUID) -> None:
    game = full(log, game_id)
    for version in range(1, game.version + 1):
        then = log.get_game(game_id, version)
        assert line_at(game, version) == then.line, version
        assert canonical(log.state_at(game_id, version)) == canonical(then.state), version


# --- the setup of a laid-out table game --------------------------------------------------------------------


@pytest.fixture(scope="module")
def laid_out() -> Truth:
    return mistakes.play_truth(2, 12, "laid out")


def test_a_castle_card_of_a_laid_out_game_is_corrected_and_the_later_moves_replay_on_it(
    laid_out: Truth,
) -> None:
    game = game_of(laid_out, mistakes.FINDERS["wrong card"](laid_out, random.Random("12:wrong card")))
    log, game_id = game.log, game.game_id
    before = full(log, game_id)
    assert game.correction.kind == "setup" and set(game.correction.layout or {}) == {"castle"}
    _, unanswered = log.history.correct(
        game_id, game.correction, expected_version=before.version, dry_run=True
    )
    followed = mistakes.follow_first(game)
    after = agrees_with_its_events(log, game_id)
    assert followed.written and after.opening != before.opening
    assert log.layout(game_id).layout["castle"] == {
        **log.layout(game_id).layout["castle"],
        **game.correction.layout["castle"],  # type: ignore[index]
    }
    written = log.events_of(game_id)[before.version :]
    assert isinstance(written[-1], LineCorrected) and written[-1].correction == "setup"
    assert followed.kept > len(unanswered.kept)  # the suggestions kept more than no answer
    every_version_reads_as_it_stood(log, game_id)


def test_undo_right_after_a_setup_correction_restores_the_game_and_redo_corrects_it_again(
    laid_out: Truth,
) -> None:
    game = game_of(laid_out, mistakes.FINDERS["wrong card"](laid_out, random.Random("12:wrong card")))
    log, game_id = game.log, game.game_id
    before = full(log, game_id)
    mistakes.follow_first(game)
    after = full(log, game_id)
    undone = log.undo(game_id, expected_version=after.version, actor="owner").game
    assert isinstance(log.events_of(game_id)[-1], CorrectionUndone)
    assert (undone.line, undone.opening) == (before.line, before.opening)
    assert canonical(undone.state) == canonical(before.state)
    assert [undone.records[v].description for v in undone.line] == [
        before.records[v].description for v in before.line
    ]
    assert set(after.records) <= set(
        undone.records
    )  # nothing deleted: the correction's moves are still there
    agrees_with_its_events(log, game_id)
    redone = log.redo(game_id, expected_version=undone.version, actor="owner").game
    assert isinstance(log.events_of(game_id)[-1], CorrectionRedone)
    assert (redone.line, redone.opening) == (after.line, after.opening)
    assert canonical(redone.state) == canonical(after.state)
    agrees_with_its_events(log, game_id)
    every_version_reads_as_it_stood(log, game_id)


def test_the_setup_of_a_game_entered_move_by_move_is_corrected_at_its_moves() -> None:
    truth = mistakes.play_truth(2, 11, "table")
    game = game_of(truth, mistakes.FINDERS["wrong card"](truth, random.Random("11:wrong card")))
    with pytest.raises(InvalidCorrection, match="entered move by move"):
        game.log.history.correct(
            game.game_id,
            Correction(1, "setup", layout={"stack": [1, 0]}),
            expected_version=None,
            dry_run=True,
        )
    with pytest.raises(UnknownVersion, match="the setup is version 1"):
        game.log.amend(game.game_id, 1, {"kind": "done", "seat": 0}, expected_version=None, dry_run=True)


def test_a_setup_layout_the_rules_refuse_names_its_field_and_writes_nothing(laid_out: Truth) -> None:
    game = game_of(laid_out, mistakes.FINDERS["wrong card"](laid_out, random.Random("12:wrong card")))
    before = game.log.get(game.game_id).version
    with pytest.raises(domain.InvalidLayout) as refused:
        game.log.history.correct(
            game.game_id,
            Correction(1, "setup", layout={"castle": {"steward_1": "D1"}}),
            expected_version=before,
        )
    assert refused.value.details["field"] == "castle.steward_1"
    assert game.log.get(game.game_id).version == before


# --- swapped seats -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["table", "laid out"])
def test_two_players_recorded_under_each_others_names_are_swapped_in_one_answer(how: str) -> None:
    truth = mistakes.play_truth(3, 21, how)
    game = game_of(truth, mistakes.FINDERS["swapped players"](truth, random.Random("21:swapped players")))
    log, game_id = game.log, game.game_id
    assert game.correction.kind == "swap_seats"
    _played, report = log.history.correct(game_id, game.correction, expected_version=None)
    assert report.all_fit and not report.resolved
    assert len(report.kept) == game.later and len(report.rewritten) > game.later // 2
    after = agrees_with_its_events(log, game_id)
    # what the table played, by the seats that played it
    dealt = mistakes.record(truth, mistakes.Mistake("none", -1, None, "")).setup if how == "laid out" else 0
    assert [after.records[v].move for v in after.line] == truth.entries[dealt:]
    undone = log.undo(game_id, expected_version=after.version, actor="owner").game
    assert [undone.records[v].seat for v in undone.line] != [after.records[v].seat for v in after.line]
    agrees_with_its_events(log, game_id)
    every_version_reads_as_it_stood(log, game_id)


def test_a_turn_order_corrected_is_followed_by_one_suggestion_that_swaps_the_later_moves() -> None:
    truth = mistakes.play_truth(2, 13, "table")
    game = game_of(truth, mistakes.FINDERS["wrong turn order"](truth, random.Random("13:wrong turn order")))
    _, report = game.log.history.correct(game.game_id, game.correction, expected_version=None, dry_run=True)
    assert report.first_misfit is not None and report.first_misfit["error"]["code"] == "not_your_turn"
    first = report.first_misfit["suggestions"][0]
    assert first["kind"] == "swap_seats" and first["keeps"] == 1 + HORIZON and first["capped"]
    followed = mistakes.follow_first(game)
    assert (followed.kept, followed.answers) == (followed.later, 1)


def test_only_the_owner_swaps_seats_dry_run_or_not() -> None:
    truth = mistakes.play_truth(2, 13, "table")
    game = game_of(truth, mistakes.FINDERS["swapped players"](truth, random.Random("13:swapped players")))
    grant = game.log.issue_seat_token(game.game_id, 0, by="owner").grant
    assert grant.role == SEAT
    for dry_run in (True, False):
        with pytest.raises(Forbidden, match="only the owner swaps"):
            game.log.history.correct(
                game.game_id, game.correction, expected_version=None, dry_run=dry_run, grant=grant
            )


# --- moves inserted, removed, several in place of one ----------------------------------------------------------


def test_a_forgotten_move_is_inserted_before_the_move_it_came_before_which_stays() -> None:
    truth = mistakes.play_truth(2, 11, "table")
    game = game_of(truth, mistakes.FINDERS["forgotten move"](truth, random.Random("11:forgotten move")))
    log, game_id = game.log, game.game_id
    before = full(log, game_id)
    version = game.correction.version
    _played, report = log.history.correct(game_id, game.correction, expected_version=before.version)
    after = agrees_with_its_events(log, game_id)
    inserted, corrected = log.events_of(game_id)[before.version :]
    assert isinstance(inserted, MoveResolved) and inserted.move == game.correction.moves[0]
    assert isinstance(corrected, LineCorrected) and corrected.correction == "insert"
    at = before.line.index(version)
    assert after.line[: at + 2] == (*before.line[:at], inserted.originator_version, version)
    assert report.kind == "insert" and version in report.kept
    lines = log.export_text(game_id).splitlines()
    assert any(inserted.description in line and "[added in a correction]" in line for line in lines)


def test_a_move_inserted_before_the_first_is_answered_with_moves_never_with_a_swap() -> None:
    """A recorded move that no longer fits after the moves inserted before it is answered by what happened after
    them (moves): a swap of seats there is refused, so none is suggested, and the first suggestion is taken."""
    misfits = 0
    for seed in range(4):
        log = open_log(StoreConfig(kind="memory"))
        game_id = log.create_game({"players": 2, "seed": seed}).game_id
        rng = random.Random(seed)
        for _ in range(4):
            game = log.get(game_id)
            log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="owner")
        game = full(log, game_id)
        for move in domain.legal_moves(game.state_after(0)):
            correction = Correction(game.line[0], "insert", (move,))
            _, report = log.history.correct(game_id, correction, expected_version=game.version, dry_run=True)
            misfit = report.first_misfit
            if misfit is None or misfit["index"] != 1 or not misfit["suggestions"]:
                continue
            misfits += 1
            assert all(s["kind"] != "swap_seats" for s in misfit["suggestions"])
            first = misfit["suggestions"][0]["resolution"]
            log.history.correct(
                game_id, correction, expected_version=game.version, resolutions=[first], dry_run=True
            )
    assert misfits, "no insert before the first move made it a misfit: the test checks nothing"


def test_a_move_that_never_happened_is_removed_and_the_text_record_says_so() -> None:
    truth = mistakes.play_truth(2, 11, "table")
    log = open_log(StoreConfig(kind="memory"))
    game = mistakes.recorded(truth, Mistake("none", -1, None, ""), log)  # recorded as it happened
    game_id = game.game_id
    before = full(log, game_id)
    at = next(i for i, v in enumerate(before.line) if before.records[v].move["kind"] == "convert")
    version = before.line[at]
    _, report = log.history.correct(game_id, Correction(version, "remove"), expected_version=before.version)
    after = agrees_with_its_events(log, game_id)
    assert version not in after.line and after.line[:at] == before.line[:at]
    assert report.kind == "remove" and version not in report.kept
    text = log.export_text(game_id)
    assert f"removed in a correction: {before.records[version].description}" in text


def test_a_placement_is_corrected_with_the_conversion_made_before_it() -> None:
    truth = mistakes.play_truth(2, 14, "table")
    game = mistakes.recorded(truth, Mistake("none", -1, None, ""))
    log, game_id = game.log, game.game_id
    before = full(log, game_id)
    for at, version in enumerate(before.line):
        state = before.states[at]
        combined = [m for m in domain.legal_moves(state) if m["kind"] == "place_die" and "convert" in m]
        if combined and before.records[version].move not in combined:
            break
    else:  # pragma: no cover - the game has such a placement
        raise AssertionError("no placement with a conversion")
    place = combined[0]
    # as one move carrying its conversions (as legal-moves lists it), or as the two moves
    _, one = log.amend(game_id, version, place, expected_version=before.version, dry_run=True)
    convert = {"kind": "convert", "seat": place["seat"], "to": place["convert"][0]}
    apart = {key: value for key, value in place.items() if key != "convert"}
    two = Correction(version, "replace", (convert, apart))
    _, both = log.history.correct(game_id, two, expected_version=before.version)
    assert one.version == both.version == version
    written = log.events_of(game_id)[before.version :]
    assert [type(event) for event in written] == [MoveResolved, MoveResolved, LineCorrected]
    agrees_with_its_events(log, game_id)


# --- undo right after a correction ------------------------------------------------------------------------


def test_undo_right_after_a_move_is_corrected_restores_the_line_and_redo_writes_it_again() -> None:
    truth = mistakes.play_truth(2, 11, "table")
    game = game_of(
        truth, mistakes.FINDERS["neighbouring space"](truth, random.Random("11:neighbouring space"))
    )
    log, game_id = game.log, game.game_id
    before = full(log, game_id)
    mistakes.follow_first(game)
    after = full(log, game_id)
    assert isinstance(log.events_of(game_id)[-1], MoveAmended) and after.line != before.line
    undone = log.undo(game_id, expected_version=after.version, actor="owner").game
    assert undone.line == before.line and canonical(undone.state) == canonical(before.state)
    assert undone.redo == () and undone.uncorrected is not None
    redone = log.redo(game_id, expected_version=undone.version, actor="owner").game
    assert redone.line == after.line and canonical(redone.state) == canonical(after.state)
    # a move played after the correction ends what undo takes back: the move, as before
    move = domain.legal_moves(redone.state)
    if move and not domain.is_over(redone.state):
        played = log.play(game_id, move[0], expected_version=redone.version, actor="owner").game
        back = log.undo(game_id, expected_version=played.version, actor="owner").game
        assert back.line == redone.line
    agrees_with_its_events(log, game_id)
    every_version_reads_as_it_stood(log, game_id)


# --- a die is the die the table saw taken -------------------------------------------------------------------


def test_swapped_dice_take_one_correction_and_one_suggestion() -> None:
    """Ann took the low die of a bridge and Ben, next, the high one; they were recorded the other way round.
    Ann's take is corrected; Ben's recorded take, by its bridge end, would now take a third die: it no longer
    fits (the table saw another die taken), and the first suggestion is the die recorded for Ann."""
    for seed in range(40, 80):  # the first game with such a pair of takes
        truth = mistakes.play_truth(2, seed, "table")
        found = _swapped_takes(truth)
        if found is not None:
            break
    else:  # pragma: no cover
        raise AssertionError("no two takes of one bridge in a row")
    first, second, entries = found
    log = open_log(StoreConfig(kind="memory"))
    game_id = log.create_game({"players": mistakes.NAMES[:2], "mode": "table", "seed": seed}).game_id
    game = log.play(game_id, entries, expected_version=1, actor="owner").game
    correction = Correction.replacing(game.line[first], truth.entries[first])
    _, report = log.history.correct(game_id, correction, expected_version=None, dry_run=True)
    misfit = report.first_misfit
    assert misfit is not None and misfit["index"] == second + 1 and misfit["rule"] == "R-T03"
    assert "no longer on the" in misfit["reason"]
    answer = misfit["suggestions"][0]
    assert answer["kind"] == "other_seat" and answer["resolution"]["move"] == truth.entries[second]
    _, written = log.history.correct(
        game_id, correction, expected_version=None, resolutions=[answer["resolution"]]
    )
    assert written.all_fit and len(written.kept) == len(entries) - first - 2


def _swapped_takes(truth: Truth) -> tuple[int, int, list[dict[str, Any]]] | None:
    """Two takes of one bridge's two ends, by two players one after the other, each end a die of its own value;
    and the game recorded with the two ends the other way round (every entry still legal)."""
    takes = [at for at, move in enumerate(truth.entries) if move["kind"] == "take_die"]
    for one, two in itertools.pairwise(takes):
        a, b = truth.entries[one], truth.entries[two]
        if a["bridge"] != b["bridge"] or a["end"] == b["end"] or a["seat"] == b["seat"]:
            continue
        bridge = next(x for x in truth.before[one].board.bridges if x.colour.value == a["bridge"])
        if bridge.left == bridge.right or not bridge.middle or bridge.middle[0] == bridge.left:
            continue
        entries = list(truth.entries)
        entries[one], entries[two] = {**a, "end": b["end"]}, {**b, "end": a["end"]}
        state = truth.start
        try:
            for entry in entries:
                state = domain.apply(state, entry, draw=False)
        except domain.DomainError:
            continue
        return one, two, entries
    return None


# --- suggestions ----------------------------------------------------------------------------------------------


def test_every_misfit_carries_ranked_suggestions_each_with_what_it_keeps() -> None:
    truth = mistakes.play_truth(3, 21, "table")
    game = game_of(
        truth, mistakes.FINDERS["neighbouring space"](truth, random.Random("21:neighbouring space"))
    )
    _, report = game.log.history.correct(game.game_id, game.correction, expected_version=None, dry_run=True)
    misfit = report.first_misfit
    assert misfit is not None
    suggestions = misfit["suggestions"]
    assert suggestions and all(0 <= one["keeps"] <= HORIZON + 1 for one in suggestions)
    assert [one["keeps"] for one in suggestions] == sorted(
        (one["keeps"] for one in suggestions), reverse=True
    )
    for one in suggestions:  # each is a resolution the request takes as it is, keeping what it says
        _, then = game.log.history.correct(
            game.game_id,
            game.correction,
            expected_version=None,
            dry_run=True,
            resolutions=[one["resolution"]],
        )
        kept_after = [v for v in then.kept if v not in report.kept]
        if not one["capped"]:
            assert len(kept_after) == one["keeps"], one


# --- exports ---------------------------------------------------------------------------------------------------


def test_every_kind_of_correction_and_its_undo_exports_and_imports_back_equal() -> None:
    truth = mistakes.play_truth(2, 12, "laid out")
    log = open_log(StoreConfig(kind="memory"))
    mistake = mistakes.FINDERS["wrong card"](truth, random.Random("12:wrong card"))
    assert mistake is not None
    game = mistakes.recorded(truth, mistake, log)
    game_id = game.game_id
    mistakes.follow_first(game)
    undone = log.undo(game_id, expected_version=None, actor="owner").game
    log.redo(game_id, expected_version=undone.version, actor="owner")
    log.history.correct(game_id, Correction(1, "swap_seats", seats=(0, 1)), expected_version=None)
    convert = next(
        (i, m)
        for i, v in enumerate(full(log, game_id).line)
        for m in domain.legal_moves(full(log, game_id).states[i])
        if m["kind"] == "convert"
    )
    log.history.correct(
        game_id,
        Correction(full(log, game_id).line[convert[0]], "insert", (convert[1],)),
        expected_version=None,
    )
    last = full(log, game_id)
    document = json.loads(json.dumps(log.export(game_id)))
    imported = open_log(StoreConfig(kind="memory"))
    back = full(imported, imported.import_log(document, keep_id=False).game_id)
    assert (
        back.line == last.line
        and back.opening == last.opening
        and canonical(back.state) == canonical(last.state)
    )
    # a forged correction is refused at its position
    forged = json.loads(json.dumps(document))
    position = next(i for i, e in enumerate(forged["events"]) if e["type"] == "LineCorrected")
    forged["events"][position]["data"]["dropped"] = [2]
    with pytest.raises(InvalidLog) as refused:
        imported.import_log(forged, keep_id=False)
    assert any(problem["position"] == f"events[{position}]" for problem in refused.value.details["problems"])


def test_a_correction_is_one_event_of_its_own_kind_with_its_moves_before_it() -> None:
    truth = mistakes.play_truth(2, 11, "table")
    game = game_of(truth, mistakes.FINDERS["forgotten move"](truth, random.Random("11:forgotten move")))
    before = game.log.get(game.game_id)
    version = before.version
    game.log.history.correct(game.game_id, game.correction, expected_version=version)
    written = [event_to_dict(event) for event in game.log.events_of(game.game_id)[version:]]
    assert [entry["type"] for entry in written] == ["MoveResolved", "LineCorrected"]
    assert written[1]["data"]["resolutions"][0] == {
        "index": before.line.index(game.correction.version) + 1,
        "version": game.correction.version,
        "moves": [version + 1],
        "kept": True,
    }
    assert timeline(full(game.log, game.game_id))  # every reader reads it
