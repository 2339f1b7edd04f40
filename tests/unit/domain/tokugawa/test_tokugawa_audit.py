"""Scenario tests from an audit of the Tokugawa rival against its rules (R-SO01..R-SO06, R-TK01..R-TK07): situations
the area tests did not drive (found by breaking the implementing line and seeing every test still pass)."""

from __future__ import annotations

from typing import Any

import domain
from domain.state import Die, GameState, Space
from domain.vocabulary import Colour

from ..solo_helpers import cards
from .helpers import HUMAN, RIVAL, board, notes, reveal, tokugawa_game, with_matcha

HIMEJI_CARD: dict[str, Any] = cards(TK2={"space": "himeji_lower", "icons": ["cp:1"]})
"""TK2 (the green die at the right end, the 6 of TOKUGAWA_STANDARD's 2, 4, 6) sent to a Himeji space."""


def himeji_dice(state: GameState) -> list[list[int]]:
    return [[die.value for die in space.dice] for space in board(state).himeji]


def test_R_SO03_R_SO06_a_solo_card_naming_an_occupied_matcha_space_sends_its_die_to_the_well() -> None:
    """R-SO03: if the card's space already holds a die, the die goes to the Well (2 players never stack,
    R-SO06); a Himeji space counts like any other space."""
    state = tokugawa_game("medium", catalog=HIMEJI_CARD)
    spaces = board(state).himeji
    taken = with_matcha(state, himeji=(spaces[0], Space(spaces[1].id, (Die(Colour.BLACK, 4, HUMAN),))))
    taken = reveal(taken, "TK2")
    assert himeji_dice(taken) == [[], [4]]
    assert [die.value for die in taken.board.well.dice] == [6]
    assert taken.players[RIVAL].coins == 6 - 1  # against the Well's 1 (R-P02)
    assert "places it on the Well (the lower Himeji space is taken)" in notes(taken)[0]
    # the space free: the die goes there, settled against its printed 5, and the rival performs no curtain
    free = reveal(state, "TK2")
    assert himeji_dice(free) == [[], [6]] and free.board.well.dice == ()
    rival = free.players[RIVAL]
    assert rival.coins == 6 - 5 and (rival.seals, rival.iron, rival.gardeners) == (0, 0, 5)
    assert domain.prompt_of(free) == {"kind": "take_die", "seat": HUMAN}  # no curtain asked for it (R-SO02)


def test_R_SO01_R_S02_R_M01_the_tokugawa_game_is_set_up_for_2_players_without_any_diamond_card() -> None:
    """The solo game uses the 2-player setup (R-SO01): the ♦ Steward and Diplomat cards (R-S02) and, with
    Matcha, the ♦ Ikebana and Calligraphy cards (R-S02, R-M01) stay in the box; every other card is in play."""
    state = tokugawa_game("hard")
    catalog = state.catalog
    spec = catalog.matcha
    assert spec is not None
    himeji = {card for deck in board(state).decks for card in (deck.top, *deck.rest) if card is not None}
    assert himeji == {card for card, curtains in spec.curtains.items() if not curtains.diamond}
    assert any(curtains.diamond for curtains in spec.curtains.values())  # the check is not empty
    castle = {room.card for room in state.board.rooms} | set(state.board.decks.steward)
    castle |= set(state.board.decks.diplomat)
    expected = {card.id for card in catalog.cards.values() if card.deck in ("steward", "diplomat")}
    assert castle == {card for card in expected if not catalog.cards[card].diamond}
    assert len(expected) - len(castle) == 6 + 3  # S1, S3, S6, S8, S11, S14 and D1, D9, D12 (R-S02)
