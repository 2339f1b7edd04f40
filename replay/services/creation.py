"""New games, each saved with its owner grant in one transaction: created from a setup, or forked from a game as it
stood at a version ("what if"). Imports make theirs here too (:mod:`replay.services.exchange`).

A new game's answer holds its owner token, which the log keeps only hashed: with an ``Idempotency-Key`` a receipt
is kept first (:mod:`replay.idempotency`), so a retry answers from it, or finishes a creation that crashed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError

import domain
from replay import access as grants
from replay import decisions, rules
from replay.access import Issued
from replay.errors import KeyReused
from replay.events import DomainEvent
from replay.game import Game
from replay.idempotency import Receipt, fingerprint, receipt_key, receipt_of
from replay.services.repository import GameRepository

Decided = tuple[list[DomainEvent], list[DomainEvent], Any]
"""A new game decided: its events, the events saved beside them (an import's annotations), its opening state
(None: set up from its first event)."""
Decide = Callable[[UUID], Decided]


class Creation:
    """Create and fork games (see the module docstring). ``receipt_seconds``: how long a receipt is kept."""

    def __init__(self, games: GameRepository, receipt_seconds: int) -> None:
        self.games = games
        self.receipt_seconds = receipt_seconds

    def create_game(
        self,
        setup: Mapping[str, Any],
        *,
        catalog: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        game_id: UUID | None = None,
        layout: Mapping[str, Any] | None = None,
        draw_rest: bool = False,
        rules_version: str | None = None,
    ) -> Issued:
        """Start a new game, owned by whoever holds the token in the answer (shown this once). The game id is
        random, so unguessable (``game_id`` imposes one: tests that need a game's snapshot phase). A table
        game may be laid out at once from its ``layout`` (``decisions.create``), the rest drawn if
        ``draw_rest``. ``rules_version`` (one of ``rules.COMPATIBLE``; the current one by default) records the
        game under an earlier version of the rules (the tests' scenarios written for one)."""

        def decide(new_id: UUID) -> Decided:
            if rules_version is not None and rules_version != domain.RULES_VERSION:
                rules.ensure_supported(rules_version)
                created, opening = decisions.create(
                    setup, catalog=catalog, game_id=new_id, rules_version=rules_version
                )
                return [created], [], opening
            created, opening = decisions.create(
                setup, catalog=catalog, game_id=new_id, layout=layout, draw_rest=draw_rest
            )
            return [created], [], opening

        laid = {"layout": layout, "draw_rest": draw_rest} if layout is not None else {}
        if rules_version is not None:
            laid["rules_version"] = rules_version
        asked = fingerprint("create", setup=setup, catalog=catalog, **laid)
        return self.new_owned_game(idempotency_key, asked, decide, game_id=game_id)

    def fork(
        self,
        game_id: UUID,
        version: int,
        title: str | None = None,
        *,
        idempotency_key: str | None = None,
        known: Game | None = None,
    ) -> Issued:
        """A new game that starts as this one stood at ``version`` ("what if"), linked to it, titled ``title``
        or by default as a branch of this one (``decisions.branch_title``), owned by the caller. ``known``: the
        game as it stands, read already."""
        game = known if known is not None and known.id == game_id else self.games.get(game_id)
        # A branch copies the moves as recorded at its version: an amend recorded since may have redrawn the
        # chance of the later moves it kept, so an earlier version is the game folded up to it.
        then = self.games.get(game_id, version) if 1 <= version < game.version else game

        def decide(branch: UUID) -> Decided:
            return decisions.fork_events(then, version, branch, title), [], None

        asked = fingerprint("fork", game_id=game_id, version=version, title=title)
        return self.new_owned_game(idempotency_key, asked, decide)

    def new_owned_game(
        self,
        key: str | None,
        asked: str,
        decide: Decide,
        *,
        game_id: UUID | None = None,
        listed_at: datetime | None = None,
    ) -> Issued:
        """Decide and save a new game with its owner grant. With an ``Idempotency-Key``, a receipt is kept
        first: a retry answers from it, or finishes a creation that crashed. Every kind of creation keeps its
        receipt under one name per key, so a key sent again with another kind (``asked`` names the kind) is
        :class:`KeyReused`."""
        if key is None:
            return self._save(decide, game_id or uuid4(), grants.new_token(), None, listed_at)
        name = receipt_key("new game", key)
        kept = self.games.ephemeral(key=name)
        new_id = game_id or self.games.stores.new_id_in(self.games.stores.of_key(name))
        decided = decide(new_id)  # a refused request leaves no receipt
        fresh = Receipt(asked, new_id, grants.new_token(), str(uuid4()), len(decided[0]))
        if kept.add(name, fresh.to_bytes(), self.receipt_seconds):
            return self._save(lambda _: decided, new_id, fresh.token, fresh.grant_id, listed_at)
        receipt = receipt_of(kept, name, asked)
        if not self.games.stores.of(receipt.game_id).exists(receipt.game_id):
            try:  # the first attempt crashed before its events were saved: finish it, as it was decided
                return self._save(decide, receipt.game_id, receipt.token, receipt.grant_id, listed_at)
            except IntegrityError:
                pass  # ... or the same request, sent twice at once, has just saved them
        owner = self.games.access(receipt.game_id).grants.get(receipt.grant_id)
        if owner is None:  # the id went to another game first (two imports of one export at once)
            raise KeyReused("this Idempotency-Key's game was taken by another write: use a new key")
        self.games.stores.of(receipt.game_id).confirm_replicated()  # answered once the replicas hold it
        return Issued(receipt.game_id, receipt.token, owner, repeated=True, version=receipt.version)

    def _save(
        self, decide: Decide, game_id: UUID, token: str, grant_id: str | None, listed_at: datetime | None
    ) -> Issued:
        events, extra, opening = decide(game_id)
        owner = grants.grant(
            grants.empty(game_id),
            role=grants.OWNER,
            seat=None,
            token_hash=grants.hash_token(token),
            by="system",
            grant_id=grant_id,
        )
        game = self.games.save_new_game(events, [*extra, owner], opening, listed_at)
        access = grants.mutate(owner, None)
        # Cached with the game: the game's first write then reads both in one round trip, as every later write.
        self.games.stores.of(game_id).cache_fold(access.id, access)
        return Issued(game_id, token, access.grants[owner.grant_id], version=len(events), game=game)
