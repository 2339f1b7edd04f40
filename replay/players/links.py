"""Which player sat in each seat, when the game's owner said so: a stream of links per game, beside the game's own
(as its annotations and grants are), so nothing in the game's log is ever rewritten.

A seat counts for the player its name makes (:func:`replay.players.names.key_of`) until its game's owner links it
to another player (an existing one, or a new name); linking it back to its own name takes the link back. A merge
or a split of players is a link of each seat concerned (:mod:`replay.services.players`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import singledispatch
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from replay.errors import ReplayError
from replay.events import DomainEvent, now
from replay.players.names import key_of


class SeatTaken(ReplayError):
    """A link that would put one player in two seats of a game."""

    code = "player_already_seated"


@dataclass(frozen=True)
class SeatLinked(DomainEvent):
    """The owner of a game said who sat in a seat: ``player`` is that player's name (a player is a name, matched
    as names are compared); the seat's own name takes a link back. ``by`` is the actor who said it."""

    game_id: str
    seat: int
    player: str
    by: str
    idempotency_key: str | None = None


LINK_EVENTS: tuple[type[DomainEvent], ...] = (SeatLinked,)


@dataclass(frozen=True)
class Links:
    """The fold of a game's link stream: each linked seat's player's name, and the writes by their key."""

    id: UUID
    game_id: UUID
    version: int = 0
    seats: Mapping[int, str] = field(default_factory=dict)
    keys: Mapping[str, int] = field(default_factory=dict)


def stream_id(game_id: UUID) -> UUID:
    """The link stream's id, derived from the game's id."""
    return uuid5(NAMESPACE_URL, f"heronlog:players:{game_id}")


def empty(game_id: UUID) -> Links:
    return Links(stream_id(game_id), game_id)


@singledispatch
def mutate(event: Any, links: Links) -> Links:
    raise TypeError(f"not a link event: {type(event).__name__}")


@mutate.register
def _linked(event: SeatLinked, links: Links) -> Links:
    seats = dict(links.seats)
    seats[event.seat] = event.player
    keys = dict(links.keys)
    if event.idempotency_key:
        keys.setdefault(event.idempotency_key, event.originator_version)
    return replace(links, version=event.originator_version, seats=seats, keys=keys)


def project_links(links: Links | None, events: Any) -> Links | None:
    """The link stream's projector (a plain function, as the game's)."""
    for event in events:
        links = mutate(event, links or Links(event.originator_id, UUID(event.game_id)))
    return links


def players_of(links: Links, names: list[str]) -> dict[int, str]:
    """Each seat's player's name, for a game whose seats are named ``names``: the links that name another
    player than the seat's own name (a link back to it counts as none)."""
    return {
        seat: player
        for seat, player in links.seats.items()
        if 0 <= seat < len(names) and key_of(player) != key_of(names[seat])
    }


def link(
    links: Links, names: list[str], changes: Mapping[int, str], *, by: str, idempotency_key: str | None = None
) -> list[SeatLinked]:
    """The events that seat each seat of ``changes`` (seat -> player's name) in a game whose seats are named
    ``names``: none for a seat already there; :class:`SeatTaken` when a player would sit twice."""
    now_players = {seat: links.seats.get(seat, name) for seat, name in enumerate(names)}
    after = {**now_players, **changes}
    keys = [key_of(player) for player in after.values()]
    for key in set(keys):
        if keys.count(key) > 1:
            seats = [seat + 1 for seat, player in after.items() if key_of(player) == key]
            raise SeatTaken(
                f"one player cannot sit in two seats of a game (seats {' and '.join(map(str, seats))})",
                seats=seats,
            )
    at = now()
    events = []
    version = links.version
    for seat, player in sorted(changes.items()):
        if now_players[seat] == player:
            continue
        version += 1
        events.append(
            SeatLinked(
                originator_id=links.id,
                originator_version=version,
                timestamp=at,
                game_id=str(links.game_id),
                seat=seat,
                player=player,
                by=by,
                idempotency_key=idempotency_key,
            )
        )
    return events
