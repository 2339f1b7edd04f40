"""The repository of games: reads a game (with its grants) from its store, keeps its folds warm, and saves the
events a service decided, with what follows every write (the cached fold, a snapshot when one is due, the list
of games). Every service of :mod:`replay.services` reads and writes through one.

The same methods run on one store or on several (shards): the router (:class:`replay.stores.Stores`) picks each
game's store, and the list of games (:mod:`replay.index`) spans them.
"""

from __future__ import annotations

import contextlib
import functools
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from domain import GameState
from replay import access as grants
from replay import decisions, one_trip, rules
from replay.access import Access, project_access
from replay.cache import Sized, WarmCache, budget_from
from replay.ephemeral import Ephemeral
from replay.errors import GameCorrupt, GameNotFound, StaleVersion, UnknownVersion
from replay.events import DomainEvent, GameCreated
from replay.game import MAX_VERSION, Game, GameSnapshot, NotAGameEvent, created_game, project_game
from replay.index import GameIndex
from replay.one_trip import CountedAppend
from replay.snapshots import SNAPSHOT_EVERY, Snapshots, state_within
from replay.store.gathering import together
from replay.stores import Projector, Stores
from replay.watch import ChangeWatch


@dataclass(frozen=True)
class Played:
    """The answer to a write: the versions it created (or found, for a retry of it) and the game as it stood
    right after them."""

    game: Game
    versions: tuple[int, ...]
    repeated: bool = False


@dataclass(frozen=True)
class ReadAhead:
    """A game and its grants, read in the round trip that counted the write they are read for
    (:meth:`GameRepository.count_write`): handed to that one write, never kept for another."""

    game: Game
    access: Access


@dataclass(frozen=True)
class OneTrip:
    """A move to be decided on what this process holds and counted with its append (replay.one_trip): the game
    and its grants as held, and what the append sends to be counted and checked (``counted``, which then says
    whether the events were stored and the window's count)."""

    ahead: ReadAhead
    counted: CountedAppend


_COUNTED: ContextVar[CountedAppend | None] = ContextVar("heronlog_counted_append", default=None)
"""The one-trip move being answered by this request (a context per greenlet or thread), for :meth:`commit`."""


@dataclass(frozen=True)
class Counted:
    """A write counted in its rate-limit window: the writes so far in it and the seconds it has left; the kind
    of write its ``Idempotency-Key`` was first used for (when a key was claimed); and the game read with the
    count (when the store could read it in the same round trip)."""

    count: int
    seconds_left: int
    first_use: str | None = None
    ahead: ReadAhead | None = None


