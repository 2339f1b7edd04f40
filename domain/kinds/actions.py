"""The moves of a list of actions or gains (a space's actions, a card's blocks, a reward, R-P07): an entry
chosen, the rest of a mandatory list taken in the usual order, and ``done``, which declines what is left of an
optional list or worker action."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kinds.base import PlayerMove, Table, capital, kind
from domain.names import QUESTIONS, cost_text, icons_text, source_text
from domain.prompts import KIND, Climb, CourtierAction, GeishaAction, HimejiCard, Menu, Option
from domain.vocabulary import FIELD, space_text

_GAIN_KINDS = frozenset({"coin", "seal", "food", "iron", "pearl", "cp", "whisk"})
"""Icons that are plain gains, which an entry's words name."""


def _option(table: Table, option_id: str) -> tuple[Menu, Option] | None:
    frame = table.frame
    if not isinstance(frame, Menu):
        return None
    option = next((o for o in frame.options if o.id == option_id), None)
    return None if option is None else (frame, option)


@kind("choose")
@dataclass(frozen=True, slots=True)
class ChooseMove(PlayerMove):
    """Choose an entry of a list of actions or gains: ``{"kind": "choose", "seat": 0, "option": "top"}``."""

    option: str

    def said(self, table: Table) -> str:
        frame = table.frame
        if not isinstance(frame, Menu):
            return super().said(table)
        who = self.who(table.state)
        found = _option(table, self.option)
        if found is None:
            return f"{who} chooses {self.option}"
        option = found[1]
        cost = f"pays {cost_text(option.cost)} for " if option.cost else "takes "
        return f"{who} {cost}{icons_text(option.icons)} ({source_text(frame.title, option.id)})"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        found = _option(table, self.option)
        if found is None:
            return {}, False
        option = found[1]
        stated: dict[str, int] = {}
        for resource, amount in option.cost:
            stated[FIELD[resource]] = stated.get(FIELD[resource], 0) - amount
        complete = all(icon.kind.value in _GAIN_KINDS for icon in option.icons)
        if not complete and any(icon.kind.value in _GAIN_KINDS for icon in option.icons):
            stated["listed"] = 1  # its words name some gains: the rest is said as the whole
        return stated, complete

    def words(self, table: Table) -> str:
        found = _option(table, self.option)
        if found is None:
            return capital(self.option.replace("_", " "))
        option = found[1]
        said = capital((f"pay {cost_text(option.cost)}: " if option.cost else "") + icons_text(option.icons))
        return said + _block_source(table, self.option)

    def target(self, table: Table) -> str | None:
        frame = table.frame
        place, _, where = frame.title.partition(":") if isinstance(frame, Menu) else ("", "", "")
        if place == "castle" and where:
            return f"room:{where}:{self.option}"
        if place in ("light", "tile") and ":" in self.option:
            return f"room:{self.option}"  # a block of one castle card among several: lit where it lies
        if place == "outside" and where:
            return f"outside:{where}:{self.option}"
        if place == "domain" and where:
            return f"domain:{self.seat}:row:{where}"
        if place == "garden" and where:
            return f"garden:{where}"
        if place == "daimyo":
            return "daimyo:"
        return None

    def icons(self, table: Table) -> list[str]:
        found = _option(table, self.option)
        return [] if found is None else [str(icon) for icon in found[1].icons]


def _block_source(table: Table, option: str) -> str:
    """Where a castle card's block offered among others' comes from (a light-background action, an action beside
    a die tile): " (steward room 2's card S2, middle block)", "" for an option of one place's own menu."""
    room_id, _, rows = option.partition(":")
    room = next((r for r in table.state.board.rooms if r.id == room_id), None)
    if room is None or not rows:
        return ""
    return f" ({space_text(room_id)}'s card {room.card}, {rows.replace('+', ' and ')} block)"


@kind("rest")
@dataclass(frozen=True, slots=True)
class RestMove(PlayerMove):
    """Take the rest of a mandatory list in the usual order: ``{"kind": "rest", "seat": 0}``."""

    heading = "Finish"

    def said(self, table: Table) -> str:
        frame = table.frame
        if not isinstance(frame, Menu):
            return super().said(table)
        return f"{self.who(table.state)} takes the rest of {source_text(frame.title)} in the usual order"

    def words(self, table: Table) -> str:
        return "Take them all"


@kind("done")
@dataclass(frozen=True, slots=True)
class DoneMove(PlayerMove):
    """Decline what is left of an optional list or worker action: ``{"kind": "done", "seat": 0}``."""

    heading = "Finish"
    acting = False

    def said(self, table: Table) -> str:
        frame = table.frame
        if isinstance(frame, HimejiCard):  # path space 1, declined (rules 0.5.0)
            return f"{self.who(table.state)} declines the card of path space 1"
        if isinstance(frame, Menu):
            title = source_text(frame.title)
        elif frame is not None:
            name = KIND[type(frame)]
            title = QUESTIONS.get(name, name.replace("_", " "))
        else:
            title = "the prompt"
        return f"{self.who(table.state)} declines the rest ({title})"

    def words(self, table: Table) -> str:
        return "Done" if isinstance(table.frame, Menu | CourtierAction | GeishaAction | Climb) else "Skip"
