"""One write to a game, as every service of the game's own stream makes it: check the version it expects, answer a
retry from the log, decide, save (:class:`Writes`).

Concurrency: every write names the version it expects. A stale one raises :class:`StaleVersion`; when two
writers race on the same version, the store's integrity check lets exactly one win and the other gets
``StaleVersion`` too. An ``Idempotency-Key`` makes a retried write safe and answers it as the first attempt was
answered (:mod:`replay.idempotency`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from uuid import UUID

import domain
from replay.errors import StaleVersion
from replay.events import DomainEvent
from replay.game import Game
from replay.idempotency import reused, same_events
from replay.services.repository import GameRepository, Played

Decide = Callable[[Game], DomainEvent | Sequence[DomainEvent]]
"""A decision on the game as it stands: the event (or events) of one write."""
Same = Callable[[Game, tuple[int, ...], Game], bool]
"""Whether a retry asks for the write recorded under its key: given the game before that write, the versions it
wrote, and the game now."""


def check_expected(game: Game, expected_version: int | None) -> None:
    """Refuse a write that expects another version than the game's (None: whatever it is now)."""
    if expected_version is not None and expected_version != game.version:
        raise StaleVersion(expected_version, game.version)


class Writes:
    """What the services that write to a game's own stream share (recording, history, rules versions)."""

    def __init__(self, games: GameRepository) -> None:
        self.games = games

    def game(self, game_id: UUID, known: Game | None) -> Game:
        """The game as the caller has just read it (``known``: read once per request), else read now."""
        return known if known is not None and known.id == game_id else self.games.get(game_id)

    def decide_one(
        self,
        game: Game,
        expected_version: int | None,
        key: str | None,
        decide: Decide,
        *,
        reach: Callable[[Sequence[DomainEvent]], int] | None = None,
        authorise: Callable[[Game, Sequence[DomainEvent]], None] | None = None,
    ) -> Played:
        """One write to ``game``: answer a retry from the log, decide, save. A retry is the same request when
        deciding it on the game as it stood before the recorded write decides what was recorded. ``reach``:
        how many moves of the line the decided events keep, when they cut the line back (the game's states are
        made to reach back there before the events are folded: :meth:`GameRepository.reaching`).
        ``authorise``: may the caller write what was decided (a retry was authorised when it was first made)."""

        def decided(on: Game) -> list[DomainEvent]:
            events = decide(on)
            return [events] if isinstance(events, DomainEvent) else list(events)

        def same(before: Game, versions: tuple[int, ...], now: Game) -> bool:
            written = self.games.stores.of(game.id).events.get(game.id, gt=versions[0] - 1, lte=versions[-1])
            return same_events(decided(before), list(written))

        repeated = self.repeated(game, key, expected_version, same)
        if repeated is not None:
            return repeated
        check_expected(game, expected_version)
        events = decided(game)
        if authorise is not None:
            authorise(game, events)
        if reach is not None:
            game = self.games.reaching(game, reach(events))
        return self.games.commit(game, events)

    def repeated(
        self, game: Game, key: str | None, expected_version: int | None, same: Same
    ) -> Played | None:
        """The answer to a retry: the write recorded under this ``Idempotency-Key``, as the game stood right
        after it, if there is one and it is the same request (the same version expected too); None when the
        key is new here. A key recorded with another request is :class:`replay.errors.KeyReused`."""
        versions = game.keys.get(key) if key else None
        if not versions:
            return None
        if expected_version is not None and expected_version != versions[0] - 1:
            raise reused(versions)
        before = self.games.get(game.id, versions[0] - 1)
        try:
            asked_the_same = same(before, versions, game)
        except (domain.DomainError, KeyError, IndexError):
            # this request could not even be made there (or the key was recorded with another kind of
            # write, whose versions are no moves): it is not the one recorded
            asked_the_same = False
        if not asked_the_same:
            raise reused(versions)
        then = game if game.version == versions[-1] else self.games.get(game.id, versions[-1])
        self.games.stores.of(game.id).confirm_replicated()  # answered only once the replicas hold it
        return Played(then, versions, repeated=True)