class GameRepository:
    """Games read from their stores and saved to them (see the module docstring).

    ``env`` is the eventsourcing library's environment (``PERSISTENCE_MODULE`` and the store's settings);
    ``shards`` the number of stores to spread games over (Redis only). ``SNAPSHOTS_IN_BACKGROUND`` writes
    snapshots from a thread; ``CACHE_MB`` is the warm cache's budget (:mod:`replay.cache`; 0 turns it off)."""

    def __init__(self, env: Mapping[str, str] | None = None, *, shards: int = 1) -> None:
        env = dict(env or {})
        budget = budget_from(env)
        self.cache = WarmCache(budget) if budget is not None else None
        self.stores = Stores.build(env, shards, self.cache)
        self.index = GameIndex(self.stores.all, self.get, self.stores.of)
        background = env.get("SNAPSHOTS_IN_BACKGROUND", "n").lower() in ("y", "yes", "true", "1")
        self.snapshots = Snapshots(self._write_snapshot, background=background)
        self.followers: list[Callable[[Game | None, Game], None]] = []
        """Read models kept after every write as the list is (the players), each given the game before (None:
        a new game) and after; each logs its own failures."""
        self._creating = threading.Lock()
        self._gathered = any(
            getattr(getattr(store.recorder, "datastore", None), "gathering", None) is not None
            for store in self.stores.all
        )
        """Whether the stores send the scripts of one turn of gevent's loop together (replay.store.gathering):
        only then is what follows a write sent at once."""

    def close(self) -> None:
        self.snapshots.close()
        self.stores.close()

    def watch_for(self, game_id: UUID) -> ChangeWatch | None:
        """What wakes a spectator of this game when it changes (:mod:`replay.watch`), or None when its store
        cannot wake anyone (SQLite, memory): a spectator then polls."""
        return self.stores.of(game_id).watch

    def ephemeral(self, near: UUID | None = None, key: str = "") -> Ephemeral:
        """The short-lived records (counters, receipts) kept in the store of the game ``near``, or in the store
        that ``key`` picks when there is no game (:mod:`replay.ephemeral`)."""
        return (self.stores.of(near) if near is not None else self.stores.of_key(key)).ephemeral

    # --- counting writes ---------------------------------------------------------------------------------

    def count_write(
        self,
        key: str,
        window: int,
        *,
        near: UUID | None = None,
        weight: int = 1,
        claim: tuple[str, str, int] | None = None,
        read_ahead: bool = False,
    ) -> Counted:
        """Count ``weight`` writes of ``key`` in the current ``window`` (seconds) of the API's rate limits, in
        the store of the game ``near`` when there is one. ``claim`` (a name, a kind of write, seconds): record
        that an ``Idempotency-Key`` was used for that kind of write, unless it was used already, in the same
        round trip (:func:`replay.idempotency.key_use`). ``read_ahead``: read the game ``near`` and its grants
        in that round trip too, when the store can (Redis, both cached here)."""
        store = self.stores.of(near) if near is not None else self.stores.of_key(key)
        if not read_ahead or near is None or not isinstance(store.cached_fold(near), Game):
            count, left, first = store.count_claiming(key, window, weight, claim)
            return Counted(count, left, first)
        streams: list[tuple[UUID, Projector]] = [
            (near, project_game),
            (grants.stream_id(near), project_access),
        ]
        count, left, first, folds = store.count_reading(key, window, weight, streams, claim)
        if folds is None or not isinstance(folds[0], Game):
            return Counted(count, left, first)
        access = folds[1] if isinstance(folds[1], Access) else grants.empty(near)
        return Counted(count, left, first, ReadAhead(folds[0], access))

    def count_later(
        self, key: str, window: int, *, near: UUID, limit: int, claim: tuple[str, str, int] | None = None
    ) -> OneTrip | None:
        """A write to the game ``near`` counted with its append rather than before it (replay.one_trip), against
        ``key`` in the current ``window`` up to ``limit`` writes, claiming ``claim`` as :meth:`count_write`
        does: the game and its grants as this process holds them, or None when the store cannot (then
        :meth:`count_write`). Answer it inside :meth:`counting_with_append`."""
        streams: list[tuple[UUID, Projector]] = [
            (near, project_game),
            (grants.stream_id(near), project_access),
        ]
        found = one_trip.count_later(
            self.stores.of(near), streams, key=key, window=window, limit=limit, claim=claim
        )
        if found is None:
            return None
        (game, access), counted = found
        if not isinstance(game, Game) or not isinstance(access, Access):
            return None
        return OneTrip(ReadAhead(game, access), counted)

    @contextlib.contextmanager
    def counting_with_append(self, trip: OneTrip) -> Iterator[CountedAppend]:
        """While the write of ``trip`` is answered, its game's first append is sent with the count and the check
        (:class:`replay.one_trip.NotAsHeld` when the store refuses it); every other save is as ever."""
        token = _COUNTED.set(trip.counted)
        try:
            yield trip.counted
        finally:
            _COUNTED.reset(token)

    # --- reading -------------------------------------------------------------------------------------------

    def get(self, game_id: UUID, version: int | None = None) -> Game:
        """The game at its current version, or as it stood right after event ``version``."""
        if version is not None and not 1 <= version <= MAX_VERSION:  # never handed to the store
            current = self.get(game_id)  # an unknown game is still 404 game_not_found first
            raise UnknownVersion(f"this game has versions 1 to {current.version}", version=version)
        store = self.stores.of(game_id)
        try:
            game = store.read(game_id, project_game, version)
        except NotAGameEvent:  # another kind of stream (annotations, access, the index)
            game = None
        except GameCorrupt:
            self.index.found_damaged(game_id)  # the list says so (replay.index)
            raise
        if not isinstance(game, Game):
            raise GameNotFound(f"no game {game_id}", game_id=str(game_id))
        if version is not None and game.version != version:
            raise UnknownVersion(f"this game has versions 1 to {game.version}", version=version)
        if version is None:
            store.cache_fold(game_id, game)
        return game

    def game_and_access(self, game_id: UUID, ahead: ReadAhead | None = None) -> tuple[Game, Access]:
        """The game as it stands (``GameNotFound`` as :meth:`get`) and its live grants, read together: one
        round trip on Redis when both are cached; none when they were read ahead with the write's count for
        this very request (``ahead``, :meth:`count_write`)."""
        store = self.stores.of(game_id)
        if ahead is not None and ahead.game.id == game_id:
            store.cache_fold(game_id, ahead.game)
            return ahead.game, ahead.access
        try:
            game, stream = store.read_together(
                [(game_id, project_game), (grants.stream_id(game_id), project_access)]
            )
        except NotAGameEvent:
            game, stream = None, None
        except GameCorrupt as error:  # said of the game, whichever of its streams is damaged
            if error.details.get("game_id") == str(grants.stream_id(game_id)):
                raise error.within(game_id, "grants") from error
            self.index.found_damaged(game_id)
            raise
        if not isinstance(game, Game):
            raise GameNotFound(f"no game {game_id}", game_id=str(game_id))
        store.cache_fold(game_id, game)
        return game, stream if isinstance(stream, Access) else grants.empty(game_id)

    def access(self, game_id: UUID) -> Access:
        """The game's live grants (none for a game that has none, or no game)."""
        try:
            stream = self.stores.of(game_id).read(grants.stream_id(game_id), project_access)
        except GameCorrupt as error:
            raise error.within(game_id, "grants") from error
        return stream if isinstance(stream, Access) else grants.empty(game_id)

    def events_of(self, game_id: UUID, after: int = 0) -> list[DomainEvent]:
        """The game's stored events after version ``after``, in order, read and checked record by record
        without folding (a game recorded under rules this build does not replay is read all the same)."""
        store = self.stores.of(game_id)
        if after > MAX_VERSION:  # beyond any store's integers (SQLite's are 64-bit): nothing comes after it
            self.get(game_id)
            return []
        events = store.stream_events(game_id, gt=after or None)
        first = events[:1] if after == 0 else store.stream_events(game_id, lte=1)
        if not first or not isinstance(first[0], GameCreated):  # none, or another kind of stream
            raise GameNotFound(f"no game {game_id}", game_id=str(game_id))
        return events

    # --- states along the line of play ---------------------------------------------------------------------

    def line_lengths(self, game: Game) -> list[int]:
        """How many moves of today's line of play stood after each version (-1: a line since undone or
        corrected): :func:`replay.decisions.line_lengths`, worked out once per version of a game and cached."""
        store = self.stores.of(game.id)
        key = ("lines", game.id)
        cached = store.cached_value(key)
        if isinstance(cached, Sized) and cached.value[0] == game.version:
            lengths: list[int] = cached.value[1]
            return lengths
        lengths = decisions.line_lengths(game)
        store.cache_value(key, Sized((game.version, lengths), 64 + 40 * len(lengths)))
        return lengths

    def reaching(self, game: Game, moves: int) -> Game:
        """The game with its states from the first ``moves`` moves of its line on (every state, for 0).

        A game read from a snapshot holds only the states after it; the ones before are rebuilt here once,
        from the nearest snapshot on today's line at or before that point (or from the opening, within the
        first :data:`~replay.snapshots.SNAPSHOT_EVERY` moves), and the longer game is cached in place of the
        shorter one. So undoing across a snapshot, or stepping back through a replay, refolds only what it
        needs, once."""
        if moves >= game.base:
            return game
        if not game.playable:
            raise rules.unsupported(game.rules_version, game_id=game.id)
        start, state = self._anchor(game, moves)
        states = [state]
        for version in game.line[start : game.base - 1]:
            record = game.records[version]
            states.append(rules.reapply(states[-1], record.move, record.chance))
        longer = replace(game, base=start, states=(*states, *game.states))

        def still(held: Any) -> bool:  # not over a newer game, nor over one that reaches back further
            return held is None or (
                isinstance(held, Game) and held.version == game.version and held.base > start
            )

        self.stores.of(game.id).cache_value(game.id, longer, still)
        return longer

    def _anchor(self, game: Game, moves: int) -> tuple[int, GameState]:
        """Where to rebuild a game's states from to reach its first ``moves`` moves: the state after some
        ``start`` <= ``moves`` moves of today's line (a snapshot's, or the opening's)."""
        if moves > SNAPSHOT_EVERY and game.base > 0:
            lengths = self.line_lengths(game)
            fits = [version for version, length in enumerate(lengths) if 0 <= length <= moves]
            if fits:
                found = state_within(
                    self.stores.of(game.id), game, lte=fits[-1], moves_at=lengths, most=moves
                )
                if found is not None:
                    return found
        opening = rules.opening_state(
            game.setup, game.catalog, game.opening, rules_version=game.rules_version
        )
        return 0, opening

    # --- saving --------------------------------------------------------------------------------------------

    def commit(self, game: Game, events: Sequence[DomainEvent], after: Game | None = None) -> Played:
        """Save the events of a write to ``game``; a clash on a version means another writer won the race
        (:class:`StaleVersion`). ``after`` is the game they lead to, when the caller has it already."""
        store = self.stores.of(game.id)
        counted = _COUNTED.get()
        in_one_trip = counted is not None and counted.game_id == game.id and not counted.appended
        extra = {"counted": counted} if in_one_trip else {}
        try:
            store.save(*events, **extra)
        except IntegrityError:
            raise StaleVersion(game.version, self.get(game.id).version) from None
        if after is None:
            after = project_game(game, events)
        assert after is not None
        store.cache_fold(after.id, after)
        self._after_write(game, after)
        return Played(after, tuple(event.originator_version for event in events))

    def _after_write(self, before: Game | None, after: Game) -> None:
        """What follows every write: a snapshot when one is due, then the list's summary and the followers (the
        players' facts), at once where the stores gather their scripts, so that these travel in one round trip
        (``gathering.together``); elsewhere (SQLite, a process gevent did not patch) one after the other."""
        self.snapshots.after_write(before, after)
        calls = [
            functools.partial(self.index.after_write, before, after),
            *(functools.partial(follower, before, after) for follower in self.followers),
        ]
        if self._gathered:
            together(calls)
        else:
            for call in calls:
                call()

    def save_new_game(
        self,
        events: Sequence[DomainEvent],
        extra: Sequence[DomainEvent],
        opening: Any,
        listed_at: datetime | None = None,
    ) -> Game:
        """Save a new game's events, its entry in the list of games and ``extra`` (its owner grant, an import's
        annotations) in one transaction, retrying only the list's position when another game was listed at the
        same moment. ``opening`` is the game's opening state when the caller has just built it (None: set up
        from the event), or the game the events fold to when the caller folded them; ``listed_at`` the time it is
        listed at, when not its own (an import)."""
        created = events[0]
        assert isinstance(created, GameCreated)
        store = self.stores.of(created.originator_id)
        with self._creating:
            for _ in range(20):
                entry = self.index.next_entry(store, created, listed_at)
                try:
                    store.save(*events, entry, *extra)
                except IntegrityError:
                    if store.exists(created.originator_id):
                        raise
                    continue
                break
            else:
                raise StaleVersion(entry.originator_version, store.last_version(entry.originator_id))
        # Out of the lock: only the list's position needs one creation of this process at a time.
        if isinstance(opening, Game):
            game = opening  # folded by its decision (an import's refold): a second fold cost as much
        else:
            start = created_game(created, opening) if opening is not None else None
            folded = project_game(start, events[1:] if start is not None else events)
            assert folded is not None
            game = folded
        store.cache_fold(game.id, game)  # read back at once (its creator's answer): not folded again
        self._after_write(None, game)
        return game

    def _write_snapshot(self, game: Game) -> None:
        snapshots = self.stores.of(game.id).snapshots
        assert snapshots is not None
        snapshots.put([GameSnapshot.take(game)])
