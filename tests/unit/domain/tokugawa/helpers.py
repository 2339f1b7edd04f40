"""Helpers for the Tokugawa tests (the solo rival with Matcha, R-TK01..R-TK07): a known table-mode game built
through the public API, the rival about to play, and small editors of the board."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import domain
from domain.engine import settle
from domain.prompts import RivalIcons
from domain.state import GameState
from domain.vocabulary import Phase

from ..matcha.helpers import board, setup_answer, with_matcha
from ..solo_helpers import HUMAN, RIVAL, SOLO_STANDARD, reveal, rival_turn, with_solo

__all__ = ["HUMAN", "RIVAL", "board", "reveal", "rival_turn", "with_matcha", "with_solo"]

Move = dict[str, Any]

TOKUGAWA_STANDARD: dict[str, Any] = {
    **SOLO_STANDARD,
    "dice:green": [2, 4, 6],
    "pond_1": "LP1",
    "pond_2": "LP2",
    "pond_3": "LP3",
    "himeji:ikebana": "IK1",
    "himeji:calligraphy": "CA1",
    "tea_house_upper": "CT6",
    "tea_house_middle": "CT12",
    "tea_house_lower": "CT16",
    "viewing_platform": "CT13",
    "offer_0:resource": "SR3",
    "offer_0:action": "A1",
    "offer_0:token": "CT9",
    "offer_1:resource": "SR9",
    "offer_1:action": "A4",
    "offer_1:token": "CT3",
}
"""SOLO_STANDARD (the castle, gardens and yards of the base solo tests) plus the Matcha board: green dice 2, 4, 6;
lily pads LP1-LP3; IK1 and CA1 on top in Himeji (6 Ikebana and 6 Calligraphy cards at 2 players); Tea House tokens
CT6, CT12, CT16; CT13 at the Viewing Platform; dealt to choose from: SR3 or SR9, A1 or A4, CT9 or CT3."""

CHOICE = {"resource": "SR3", "action": "A1", "token": "CT9"}
"""The player's starting choice in `tokugawa_game` unless told otherwise."""


def tokugawa_game(
    difficulty: str = "medium",
    *,
    answers: Mapping[str, Any] | None = None,
    choice: Mapping[str, str] | None = None,
    options: Mapping[str, Any] | None = None,
    catalog: Mapping[str, Any] | None = None,
) -> GameState:
    """A table-mode Tokugawa game (TOKUGAWA_STANDARD, `answers` over it) up to its first turn, the player having
    chosen `choice` (CHOICE by default): the player's take_die (easy) or the rival's first reveal (medium,
    hard)."""
    answers = {**TOKUGAWA_STANDARD, **(answers or {})}
    tiles = list(answers.pop("tiles", []))
    wells = list(answers.pop("well", []))
    state = domain.new_game(
        ["Ana"], solo=difficulty, mode="table", options=options, catalog=catalog, expansions=["matcha"]
    )
    while state.phase is Phase.SETUP:
        prompt = domain.prompt_of(state)
        kind = prompt["kind"]
        move: Move = setup_answer(state)
        if kind == "reveal" and prompt["target"] in answers:
            move = {"kind": "reveal", "seat": None, "pool": prompt["pool"], "card": answers[prompt["target"]]}
        elif kind == "roll" and f"dice:{prompt['bridge']}" in answers:
            move = {
                "kind": "roll",
                "seat": None,
                "bridge": prompt["bridge"],
                "dice": answers[f"dice:{prompt['bridge']}"],
            }
        elif kind == "die_tile" and tiles:
            move = {"kind": "die_tile", "seat": None, "colour": tiles.pop(0)}
        elif kind == "well_tile" and wells:
            move = {"kind": "well_tile", "seat": None, "tile": wells.pop(0)}
        elif kind == "choose_start_cards":
            move = {"kind": "choose_start_cards", "seat": HUMAN, **(choice or CHOICE)}
        state = domain.apply(state, move)
    return state


def resolve_icons(state: GameState, *icons: str) -> GameState:
    """The rival resolves these icons now, on top of the current state (as its last two cards would)."""
    return settle(replace(state, stack=(*state.stack, RivalIcons(RIVAL, icons))))


def with_rival(state: GameState, **changes: Any) -> GameState:
    """The rival's clan with some fields changed (cp, coins, pot, geishas, ...)."""
    players = list(state.players)
    players[RIVAL] = replace(players[RIVAL], **changes)
    return replace(state, players=tuple(players))


def with_player(state: GameState, **changes: Any) -> GameState:
    """The player's clan with some fields changed."""
    players = list(state.players)
    players[HUMAN] = replace(players[HUMAN], **changes)
    return replace(state, players=tuple(players))


def notes(state: GameState) -> tuple[str, ...]:
    assert state.solo is not None
    return state.solo.notes


def answers_of(state: GameState, kind: str) -> list[Move]:
    return [move for move in domain.legal_moves(state) if move["kind"] == kind]
