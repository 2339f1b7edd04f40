"""Helpers for the solo tests: a known table-mode solo game, the rival about to reveal a card, solo card overrides."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import domain
from domain.engine import settle
from domain.prompts import EndTurn, TakeDie
from domain.state import GameState

from .helpers import STANDARD, default_answer, set_up

Move = dict[str, Any]
RIVAL = 1
HUMAN = 0

SOLO_STANDARD: dict[str, Any] = {
    # the castle, the gardens and the yards of helpers.STANDARD; the dice and the offer of a game for one
    **{key: value for key, value in STANDARD.items() if not key.startswith(("dice:", "order", "offer_"))},
    "dice:coral": [1, 3, 5],
    "dice:black": [2, 4, 6],
    "dice:white": [1, 3, 6],
    "offer_0:resource": "SR3",
    "offer_0:action": "A1",
}
"""The solo twin of helpers.STANDARD: steward rooms S2/S4/S7, diplomat rooms D2/D7, plant gardens PG2 (coral,
7 CP), PG1 (black, 5 CP), PG4 (white, 7 CP), stone gardens SG1 (coral, 1 CP), SG3 (black, 3 CP), SG5 (white,
5 CP); the player draws SR3 + A1."""


def solo_game(
    difficulty: str = "medium",
    *,
    answers: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    catalog: Mapping[str, Any] | None = None,
    name: str = "Ana",
) -> GameState:
    """A table-mode solo game (SOLO_STANDARD, `answers` over it) played up to its first turn: the player's
    take_die (easy) or the rival's first reveal (medium, hard)."""
    state = domain.new_game([name], solo=difficulty, mode="table", options=options, catalog=catalog)
    return set_up(state, {**SOLO_STANDARD, **(answers or {})}, default_answer)


def rival_turn(state: GameState, turn_index: int | None = None, round_: int | None = None) -> GameState:
    """The same board with the rival starting its turn (waiting for its first reveal); by default the turn is
    the rival's first of the round."""
    order = state.turn_order
    index = order.index(RIVAL) if turn_index is None else turn_index
    changes: dict[str, Any] = {"turn_index": index, "stack": (EndTurn(RIVAL), TakeDie(RIVAL))}
    if round_ is not None:
        changes["round"] = round_
    return settle(replace(state, **changes))


def reveal(state: GameState, *cards: str) -> GameState:
    """The recorder enters the solo cards revealed, in order."""
    for card in cards:
        state = domain.apply(state, {"kind": "solo_card", "seat": None, "card": card})
    return state


def with_solo(state: GameState, **changes: Any) -> GameState:
    assert state.solo is not None
    return replace(state, solo=replace(state.solo, **changes))


def cards(**by_id: Mapping[str, Any]) -> dict[str, Any]:
    """A catalog override of some solo cards: cards(SO1={"icons": ["cp:2"]})."""
    return {"solo_cards": [{"id": card, **fields} for card, fields in by_id.items()]}
