"""Games' facts made by hand for the players' unit tests: who sat where, and what the sheet said."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from replay.players.facts import GameFacts, SeatFacts
from replay.players.names import id_of
from replay.players.projection import Projection
from replay.views import MemoryViews

START = 1_700_000_000_000_000
"""A moment (microseconds since 1970) the made games are played from."""


def finished(
    scores: Sequence[tuple[str, int, int]],
    *,
    number: int = 0,
    private: bool = False,
    matcha: bool = False,
    solo: str | None = None,
    forked: bool = False,
    status: str = "finished",
    finished_at: int | None = None,
    starts: Sequence[str | None] = (),
) -> GameFacts:
    """A game of ``scores`` ((name, total, rank) per seat), finished ``number`` seconds after :data:`START`."""
    when = START + number * 1_000_000
    seats = tuple(
        SeatFacts(
            seat=index,
            name=name,
            player=name,
            automatic=name == "Rival",
            lines={"in_game_cp": total, "courtiers": 1},
            total=total if status == "finished" else None,
            rank=rank if status == "finished" else None,
            start=starts[index] if index < len(starts) else None,
        )
        for index, (name, total, rank) in enumerate(scores)
    )
    return GameFacts(
        game_id=str(uuid.UUID(int=number + 1, version=4)),
        version=100,
        links=0,
        title=f"Game {number}",
        mode="seeded",
        private=private,
        forked=forked,
        played=when,
        played_on="2024-01-01T00:00:00+00:00",
        status=status,
        finished=(finished_at if finished_at is not None else when + 3_600_000_000)
        if status == "finished"
        else None,
        matcha=matcha,
        solo=solo,
        seats=seats,
    )


def pid(name: str) -> str:
    return id_of(name)


def projection() -> Projection:
    """A projection on views kept in this process, fed by hand (no store lists a game)."""
    return Projection(MemoryViews(), [], lambda _: None, lambda _: (0, 0))
