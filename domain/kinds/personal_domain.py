"""The Personal Domain action's move: one row of the Domain activated (R-D03)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.card_words import catalog_json
from domain.kinds.base import PlayerMove, Table, kind


@kind("domain_row")
@dataclass(frozen=True, slots=True)
class DomainRowMove(PlayerMove):
    """Activate a row of the Personal Domain: ``{"kind": "domain_row", "seat": 0, "row": "courtiers"}``."""

    row: str

    def said(self, table: Table) -> str:
        return f"{self.who(table.state)} activates the {self.row} row of their Domain"

    def words(self, table: Table) -> str:
        rows = (catalog_json(table.state.catalog).get("domain") or {}).get("rows", ())
        row = next((r for r in rows if r["id"] == self.row), None)
        return f"The {row['colour']} row ({self.row})" if row else f"The {self.row} row"

    def target(self, table: Table) -> str | None:
        return f"domain:{self.seat}:row:{self.row}"
