"""The Courtier action's moves (R-CA01..R-CA04): the Audience (a courtier to the Gate, at the catalog's price),
the Ascent (a courtier 1 or 2 floors up, for pearl; also Matcha's free climb, R-M18) and the favour spot a
courtier takes at the Daimyo."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.card_words import card_of, icon_list
from domain.kinds.base import FROM, PlayerMove, Table, kind
from domain.names import cost_text, icons_text
from domain.state import GameState
from domain.vocabulary import FIELD, Cost, space_text


def audience_cost(state: GameState) -> Cost:
    """What the Audience costs in this game: the catalog's (R-CA01)."""
    return state.catalog.audience_cost


@kind("audience")
@dataclass(frozen=True, slots=True)
class AudienceMove(PlayerMove):
    """Part A of the Courtier action, a courtier to the Gate: ``{"kind": "audience", "seat": 0}``."""

    heading = "Audience"

    def said(self, table: Table) -> str:
        state = table.state
        return f"{self.who(state)} sends a courtier to the Gate for {cost_text(audience_cost(state))}"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        return {FIELD[resource]: -amount for resource, amount in audience_cost(table.state)}, False

    def words(self, table: Table) -> str:
        return f"Audience: a courtier to the Gate ({cost_text(audience_cost(table.state))})"

    def target(self, table: Table) -> str | None:
        return "gate:"


@kind("ascend")
@dataclass(frozen=True, slots=True)
class AscendMove(PlayerMove):
    """Part B, a courtier climbs: ``{"kind": "ascend", "seat": 0, "from": "gate", "to": "steward_1"}``."""

    heading = "Ascent"
    origin: str = field(metadata=FROM)
    to: str

    def said(self, table: Table) -> str:
        pearl = table.ascent_pearl(self.seat, self.origin, self.to)
        paid = f" for {pearl} pearl" if pearl else ""
        who = self.who(table.state)
        return f"{who}'s courtier climbs from {space_text(self.origin)} to {space_text(self.to)}{paid}"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        return {"pearl": -table.ascent_pearl(self.seat, self.origin, self.to)}, False

    def words(self, table: Table) -> str:
        return f"Ascent: {space_text(self.origin)} → {space_text(self.to)}"

    def target(self, table: Table) -> str | None:
        return "daimyo:" if self.to == "daimyo" else f"room:{self.to}"


@kind("daimyo_spot")
@dataclass(frozen=True, slots=True)
class DaimyoSpotMove(PlayerMove):
    """The Daimyo's favour spot a courtier takes (R-CA04): ``{"kind": "daimyo_spot", "seat": 0, "spot": 2}``."""

    spot: int

    def said(self, table: Table) -> str:
        state = table.state
        card = state.board.daimyo.card
        icons = state.catalog.daimyo[card][self.spot] if card else ()
        return f"{self.who(state)}'s courtier takes favour spot {self.spot + 1} of the Daimyo ({icons_text(icons)})"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        return {}, True

    def words(self, table: Table) -> str:
        state = table.state
        card = card_of(state.catalog, str(state.board.daimyo.card))
        spots = card.get("spots") if card else None
        shown = f": {icon_list(spots[self.spot])}" if spots and self.spot < len(spots) else ""
        return f"Favour spot {self.spot + 1}{shown}"

    def target(self, table: Table) -> str | None:
        return f"daimyo:spot:{self.spot}"
