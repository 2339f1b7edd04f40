"""A Hypothesis state machine over the game log (in-memory store): random seeded games mixing moves, undo
(one and several; right after a correction, of the correction), redo, amend (with resolutions of later misfits, or
not), corrections of the other kinds (a move inserted, removed, two seats swapped; their misfits answered with the
first suggestion) and fork. After every step:

* the stored events folded from scratch equal the live game (same line of play, same state);
* a rebuild from the latest snapshot equals the full replay;
* ``state_at(v)`` equals the state that was live right after version ``v``.
"""

from __future__ import annotations

import random
import uuid
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

import domain
from replay import NothingToRedo
from replay.config import StoreConfig, open_log
from replay.corrections import Correction
from replay.game import GameSnapshot, fold, restore
from tests.replay_helpers import canonical, first_format_snapshot, pick
from tests.unit.replay.amend_support import resolve_next


class GameLogMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.log = open_log(StoreConfig(kind="memory"))
        self.rng = random.Random(0)
        self.game_id: uuid.UUID | None = None
        self.live: dict[int, Any] = {}

    @property
    def game(self) -> Any:
        assert self.game_id is not None
        return self.log.get(self.game_id)

    def remember(self) -> None:
        game = self.game
        self.live[game.version] = canonical(game.state)

    @precondition(lambda self: self.game_id is None)
    @rule(seed=st.integers(0, 10_000), players=st.integers(2, 4))
    def create(self, seed: int, players: int) -> None:
        self.rng = random.Random(seed)
        self.game_id = self.log.create_game({"players": players, "seed": seed}).game_id
        self.remember()

    @precondition(lambda self: self.game_id is not None)
    @rule(count=st.integers(1, 12))
    def play(self, count: int) -> None:
        for _ in range(count):
            game = self.game
            if domain.is_over(game.state):
                break
            self.log.play(self.game_id, pick(game.state, self.rng), expected_version=game.version, actor="m")
            self.remember()

    @precondition(lambda self: self.game_id is not None and len(self.game.line) > 0)
    @rule(back=st.integers(1, 6))
    def undo(self, back: int) -> None:
        game = self.game
        line = game.line
        target = 1 if back >= len(line) else line[-back - 1]
        if back == 1:
            self.log.undo(self.game_id, expected_version=game.version, actor="m")
        else:
            self.log.undo(self.game_id, to_version=target, expected_version=game.version, actor="m")
        self.remember()

    @precondition(lambda self: self.game_id is not None)
    @rule(count=st.integers(1, 3))
    def redo(self, count: int) -> None:
        game = self.game
        try:
            self.log.redo(
                self.game_id,
                count=min(count, max(1, len(game.redo))),
                expected_version=game.version,
                actor="m",
            )
        except NothingToRedo:
            assert not game.redo
            return
        self.remember()

    @precondition(lambda self: self.game_id is not None and len(self.game.line) > 1)
    @rule(where=st.integers(0, 10_000), resolving=st.integers(0, 4))
    def amend(self, where: int, resolving: int) -> None:
        """Correct a move, resolving up to ``resolving`` of the later moves that no longer fit (the rest of the
        line is dropped from the first misfit left without one)."""
        game = self.game.with_states_from_start()
        position = where % len(game.line)
        before = game.state_after(position)
        original = game.records[game.line[position]].move
        options = [move for move in domain.legal_moves(before) if move != original]
        if not options:
            return
        move = self.rng.choice(options)
        resolutions: list[dict[str, Any]] = []
        for _ in range(resolving):
            _, report = self.log.amend(
                self.game_id, game.line[position], move, expected_version=game.version, actor="m",
                dry_run=True, resolutions=resolutions,
            )  # fmt: skip
            more = resolve_next(resolutions, report.first_misfit, self.rng) if report.first_misfit else None
            if more is None:
                break
            resolutions = more
        played, report = self.log.amend(
            self.game_id, game.line[position], move, expected_version=game.version, actor="m",
            resolutions=resolutions,
        )  # fmt: skip
        replaced = {entry["version"] for entry in report.resolved if not entry["kept"]}
        assert set(report.kept) | set(report.dropped) | replaced == set(game.line[position + 1 :])
        # the moves of the resolutions are written first: until the amendment, the game is as it was
        for version in played.versions[:-1]:
            self.live[version] = self.live[game.version]
        self.remember()

    @precondition(lambda self: self.game_id is not None and len(self.game.line) > 1)
    @rule(
        where=st.integers(0, 10_000),
        kind=st.sampled_from(["insert", "remove", "swap_seats"]),
        answering=st.integers(0, 4),
    )
    def correct(self, where: int, kind: str, answering: int) -> None:
        """Insert a move before a move, remove one, or swap two seats from one on; answer up to ``answering``
        misfits with their first suggestion."""
        game = self.game.with_states_from_start()
        position = where % len(game.line)
        version = game.line[position]
        if kind == "insert":
            options = domain.legal_moves(game.state_after(position))
            if not options:
                return
            correction = Correction(version, "insert", (self.rng.choice(options),))
        elif kind == "remove":
            correction = Correction(version, "remove")
        else:
            correction = Correction(version, "swap_seats", seats=(0, 1))
        answers: dict[int, Any] = {}
        for _ in range(answering):
            _, report = self.log.history.correct(
                self.game_id,
                correction,
                expected_version=game.version,
                dry_run=True,
                resolutions=list(answers.values()),
            )
            misfit = report.first_misfit
            if misfit is None or not misfit["suggestions"]:
                break
            answers[misfit["index"]] = misfit["suggestions"][0]["resolution"]
        played, _ = self.log.history.correct(
            self.game_id, correction, expected_version=game.version, resolutions=list(answers.values())
        )
        for written in played.versions[:-1]:
            self.live[written] = self.live[game.version]
        self.remember()

    @precondition(lambda self: self.game_id is not None)
    @rule(where=st.integers(0, 10_000))
    def fork(self, where: int) -> None:
        game = self.game
        version = 1 + where % game.version
        branch = self.log.fork(self.game_id, version).game_id
        assert canonical(self.log.get(branch).state) == self.live[version]

    @invariant()
    def fold_from_scratch_equals_live(self) -> None:
        if self.game_id is None:
            return
        game = self.game
        scratch = fold(self.log.events_of(self.game_id))
        assert scratch.line == game.line
        assert canonical(scratch.state) == canonical(game.state) == self.live[game.version]

    @invariant()
    def snapshot_rebuild_equals_full_replay(self) -> None:
        if self.game_id is None:
            return
        game = self.game
        snapshot = GameSnapshot.take(game)
        # Through the library's mapper and transcoder, as the snapshot store keeps it (tuples become lists).
        stored = self.log.stores.all[0].mapper.to_stored_event(snapshot)
        events = self.log.events_of(self.game_id)
        restored = restore(self.log.stores.all[0].mapper.to_domain_event(stored), events)
        assert restored is not None
        assert restored.line == game.line and restored.redo == game.redo
        assert (
            restored.records == game.records and restored.audit == game.audit and restored.keys == game.keys
        )
        # A snapshot of the first format (the whole fold) restores the same.
        first = restore(first_format_snapshot(game), events)
        assert first is not None and first.records == game.records
        assert canonical(first.state) == canonical(game.state)
        assert canonical(restored.state) == canonical(game.state)
        assert canonical(restored.with_states_from_start().states[0]) == canonical(game.states[0])

    @invariant()
    def state_at_equals_what_was_live(self) -> None:
        if self.game_id is None:
            return
        for version in random.Random(len(self.live)).sample(sorted(self.live), min(4, len(self.live))):
            assert canonical(self.log.state_at(self.game_id, version)) == self.live[version]


GameLogMachine.TestCase.settings = settings(
    max_examples=15,
    stateful_step_count=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestGameLogMachine = GameLogMachine.TestCase


def test_words_said_again_and_back_to_the_recorded_ones_restore_from_either_snapshot_format() -> None:
    """A run the machine found: later moves' words said again by one amendment and back to their events' own by
    the next. The fold marks such a record as said again; a snapshot of the first format cannot tell (its words
    are the event's): the two are the same record all the same (``MoveRecord.redescribed`` is not compared).
    (Found again under rules 0.3.0, whose move words differ, and under 0.4.0, whose draws differ: the search
    kept the first seed, from 0, whose run of these steps has the two formats disagree on the mark.)"""
    machine = GameLogMachine()
    machine.create(players=4, seed=84)
    machine.play(count=12)
    machine.amend(resolving=3, where=562)
    machine.amend(resolving=3, where=994)
    game = machine.game
    first = restore(first_format_snapshot(game), machine.log.events_of(machine.game_id))
    assert first is not None
    assert any(first.records[v].redescribed != record.redescribed for v, record in game.records.items())
    machine.fold_from_scratch_equals_live()
    machine.snapshot_rebuild_equals_full_replay()
    machine.state_at_equals_what_was_live()
