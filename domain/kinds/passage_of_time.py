"""The Passage of Time's move: the seals paid to pass a milestone, or the marker stopped before it (R-PT02)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kinds.base import PlayerMove, Table, kind


def _seals(amount: int) -> str:
    return f"{amount} seal{'s' * (amount != 1)}"


@kind("milestone")
@dataclass(frozen=True, slots=True)
class MilestoneMove(PlayerMove):
    """Pay a milestone's seals and pass, or stop before it: ``{"kind": "milestone", "seat": 0, "pay": true}``."""

    pays_milestone = True
    pay: bool

    def _space(self, table: Table) -> int:
        return table.state.players[self.seat].pot + 1

    def said(self, table: Table) -> str:
        state, space = table.state, self._space(table)
        if self.pay:
            seals = state.catalog.milestones.get(space, 0)
            return f"{self.who(state)} pays {_seals(seals)} to pass the milestone of space {space}"
        return f"{self.who(state)} stops before the milestone of space {space}"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        if not self.pay:
            return {}, False
        return {"seals": -table.state.catalog.milestones.get(self._space(table), 0)}, False

    def words(self, table: Table) -> str:
        return "Pay the seals and pass" if self.pay else "Stop before it"

    def target(self, table: Table) -> str | None:
        return f"track:{self._space(table)}" if self.pay else None
