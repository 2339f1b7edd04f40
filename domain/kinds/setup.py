"""The setup's moves: the starting pair a player chooses (R-S12), and what chance decides while the board is
laid out: a card or tile revealed (R-S03, R-S04, R-S08, R-S09, R-S12; Matcha's decks and pond, R-M01), the die
tiles drawn for the castle (R-S05) and the Well (R-S05), the stack of influence markers (R-S11)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from domain.card_words import card_of, card_words, icon_list
from domain.kinds.base import ChanceMove, Move, PlayerMove, Table, capital, kind
from domain.names import icons_text, pool_text, target_text
from domain.prompts import DealCard


def revealed_words(table: Table, card_id: str) -> str:
    """A card or tile revealed, in words: what it does (its id alone when the catalog has no such card)."""
    card = card_of(table.state.catalog, card_id)
    return card_words(card["family"], card) if card else card_id


@kind("choose_start")
@dataclass(frozen=True, slots=True)
class ChooseStartMove(PlayerMove):
    """A starting pair, by its resource card: ``{"kind": "choose_start", "seat": 0, "resource": "SR3"}``."""

    resource: str

    def said(self, table: Table) -> str:
        state = table.state
        pair = next((p for p in state.board.offer if p.resource == self.resource), None)
        action = pair.action if pair else "?"
        token = f" with ceremony token {pair.token}" if pair and pair.token else ""
        return f"{self.who(state)} chooses the starting pair {self.resource} + {action}{token}"

    def words(self, table: Table) -> str:
        state = table.state
        pair = next((p for p in state.board.offer if p.resource == self.resource), None)
        resource = card_of(state.catalog, self.resource)
        action = card_of(state.catalog, str(pair.action)) if pair else None
        gains = icon_list(resource.get("gain")) if resource else self.resource
        does = icon_list(action["blocks"][0]["effects"]) if action and action.get("blocks") else ""
        return f"{self.resource} + {pair.action if pair else '?'}: {gains}" + (
            f"; action card: {does}" if does else ""
        )

    def target(self, table: Table) -> str | None:
        offer = table.state.board.offer
        index = next((i for i, pair in enumerate(offer) if pair.resource == self.resource), None)
        return None if index is None else f"offer:{index}"


@kind("reveal")
@dataclass(frozen=True, slots=True)
class RevealMove(ChanceMove):
    """A card or tile revealed from a pile: ``{"kind": "reveal", "seat": null, "pool": "steward", "card": "S4"}``."""

    pool: str
    card: str

    def said(self, table: Table) -> str:
        frame = table.frame
        where = target_text(table.state, frame.target) if isinstance(frame, DealCard) else "the table"
        return f"Chance: {pool_text(self.pool)} {self.card} is revealed for {where}{table.redeal(self.card)}"

    def words(self, table: Table) -> str:
        return revealed_words(table, self.card)


@kind("die_tile")
@dataclass(frozen=True, slots=True)
class DieTileMove(ChanceMove):
    """The colour of a die tile drawn for the castle: ``{"kind": "die_tile", "seat": null, "colour": "coral"}``."""

    colour: str

    def said(self, table: Table) -> str:
        why = table.die_tile_moved(self.colour)
        if why:  # R-S05 lays it on another space than the one asked about: say why
            where = table.die_tile_place(self.colour)
            return f"Chance: a {self.colour} die tile is drawn; {why}, so it goes on to {where} (R-S05)"
        return f"Chance: a {self.colour} die tile is drawn for {table.die_tile_place(self.colour)}"

    def words(self, table: Table) -> str:
        return capital(self.colour)


@kind("well_tile")
@dataclass(frozen=True, slots=True)
class WellTileMove(ChanceMove):
    """A die tile laid at the Well: ``{"kind": "well_tile", "seat": null, "tile": "T1"}``."""

    tile: str

    def said(self, table: Table) -> str:
        tile = table.state.catalog.die_tiles.get(self.tile)
        reward = icons_text(tile.reward) if tile else "?"
        return f"Chance: die tile {self.tile} ({reward}) is laid at the Well"

    def words(self, table: Table) -> str:
        return revealed_words(table, self.tile)


@kind("stack_order")
@dataclass(frozen=True, slots=True)
class StackOrderMove(ChanceMove):
    """The stack of influence markers, top first (the turn order): ``{"kind": "stack_order", "seat": null,
    "order": [2, 0, 1]}``."""

    order: tuple[int, ...]

    def reseated(self, seats: Mapping[int, int]) -> Move:
        """The turn order with each seat replaced by the seat that really played its moves."""
        changed: Move = dataclasses.replace(self, order=tuple(seats.get(seat, seat) for seat in self.order))
        return changed

    def said(self, table: Table) -> str:
        players = table.state.players
        names = ", ".join(players[s].name for s in self.order if 0 <= s < len(players))
        return f"Chance: the influence stack, top first (turn order): {names}"

    def words(self, table: Table) -> str:
        players = table.state.players
        return ", then ".join(
            players[seat].name if seat < len(players) else f"Seat {seat + 1}" for seat in self.order
        )
