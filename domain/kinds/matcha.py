"""The Matcha expansion's moves: the Geisha action's two parts, a geisha to the Tea Garden entrance at the
catalog's price (Part A, R-M07) and a geisha 1 or 2 steps on for whisks (Part B, R-M08, R-M09; also the free step
of CT13, R-M18), and the Himeji card whose curtains are taken (R-M11)."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.card_words import card_of, icon_list
from domain.kinds.base import FROM, PlayerMove, Table, capital, kind
from domain.names import cost_text, icon_text
from domain.prompts import HimejiCard
from domain.state import GameState
from domain.vocabulary import FIELD, Cost, parse_icon, space_text


def entrance_cost(state: GameState) -> Cost:
    """What Part A costs in this game: the catalog's (R-M07)."""
    spec = state.catalog.matcha
    return spec.entrance_cost if spec is not None else ()


def garden_place(place: str) -> str:
    """The board part of a place of the Tea Garden (a Tea House room is a part of its own)."""
    return f"tea_house:{place}" if place.startswith("tea_house") else f"tea_garden:{place}"


@kind("send_geisha")
@dataclass(frozen=True, slots=True)
class SendGeishaMove(PlayerMove):
    """Part A of the Geisha action: ``{"kind": "send_geisha", "seat": 0}``."""

    heading = "Part A"

    def said(self, table: Table) -> str:
        state = table.state
        return f"{self.who(state)} sends a geisha to the Tea Garden entrance for {cost_text(entrance_cost(state))}"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        return {FIELD[resource]: -amount for resource, amount in entrance_cost(table.state)}, False

    def words(self, table: Table) -> str:
        paid = ", ".join(icon_text(parse_icon(f"{r}:{n}")) for r, n in entrance_cost(table.state) if n)
        return f"Part A: a geisha to the Tea Garden entrance ({paid or 'free'})"

    def target(self, table: Table) -> str | None:
        return "tea_garden:entrance"


@kind("advance_geisha")
@dataclass(frozen=True, slots=True)
class AdvanceGeishaMove(PlayerMove):
    """Part B (or a free step): ``{"kind": "advance_geisha", "seat": 0, "from": "entrance", "to": "path_1"}``."""

    heading = "Part B"
    origin: str = field(metadata=FROM)
    to: str

    def said(self, table: Table) -> str:
        whisks = table.geisha_whisks(self.origin, self.to)
        paid = f" for {whisks} whisks" if whisks else ""
        who = self.who(table.state)
        return f"{who}'s geisha goes from {space_text(self.origin)} to {space_text(self.to)}{paid}"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        return {"whisks": -table.geisha_whisks(self.origin, self.to)}, False

    def words(self, table: Table) -> str:
        whisks = table.advance_whisks(self.seat, self.origin, self.to)
        paid = f" ({whisks} whisks)" if whisks else " (free)"
        return f"Part B: {space_text(self.origin)} → {space_text(self.to)}{paid}"

    def target(self, table: Table) -> str | None:
        return garden_place(self.to)


@kind("himeji_card")
@dataclass(frozen=True, slots=True)
class HimejiCardMove(PlayerMove):
    """The Ikebana or Calligraphy card whose curtains are taken: ``{"kind": "himeji_card", "seat": 0,
    "deck": "ikebana"}``."""

    deck: str

    def said(self, table: Table) -> str:
        return f"{self.who(table.state)} chooses the {self.deck.capitalize()} card"

    def words(self, table: Table) -> str:
        state = table.state
        matcha = state.board.matcha
        deck = next((d for d in matcha.decks if d.id == self.deck), None) if matcha else None
        top = deck.top if deck else None
        card = card_of(state.catalog, str(top)) if top else None
        shown = ""
        if card:
            shown = f": {icon_list(card.get('yellow'))}"
            frame = table.frame
            if not (isinstance(frame, HimejiCard) and frame.purpose == "path"):
                shown += f" / {icon_list(card.get('blue'))}"
        return f"{capital(self.deck)}{f' {top}' if top else ''}{shown}"

    def target(self, table: Table) -> str | None:
        return f"himeji:deck:{self.deck}"
