"""An amendment describes the later moves it keeps again, on the corrected line of play: the timeline, the text
record, a cold fold, snapshots (also those written before) and a branch all read what each move does there,
the same words as a game recorded directly with the corrected moves."""

from __future__ import annotations

import json
import random
import re
import uuid

import pytest

import domain
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.errors import ReplayError
from replay.game import Game, GameSnapshot, MovePlayed, fold, project_game, restore
from replay.history import text_record, timeline
from tests.replay_helpers import first_format_snapshot


def described(game: Game) -> list[tuple[str, tuple[str, ...]]]:
    """Each move of the line in words, with its chance lines."""
    return [(entry.description, entry.chance) for entry in timeline(game)]


def moves_part(text: str) -> str:
    """A text record from its first round on: the numbered moves, their chance and the score sheet (the header
    names the game's id and time, which differ between two games), without the marks of corrected moves (a game
    recorded directly has none)."""
    return re.sub(r"  \[corrected; recorded first as: [^\]]*\]", "", text[text.index("## Round") :])


def recorded_words(log: GameLog, game_id: uuid.UUID) -> dict[int, str]:
    """Each recorded move's words as its event holds them (written when it was recorded)."""
    return {e.originator_version: e.description for e in log.events_of(game_id) if isinstance(e, MovePlayed)}


def amended_die(mode: str) -> tuple[GameLog, uuid.UUID, uuid.UUID, list[int]]:
    """A game in which a die-taking move was amended to take another die so that a later move it kept plays
    otherwise, and the same game recorded directly with the corrected moves: the log, the two games, and the
    kept moves whose words on the corrected line differ from those they were recorded with."""
    for seed in range(30):
        log = open_log(StoreConfig(kind="memory"))
        setup = {"players": ["Aiko", "Ben"], "seed": seed, "mode": mode}
        game_id = log.create_game(setup).game_id
        rng = random.Random(seed)
        game = log.get(game_id)
        for _ in range(14):
            moves = [move for move in domain.legal_moves(game.state) if move.get("kind") != "convert"]
            game = log.play(game_id, rng.choice(moves), expected_version=game.version, actor="owner").game
        recorded = recorded_words(log, game_id)
        for position, version in enumerate(game.line):
            original = game.records[version].move
            if original["kind"] != "take_die":
                continue
            for move in domain.legal_moves(game.state_after(position)):
                if move["kind"] != "take_die" or move == original:
                    continue
                _, report = log.amend(
                    game_id, version, move, expected_version=game.version, actor="owner", dry_run=True
                )
                if not report.kept:
                    continue
                # the corrected line, recorded directly in a game of its own (its words are the reference)
                corrected = [*game.line[:position], version, *report.kept]
                moves = [move if v == version else game.records[v].move for v in corrected]
                direct_id = log.create_game(setup).game_id
                direct = log.play(direct_id, moves, expected_version=1, actor="owner").game
                words = dict(
                    zip(corrected, (direct.records[v].description for v in direct.line), strict=True)
                )
                changed = [v for v in report.kept if words[v] != recorded[v]]
                if changed:
                    log.amend(game_id, version, move, expected_version=game.version, actor="owner")
                    return log, game_id, direct_id, changed
    raise AssertionError("no amendment of a die-taking move changed a kept move's effect")  # pragma: no cover


def test_the_kept_moves_after_an_amended_die_read_as_on_a_game_recorded_with_the_corrected_moves() -> None:
    log, game_id, direct_id, changed = amended_die("seeded")
    amended, direct = log.get(game_id), log.get(direct_id)
    assert [direct.records[v].chance for v in direct.line] == [
        amended.records[v].chance for v in amended.line
    ]
    recorded = recorded_words(log, game_id)

    expected = described(direct)
    assert described(amended) == expected
    assert moves_part(log.export_text(game_id)) == moves_part(log.export_text(direct_id))
    assert "  [corrected; recorded first as: " in log.export_text(game_id)
    assert all(amended.records[v].description != recorded[v] for v in changed)

    # a cold read, a snapshot, a snapshot written before (stale words, no mark) and a branch read the same
    cold = fold(log.events_of(game_id))
    assert described(cold) == expected
    snapshot = GameSnapshot.take(amended)
    mapper = log.stores.all[0].mapper
    events = log.events_of(game_id)
    restored = restore(mapper.to_domain_event(mapper.to_stored_event(snapshot)), events)
    assert restored is not None and described(restored) == expected
    assert restored.records == amended.records
    # a snapshot of the first format (the whole fold) that marks its words as the line's restores the same
    first = restore(first_format_snapshot(amended), events)
    assert first is not None and first.records == amended.records
    earlier = json.loads(first_format_snapshot(amended).state)
    del earlier["described_on_line"]
    for record in earlier["records"]:
        record["description"] = recorded.get(record["version"], record["description"])
    stale = GameSnapshot(
        originator_id=snapshot.originator_id,
        originator_version=snapshot.originator_version,
        timestamp=snapshot.timestamp,
        topic=snapshot.topic,
        state=json.dumps(earlier),
    )
    # Without the mark its words cannot be trusted: restored with its events it is refused (the game is folded
    # from its events instead), and on its own, the library's way, it says them again from its states.
    assert restore(stale, events) is None
    again = project_game(None, [stale])
    assert again is not None and described(again) == expected
    assert {v: r.description for v, r in again.records.items() if v in again.line} == {
        v: r.description for v, r in amended.records.items() if v in amended.line
    }
    branch = log.fork(game_id, amended.version).game_id
    assert described(log.get(branch)) == expected
    assert moves_part(text_record(log.get(branch))) == moves_part(log.export_text(direct_id))


def test_amending_a_move_to_the_move_already_recorded_is_refused_and_writes_nothing() -> None:
    log = open_log(StoreConfig(kind="memory"))
    game_id = log.create_game({"players": 2, "seed": 4}).game_id
    game = log.get(game_id)
    for _ in range(3):
        game = log.play(
            game_id, domain.legal_moves(game.state)[0], expected_version=game.version, actor="o"
        ).game
    version = game.line[1]
    same = dict(game.records[version].move)
    for dry_run in (True, False):
        with pytest.raises(ReplayError) as refused:
            log.amend(game_id, version, same, expected_version=game.version, actor="o", dry_run=dry_run)
        assert refused.value.code == "amend_unchanged" and refused.value.details == {"version": version}
    assert log.get(game_id).version == game.version
