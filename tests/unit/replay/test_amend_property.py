"""A property of amendments with resolutions, over random recorded games of both modes (Hypothesis): a random
move is corrected, each misfit is resolved in turn from the dry runs' reports (a legal move in its place, or
"it never happened", or a move left out before it), and the whole correction is written in one amendment.

Then: the game equals a fold from scratch of its events, and a game recorded directly with the moves of its
final line; every later recorded move that still fitted where it came is kept, and every one that left the line
did not fit there (in a table game a die taken fits when the die recorded is taken, from either end); the written
report is the dry run's; and no event written before is rewritten.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

import domain
from replay.config import StoreConfig, open_log
from replay.exports import event_to_dict
from replay.game import Game, fold
from tests.replay_helpers import canonical, play_random
from tests.unit.replay.amend_support import resolve_next

STEPS = 12
"""Misfits resolved at most in one correction; the rest is then dropped (also a correction people make)."""


def fits(state: Any, move: dict[str, Any], taken: int | None = None) -> bool:
    """Whether the rules take ``move`` on ``state`` (its chance outcomes aside: they follow it); a table game's
    take of a die fits when it takes the die recorded (``taken``), from its end or the other."""
    try:
        after = domain.apply(state, move, check=True, draw=False)
    except domain.DomainError:
        return False
    if taken is None or after.held.value == taken:
        return True
    other = {**move, "end": "right" if move["end"] == "left" else "left"}
    return fits(state, other) and domain.apply(state, other, check=True, draw=False).held.value == taken


def die_taken(game: Game, at: int) -> int | None:
    """In a table game, the value of the die the recorded take at line position ``at`` took."""
    record = game.records[game.line[at]]
    if game.mode != "table" or record.move["kind"] != "take_die":
        return None
    return int(game.state_after(at + 1).held.value)


def check_line(game: Game, after: Game, position: int, resolutions: list[dict[str, Any]]) -> list[int]:
    """Walk the old line's later moves beside the new line: each resolved or dropped move did not fit where it
    came, each kept one stands in its order. Returns the kept versions."""
    asked = {entry["index"]: entry for entry in resolutions}
    line, at, kept = after.line, position + 1, []
    for offset, version in enumerate(game.line[position + 1 :]):
        index = position + 2 + offset
        move = game.records[version].move
        taken = die_taken(game, index - 1)
        resolution = asked.get(index)
        if resolution is not None:
            assert not fits(after.state_after(at), move, taken), f"move {index} was resolved but still fitted"
            at += len(resolution["moves"])
            if line[at : at + 1] == (version,):  # played too, after the moves of its resolution
                assert resolution["keep_recorded"]
                kept.append(version)
                at += 1
            elif resolution["keep_recorded"]:  # asked to follow its resolution, it did not fit there:
                assert not fits(after.state_after(at), move)  # the correction's first misfit, where it stops
                assert at == len(line)
                break
            continue
        if line[at : at + 1] == (version,):
            kept.append(version)
            at += 1
            continue
        assert not fits(after.state_after(at), move, taken), f"move {index} left the line but still fitted"
        assert at == len(line)  # the first misfit without a resolution: everything after it leaves too
        break
    assert at == len(line)
    return kept


CASES = st.fixed_dictionaries(
    {
        "mode": st.sampled_from(["table", "seeded"]),
        "seed": st.integers(0, 10_000),
        "players": st.integers(2, 3),
        "length": st.integers(6, 90),
        "where": st.floats(0, 1),
        "choices": st.integers(0, 2**32),
    }
)
"""A random recorded game (its mode, seed, players and length), the move to correct (``where`` along its line)
and the seed of the choices made in correcting it."""


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=CASES)
def test_a_correction_resolved_misfit_by_misfit_is_the_fold_of_its_final_line(case: dict[str, Any]) -> None:
    mode, seed, players, length = case["mode"], case["seed"], case["players"], case["length"]
    log = open_log(StoreConfig(kind="memory"))
    setup = {"players": players, "mode": mode, "seed": seed}
    game_id = log.create_game(setup).game_id
    list(play_random(log, game_id, length, random.Random(seed)))
    game = log.get(game_id).with_states_from_start()
    assume(len(game.line) >= 2)
    position = min(int(case["where"] * (len(game.line) - 1)), len(game.line) - 2)
    version = game.line[position]
    recorded = game.records[version].move
    rng = random.Random(case["choices"])
    options = [move for move in domain.legal_moves(game.state_after(position)) if move != recorded]
    assume(options)
    correction = rng.choice(options)
    written_before = [event_to_dict(event) for event in log.events_of(game_id)]

    resolutions: list[dict[str, Any]] = []
    for _ in range(STEPS):
        _, report = log.amend(
            game_id, version, correction, expected_version=game.version, actor="m", dry_run=True,
            resolutions=resolutions,
        )  # fmt: skip
        if report.first_misfit is None:
            break
        more = resolve_next(resolutions, report.first_misfit, rng)
        if more is None:
            break
        resolutions = more
    _, dry_run = log.amend(
        game_id, version, correction, expected_version=game.version, actor="m", dry_run=True,
        resolutions=resolutions,
    )  # fmt: skip
    played, written = log.amend(
        game_id, version, correction, expected_version=game.version, actor="m", resolutions=resolutions
    )
    assert written == dry_run
    event(
        f"{mode}: {'all fit' if written.all_fit else 'the rest dropped'} after {len(resolutions)} resolution(s)"
    )
    after = log.get(game_id)

    # one write: its events follow the old ones, none of which changed
    events = [event_to_dict(event) for event in log.events_of(game_id)]
    assert events[: len(written_before)] == written_before
    assert played.versions == tuple(range(game.version + 1, after.version + 1))
    # the game is the fold of its events from scratch, and the fold of its final line recorded directly
    scratch = fold(log.events_of(game_id))
    assert scratch.line == after.line and canonical(scratch.state) == canonical(after.state)
    direct_id = log.create_game(setup).game_id
    moves = [after.records[v].move for v in after.line]
    direct = log.play(direct_id, moves, expected_version=1, actor="m").game
    assert canonical(direct.state) == canonical(after.state)
    # every later recorded move that still fitted is kept, in its order; the others did not fit
    kept = check_line(game, after, position, resolutions)
    assert tuple(kept) == written.kept
    assert len(written.resolved) == len(resolutions)
    # in table mode the kept moves' chance (none after a move: dice and cards are moves) is as recorded
    for kept_version in kept:
        said = after.records[kept_version].move
        if kept_version in written.rewritten:  # the same die, from the other end of its bridge
            assert mode == "table" and said == {**game.records[kept_version].move, "end": said["end"]}
        else:
            assert said == game.records[kept_version].move
        if mode == "table":
            assert after.records[kept_version].chance == game.records[kept_version].chance
