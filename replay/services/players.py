"""The players: who sat in each seat across games, their records, ratings and rivalries (:mod:`replay.players`).

Reads take the private games the request holds a token of (:meth:`Players.held`); everything else they answer
counts public games only. Writes link seats to players: one seat (:meth:`Players.link`), every seat of a player
(a merge) or some of them (a split), each only in the games whose owner token the request sent, in each game's
own link stream; and a BG Stats file's players' references (:meth:`Players.refer`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

import domain
from replay import access as grants
from replay.access import Forbidden, Grant
from replay.errors import GameCorrupt, GameNotFound, ReplayError, StaleVersion
from replay.game import Game
from replay.index import batches, changes_result
from replay.players import links as seats
from replay.players import references
from replay.players.facts import GameFacts, read_facts
from replay.players.links import Links, project_links
from replay.players.names import checked_name, key_of, player_id
from replay.players.projection import Projection, pid
from replay.players.reading import Reading
from replay.services.repository import GameRepository

logger = logging.getLogger(__name__)

HELD_MOST = 50
"""The most games one request may name tokens of (``Game-Tokens``)."""


class PlayerNotFound(ReplayError):
    """No player has this id (or none the request may see: a public answer never reveals a private game)."""

    code = "player_not_found"


class Unauthorized(ReplayError):
    """A token sent for a game that is not one of its tokens."""

    code = "unauthorized"


@dataclass(frozen=True)
class Linked:
    """The answer to a write of links: the games whose seats were linked (with their link streams' versions), and
    how many public games of the player concerned were left because the request holds no owner token of them."""

    games: dict[str, int]
    left: int


class Players:
    """Reads and writes of the players (see the module docstring)."""

    def __init__(self, games: GameRepository) -> None:
        self.games = games
        stores = games.stores.all
        self.projection = Projection(stores[0].views, stores, self.facts_of, self.stamp_of)
        self.reading = Reading(self.projection)

    # --- what the projection reads from the log -------------------------------------------------------------

    def links(self, game_id: UUID) -> Links:
        """The game's link stream as it stands."""
        try:
            found = self.games.stores.of(game_id).read(seats.stream_id(game_id), project_links)
        except GameCorrupt as error:
            raise error.within(game_id, "links") from error
        return found if isinstance(found, Links) else seats.empty(game_id)

    def facts_of(self, game_id: UUID, game: Game | None = None) -> GameFacts | None:
        """A game's facts as it and its links stand; None for a game that cannot be read (damaged: its own
        reads name the damage)."""
        try:
            game = game if game is not None else self.games.get(game_id)
            found = self.links(game_id)
        except (GameNotFound, GameCorrupt, domain.DomainError):
            logger.warning("the players leave out game %s: it cannot be read", game_id, exc_info=True)
            return None
        names = [str(seat["name"]) for seat in game.setup["players"]]
        return read_facts(game, seats.players_of(found, names), found.version)

    def stamp_of(self, game_id: UUID) -> tuple[int, int]:
        """The versions of a game and of its links, as stored now."""
        store = self.games.stores.of(game_id)
        return store.last_version(game_id), store.last_version(seats.stream_id(game_id))

    def after_write(self, before: Game | None, after: Game) -> None:
        """After a write: keep the game's facts when it changed its status, result or rules (a new game's at
        once: nothing is linked in it yet). The write is stored already: a failure here is logged (the next read
        takes a game it lacks from the index; ``heronlog players rebuild`` puts anything right), never the
        write's answer."""
        if before is not None and not changes_result(before, after):
            return
        try:
            if before is None:
                self.projection.keep(read_facts(after, {}, 0), new=True)
                return
            if self.projection.keep_from_held(after):
                return
            facts = self.facts_of(after.id, after)
            if facts is not None:
                self.projection.keep(facts)
        except Exception:
            logger.warning("could not keep the players' facts of game %s", after.id, exc_info=True)

    def rebuild(
        self,
        progress: Callable[[int], None] = lambda _: None,
        read: Callable[[Sequence[UUID]], Iterable[GameFacts]] | None = None,
    ) -> int:
        """Rebuild the projection from the log (``heronlog players rebuild``): every game each store's index
        lists, read as it stands with its links (by ``read``: :mod:`replay.players.rebuild` reads in several
        processes); how many games. The one in use answers meanwhile."""

        def listed(store: Any) -> Iterator[tuple[int, UUID]]:
            for last, entries in batches(store):
                for entry in entries:
                    yield last, UUID(entry.game_id)

        return self.projection.rebuild(listed, read, progress)

    # --- who may see what -----------------------------------------------------------------------------------

    def granted(self, pairs: Sequence[tuple[UUID, str]]) -> list[tuple[Game, Grant]]:
        """Each game named with a token and the token's grant; :class:`Unauthorized` for a token that is not
        the game's, ``GameNotFound`` for a game that is not here."""
        found = []
        for game_id, token in pairs[:HELD_MOST]:
            game, access = self.games.game_and_access(game_id)
            grant = access.match(token)
            if grant is None:
                raise Unauthorized(
                    f"the token sent for game {game_id} is not one of its tokens", game_id=str(game_id)
                )
            found.append((game, grant))
        return found

    def held(self, pairs: Sequence[tuple[UUID, str]]) -> list[GameFacts]:
        """The facts of the private games the request holds a token of (public ones count anyway)."""
        return self.held_of(self.granted(pairs))

    def held_of(self, owned: Sequence[tuple[Game, Grant]]) -> list[GameFacts]:
        """The facts of the private games among ``owned`` (as kept when kept at their version, else read)."""
        private = [game for game, _ in owned if game.setup.get("private")]
        kept = self.projection.facts(game.id for game in private)
        found = []
        for game in private:
            facts = kept.get(game.id)
            if facts is None or facts.version != game.version:
                facts = self.facts_of(game.id, game)
            if facts is not None:
                found.append(facts)
        return found

    # --- linking seats --------------------------------------------------------------------------------------

    def name_of(self, player: str, held: Sequence[GameFacts] = ()) -> str:
        """The name of the player ``player`` (an id), as a request holding ``held`` sees it; PlayerNotFound when
        it sees none."""
        (named,) = self.projection.views.read([("hmget", self.projection.keys().named, [player])])
        if named[0]:
            return str(named[0]).split("|", 1)[1]
        for facts in held:
            for seat in facts.people:
                if pid(seat.player) == player:
                    return seat.player
        raise PlayerNotFound(f"no player {player}", player_id=player)

    def link(
        self,
        game: Game,
        grant: Grant,
        changes: Mapping[int, str],
        *,
        expected_version: int | None,
        idempotency_key: str | None = None,
    ) -> Links:
        """Seat players in a game (seat -> player's name), as its owner (``grant``) says; ``StaleVersion`` when
        the game's links are no longer at ``expected_version``."""
        if grant.role != grants.OWNER:
            raise Forbidden("only the game's owner may say who sat in its seats", actor=grant.actor)
        for seat in changes:
            grants.check_seat(game, seat)
        now = self.links(game.id)
        if idempotency_key and idempotency_key in now.keys:
            return now  # a retry of a link made already
        if expected_version is not None and expected_version != now.version:
            raise StaleVersion(expected_version, now.version)
        names = [str(seat["name"]) for seat in game.setup["players"]]
        wanted = {seat: checked_name(name) for seat, name in changes.items()}
        events = seats.link(now, names, wanted, by=grant.actor, idempotency_key=idempotency_key)
        if not events:
            return now
        try:
            self.games.stores.of(game.id).save(*events)
        except IntegrityError:
            raise StaleVersion(now.version, self.links(game.id).version) from None
        linked = project_links(now, events)
        assert linked is not None
        facts = read_facts(game, seats.players_of(linked, names), linked.version)
        try:
            self.projection.keep(facts)
        except Exception:  # kept by the next read's catch-up or a rebuild; the links are written
            logger.warning("could not keep the players' facts of game %s", game.id, exc_info=True)
        return linked

    def relink(
        self,
        player: str,
        name: str,
        owned: Sequence[tuple[Game, Grant]],
        *,
        only: Mapping[UUID, set[int]] | None = None,
        idempotency_key: str | None = None,
    ) -> Linked:
        """Seat the player ``name`` wherever the player ``player`` sits (a merge), or only in the seats ``only``
        names (a split), in the games of ``owned`` whose owner the request is; the rest are left."""
        checked = checked_name(name)
        done: dict[str, int] = {}
        owners = {game.id: (game, grant) for game, grant in owned if grant.role == grants.OWNER}
        games, _ = self.reading.games(player, offset=0, limit=10_000, held=self.held_of(owned)) or ([], 0)
        left = 0
        for facts, seat in games:
            game_id = UUID(facts.game_id)
            if only is not None and seat not in only.get(game_id, set()):
                continue
            if game_id not in owners:
                left += 0 if facts.private else 1
                continue
            game, grant = owners[game_id]
            linked = self.link(
                game, grant, {seat: checked}, expected_version=None, idempotency_key=idempotency_key
            )
            done[str(game_id)] = linked.version
        if only is not None:
            for game_id, wanted in only.items():
                if str(game_id) not in done and game_id in owners and wanted:
                    raise PlayerNotFound(
                        f"the player does not sit in seat {min(wanted) + 1} of game {game_id}",
                        player_id=player,
                        game_id=str(game_id),
                    )
        return Linked(done, left)

    # --- BG Stats references --------------------------------------------------------------------------------

    def refer(
        self, players: Sequence[tuple[str, str]], owned: Sequence[tuple[Game, Grant]], by: str
    ) -> dict[str, str]:
        """Remember the BG Stats reference of each player (name, uuid) that sits in a game the request owns, so
        that exports name them as BG Stats does; the player ids so referred."""
        here: dict[str, str] = {}
        for game, grant in owned:
            facts = self.facts_of(game.id, game) if grant.role == grants.OWNER else None
            here.update(
                {key_of(seat.player): seat.player for seat in facts.people} if facts is not None else {}
            )
        wanted = {key_of(name): (here[key_of(name)], uuid) for name, uuid in players if key_of(name) in here}
        references.remember(self.games.stores.all[0], wanted, by=by)
        return {player_id(key): uuid for key, (_, uuid) in wanted.items()}

    def people(self, game: Game) -> list[tuple[str, str | None]]:
        """Each seat's player's name and BG Stats reference (what the BG Stats exports name them by)."""
        names = [str(seat["name"]) for seat in game.setup["players"]]
        linked = seats.players_of(self.links(game.id), names)
        known = references.known(self.games.stores.all[0])
        return [
            (linked.get(seat, name), known.get(key_of(linked.get(seat, name))))
            for seat, name in enumerate(names)
        ]

    def reference(self, name: str) -> str | None:
        """The BG Stats reference remembered for the player a name makes, if any."""
        return references.known(self.games.stores.all[0]).get(key_of(name))


__all__ = ["Linked", "PlayerNotFound", "Players", "Unauthorized"]
