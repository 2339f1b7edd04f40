"""Outside the Walls: two spaces of value 5 open to every colour (R-O01), each giving one of two worker actions
(R-O02).
"""

from __future__ import annotations

from domain.prompts import Menu, Option
from domain.state import GameState


def outside_menu(state: GameState, seat: int, space_id: str) -> Menu:
    """One of the space's two actions, or none (R-O02, R-P07)."""
    spec = next(spec for spec in state.catalog.outside if spec.id == space_id)
    options = tuple(Option(icon.kind.value, (), (icon,)) for icon in spec.actions)
    return Menu(seat, f"outside:{space_id}", options, (), 1, False)
