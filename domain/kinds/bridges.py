"""The bridges' moves: a die taken from the end of a bridge (R-T03, the left end gives the Lantern Reward, R-T05)
and the dice a bridge's roll shows (R-S07, and again at the end of a round, R-E04)."""

from __future__ import annotations

from dataclasses import dataclass

from domain.kinds.base import ChanceMove, PlayerMove, Table, capital, kind
from domain.state import bridge_index
from domain.vocabulary import Phase


@kind("take_die")
@dataclass(frozen=True, slots=True)
class TakeDieMove(PlayerMove):
    """Take the die at one end of a bridge: ``{"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"}``."""

    bridge: str
    """The bridge's colour."""
    end: str
    """``left`` (the lantern end) or ``right``."""

    def _value(self, table: Table) -> int | None:
        """The die at that end (at the other end when that one is empty: a bridge's last die)."""
        state = table.state
        found = [b for b in state.board.bridges if b.colour == self.bridge]
        if not found:
            return None
        bridge = found[0]
        value = bridge.left if self.end == "left" else bridge.right
        return (bridge.right if self.end == "left" else bridge.left) if value is None else value

    def said(self, table: Table) -> str:
        state = table.state
        bridge = state.board.bridges[bridge_index(state, self.bridge)]
        value = bridge.left if self.end == "left" else bridge.right
        if value is None:
            value = bridge.right if self.end == "left" else bridge.left
        lantern = " (lantern end)" if self.end == "left" else ""
        return f"{self.who(state)} takes the {self.bridge} {value} from the {self.end} end{lantern}"

    def words(self, table: Table) -> str:
        lantern = " (lantern)" if self.end == "left" else ""
        return f"{capital(self.bridge)} {self._value(table)}, {self.end} end{lantern}"

    def group(self) -> str:
        return f"{capital(self.bridge)} bridge"

    def target(self, table: Table) -> str | None:
        return f"bridge:{self.bridge}:{self.end}"


@kind("roll")
@dataclass(frozen=True, slots=True)
class RollMove(ChanceMove):
    """The dice a bridge's roll shows, in ascending order: ``{"kind": "roll", "seat": null, "bridge": "coral",
    "dice": [1, 2, 2, 5, 6]}``."""

    bridge: str
    dice: tuple[int, ...]

    def said(self, table: Table) -> str:
        state = table.state
        new_round = f" for round {state.round + 1}" if state.phase is Phase.END_OF_ROUND else ""
        return f"Chance: the {self.bridge} dice roll {', '.join(map(str, self.dice))}{new_round}"

    def words(self, table: Table) -> str:
        return ", ".join(str(value) for value in self.dice)
