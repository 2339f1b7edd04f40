"""The Warrior action's move: a warrior to a training yard, for the yard's iron (R-WA01, R-WA02)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kinds.base import PlayerMove, Table, kind
from domain.vocabulary import space_text


@kind("warrior")
@dataclass(frozen=True, slots=True)
class WarriorMove(PlayerMove):
    """A warrior to a training yard: ``{"kind": "warrior", "seat": 0, "yard": "yard_2"}``."""

    yard: str

    def said(self, table: Table) -> str:
        state = table.state
        iron = state.catalog.yard(self.yard).iron
        return f"{self.who(state)} sends a warrior to {self.yard.replace('_', ' ')} for {iron} iron"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        return {"iron": -table.state.catalog.yard(self.yard).iron}, False

    def words(self, table: Table) -> str:
        spec = next((spec for spec in table.state.catalog.yards if spec.id == self.yard), None)
        return f"Training {space_text(self.yard)}" + (f" ({spec.iron} iron)" if spec else "")

    def target(self, table: Table) -> str | None:
        return f"yard:{self.yard}"
