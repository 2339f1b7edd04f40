"""The action spaces' move: the die taken placed on a space of the castle, Outside the Walls, the Well, the
Personal Domain or (Matcha) the Tea Room and Himeji, paying or gaining the difference to the space's value
(R-P01..R-P04)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kinds.base import PlayerMove, Table, capital, kind
from domain.prompts import PlaceDie
from domain.vocabulary import space_text


def _coins(delta: int) -> str:
    if delta > 0:
        return f", gaining {delta} coin{'s' * (delta > 1)}"
    if delta < 0:
        return f", paying {-delta} coin{'s' * (delta < -1)}"
    return ""


def _paid(delta: int | None) -> str:
    if not delta:
        return ""
    n = abs(delta)
    return f" (gain {n} coin{'s' * (n > 1)})" if delta > 0 else f" (pay {n} coin{'s' * (n > 1)})"


@kind("place_die")
@dataclass(frozen=True, slots=True)
class PlaceDieMove(PlayerMove):
    """Place the die taken on a space: ``{"kind": "place_die", "seat": 0, "space": "steward_2"}`` (steward_1..3,
    diplomat_1..2, outside_1..2, well, domain; with Matcha tea_room_1.., himeji_..)."""

    space: str

    def said(self, table: Table) -> str:
        state = table.state
        held, who = state.held, self.who(state)
        if held is None:
            return f"{who} places a die on {space_text(self.space)}"
        delta = held.value - table.reference(self.space)
        return f"{who} places the {held.colour} {held.value} on {space_text(self.space)}{_coins(delta)}"

    def stated(self, table: Table) -> tuple[dict[str, int], bool]:
        held = table.state.held
        return ({} if held is None else {"coins": held.value - table.reference(self.space)}), False

    def words(self, table: Table) -> str:
        held = table.state.held if isinstance(table.frame, PlaceDie) else None
        delta = None
        if held is not None:
            try:
                delta = held.value - table.reference(self.space)
            except (KeyError, ValueError, IndexError, StopIteration):
                delta = None
        return capital(space_text(self.space)) + _paid(delta)

    def group(self) -> str:
        if self.space.startswith(("steward_", "diplomat_")):
            return "Castle"
        if self.space.startswith("outside_"):
            return "Outside the Walls"
        if self.space.startswith(("tea_room", "himeji")):
            return "Tea Room and Himeji"
        return "Well and Domain"

    def target(self, table: Table) -> str | None:
        space = self.space
        if space == "well":
            return "well:"
        if space == "domain":
            return f"domain:{self.seat}"
        for prefix, part in (
            (("steward_", "diplomat_"), "room"),
            (("outside_",), "outside"),
            (("tea_room_",), "tea_room"),
            (("himeji_",), "himeji"),
        ):
            if space.startswith(prefix):
                return f"{part}:{space}"
        return None
