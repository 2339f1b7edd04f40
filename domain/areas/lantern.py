"""The Lantern Reward: every visible icon of the Lantern Area, in any order (R-L01..R-L03)."""

from __future__ import annotations

from domain.prompts import Menu, Option
from domain.state import GameState
from domain.vocabulary import Icon


def lantern_items(state: GameState, seat: int) -> list[tuple[str, tuple[Icon, ...]]]:
    """(card id, its lantern icons) for every card of the seat's Lantern Area, in arrival order."""
    cards = state.catalog.cards
    return [(card, cards[card].lantern) for card in state.players[seat].lantern]


def lantern_menu(state: GameState, seat: int) -> Menu:
    """The Lantern Reward as a mandatory menu (R-L01)."""
    options = []
    seen: dict[str, int] = {}
    for card, icons in lantern_items(state, seat):
        seen[card] = seen.get(card, 0) + 1
        option_id = card if seen[card] == 1 else f"{card}#{seen[card]}"
        options.append(Option(option_id, (), icons))
    return Menu(seat, "lantern", tuple(options), (), len(options), True)
