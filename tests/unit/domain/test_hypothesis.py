"""Hypothesis: every move of `legal_moves` applies; moves outside it (mutated legal moves, other seats, moves
of other prompts) are rejected with a DomainError and leave the state unchanged."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import domain
from domain.state import GameState

from .helpers import assert_rejected_unchanged

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def positions() -> tuple[GameState, ...]:
    """Every state of 12 random games (2-4 players, seeded and table mode), a pool to draw from."""
    pool: list[GameState] = []
    for seed in range(12):
        rng = random.Random(seed)
        mode = "table" if seed % 3 == 0 else "seeded"
        state = domain.new_game(2 + seed % 3, mode=mode, seed=seed if mode == "seeded" else None)
        while not domain.is_over(state):
            pool.append(state)
            legal = domain.legal_moves(state)
            acting = [m for m in legal if m["kind"] not in ("done", "convert")]
            state = domain.apply(state, rng.choice(acting if acting and rng.random() < 0.8 else legal))
        pool.append(state)
    return tuple(pool)


states = st.integers(min_value=0).map(lambda i: positions()[i % len(positions())])

VALUES: list[Any] = [
    None,
    True,
    False,
    -1,
    0,
    1,
    2,
    3,
    5,
    6,
    7,
    99,
    "",
    "left",
    "right",
    "middle",
    "coral",
    "black",
    "white",
    "green",
    "well",
    "domain",
    "steward_1",
    "diplomat_2",
    "outside_1",
    "daimyo",
    "gate",
    "yard_1",
    "yard_4",
    "coral_plant",
    "top",
    "all",
    "SR1",
    "S1",
    "D4",
    "T1",
    "coin",
    "food",
    "courtiers",
    [],
    [1, 2, 3],
    [0, 1],
    [6, 6, 6, 6, 6],
    {"x": 1},
]


@SETTINGS
@given(states, st.randoms(use_true_random=False))
def test_every_legal_move_applies(state: GameState, rnd: random.Random) -> None:
    legal = domain.legal_moves(state)
    assert bool(legal) != domain.is_over(state)
    for move in rnd.sample(legal, min(len(legal), 8)):
        wire = json.loads(json.dumps(move))
        after = domain.apply(state, wire)
        assert isinstance(after, GameState)


def mutate(move: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    mutated = dict(move)
    how = data.draw(st.sampled_from(["field", "seat", "drop", "add", "kind"]))
    if how == "field":
        key = data.draw(st.sampled_from(sorted(mutated)))
        mutated[key] = data.draw(st.sampled_from(VALUES))
    elif how == "seat":
        mutated["seat"] = data.draw(st.sampled_from([None, 0, 1, 2, 3, 4]))
    elif how == "drop":
        mutated.pop(data.draw(st.sampled_from(sorted(mutated))))
    elif how == "add":
        mutated[data.draw(st.sampled_from(["extra", "value", "colour"]))] = data.draw(st.sampled_from(VALUES))
    else:
        mutated["kind"] = data.draw(
            st.sampled_from(
                [
                    "take_die",
                    "place_die",
                    "choose",
                    "done",
                    "rest",
                    "reveal",
                    "roll",
                    "convert",
                    "ascend",
                    "warrior",
                    "pass",
                ]
            )
        )
    return mutated


@SETTINGS
@given(states, st.data())
def test_moves_outside_legal_moves_are_rejected_and_change_nothing(
    state: GameState, data: st.DataObject
) -> None:
    legal = domain.legal_moves(state)
    base = data.draw(st.sampled_from(legal)) if legal else {"kind": "done", "seat": 0}
    move = mutate(base, data)
    if move in legal:
        return
    assert_rejected_unchanged(state, move)


@SETTINGS
@given(states, states)
def test_a_move_from_another_moment_is_rejected_unless_legal_here(state: GameState, other: GameState) -> None:
    legal = domain.legal_moves(state)
    for move in domain.legal_moves(other)[:6]:
        if move in legal:
            domain.apply(state, move)
            continue
        try:
            domain.apply(state, move)
        except domain.DomainError:
            pass
        else:
            raise AssertionError(f"{move} applied though it is not legal here")
