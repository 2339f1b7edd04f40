"""Exports and imports: a game's whole log as JSON (and as a text record, a BG Stats play, a BoardGameGeek play),
and an exported log written back as a game of this log after the rules refold it (:mod:`replay.exports`).

An import that names a parent game links the branch to it only when the parent is a game here that had that
version. A private parent is looked up only for a request that holds one of its tokens: for any other it is
refused exactly as a game that is not here, so an import reveals nothing of a private game.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError

from replay import annotations as annotation
from replay import exports, history, plays
from replay.access import Issued
from replay.errors import GameCorrupt, GameNotFound
from replay.events import DomainEvent, GameCreated, now
from replay.game import Game
from replay.idempotency import fingerprint
from replay.services.annotating import Annotating
from replay.services.creation import Creation, Decided
from replay.services.repository import GameRepository


class Exchange:
    """Export and import games (see the module docstring)."""

    def __init__(
        self,
        games: GameRepository,
        creation: Creation,
        annotating: Annotating,
        people: Callable[[Game], list[tuple[str, str | None]]] | None = None,
    ) -> None:
        self.games = games
        self.creation = creation
        self.annotating = annotating
        self.people = people
        """Each seat's player and BG Stats reference (:meth:`replay.services.players.Players.people`)."""

    # --- exports -------------------------------------------------------------------------------------------

    def export(self, game_id: UUID) -> dict[str, Any]:
        """The full log as JSON (setup, catalog, rules version, every event, every annotation event)."""
        # The annotations and the game's events are read together (in one round trip and one moment on Redis),
        # or the annotations first: each was anchored to a version the game had when it was written, so the
        # game's events read with or after them reach it, and an export taken while people annotate imports.
        annotations_id = annotation.stream_id(game_id)
        try:
            annotated, events = self.games.stores.of(game_id).streams_events([annotations_id, game_id])
        except GameCorrupt as error:
            if error.details.get("game_id") == str(annotations_id):
                raise error.within(game_id, "annotations") from error
            raise
        if not events or not isinstance(events[0], GameCreated):  # none, or another kind of stream
            raise GameNotFound(f"no game {game_id}", game_id=str(game_id))
        return exports.export_document(
            events, [event for event in annotated if isinstance(event, DomainEvent)]
        )

    def export_text(self, game_id: UUID, known: Game | None = None) -> str:
        """The game as a readable record: headings, one line per move, the annotations, the score sheet."""
        game = self._game(game_id, known)
        return history.text_record(self.games.reaching(game, 0), self.annotating.annotations(game_id, game))

    def export_bgstats(
        self, game_id: UUID, known: Game | None = None, *, me: int | None = None, location: str | None = None
    ) -> dict[str, Any]:
        """The game as a BG Stats play file, whose owner is the player of seat ``me`` (if given), played at
        ``location`` (if given) (:func:`replay.plays.bgstats_file`)."""
        game = self._game(game_id, known)
        return plays.bgstats_file(game, self.people(game) if self.people else None, me=me, location=location)

    def export_bgstats_link(self, game_id: UUID, known: Game | None = None) -> dict[str, Any]:
        """BG Stats' create-play link of a finished game and the play it carries; ``GameUnfinished`` for a
        game that is not finished (:func:`replay.plays.bgstats_link`)."""
        game = self._game(game_id, known)
        return plays.bgstats_link(game, self.people(game) if self.people else None)

    def export_bgg(self, game_id: UUID, known: Game | None = None) -> str:
        """The game as a BoardGameGeek play record, XML (:func:`replay.plays.bgg_play_xml`)."""
        return plays.bgg_play_xml(self._game(game_id, known))

    def _game(self, game_id: UUID, known: Game | None) -> Game:
        return known if known is not None and known.id == game_id else self.games.get(game_id)

    # --- imports -------------------------------------------------------------------------------------------

    def import_log(
        self,
        data: Any,
        *,
        keep_id: bool = True,
        game_id: UUID | None = None,
        idempotency_key: str | None = None,
        max_events: int = 0,
        token: str | None = None,
    ) -> Issued:
        """Write an exported log as a game of this log, after refolding it with the rules, owned by the caller.
        The game keeps its id unless that id is taken here (or ``keep_id`` is false); ``game_id`` imposes one
        (a restore keeps every game's): if a game has it already, nothing is written and the store's
        ``IntegrityError`` is raised. ``max_events``: the most events it may hold (0: no cap). ``token``: the
        one the request sent, which lets it name a private game as its parent.

        An import is listed in the list of games as of now (its own date stays the game's, when it was
        played), and a branch's parent must be a game of this log; a restore (``game_id``) keeps the list's
        order and each branch's link as the backup has them."""
        restoring = game_id is not None

        def parent_version(parent_id: UUID) -> int | None:
            return self._parent_version(parent_id, token)

        limits = exports.Limits(
            now=now(), max_events=max_events, parent_version=None if restoring else parent_version
        )
        listed_at = None if restoring else limits.now

        def decide(new_id: UUID) -> Decided:
            imported = exports.refold(data, game_id=new_id, limits=limits)
            return list(imported.game_events), list(imported.annotation_events), None

        asked = fingerprint("import", data=data, keep_id=keep_id, game_id=game_id)
        new = self.creation.new_owned_game
        if game_id is not None or not keep_id:
            return new(idempotency_key, asked, decide, game_id=game_id, listed_at=listed_at)
        try:
            return new(idempotency_key, asked, decide, game_id=self._free_id(data), listed_at=listed_at)
        except IntegrityError:
            if idempotency_key is not None:
                raise
            # The same export imported at the same moment took that id first: this copy takes a new one.
            return new(None, asked, decide, listed_at=listed_at)

    def check_log(self, data: Any, *, max_events: int = 0) -> Game:
        """Refold an exported log without writing anything (raises ``InvalidLog`` listing every problem, or
        ``ImportTooLarge``) as :meth:`import_log` would, but for its parent: a branch's parent is not looked
        for (a file is checked before the games it links to are there)."""
        limits = exports.Limits(now=now(), max_events=max_events)
        return exports.refold(data, game_id=uuid4(), limits=limits).game

    def _parent_version(self, game_id: UUID, token: str | None) -> int | None:
        """The version of a game of this log that an import may name as its parent, or None when there is no
        such game, or it is private and ``token`` is none of its tokens (refused alike: nothing is revealed)."""
        try:
            game = self.games.get(game_id)
        except GameNotFound:
            return None
        if game.setup.get("private") and (token is None or self.games.access(game_id).match(token) is None):
            return None
        return game.version

    def _free_id(self, data: Any) -> UUID | None:
        """The exported game's own id, when it is free here; else None (the import takes a new one).

        Only an id such as heronlog gives a game is kept: a random UUID (version 4) that names no stream at
        all here. A game's annotation and access streams, and the index, have ids derived from a name (version
        5), which anyone can work out from a game's id: an import that took one of them would write a game
        into another game's stream."""
        if not isinstance(data, Mapping):
            return None
        try:
            wanted = UUID(str(data.get("game_id")))
        except ValueError:
            return None
        if wanted.version != 4 or self.games.stores.of(wanted).exists(wanted):
            return None
        return wanted
