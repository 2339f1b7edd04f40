"""The solo game's moves (R-SO01..R-SO06): the solo card the rival reveals (chance), and the choices the rules
leave to the player for the rival: a garden among tied ones, the room its courtier reaches."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kinds.base import ChanceMove, PlayerMove, Table, capital, kind
from domain.kinds.gardener import garden_card, garden_words
from domain.kinds.setup import revealed_words
from domain.vocabulary import space_text


@kind("solo_card")
@dataclass(frozen=True, slots=True)
class SoloCardMove(ChanceMove):
    """The solo card the rival revealed: ``{"kind": "solo_card", "seat": null, "card": "SO4"}``; the rival then
    plays the rest of its turn by itself, so the log tells what it did."""

    rival_plays = True
    card: str

    def said(self, table: Table) -> str:
        return f"Chance: the solo card {self.card} is revealed"

    def words(self, table: Table) -> str:
        return revealed_words(table, self.card)


@kind("rival_garden")
@dataclass(frozen=True, slots=True)
class RivalGardenMove(PlayerMove):
    """A garden among those tied as the cheapest, for the rival's gardener: ``{"kind": "rival_garden", "seat":
    0, "garden": "white_plant"}``."""

    garden: str

    def said(self, table: Table) -> str:
        garden = self.garden.replace("_", " ")
        return f"{self.who(table.state)} chooses the {garden} garden for the rival's gardener (a tie)"

    def words(self, table: Table) -> str:
        card = garden_card(table.state, self.garden)
        where = garden_words(self.garden)
        return f"{where} ({card['cp']} CP)" if card else where

    def target(self, table: Table) -> str | None:
        return f"garden:{self.garden}"


@kind("rival_room")
@dataclass(frozen=True, slots=True)
class RivalRoomMove(PlayerMove):
    """The room the rival's courtier reaches: ``{"kind": "rival_room", "seat": 0, "room": "steward_2"}``."""

    room: str

    def said(self, table: Table) -> str:
        return f"{self.who(table.state)} chooses {space_text(self.room)} for the rival's courtier"

    def words(self, table: Table) -> str:
        room = next((r for r in table.state.board.rooms if r.id == self.room), None)
        discarded = f" (its card {room.card} is discarded)" if room and room.card else ""
        return capital(space_text(self.room)) + discarded

    def target(self, table: Table) -> str | None:
        return f"room:{self.room}"
