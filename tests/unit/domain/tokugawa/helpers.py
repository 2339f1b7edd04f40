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

from ..helpers import set_up
from ..matcha.helpers import MATCHA_BOARD, board, setup_answer, with_matcha
from ..solo_helpers import HUMAN, RIVAL, SOLO_STANDARD, reveal, rival_turn, with_solo

__all__ = ["HUMAN", "RIVAL", "board", "reveal", "rival_turn", "with_matcha", "with_solo"]

Move = dict[str, Any]

TOKUGAWA_STANDARD: dict[str, Any] = {
    **SOLO_STANDARD,
    "dice:green": [2, 4, 6],
    **MATCHA_BOARD,
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

    def start_cards(prompt: Mapping[str, Any]) -> Move | None:
        """The player's choice of starting cards, the one setup answer that Tokugawa adds."""
        if prompt["kind"] == "choose_start_cards":
            return {"kind": "choose_start_cards", "seat": HUMAN, **(choice or CHOICE)}
        return None

    state = domain.new_game(
        ["Ana"], solo=difficulty, mode="table", options=options, catalog=catalog, expansions=["matcha"]
    )
    return set_up(state, {**TOKUGAWA_STANDARD, **(answers or {})}, setup_answer, start_cards)


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
