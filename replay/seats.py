"""Which seat really played the moves recorded for another: a correction that swaps two seats (docs/api/amend.md).

A move names its seat, and a turn order names seats too (``stack_order``): both are said anew under a
:class:`SeatMap`, so that the moves of a turn order entered wrong, or recorded under each other's names, are
kept as what they were, by the seat that played them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import domain

Move = dict[str, Any]


@dataclass(frozen=True)
class SeatMap:
    """The seat that really played what was recorded for each seat (the seats it does not name played their
    own moves)."""

    moves_of: Mapping[int, int] = field(default_factory=dict)

    def __call__(self, seat: int) -> int:
        return self.moves_of.get(seat, seat)

    def swapped(self, one: int, other: int) -> SeatMap:
        """This map, then ``one`` and ``other`` swapped: what was said to be one's is the other's."""
        swap = {one: other, other: one}
        seats = set(self.moves_of) | {one, other}
        said = {seat: swap.get(self(seat), self(seat)) for seat in seats}
        return SeatMap({seat: true for seat, true in said.items() if seat != true})

    def __bool__(self) -> bool:
        return bool(self.moves_of)


def reseated(move: Move, seats: SeatMap) -> Move:
    """``move`` as the seat that really played it (the same move when ``seats`` changes nothing for it): its
    seat, and the seats a move names (a turn order), as the rules engine's move kinds say them."""
    if not seats:
        return move
    return domain.reseated(move, seats.moves_of)
