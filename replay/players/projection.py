"""The players' projection: each game's facts and what they add to its players' counters, sort orders and ratings,
kept on the store's views (:mod:`replay.views`) and rebuilt from the log by a command.

How it is kept (docs/api/players.md): a write that changes what a game shows (the moment the list of games
writes its summary) or a seat's link replaces the game's facts, taking their old part away and adding the new one
in one guarded change, so a replay of the same facts, or two processes keeping the same game at once, count once.
Facts read from a later game or later links replace earlier ones, never the reverse. Before it answers, the
projection takes the games its stores' index streams list that it has not seen (a process that stopped between a
game's write and its facts), and works the ratings out again from the first rated game that changed: a write
only marks where (its answer waits for no ratings), the first read after it works them out, once for all the
games finished since.
"""

from __future__ import annotations

import functools
import json
import logging
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any
from uuid import UUID

from replay.cache import Recent
from replay.game import Game
from replay.index import batches
from replay.players import rating
from replay.players.facts import GameFacts, read_facts
from replay.players.keys import META, SHIFT, Keys
from replay.players.names import id_of
from replay.players.record import Counters, parts, summed
from replay.views import Change, Views

logger = logging.getLogger(__name__)

ATTEMPTS = 8
"""Changes tried before a game's facts are left for the next write or read to keep (another process kept
changing the same game)."""
RATED_PAGE = 5_000
"""Rated games read per step when ratings are worked out again."""
BULK = 2_000
"""Writes per change when a generation is written whole (a rebuild)."""


HELD_GAMES = 4_096
"""Games whose facts a process holds as it last kept them, with their generation and stamp: a game's next change
of result is kept from them in one round trip (:meth:`Projection.keep_from_held`)."""


@functools.lru_cache(maxsize=65_536)
def pid(name: str) -> str:
    """The player id of a name (cached: names repeat across games)."""
    return id_of(name)


def played_name(facts: GameFacts, name: str) -> str:
    return f"{facts.played:020d}|{name}"


def _part(change: Change, keys: Keys, facts: GameFacts, sign: int) -> None:
    """Add (``sign`` 1) or take away (-1) what ``facts`` put in the generation ``keys``."""
    if not facts.private:
        for player, counters in parts(facts, pid).items():
            for name, value in counters.items():
                change.hincr(keys.counters(player), name, sign * value)
            change.zincr(keys.by("games"), player, sign * (counters["games"] * SHIFT + counters["listed"]))
            change.zincr(keys.by("wins"), player, sign * (counters["won"] * SHIFT + counters["listed"]))
            for name in ("games", "score", *(name for name in counters if name.startswith("line:"))):
                change.hincr(keys.club, name, sign * counters[name])
    _members(change, keys, facts, sign)


def _members(change: Change, keys: Keys, facts: GameFacts, sign: int) -> None:
    """What :func:`_part` adds or takes away less the counters (a whole generation sums those once for all its
    games: :meth:`Projection.write_whole`)."""
    game = UUID(facts.game_id).hex
    if not facts.private:
        for seat in facts.people:
            player = pid(seat.player)
            if sign > 0:
                change.zadd(keys.played(player), game, facts.played)
                change.hmax(keys.named, player, played_name(facts, seat.player))
            else:
                change.zrem(keys.played(player), game)
            if facts.counted and not facts.solo and seat.total is not None:
                if sign > 0:
                    change.zadd(keys.best(player), game, seat.total)
                else:
                    change.zrem(keys.best(player), game)
    if rating.rated(facts) and facts.finished is not None:
        if sign > 0:
            change.zadd(keys.rated, game, facts.finished)
            change.hset(
                keys.entries, game, rating.entry_of(facts, {s.player: pid(s.player) for s in facts.people})
            )
        else:
            change.zrem(keys.rated, game)
            change.hdel(keys.entries, game)
        for seat in facts.people:
            if sign > 0:
                change.zadd(keys.rated_by(pid(seat.player)), game, facts.finished)
            else:
                change.zrem(keys.rated_by(pid(seat.player)), game)


