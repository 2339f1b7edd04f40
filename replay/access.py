"""Who may write to a game: an owner token and seat tokens, kept hashed in a stream of their own per game.

Only a token's SHA-256 is stored, compared in constant time; a write is recorded under its actor, never its token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from functools import singledispatch
from typing import TYPE_CHECKING, Any
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

import domain
from replay.errors import ReplayError
from replay.events import DomainEvent, now

if TYPE_CHECKING:
    from replay.game import Game

OWNER = "owner"
SEAT = "seat"
ROLES = (OWNER, SEAT)


class InvalidSeat(ReplayError):
    """A seat number that the game does not have."""

    code = "invalid_seat"


class TokenSuperseded(ReplayError):
    """A retried seat-token issuance whose token was replaced or withdrawn since."""

    code = "token_superseded"


class Forbidden(ReplayError):
    """A token that may not make this write: a seat token acting for another seat, or an owner-only write."""

    code = "forbidden"


class ReachesOtherSeats(ReplayError):
    """An amendment sent with a seat token that would take other seats' moves off the line of play, or put
    moves of theirs in place of others: only the owner may write it."""

    code = "amend_reaches_other_seats"


def check_seat(game: Game, seat: int) -> None:
    """:class:`InvalidSeat` unless the game has ``seat`` (an index from 0, as URLs and JSON give it); the
    message names the seats as people count them: "there is no seat 8: this game has seats 1 to 2: Aiko
    (seat 1) and Ben (seat 2)"."""
    count = len(game.setup["players"])
    if not 0 <= seat < count:
        state = game.state
        named = [domain.seat_text(state, index) for index in range(count)]
        has = (
            f"one seat: {named[0]}"
            if count == 1
            else f"seats 1 to {count}: {', '.join(named[:-1])} and {named[-1]}"
        )
        raise InvalidSeat(
            f"there is no seat {seat + 1}: this game has {has}",
            seat=seat,
            seats=count,
        )


def stream_id(game_id: UUID) -> UUID:
    """The access stream's id, derived from the game's id."""
    return uuid5(NAMESPACE_URL, f"heronlog:access:{game_id}")


