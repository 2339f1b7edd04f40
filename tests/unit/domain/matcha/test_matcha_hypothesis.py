"""Hypothesis on Matcha games: every move of `legal_moves` applies; moves outside it (mutated legal moves, other
seats, moves of other prompts, Matcha names in the wrong places) are rejected with a DomainError and leave the
state unchanged."""

from __future__ import annotations

import functools
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import domain
from domain.state import GameState

from ..helpers import assert_rejected_unchanged
from ..test_hypothesis import VALUES as BASE_VALUES

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

VALUES: list[Any] = [
    *BASE_VALUES,
    "whisk",
    "tea_room_left",
    "tea_room_right",
    "himeji_upper",
    "himeji_lower",
    "entrance",
    "viewing_platform",
    "path_1",
    "path_2",
    "tea_house_upper",
    "tea_house_lower",
    "ikebana",
    "calligraphy",
    "origami",
    "ceremony",
    "lily_pads",
    "CT6",
    "CT13",
    "IK1",
    "LP1",
    "ikebana:blue",
    "calligraphy:yellow",
    [1, 2, 3, 4],
]
KINDS = [
    "send_geisha",
    "advance_geisha",
    "himeji_card",
    "choose",
    "done",
    "convert",
    "ascend",
    "take_die",
    "reveal",
]


@functools.cache
def positions() -> tuple[GameState, ...]:
    """Every state of 9 random Matcha games (2-4 players, seeded and table mode), a pool to draw from."""
    pool: list[GameState] = []
    for seed in range(9):
        rng = random.Random(seed)
        mode = "table" if seed % 3 == 0 else "seeded"
        state = domain.new_game(
            2 + seed % 3, mode=mode, seed=seed if mode == "seeded" else None, expansions=["matcha"]
        )
        while not domain.is_over(state):
            pool.append(state)
            legal = domain.legal_moves(state)
            acting = [m for m in legal if m["kind"] not in ("done", "convert")]
            state = domain.apply(state, rng.choice(acting if acting and rng.random() < 0.85 else legal))
        pool.append(state)
    return tuple(pool)


states = st.integers(min_value=0).map(lambda i: positions()[i % len(positions())])


@SETTINGS
@given(states, st.randoms(use_true_random=False))
def test_every_legal_matcha_move_applies(state: GameState, rnd: random.Random) -> None:
    legal = domain.legal_moves(state)
    assert bool(legal) != domain.is_over(state)
    for move in rnd.sample(legal, min(len(legal), 8)):
        after = domain.apply(state, json.loads(json.dumps(move)))
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
        mutated[data.draw(st.sampled_from(["extra", "deck", "from", "to"]))] = data.draw(
            st.sampled_from(VALUES)
        )
    else:
        mutated["kind"] = data.draw(st.sampled_from(KINDS))
    return mutated


@SETTINGS
@given(states, st.data())
def test_matcha_moves_outside_legal_moves_are_rejected_and_change_nothing(
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
def test_a_matcha_move_from_another_moment_is_rejected_unless_legal_here(
    state: GameState, other: GameState
) -> None:
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
