"""The property tests that every variant runs (base game, solo, Matcha, Tokugawa) over a pool of states of random
games: every legal move applies, a move outside the legal ones is refused and changes nothing, a move from
another moment is refused unless it is legal here. Each variant builds its own pool and asserts its own rules on
what these return; the base game's values and kinds to mutate moves with live here, the variants extend them."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import domain
from domain.state import GameState

from .helpers import assert_rejected_unchanged, eager
from .solo_helpers import RIVAL

Move = dict[str, Any]


def settings_with(max_examples: int) -> settings:
    """The variants' settings: no deadline and no too-slow health check, since the first draw builds the pool
    of positions (whole games) and a move can be slow to apply."""
    return settings(max_examples=max_examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def states_of_games(games: Iterable[tuple[int, GameState]], bias: float) -> tuple[GameState, ...]:
    """Every state of each game (seed, start) played to its end, moves drawn by `eager` at `bias` from
    random.Random(seed): a pool of positions to draw from."""
    pool: list[GameState] = []
    for seed, start in games:
        rng, state = random.Random(seed), start
        while not domain.is_over(state):
            pool.append(state)
            state = domain.apply(state, eager(rng, domain.legal_moves(state), bias))
        pool.append(state)
    return tuple(pool)


def drawn_from(pool: Callable[[], tuple[GameState, ...]]) -> st.SearchStrategy[GameState]:
    """Any state of `pool` (a cached builder, called on the first draw rather than at import, so collecting the
    tests stays quick)."""
    return st.integers(min_value=0).map(lambda i: pool()[i % len(pool())])


def after_legal_moves(state: GameState, rnd: random.Random, most: int) -> list[GameState]:
    """`state` after each of up to `most` of its legal moves drawn by `rnd`, each sent through JSON as a client
    would send it. There are legal moves exactly while the game is not over."""
    legal = domain.legal_moves(state)
    assert bool(legal) != domain.is_over(state), (
        f"{len(legal)} legal moves, game over: {domain.is_over(state)}"
    )
    return [
        domain.apply(state, json.loads(json.dumps(move))) for move in rnd.sample(legal, min(len(legal), most))
    ]


def draw_legal_move(state: GameState, data: st.DataObject) -> Move:
    """One of `state`'s legal moves; at the end of the game, where there is none, seat 0's "done"."""
    legal = domain.legal_moves(state)
    move: Move = data.draw(st.sampled_from(legal)) if legal else {"kind": "done", "seat": 0}
    return move


def assert_rejected_unless_legal(state: GameState, move: Move) -> None:
    """`move` is refused with a rules error and changes nothing, unless it is legal after all (a mutation can
    land on another legal move)."""
    if move in domain.legal_moves(state):
        return
    assert_rejected_unchanged(state, move)


def assert_moves_of_another_moment_rejected(state: GameState, other: GameState, most: int = 6) -> None:
    """The first `most` legal moves of `other` apply to `state` where they are legal there too, and are refused
    with a DomainError where they are not."""
    legal = domain.legal_moves(state)
    for move in domain.legal_moves(other)[:most]:
        if move in legal:
            domain.apply(state, move)
            continue
        try:
            domain.apply(state, move)
        except domain.DomainError:
            pass
        else:
            raise AssertionError(f"{move} applied though it is not legal here")


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
"""Field values a mutated move may carry: the base game's names and numbers, and some of the wrong type."""

ADDED = ["extra", "value", "colour"]
"""Fields a mutated move may gain."""

KINDS = [
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
"""Kinds a mutated move may take."""


def mutate(
    move: Move,
    data: st.DataObject,
    values: Sequence[Any] = VALUES,
    added: Sequence[str] = ADDED,
    kinds: Sequence[str] = KINDS,
) -> Move:
    """`move` with one change drawn by hypothesis: a field set to one of `values`, another seat, a field
    dropped, one of `added` set to one of `values`, or another of `kinds`."""
    mutated = dict(move)
    how = data.draw(st.sampled_from(["field", "seat", "drop", "add", "kind"]))
    if how == "field":
        key = data.draw(st.sampled_from(sorted(mutated)))
        mutated[key] = data.draw(st.sampled_from(values))
    elif how == "seat":
        mutated["seat"] = data.draw(st.sampled_from([None, 0, 1, 2, 3, 4]))
    elif how == "drop":
        mutated.pop(data.draw(st.sampled_from(sorted(mutated))))
    elif how == "add":
        # Python evaluates the right side first, so the value is drawn before the key; kept so, the draws keep
        # the order that hypothesis's saved examples were drawn in
        mutated[data.draw(st.sampled_from(added))] = data.draw(st.sampled_from(values))
    else:
        mutated["kind"] = data.draw(st.sampled_from(kinds))
    return mutated


def solo_move_outside(base: Move, data: st.DataObject, other: Sequence[Move]) -> Move:
    """A move a solo game must refuse unless it is legal after all, drawn by hypothesis: `base` for the
    rival's seat, one of `other` (the variant's own kinds out of place), or `base` mutated."""
    how = data.draw(st.sampled_from(["rival", "mutate", "other"]))
    if how == "rival" and base.get("seat") is not None:
        return {**base, "seat": RIVAL}
    if how == "other":
        move: Move = data.draw(st.sampled_from(other))
        return move
    return mutate(base, data)
