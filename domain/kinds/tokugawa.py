"""The Tokugawa clan's moves, the solo rival with Matcha (R-TK01..R-TK07): the starting cards the player takes,
and the choices left to the player for the rival's geishas: the step one takes, the deck one discards from."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.card_words import card_of, card_words, icon_list
from domain.kinds.base import FROM, PlayerMove, Table, capital, kind
from domain.kinds.matcha import garden_place
from domain.vocabulary import space_text


@kind("choose_start_cards")
@dataclass(frozen=True, slots=True)
class ChooseStartCardsMove(PlayerMove):
    """1 starting resource card, 1 starting action card and 1 ceremony token (R-TK01): ``{"kind":
    "choose_start_cards", "seat": 0, "resource": "SR3", "action": "A2", "token": "CT5"}``."""

    resource: str
    action: str
    token: str

    def said(self, table: Table) -> str:
        return (
            f"{self.who(table.state)} chooses the starting cards {self.resource} + {self.action} "
            f"and ceremony token {self.token}"
        )

    def words(self, table: Table) -> str:
        catalog = table.state.catalog
        resource, action = card_of(catalog, self.resource), card_of(catalog, self.action)
        gains = icon_list(resource.get("gain")) if resource else self.resource
        does = icon_list(action["blocks"][0]["effects"]) if action and action.get("blocks") else self.action
        token = card_of(catalog, self.token)
        face = card_words("ceremony_faces", token) if token else self.token
        return f"{self.resource} ({gains}) + {self.action} ({does}) + {face}"


@kind("rival_geisha")
@dataclass(frozen=True, slots=True)
class RivalGeishaMove(PlayerMove):
    """A step for one of the rival's geishas: ``{"kind": "rival_geisha", "seat": 0, "from": "entrance", "to":
    "path_1"}``."""

    origin: str = field(metadata=FROM)
    to: str

    def said(self, table: Table) -> str:
        origin, to = space_text(self.origin), space_text(self.to)
        return f"{self.who(table.state)} advances a geisha of the rival from {origin} to {to}"

    def words(self, table: Table) -> str:
        return f"{capital(space_text(self.origin))} → {space_text(self.to)}"

    def target(self, table: Table) -> str | None:
        return garden_place(self.to)


@kind("rival_discard")
@dataclass(frozen=True, slots=True)
class RivalDiscardMove(PlayerMove):
    """The deck a rival geisha on a path space discards from: ``{"kind": "rival_discard", "seat": 0, "deck":
    "calligraphy"}``."""

    deck: str

    def said(self, table: Table) -> str:
        deck = self.deck.capitalize()
        return f"{self.who(table.state)} chooses the {deck} deck to discard from, for the rival's geisha"

    def words(self, table: Table) -> str:
        matcha = table.state.board.matcha
        deck = next((d for d in matcha.decks if d.id == self.deck), None) if matcha else None
        return capital(self.deck) + (f": discard {deck.top}" if deck and deck.top else "")

    def target(self, table: Table) -> str | None:
        return f"himeji:deck:{self.deck}"
