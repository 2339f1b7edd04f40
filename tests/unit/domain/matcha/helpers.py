"""Helpers for the Matcha tests: a known 3-player table game with the expansion (`matcha_standard`), built
through the public API, and small editors of its Matcha board."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import domain
from domain.areas.bridges import lay
from domain.engine import settle
from domain.prompts import bundle
from domain.state import GameState, MatchaBoard, bridge_index, replace_in
from domain.vocabulary import MatchaColour, parse_icon

from ..helpers import STANDARD, table_game

Move = dict[str, Any]

MATCHA_BOARD: dict[str, Any] = {
    "pond_1": "LP1",
    "pond_2": "LP2",
    "pond_3": "LP3",
    "himeji:ikebana": "IK1",
    "himeji:calligraphy": "CA1",
    "tea_house_upper": "CT6",
    "tea_house_middle": "CT12",
    "tea_house_lower": "CT16",
    "viewing_platform": "CT13",
}
"""The expansion board of the Matcha and Tokugawa tests alike: lily pads LP1-LP3 (2 coins, 1 whisk, 1 food); IK1
(yellow 4 coins, blue 1 seal -> Courtier) and CA1 (yellow 2 iron, blue 1 seal -> Gardener) on top in Himeji; Tea
House tokens CT6 (upper, gardeners), CT12 (middle), CT16 (lower); CT13 at the Viewing Platform."""

MATCHA_STANDARD: dict[str, Any] = {
    **STANDARD,
    "dice:green": [2, 3, 4, 6],
    **MATCHA_BOARD,
    "offer_0:token": "CT9",
    "offer_1:token": "CT1",
    "offer_2:token": "CT3",
    "offer_3:token": "CT17",
}
"""STANDARD (tests/unit/domain/helpers.py) plus the expansion board: green dice 2, 3, 4, 6 and MATCHA_BOARD; seat 0
gets CT9 (Gardener + 1 CP), seat 1 CT1 (Geisha + 1 resource), seat 2 CT3 (Courtier + PoT 1)."""


def setup_answer(state: GameState) -> Move:
    """A setup answer that always makes progress: a card from the middle of a pile (the last ones are the Matcha
    castle cards, whose dark blocks are all the Geisha action, and the castle would be redealt forever,
    R-S03), else the first legal answer."""
    legal = domain.legal_moves(state)
    return legal[len(legal) // 2] if legal[0]["kind"] == "reveal" else legal[0]


def advance_setup(state: GameState, until: Any) -> GameState:
    """Answer setup prompts with `setup_answer` until `until(prompt)` holds."""
    while not until(domain.prompt_of(state)):
        state = domain.apply(state, setup_answer(state))
    return state


def matcha_game(
    players: int | list[str] = 3,
    *,
    answers: Mapping[str, Any] | None = None,
    choose: Iterable[str] = (),
    options: Mapping[str, Any] | None = None,
    catalog: Mapping[str, Any] | None = None,
) -> GameState:
    """A table-mode Matcha game set up to its first turn; `answers` as in tests/unit/domain/helpers.table_game
    (targets of reveals, "dice:<colour>", "order"), anything else the default answer."""
    return table_game(
        players,
        answers=answers,
        choose=choose,
        options=options,
        catalog=catalog,
        expansions=["matcha"],
        fallback=setup_answer,
    )


def matcha_standard(**changes: Any) -> GameState:
    """MATCHA_STANDARD at seat 0's first turn (seat 0 SR3 + A1 + CT9, seat 1 SR9 + A2 + CT1, seat 2 SR6 + A3 +
    CT3); `changes` override its answers."""
    return matcha_game(3, answers={**MATCHA_STANDARD, **changes}, choose=["SR6", "SR9", "SR3"])


def board(state: GameState) -> MatchaBoard:
    assert state.board.matcha is not None
    return state.board.matcha


def with_matcha(state: GameState, **changes: Any) -> GameState:
    """The state with fields of its Matcha board changed."""
    return replace(state, board=replace(state.board, matcha=replace(board(state), **changes)))


def prompt(state: GameState) -> dict[str, Any]:
    return domain.prompt_of(state)


def menu_ids(state: GameState) -> list[str]:
    """The entries of the pending actions menu."""
    return [option["id"] for option in domain.prompt_of(state).get("options", [])]


def resolve(state: GameState, seat: int, *icons: str) -> GameState:
    """Resolve catalog icons for `seat` on top of the current state, in any order, as a ceremony token does."""
    frame = bundle(seat, "test", tuple(parse_icon(icon) for icon in icons))
    return settle(replace(state, stack=(*state.stack, frame)))


def with_green(state: GameState, dice: list[int]) -> GameState:
    """The green bridge laid with these dice (ascending from the lantern end)."""
    index = bridge_index(state, "green")
    bridges = replace_in(state.board.bridges, index, lay(MatchaColour.GREEN, dice))
    return replace(state, board=replace(state.board, bridges=bridges))
