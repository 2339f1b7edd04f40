"""The resources' moves: resources of one's choice picked (R-R07) and a seal conversion, a free move at the
catalog's price (R-R02; whisks with Matcha, R-M15)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kinds.base import PlayerMove, Table, kind

RAW = ("food", "iron", "pearl")

CONVERSIONS = "Convert seals… (free, any time on your turn)"
"""The seal conversions' heading: the moves they make affordable are listed with them (rules 0.3.0, each saying
how it is paid), so the page keeps the conversions themselves folded under this heading when anything else is
offered."""


@kind("resources")
@dataclass(frozen=True, slots=True)
class ResourcesMove(PlayerMove):
    """Resources of one's choice: ``{"kind": "resources", "seat": 0, "food": 1, "iron": 0, "pearl": 1}``."""

    food: int
    iron: int
    pearl: int

    def _gained(self) -> str:
        amounts = {"food": self.food, "iron": self.iron, "pearl": self.pearl}
        return ", ".join(f"{amounts[name]} {name}" for name in RAW if amounts[name])

    def said(self, table: Table) -> str:
        return f"{self.who(table.state)} gains {self._gained() or 'nothing'}"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        return {"food": self.food, "iron": self.iron, "pearl": self.pearl}, True

    def words(self, table: Table) -> str:
        return self._gained() or "nothing"

    def icons(self, table: Table) -> list[str]:
        amounts = {"food": self.food, "iron": self.iron, "pearl": self.pearl}
        return [f"{name}:{amounts[name]}" for name in RAW if amounts[name]]


@kind("convert")
@dataclass(frozen=True, slots=True)
class ConvertMove(PlayerMove):
    """A seal conversion, a free move: ``{"kind": "convert", "seat": 0, "to": "coin"}`` (coin, food, iron,
    pearl; whisk with Matcha)."""

    heading = CONVERSIONS
    convertible = False
    acting = False
    says_all = True
    to: str

    def price(self, table: Table) -> int:
        """The seals it costs: the catalog's price (R-R02)."""
        return table.state.catalog.conversions.get(self.to, 0)

    def said(self, table: Table) -> str:
        price = self.price(table)
        return f"{self.who(table.state)} converts {price} seal{'s' * (price > 1)} into 1 {self.to}"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        return {}, True

    def words(self, table: Table) -> str:
        price = self.price(table)
        return f"{price} seal{'s' * (price > 1)} → 1 {self.to}"

    def icons(self, table: Table) -> list[str]:
        return [f"seal:{self.price(table)}", f"{self.to}:1"]