def _stamp(facts: GameFacts) -> str:
    """What the store keeps beside a game's facts: the versions of the game and of its links they were read at."""
    return f"{facts.version} {facts.links}"


def _rated_entry(facts: GameFacts | None) -> tuple[str, str] | None:
    if facts is None or not rating.rated(facts) or facts.finished is None:
        return None
    key = rating.order_key(facts.finished, UUID(facts.game_id).hex)
    return key, rating.entry_of(facts, {seat.player: pid(seat.player) for seat in facts.people})


class Projection:
    """The players' projection of a game log (see the module docstring). ``views`` is where it is kept (the first
    store's), ``stores`` the stores whose index streams list the games, ``facts_of`` reads a game's facts as it
    stands (None for a game that cannot be read), ``stamp_of`` the versions of a game and of its links now."""

    def __init__(
        self,
        views: Views,
        stores: Sequence[Any],
        facts_of: Callable[[UUID], GameFacts | None],
        stamp_of: Callable[[UUID], tuple[int, int]],
    ) -> None:
        self.views = views
        self._stores = stores
        self._facts_of = facts_of
        self._stamp_of = stamp_of
        self._generation: str | None = None
        self._held: Recent[str, tuple[str, GameFacts, str]] = Recent(HELD_GAMES)

    # --- which generation -----------------------------------------------------------------------------------

    def keys(self) -> Keys:
        """The keys of the generation in use (as this process last read it: :meth:`checked` says whether it still
        is)."""
        if self._generation is None:
            (current,) = self.views.read([("hmget", META, ["current"])])[0]
            if current is None:
                current = "1"
                change = Change()
                change.guard(META, "current", None)
                change.hset(META, "current", current)
                self.views.apply(change)
                (current,) = self.views.read([("hmget", META, ["current"])])[0]
            self._generation = current
        return Keys(self._generation)

    def checked(self, current: str | None) -> bool:
        """Whether the generation in use is still this process's (``current``: as a read found it); if not,
        the next :meth:`keys` reads it again."""
        if current == self._generation:
            return True
        self._generation = None
        return False

    # --- keeping one game -----------------------------------------------------------------------------------

    def keep(self, facts: GameFacts, *, new: bool = False) -> bool:
        """Replace a game's facts with ``facts`` unless facts read later are kept already; whether they were.
        A rated game that changed marks the ratings to be worked out again from it (``dirty``): the next read
        does that (:meth:`settle`), so a write, a game's last move above all, waits for none of it. ``new``: a
        game just created, whose facts are kept in one change when none are (else as any other's)."""
        if new and self._keep_new(facts):
            return True
        for _ in range(ATTEMPTS):
            keys = self.keys()
            game = UUID(facts.game_id).hex
            current, held, stamp = self.views.read(
                [("hmget", META, ["current"]), ("hmget", keys.games, [game]), ("hmget", keys.stamps, [game])]
            )
            if not self.checked(current[0]):
                continue
            old = GameFacts.from_json(held[0]) if held[0] else None
            if not facts.newer_than(old):
                return False
            if self._replace(keys, old, stamp[0], facts):
                return True
        logger.warning("the players' facts of game %s were changed by others meanwhile: left", facts.game_id)
        return False

    def keep_from_held(self, game: Game) -> bool:
        """Keep ``game``'s facts in one round trip, from those this process last kept of it: their seats' players
        and links version, the store's stamp guarding that they are still the facts kept (a seat linked since
        changed them, and the stamp). Whether they were kept so; if not (none held, the seats renamed, or the
        stamp moved on), keep them the ordinary way, reading the links and the facts kept."""
        held = self._held.get(game.id.hex)
        if held is None:
            return False
        generation, old, stamp = held
        if [seat.name for seat in old.seats] != [str(seat["name"]) for seat in game.setup["players"]]:
            return False
        facts = read_facts(game, {seat.seat: seat.player for seat in old.seats}, old.links)
        if not facts.newer_than(old):
            return True  # nothing these facts say that is not kept
        if self._replace(Keys(generation), old, stamp, facts):
            return True
        self._held.forget(game.id.hex)
        return False

    def _replace(self, keys: Keys, old: GameFacts | None, stamp: str | None, facts: GameFacts) -> bool:
        """Replace ``old`` (kept under ``stamp``) by ``facts`` in one change, guarded by that stamp and the
        generation; whether it was applied."""
        game = UUID(facts.game_id).hex
        change = Change()
        change.guard(META, "current", keys.generation)
        change.guard(keys.stamps, game, stamp)
        if old is not None:
            _part(change, keys, old, -1)
        _part(change, keys, facts, 1)
        change.hset(keys.games, game, facts.to_json())
        change.hset(keys.stamps, game, _stamp(facts))
        before, after = _rated_entry(old), _rated_entry(facts)
        if before != after:
            for entry in (before, after):
                if entry is not None:
                    change.hmin(keys.state, "dirty", entry[0])
            change.hincr(keys.state, "revision", 1)
        if not self.views.apply(change):
            return False
        self._held.put(game, (keys.generation, facts, _stamp(facts)))
        return True

    def _keep_new(self, facts: GameFacts) -> bool:
        """A new game's facts (an import's may be finished, and rated), kept only while none are."""
        return self._replace(self.keys(), None, None, facts)

    def facts(self, game_ids: Iterable[UUID]) -> dict[UUID, GameFacts]:
        """The kept facts of some games (those it has)."""
        wanted = list(game_ids)
        if not wanted:
            return {}
        (held,) = self.views.read([("hmget", self.keys().games, [game.hex for game in wanted])])
        return {game: GameFacts.from_json(text) for game, text in zip(wanted, held, strict=True) if text}

    # --- catching up ----------------------------------------------------------------------------------------

    def catch_up(self, state: dict[str, str]) -> bool:
        """Keep the games the stores' index streams list past the positions in ``state`` (the generation's state
        as a read found it) whose facts it does not have; whether there were any entries to take."""
        keys = self.keys()
        taken = False
        for store in self._stores:
            name = f"pos:{store.name}"
            position = int(state.get(name, "0"))
            if store.last_version(_index_id(store)) <= position:
                continue
            taken = True
            for last, entries in batches(store, position):
                games = [UUID(entry.game_id) for entry in entries]
                (stamps,) = self.views.read([("hmget", keys.stamps, [game.hex for game in games])])
                for game, stamp in zip(games, stamps, strict=True):
                    if stamp is None:
                        found = self._facts_of(game)
                        if found is not None:
                            self.keep(found)
                change = Change()
                change.guard(keys.state, name, state.get(name))
                change.hset(keys.state, name, str(last))
                if not self.views.apply(change):
                    return True  # another process moved it on: it catches up from there
                state[name] = str(last)
        return taken

    def behind(self, state: dict[str, str]) -> bool:
        """Whether some store's index stream lists games past what the projection has taken, or the ratings
        are to be worked out again."""
        if state.get("dirty"):
            return True
        return any(
            store.last_version(_index_id(store)) > int(state.get(f"pos:{store.name}", "0"))
            for store in self._stores
        )

    # --- ratings --------------------------------------------------------------------------------------------

    def settle(self) -> None:
        """Work the ratings out again from the first rated game that changed (``dirty``): from each player's
        rating after the games before it, every rated game from it on, in order. When every change came after
        the last game worked out, only those are read."""
        for _ in range(ATTEMPTS):
            keys = self.keys()
            (state,) = self.views.read([("hgetall", keys.state)])
            dirty = state.get("dirty")
            if not dirty:
                return
            done = state.get("rated", "")
            if self.views.apply(self._settled(keys, state, dirty, appended=dirty > done)):
                return
        logger.warning("the ratings were being worked out by others meanwhile: left to the next read")

    def _settled(self, keys: Keys, state: dict[str, str], dirty: str, *, appended: bool) -> Change:
        start_score = float(int(dirty.split("_", maxsplit=1)[0]))
        ratings: dict[str, rating.Rating] = {}
        known: dict[str, rating.Rating] = {}
        if appended:
            (held,) = self.views.read([("hgetall", keys.ratings)])
            known = {player: rating.Rating.parse(text) for player, text in held.items()}
            ratings = dict(known)
            rated = self._rated_from(keys, start_score)
        else:
            (held,) = self.views.read([("hgetall", keys.ratings)])
            known = {player: rating.Rating.parse(text) for player, text in held.items()}
            rated = self._rated_from(keys, float("-inf"))
        change = Change()
        change.guard(keys.state, "revision", state.get("revision"))
        last = state.get("rated", "") if appended else ""
        for chunk in _chunks(rated, RATED_PAGE):
            games = [game for game, _ in chunk]
            entries, afters = self.views.read([("hmget", keys.entries, games), ("hmget", keys.after, games)])
            for (game, finished), entry, after in zip(chunk, entries, afters, strict=True):
                key = rating.order_key(int(finished), game)
                if entry is None or key < (dirty if appended else ""):
                    continue
                last = key
                if key < dirty and after is not None:  # before the first change: as it was worked out
                    ratings.update({p: rating.Rating.parse(t) for p, t in json.loads(after).items()})
                    continue
                changed = rating.update(ratings, rating.parse_entry(entry))
                ratings.update(changed)
                change.hset(keys.after, game, json.dumps({p: r.text() for p, r in changed.items()}))
        for player, now in ratings.items():
            if known.get(player) != now:
                change.hset(keys.ratings, player, now.text())
                change.zadd(keys.by("rating"), player, now.ordinal)
        if not appended:
            for player in set(known) - set(ratings):
                change.hdel(keys.ratings, player)
                change.zrem(keys.by("rating"), player)
        change.hdel(keys.state, "dirty")
        change.hset(keys.state, "rated", last)
        change.hincr(keys.state, "revision", 1)
        return change

    def _rated_from(self, keys: Keys, score: float) -> list[tuple[str, float]]:
        """The rated games from ``score`` on (every one from -inf), in the order ratings are worked out in."""
        found: list[tuple[str, float]] = []
        while True:
            if score == float("-inf"):
                (page,) = self.views.read([("zrange", keys.rated, len(found), RATED_PAGE, False)])
            else:
                (page,) = self.views.read([("zfrom", keys.rated, score, RATED_PAGE + len(found))])
                page = page[len(found) :]
            found += page
            if len(page) < RATED_PAGE:
                return found

    # --- a rebuild ------------------------------------------------------------------------------------------

    def rebuild(
        self,
        listed: Callable[[Any], Iterable[tuple[int, UUID]]],
        read: Callable[[Sequence[UUID]], Iterable[GameFacts]] | None = None,
        progress: Callable[[int], None] = lambda _: None,
    ) -> int:
        """Write a new generation from the log (every game each store's index lists, read as it stands: by
        ``read``, one after another by default), make it the one in use, keep again the games written meanwhile,
        and drop the old one; how many games."""
        generation = uuid.uuid4().hex[:12]
        keys = Keys(generation)
        games: list[UUID] = []
        positions: dict[str, int] = {}
        for store in self._stores:
            for position, game in listed(store):
                positions[f"pos:{store.name}"] = position
                games.append(game)
        every: list[GameFacts] = []
        for facts in (read or self._read_one_by_one)(games):
            every.append(facts)
            progress(len(every))
        self.write_whole(keys, every, positions)
        old = self.keys()
        change = Change()
        change.guard(META, "current", old.generation)
        change.hset(META, "current", generation)
        if not self.views.apply(change):
            raise RuntimeError("another rebuild made its generation the one in use meanwhile")
        self._generation = generation
        for facts in every:  # written to meanwhile (into the generation in use then): kept again here
            game = UUID(facts.game_id)
            if self._stamp_of(game) != (facts.version, facts.links):
                now = self._facts_of(game)
                if now is not None:
                    self.keep(now)
        self.drop(old)
        return len(every)

    def _read_one_by_one(self, games: Sequence[UUID]) -> Iterator[GameFacts]:
        for game in games:
            found = self._facts_of(game)
            if found is not None:
                yield found

    def write_whole(self, keys: Keys, every: Sequence[GameFacts], positions: dict[str, int]) -> None:
        """Write a generation whole from every game's facts (a rebuild; the benchmarks' archives)."""
        writes = _Flushed(self.views)
        total: Counters = summed(parts(facts, pid) for facts in every if not facts.private)
        for facts in every:
            _part_sets(writes.change, keys, facts)
            writes.flush_if_full()
        for player, counters in total.items():
            for name, value in counters.items():
                writes.change.hincr(keys.counters(player), name, value)
            writes.change.zadd(keys.by("games"), player, counters["games"] * SHIFT + counters["listed"])
            writes.change.zadd(keys.by("wins"), player, counters["won"] * SHIFT + counters["listed"])
            for name in ("games", "score", *(n for n in counters if n.startswith("line:"))):
                writes.change.hincr(keys.club, name, counters[name])
            writes.flush_if_full()
        rated = sorted((entry[0], entry[1]) for entry in map(_rated_entry, every) if entry is not None)
        ratings, after = rating.replay((key, rating.parse_entry(text)) for key, text in rated)
        for key, changed in after.items():
            writes.change.hset(
                keys.after, key.split("_")[1], json.dumps({p: r.text() for p, r in changed.items()})
            )
            writes.flush_if_full()
        for player, now in ratings.items():
            writes.change.hset(keys.ratings, player, now.text())
            writes.change.zadd(keys.by("rating"), player, now.ordinal)
        for name, position in positions.items():
            writes.change.hset(keys.state, name, str(position))
        writes.change.hset(keys.state, "rated", rated[-1][0] if rated else "")
        writes.flush()

    def drop(self, keys: Keys) -> None:
        """Delete a generation no longer in use."""
        (named,) = self.views.read([("hgetall", keys.named)])
        (counted,) = self.views.read([("zrange", keys.by("games"), 0, 10**9, False)])
        players = set(named) | {player for player, _ in counted}
        doomed = [key for player in players for key in keys.of_player(player)] + keys.shared
        for chunk in _chunks(doomed, BULK):
            change = Change()
            for key in chunk:
                change.delete(key)
            self.views.apply(change)


class _Flushed:
    """A generation written whole in changes of about :data:`BULK` writes each."""

    def __init__(self, views: Views) -> None:
        self.views = views
        self.change = Change()

    def flush_if_full(self) -> None:
        if len(self.change.ops) >= BULK:
            self.flush()

    def flush(self) -> None:
        if self.change:
            self.views.apply(self.change)
        self.change = Change()


def _part_sets(change: Change, keys: Keys, facts: GameFacts) -> None:
    """What a game adds that is not a counter (its facts, its stamp, its members of sorted sets, its name)."""
    _members(change, keys, facts, 1)
    game = UUID(facts.game_id).hex
    change.hset(keys.games, game, facts.to_json())
    change.hset(keys.stamps, game, _stamp(facts))


def _index_id(store: Any) -> UUID:
    from replay.index import index_id

    return index_id(store)


def _chunks(items: Sequence[Any], size: int) -> list[Sequence[Any]]:
    return [items[start : start + size] for start in range(0, len(items), size)]