def new_token() -> str:
    """A fresh bearer token: 32 random bytes, URL-safe text (about 43 characters)."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What is stored of a token: its SHA-256, in hexadecimal."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def actor_name(role: str, seat: int | None) -> str:
    """The name a write is recorded under: ``owner`` or ``seat:N`` (N the seat's index from 0)."""
    return OWNER if role == OWNER else f"{SEAT}:{seat}"


# --- events -----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AccessGranted(DomainEvent):
    """A token was issued: ``role`` is ``owner`` or ``seat`` (then ``seat`` names which); only the token's
    SHA-256 is kept. ``by`` is the actor who issued it (``system`` for the owner token of a new game)."""

    grant_id: str
    game_id: str
    role: str
    seat: int | None
    token_hash: str
    by: str


@dataclass(frozen=True)
class AccessRevoked(DomainEvent):
    """A token stopped working (replaced by a new one for its seat, or withdrawn by the owner)."""

    grant_id: str
    by: str


ACCESS_EVENTS: tuple[type[DomainEvent], ...] = (AccessGranted, AccessRevoked)


# --- the fold ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Grant:
    """One live token, as the access stream knows it (never the token itself)."""

    id: str
    role: str
    seat: int | None
    token_hash: str
    granted_on: datetime
    by: str

    @property
    def actor(self) -> str:
        return actor_name(self.role, self.seat)

    def to_dict(self) -> dict[str, Any]:
        """What may be shown about a grant (no hash)."""
        return {
            "id": self.id,
            "role": self.role,
            "seat": self.seat,
            "actor": self.actor,
            "granted_on": self.granted_on.isoformat(),
            "by": self.by,
        }


@dataclass(frozen=True)
class Access:
    """The fold of one game's access stream: the live grants."""

    id: UUID
    version: int
    game_id: str
    grants: Mapping[str, Grant]

    def match(self, token: str) -> Grant | None:
        """The grant whose token this is, or None. Every stored hash is compared, in constant time each."""
        presented = hash_token(token)
        found: Grant | None = None
        for grant in self.grants.values():
            if hmac.compare_digest(grant.token_hash, presented):
                found = grant
        return found

    def seat_grants(self, seat: int) -> list[Grant]:
        return [grant for grant in self.grants.values() if grant.role == SEAT and grant.seat == seat]

    def seats(self) -> list[int]:
        """The seats that have a live token."""
        return sorted({grant.seat for grant in self.grants.values() if grant.seat is not None})


def empty(game_id: UUID) -> Access:
    return Access(id=stream_id(game_id), version=0, game_id=str(game_id), grants={})


@singledispatch
def mutate(event: DomainEvent, access: Access | None) -> Access:
    raise TypeError(f"not an access event: {type(event).__name__}")


@mutate.register
def _granted(event: AccessGranted, access: Access | None) -> Access:
    base = access or Access(id=event.originator_id, version=0, game_id=event.game_id, grants={})
    grant = Grant(
        id=event.grant_id,
        role=event.role,
        seat=event.seat,
        token_hash=event.token_hash,
        granted_on=event.timestamp,
        by=event.by,
    )
    return replace(base, version=event.originator_version, grants={**base.grants, grant.id: grant})


@mutate.register
def _revoked(event: AccessRevoked, access: Access | None) -> Access:
    assert access is not None
    grants = {key: grant for key, grant in access.grants.items() if key != event.grant_id}
    return replace(access, version=event.originator_version, grants=grants)


def project_access(access: Access | None, events: Iterable[Any]) -> Access | None:
    for event in events:
        access = mutate(event, access)
    return access


# --- decisions --------------------------------------------------------------------------------------------


def grant(
    access: Access,
    *,
    role: str,
    seat: int | None,
    token_hash: str,
    by: str,
    offset: int = 0,
    grant_id: str | None = None,
) -> AccessGranted:
    """Decide a new grant (``offset`` places it after other events decided in the same batch; ``grant_id``
    is the id a receipt decided for it, when a retry finishes an interrupted creation)."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}")
    return AccessGranted(
        originator_id=access.id,
        originator_version=access.version + 1 + offset,
        timestamp=now(),
        grant_id=grant_id or str(uuid4()),
        game_id=access.game_id,
        role=role,
        seat=seat if role == SEAT else None,
        token_hash=token_hash,
        by=by,
    )


def revoke(access: Access, grant_id: str, *, by: str, offset: int = 0) -> AccessRevoked:
    return AccessRevoked(
        originator_id=access.id,
        originator_version=access.version + 1 + offset,
        timestamp=now(),
        grant_id=grant_id,
        by=by,
    )


def superseded(state: Any, seat: int, access: Access) -> TokenSuperseded:
    """The refusal of a retried seat-token issuance whose token has been replaced or withdrawn since: a client
    that lost the first answer must not keep a dead token. No token is in the refusal."""
    since = "replaced by a newer one" if access.seat_grants(seat) else "withdrawn"
    return TokenSuperseded(
        f"the token this Idempotency-Key issued for {domain.seat_text(state, seat)} has since been {since} "
        "and no longer works: ask for a new token with a new Idempotency-Key",
        seat=seat,
    )


# --- what a token may do ---------------------------------------------------------------------------------


def owner_only(grant: Grant | None, what: str) -> None:
    """Refuse (:class:`Forbidden`) a write only the game's owner may make, asked with another token (``grant``
    None: a caller inside the process, a command or a worker, which acts as the owner)."""
    if grant is not None and grant.role != OWNER:
        raise Forbidden(f"only the game's owner may {what}", actor=grant.actor)


def may_act_for(game: Game, grant: Grant | None, seats: Iterable[Any], what: str) -> None:
    """A seat token acts for its own seat only; the owner (or a caller with no grant: the command line, a worker)
    acts for anyone, chance moves included. ``what`` is the verb: "record", "undo", "redo", "amend". The message
    names the seats as people count them: "Aiko's token (seat 1) may only record its own seat's moves, not Ben's
    (seat 2)"; ``details.seats`` the others' seats (indexes from 0, null for chance)."""
    others = strangers(grant, seats)
    if grant is None or not others:
        return
    assert grant.seat is not None  # a seat grant always names its seat
    state = game.state
    token = domain.seat_text(state, grant.seat, "'s token")
    whose = " or ".join(_whose(state, seat) for seat in others)
    raise Forbidden(
        f"{token} may only {what} its own seat's moves, not {whose}", actor=grant.actor, seats=others
    )


def strangers(grant: Grant | None, seats: Iterable[Any]) -> list[Any]:
    """The seats among ``seats`` that are not the grant's own, in a stable order (indexes, then chance's None);
    none for the owner (or no grant)."""
    if grant is None or grant.role == OWNER:
        return []
    found = {str(seat): seat for seat in seats if seat != grant.seat}
    return [found[key] for key in sorted(found, key=lambda key: (found[key] is None, key))]


def _whose(state: Any, seat: Any) -> str:
    """Whose moves a seat token may not make, in words: "Ben's (seat 2)", "chance's", or "those of seat 'x'"
    for a seat that is no index at all (the rules engine refuses such a move anyway)."""
    if seat is None:
        return "chance's"
    if isinstance(seat, int) and not isinstance(seat, bool):
        return domain.seat_text(state, seat, "'s")
    return f"those of seat {seat!r}"


def whose_moves(state: Any, seats: Iterable[Any]) -> str:
    """Several seats' moves in words: "Ben's (seat 2) and chance's"."""
    return " and ".join(_whose(state, seat) for seat in seats)


# --- what a creation hands out ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Issued:
    """A token just issued: the only moment the token itself is known; afterwards only its grant is."""

    game_id: UUID
    token: str
    grant: Grant
    repeated: bool = False
    """True when this is the answer to a retry (the token was issued by the first attempt)."""
    version: int | None = None
    """For a new game: the version it had when it was created (its first events)."""
    game: Game | None = None
    """For a new game just saved (not a retry): the game as it was created, so its answer reads nothing."""
