"""What a game says of its seats, for the players: each seat's player, score sheet lines, rank and starting choice,
and the game's status, read once from the game as it stands and its seats' links.

The score lines are the domain's score sheet's (:func:`domain.score`: the CP gained during the game, coins and
seals, resources, the Passage of Time, courtiers, warriors, gardeners and, with Matcha, geishas) and the ranks
are the rules' (R-F09: a tie goes to the player higher on the final turn order, or is shared with the
``shared`` tie-break option).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

import domain
from replay.game import Game
from replay.history import SHEET_FIELDS
from replay.index import micros

FINISHED = "finished"
"""The one status whose seats count in a player's record; an abandoned game, or one in progress, is listed only."""
STARTS = frozenset({"choose_start", "choose_start_cards"})
"""The moves by which a player chooses a starting pair (R-S12; the Tokugawa solo game deals the cards)."""


@dataclass(frozen=True)
class SeatFacts:
    """One seat of a game: who sat there (the player's name: a link's, else the seat's own), what the sheet says
    of them (when the game is over), and the starting resource card they chose."""

    seat: int
    name: str
    player: str
    automatic: bool
    lines: Mapping[str, int]
    total: int | None
    rank: int | None
    start: str | None


@dataclass(frozen=True)
class GameFacts:
    """A game as the players' projection keeps it. ``version`` is the game's version they were read at and
    ``links`` its link stream's; ``played`` the game's own date and ``finished`` when its last move was recorded
    (microseconds since 1970; the order ratings are updated in)."""

    game_id: str
    version: int
    links: int
    title: str
    mode: str
    private: bool
    forked: bool
    played: int
    played_on: str
    status: str
    finished: int | None
    matcha: bool
    solo: str | None
    seats: tuple[SeatFacts, ...]

    @property
    def counted(self) -> bool:
        """Whether its seats count in records: a finished game, not a "what if" branch of another (which would
        count the same play twice). The others are listed only."""
        return self.status == FINISHED and not self.forked

    @property
    def people(self) -> tuple[SeatFacts, ...]:
        """The seats people played (the solo rival's left out)."""
        return tuple(seat for seat in self.seats if not seat.automatic)

    @property
    def winner(self) -> str | None:
        """The name of the seat ranked first, in a finished game."""
        if not self.counted:
            return None
        return next((seat.name for seat in self.seats if seat.rank == 1), None)

    def newer_than(self, other: GameFacts | None) -> bool:
        """Whether these facts were read from a later game or later links than ``other`` (each only grows: facts
        read by another process from one of them only are not newer)."""
        return other is None or (
            (self.version, self.links) != (other.version, other.links)
            and not (self.version <= other.version and self.links <= other.links)
        )

    def to_json(self) -> str:
        return _ENCODER.encode(self).decode()

    @classmethod
    def from_json(cls, text: str) -> GameFacts:
        return _DECODER.decode(text)


_ENCODER = msgspec.json.Encoder()
_DECODER = msgspec.json.Decoder(GameFacts)


def read_facts(game: Game, links: Mapping[int, str], links_version: int) -> GameFacts:
    """The facts of ``game`` as it stands, its seats linked as ``links`` says (seat -> player's name)."""
    setup = game.setup
    seats_setup = setup["players"]
    status = game.status
    lines: list[dict[str, Any]] = [{} for _ in seats_setup]
    totals: list[int | None] = [None] * len(seats_setup)
    ranks: list[int | None] = [None] * len(seats_setup)
    automatic = [bool(seat.get("automatic")) for seat in seats_setup]
    finished = None
    if game.playable:
        state = game.state
        automatic = [domain.is_automatic(state, seat) for seat in range(len(seats_setup))]
        if status == FINISHED:
            for sheet in domain.score(state):
                data = sheet.to_dict()
                lines[sheet.seat] = {
                    name: int(value) for name, value in data.items() if name not in SHEET_FIELDS
                }
                totals[sheet.seat], ranks[sheet.seat] = int(sheet.total), int(sheet.rank)
            last = game.records[game.line[-1]].at if game.line else game.created_on
            finished = micros(last)
    starts: dict[int, str] = {}
    for version in game.line:
        record = game.records[version]
        if record.move.get("kind") in STARTS and record.seat is not None and record.seat not in starts:
            starts[record.seat] = str(record.move.get("resource"))
    return GameFacts(
        game_id=str(game.id),
        version=game.version,
        links=links_version,
        title=str(setup.get("title") or ""),
        mode=str(setup["mode"]),
        private=bool(setup.get("private")),
        forked=game.parent is not None,
        played=micros(game.created_on),
        played_on=game.created_on.isoformat(),
        status=status,
        finished=finished,
        matcha="matcha" in (setup.get("expansions") or ()),
        solo=setup.get("solo"),
        seats=tuple(
            SeatFacts(
                seat=index,
                name=str(seat["name"]),
                player=links.get(index, str(seat["name"])),
                automatic=automatic[index],
                lines=lines[index],
                total=totals[index],
                rank=ranks[index],
                start=starts.get(index),
            )
            for index, seat in enumerate(seats_setup)
        ),
    )
