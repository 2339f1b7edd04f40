"""Access and tokens: which grant a token holds for a game, and seat tokens issued and withdrawn (owner's writes
to the game's access stream, :mod:`replay.access`).

A seat token's issuance hands out a secret the log keeps only hashed, so its retry is answered from a receipt
(:mod:`replay.idempotency`); a token issued for a seat stops every earlier one of that seat (a lost phone).
"""

from __future__ import annotations

from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError

import domain
from replay import access as grants
from replay.access import Access, Grant, Issued
from replay.errors import StaleVersion
from replay.events import DomainEvent
from replay.game import Game
from replay.idempotency import Receipt, fingerprint, receipt_key, receipt_of
from replay.services.repository import GameRepository, ReadAhead


class Tokens:
    """Grants read and written (see the module docstring). ``receipt_seconds``: how long a receipt is kept."""

    def __init__(self, games: GameRepository, receipt_seconds: int) -> None:
        self.games = games
        self.receipt_seconds = receipt_seconds

    def access(self, game_id: UUID) -> Access:
        """The game's live grants (none for a game that has none, or no game)."""
        return self.games.access(game_id)

    def authenticate(self, game_id: UUID, token: str) -> Grant | None:
        """The live grant of this token for this game, or None."""
        return self.games.access(game_id).match(token)

    def game_and_grant(
        self, game_id: UUID, token: str, ahead: ReadAhead | None = None
    ) -> tuple[Game, Grant | None]:
        """The game and the live grant of ``token`` for it, or None, read together (``ahead``: as
        :meth:`GameRepository.game_and_access`)."""
        game, access = self.games.game_and_access(game_id, ahead)
        return game, access.match(token)

    def issue_seat_token(
        self,
        game_id: UUID,
        seat: int,
        *,
        by: str,
        idempotency_key: str | None = None,
        known: tuple[Game, Access] | None = None,
        grant: Grant | None = None,
    ) -> Issued:
        """A new token for ``seat`` (an index from 0); any earlier token of that seat stops working (a lost
        phone). :class:`InvalidSeat` for a seat the game does not have, and for the seat the engine plays. A
        retry with the same key answers the same token while it still works (``TokenSuperseded`` after).
        ``known``: the game and its grants as the caller has just read them. The owner's write:
        :class:`Forbidden` for another token's ``grant``."""
        grants.owner_only(grant, "issue a seat's token")
        game, access = known if known is not None else self.games.game_and_access(game_id)
        grants.check_seat(game, seat)
        if game.setup["players"][seat].get("automatic"):
            raise grants.InvalidSeat(
                f"{domain.seat_text(game.state, seat)} is the solo rival, played by the rules engine: it "
                "takes no token",
                seat=seat,
                seats=len(game.setup["players"]),
            )
        token, grant_id = grants.new_token(), str(uuid4())
        if idempotency_key is not None:
            name = receipt_key(f"seat:{game_id}", idempotency_key)
            kept = self.games.ephemeral(game_id)
            asked = fingerprint("seat", seat=seat, by=by)
            if not kept.add(name, Receipt(asked, game_id, token, grant_id).to_bytes(), self.receipt_seconds):
                receipt = receipt_of(kept, name, asked)
                token, grant_id = receipt.token, receipt.grant_id
                live = access.grants.get(grant_id)
                if live is not None:
                    self.games.stores.of(game_id).confirm_replicated()  # answered once the replicas hold it
                    return Issued(game_id, token, live, repeated=True)
                if any(
                    isinstance(event, grants.AccessGranted) and event.grant_id == grant_id
                    for event in self.games.stores.of(game_id).events.get(grants.stream_id(game_id))
                ):
                    raise grants.superseded(game.state, seat, access)
                # else the first attempt crashed before its grant was saved: save it now, as it was decided
        return self._grant_seat(game_id, seat, by, token, grant_id, access=access)

    def _grant_seat(
        self, game_id: UUID, seat: int, by: str, token: str, grant_id: str, *, access: Access
    ) -> Issued:
        store = self.games.stores.of(game_id)
        for attempt in range(5):  # another grant written at the same moment moves ours one place on
            if attempt:
                access = self.games.access(game_id)
            events: list[DomainEvent] = [
                grants.revoke(access, old.id, by=by, offset=offset)
                for offset, old in enumerate(access.seat_grants(seat))
            ]
            issued = grants.grant(
                access,
                role=grants.SEAT,
                seat=seat,
                token_hash=grants.hash_token(token),
                by=by,
                offset=len(events),
                grant_id=grant_id,
            )
            try:
                store.save(*events, issued)
            except IntegrityError:
                continue
            # The grant as written, not as read back: a token issued for the same seat a moment later may
            # already have revoked it, and the caller must still get the token it was issued.
            return Issued(game_id, token, grants.mutate(issued, access).grants[issued.grant_id])
        raise StaleVersion(access.version, self.games.access(game_id).version)

    def revoke_seat(
        self, game_id: UUID, seat: int, *, by: str, known: Game | None = None, grant: Grant | None = None
    ) -> int:
        """Withdraw every token of ``seat`` (an index from 0); returns how many stopped working (none for a
        seat without one, so a retry is answered alike). :class:`InvalidSeat` for a seat the game lacks;
        :class:`Forbidden` for a ``grant`` other than the owner's."""
        grants.owner_only(grant, "withdraw a seat's token")
        grants.check_seat(known if known is not None else self.games.get(game_id), seat)
        store = self.games.stores.of(game_id)
        for _ in range(5):
            access = self.games.access(game_id)
            events = [
                grants.revoke(access, old.id, by=by, offset=offset)
                for offset, old in enumerate(access.seat_grants(seat))
            ]
            if not events:
                return 0
            try:
                store.save(*events)
            except IntegrityError:
                continue
            return len(events)
        raise StaleVersion(access.version, self.games.access(game_id).version)
