"""Who may write to a game: an owner token and seat tokens, kept hashed in a stream of their own per game.

Creating a game (or forking or importing one) issues an **owner token**, shown once to its creator; the owner
may then issue a **seat token** per seat, so that each player records their own moves. Only a SHA-256 hash of
a token is ever stored, in the game's access stream (an id derived from the game's id, like the annotation
stream: reading a game never loads it, and granting access never conflicts with recording). A token presented
later is hashed and compared with every stored hash in constant time (:func:`hmac.compare_digest`, and no
early exit), so timing tells nothing about which hash came close.

Writes made with a token are recorded under an **actor** name (``owner``, ``seat:2``), never the token. Seats
are indexes from 0 here, as in URLs and JSON (``seat:2`` is the third seat); every message names them as
people count them (:func:`domain.seat_text`: "Chie (seat 3)").

The game and its owner grant are saved in one transaction, so a game never exists without an owner.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from functools import singledispatch
from typing import TYPE_CHECKING, Any, cast
from uuid import NAMESPACE_URL, UUID, uuid4, uuid5

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError

import domain
from replay import decisions, exports
from replay.errors import ReplayError, StaleVersion
from replay.events import DomainEvent, now

if TYPE_CHECKING:
    from replay.application import GameLog, PlannedRead
    from replay.game import Game

OWNER = "owner"
SEAT = "seat"
ROLES = (OWNER, SEAT)


class InvalidSeat(ReplayError):
    """A seat number that the game does not have."""

    code = "invalid_seat"


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
    access: Access, *, role: str, seat: int | None, token_hash: str, by: str, offset: int = 0
) -> AccessGranted:
    """Decide a new grant (``offset`` places it after other events decided in the same batch)."""
    if role not in ROLES:
        raise ValueError(f"role must be one of {', '.join(ROLES)}")
    return AccessGranted(
        originator_id=access.id,
        originator_version=access.version + 1 + offset,
        timestamp=now(),
        grant_id=str(uuid4()),
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


def _access_of(game_id: UUID, stream: Any) -> Access:
    """The access stream as read with its game: an Access, or none yet (no grant)."""
    return stream if isinstance(stream, Access) else empty(game_id)


# --- the service ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Issued:
    """A token just issued: the only moment the token itself is known; afterwards only its grant is."""

    game_id: UUID
    token: str
    grant: Grant


class Gatekeeper:
    """Access to the games of one :class:`GameLog` (or a sharded log of several): creating owned games,
    issuing and checking tokens. A game's access stream lives in the game's own application (its shard)."""

    def __init__(self, log: GameLog) -> None:
        self.log = log

    def home(self, game_id: UUID) -> GameLog:
        """The application that holds this game's streams (the log itself, or the game's shard)."""
        shard_for = getattr(self.log, "shard_for", None)
        return self.log if shard_for is None else cast("GameLog", shard_for(game_id))

    def access(self, game_id: UUID) -> Access:
        try:
            stream = self.home(game_id).repository.get(stream_id(game_id), projector_func=project_access)
        except AggregateNotFoundError:
            return empty(game_id)
        assert isinstance(stream, Access)
        return stream

    def authenticate(self, game_id: UUID, token: str) -> Grant | None:
        """The live grant of this token for this game, or None."""
        return self.access(game_id).match(token)

    def game_and_grant(self, game_id: UUID, token: str) -> tuple[Game, Grant | None]:
        """The game as it stands (``GameNotFound`` as ``get_game``) and the live grant of this token for it, or
        None: what every request with a token asks, read together (``GameLog.get_game_with``)."""
        game, access = self.game_and_access(game_id)
        return game, access.match(token)

    def game_and_access(self, game_id: UUID) -> tuple[Game, Access]:
        """The game as it stands (``GameNotFound`` as ``get_game``) and its live grants, read together."""
        game, stream = self.home(game_id).get_game_with(game_id, stream_id(game_id), project_access)
        return game, _access_of(game_id, stream)

    def plan_game_and_grant(self, game_id: UUID, token: str) -> PlannedRead | None:
        """:meth:`game_and_grant` prepared as one Redis command (``GameLog.plan_game_with``): its ``finish``
        gives the game and the grant; None when it cannot be planned (the caller then asks the usual way)."""
        plan = self.home(game_id).plan_game_with(game_id, stream_id(game_id), project_access)
        if plan is None:
            return None
        finish = plan.finish

        def matched(reply: Any) -> tuple[Game, Grant | None]:
            game, stream = finish(reply)
            return game, _access_of(game_id, stream).match(token)

        return replace(plan, finish=matched)

    # The three ways a game comes to exist all save the game, its index entry and its owner grant together
    # (GameLog's own transaction helper), so a game is never left without an owner.

    def create_game(self, setup: Mapping[str, Any], *, catalog: Mapping[str, Any] | None = None) -> Issued:
        created, state = decisions.create(setup, catalog=catalog, game_id=uuid4())
        return self._save_owned([created], opening=state)

    def fork(self, game_id: UUID, version: int, title: str | None = None) -> Issued:
        game = self.log.as_it_stood(game_id, version)  # the records as they were then (GameLog.as_it_stood)
        return self._save_owned(decisions.fork_events(game, version, uuid4(), title))

    def import_log(self, data: Any, *, keep_id: bool = True, game_id: UUID | None = None) -> Issued:
        """Like :meth:`GameLog.import_log` (the game keeps its id when that id is free here), plus an owner.
        ``game_id`` imposes the id (a restore keeps every game's): if a game has it already, nothing is
        written and the store's ``IntegrityError`` is raised."""
        if game_id is not None:
            return self._save_owned_import(data, game_id)
        game_id = uuid4()
        if keep_id and isinstance(data, Mapping):
            try:
                wanted = UUID(str(data.get("game_id")))
            except ValueError:
                wanted = None
            if wanted is not None:
                game_id = self.home(wanted).import_id(data, keep_id=True)
                try:
                    return self._save_owned_import(data, game_id)
                except IntegrityError:  # the same id imported a moment earlier: this copy takes a new one
                    game_id = uuid4()
        return self._save_owned_import(data, game_id)

    def _save_owned_import(self, data: Any, game_id: UUID) -> Issued:
        imported = exports.refold(data, game_id=game_id)
        return self._save_owned(imported.game_events, extra=imported.note_events)

    def _save_owned(
        self, events: list[Any], extra: Iterable[DomainEvent] = (), opening: Any = None
    ) -> Issued:
        game_id: UUID = events[0].originator_id
        token = new_token()
        event = grant(empty(game_id), role=OWNER, seat=None, token_hash=hash_token(token), by="system")
        # GameLog's own helper (same package): the game, its index entry and the grant in one transaction.
        home = self.home(game_id)
        home._save_with_index(events, extra=[*extra, event], opening=opening)
        access = mutate(event, None)
        # Cached with the game (which the helper caches): the game's first write then reads both in one round
        # trip, as every later write does, instead of reading the access stream whole.
        home.keep(access.id, access)
        return Issued(game_id, token, access.grants[event.grant_id])

    def issue_seat_token(self, game_id: UUID, seat: int, *, by: str) -> Issued:
        """A new token for ``seat`` (an index from 0); any earlier token of that seat stops working (a lost
        phone). :class:`InvalidSeat` for a seat the game does not have, and for the seat the engine plays."""
        game = self.log.get_game(game_id)
        check_seat(game, seat)
        if game.setup["players"][seat].get("automatic"):
            raise InvalidSeat(
                f"{domain.seat_text(game.state, seat)} is the solo rival, played by the rules engine: it "
                "takes no token",
                seat=seat,
                seats=len(game.setup["players"]),
            )
        token = new_token()
        for _ in range(5):  # another grant written at the same moment moves ours one place on
            access = self.access(game_id)
            events: list[DomainEvent] = [
                revoke(access, old.id, by=by, offset=offset)
                for offset, old in enumerate(access.seat_grants(seat))
            ]
            issued = grant(
                access, role=SEAT, seat=seat, token_hash=hash_token(token), by=by, offset=len(events)
            )
            try:
                self.home(game_id).save(*events, issued)
            except IntegrityError:
                continue
            # The grant as written, not as read back: a token issued for the same seat a moment later
            # may already have revoked it, and the caller must still get the token it was issued.
            return Issued(game_id, token, mutate(issued, access).grants[issued.grant_id])
        raise StaleVersion(access.version, self.access(game_id).version)

    def revoke_seat(self, game_id: UUID, seat: int, *, by: str) -> int:
        """Withdraw every token of ``seat`` (an index from 0); returns how many stopped working (none for a
        seat without one). :class:`InvalidSeat` for a seat the game does not have."""
        check_seat(self.log.get_game(game_id), seat)
        for _ in range(5):
            access = self.access(game_id)
            events = [
                revoke(access, old.id, by=by, offset=offset)
                for offset, old in enumerate(access.seat_grants(seat))
            ]
            if not events:
                return 0
            try:
                self.home(game_id).save(*events)
            except IntegrityError:
                continue
            return len(events)
        raise StaleVersion(access.version, self.access(game_id).version)
