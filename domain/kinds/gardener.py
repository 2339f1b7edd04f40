"""The Gardener action's move: a gardener to a garden, for the food its card asks (R-GA01)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.card_words import card_of
from domain.kinds.base import PlayerMove, Table, kind
from domain.state import GameState


def garden_card(state: GameState, garden: str) -> Mapping[str, Any] | None:
    """The card of the garden `garden` (a garden space's id), as the catalog writes it; None if none lies there."""
    slot = next((s for s in state.board.gardens if s.id == garden), None)
    return card_of(state.catalog, str(slot.card)) if slot else None


def garden_words(garden: str) -> str:
    return f"The {garden.replace('_', ' ')} garden"


@kind("gardener")
@dataclass(frozen=True, slots=True)
class GardenerMove(PlayerMove):
    """A gardener to a garden: ``{"kind": "gardener", "seat": 0, "garden": "coral_plant"}``."""

    garden: str

    def said(self, table: Table) -> str:
        state = table.state
        slot = next(s for s in state.board.gardens if s.id == self.garden)
        food = state.catalog.gardens[slot.card].food if slot.card else 0
        garden = self.garden.replace("_", " ")
        return f"{self.who(state)} sends a gardener to the {garden} garden ({slot.card}) for {food} food"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        state = table.state
        slot = next((s for s in state.board.gardens if s.id == self.garden), None)
        if slot is None or slot.card is None:
            return {}, False
        return {"food": -state.catalog.gardens[slot.card].food}, False

    def words(self, table: Table) -> str:
        card = garden_card(table.state, self.garden)
        where = garden_words(self.garden)
        return f"{where} {card['id']} ({card['food']} food)" if card else where

    def target(self, table: Table) -> str | None:
        return f"garden:{self.garden}"
