"""Questions about games, answered without writing: the state at a version (on the line of play as it stood, or
as it stands), a turn's first move, the timeline, the setup's layout, the changes since a version, and the list
of games.

Every method that takes ``known`` uses the game the caller has just read (a request reads its game once).
The states of earlier versions are cached (:meth:`GameRepository.reaching`, the line lengths), so stepping
through a replay refolds nothing twice.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any
from uuid import UUID

import domain
from domain import GameState
from replay import decisions, exports, history, rules
from replay.cache import RESTORED_STATE_BYTES, Sized
from replay.errors import InvalidSetup, UnknownVersion
from replay.game import Game
from replay.index import GameSummary, Key, Page
from replay.services.repository import GameRepository
from replay.stores import created_game_ids


class Queries:
    """Read games without writing (see the module docstring)."""

    def __init__(self, games: GameRepository) -> None:
        self.games = games

    def _game(self, game_id: UUID, known: Game | None) -> Game:
        return known if known is not None and known.id == game_id else self.games.get(game_id)

    # --- states --------------------------------------------------------------------------------------------

    def state_at(self, game_id: UUID, version: int, known: Game | None = None) -> GameState:
        """The rules-engine state right after event ``version`` (what a player saw then).

        Warm for every game: the first read of an earlier version makes the game's states reach back to it
        (cached), so the states of the line of play are then lookups; a version whose move was undone or
        corrected since is folded once from the store and cached too."""
        if version < 1:
            raise UnknownVersion("versions start at 1", version=version)
        store = self.games.stores.of(game_id)
        if store.repository.cache is None:  # nothing is cached: fold from the nearest snapshot only
            return self.games.get(game_id, version).state
        game = self._game(game_id, known)
        if version > game.version:
            raise UnknownVersion(f"this game has versions 1 to {game.version}", version=version)
        moves = self.games.line_lengths(game)[version]
        if moves >= 0:  # the line then is the start of today's line: its state is one of the game's
            return self.games.reaching(game, moves).state_after(moves)
        key = ("state", game_id, version)
        cached = store.cached_value(key)
        if isinstance(cached, Sized):
            held: GameState = cached.value
            return held
        state = self.games.get(game_id, version).state
        store.cache_value(key, Sized(state, RESTORED_STATE_BYTES))
        return state

    def state_on_line(self, game_id: UUID, version: int, known: Game | None = None) -> GameState:
        """The rules-engine state right after the move at ``version`` of today's line of play (the replay of
        the game as it stands now, amendments included); :class:`UnknownVersion` when ``version`` is not a move
        of the line."""
        game = self._game(game_id, known)
        if version in game.line:
            game = self.games.reaching(game, game.line.index(version) + 1)
        return decisions.state_after_move(game, version)

    def before_move(self, game_id: UUID, version: int, known: Game | None = None) -> tuple[Game, GameState]:
        """The game now, and the rules-engine state just before the move at ``version`` of its line of play
        (what amending that move is judged against)."""
        game = self._game(game_id, known)
        if version in game.line:
            game = self.games.reaching(game, game.line.index(version))
        return game, decisions.state_before_move(game, version)

    def locate(
        self, game_id: UUID, round: int, turn: int, seat: int | None = None, known: Game | None = None
    ) -> int:
        """The version of the first move of ``turn`` of ``round`` (of ``seat``, an index from 0, if given)."""
        game = self.games.reaching(self._game(game_id, known), 0)
        for entry in history.timeline(game):
            if entry.round == round and entry.turn == turn and (seat is None or entry.seat == seat):
                return entry.version
        of = "" if seat is None else f" of {domain.seat_text(game.state, seat)}"
        raise UnknownVersion(f"no move{of} in round {round}, turn {turn}", round=round, turn=turn, seat=seat)

    # --- history ---------------------------------------------------------------------------------------------

    def timeline(
        self, game_id: UUID, *, include_undone: bool = False, known: Game | None = None
    ) -> list[history.TimelineEntry]:
        """Each move of the game with its round, turn, player, words and the score totals after it."""
        game = self.games.reaching(self._game(game_id, known), 0)
        return history.timeline(game, include_undone=include_undone)

    def layout(self, game_id: UUID, known: Game | None = None) -> history.SetupLayout:
        """The game's setup layout: what the setup's chance dealt, as one JSON object (``domain.layout_of``)."""
        return history.setup_layout(self._game(game_id, known))

    def changes_since(self, game_id: UUID, version: int) -> list[dict[str, Any]]:
        """What happened after ``version``: each later event as JSON (the spectators' feed)."""
        return [exports.event_to_dict(event) for event in self.games.events_of(game_id, after=version)]

    @staticmethod
    def layout_form(setup: Mapping[str, Any]) -> dict[str, Any]:
        """The fields of a table setup's layout for a game of this setup (players, expansions, solo, options),
        with the components each may take, in words (``domain.setup_form``): what the new-game page draws."""
        form: dict[str, Any] = domain.setup_form(_fresh_table(setup))
        return form

    @staticmethod
    def layout_choices(setup: Mapping[str, Any], layout: Mapping[str, Any]) -> dict[str, Any]:
        """What each field of that setup's layout form may still take beside `layout` (``domain.setup_choices``):
        the cards the new-game page's pickers offer, and the colours of each die-tile space."""
        choices: dict[str, Any] = domain.setup_choices(_fresh_table(setup), layout)
        return choices

    # --- the list of games -----------------------------------------------------------------------------------

    def page_of_games(
        self,
        *,
        search: str | None = None,
        include_private: bool = False,
        limit: int = 50,
        offset: int = 0,
        after: Key | None = None,
        before: Key | None = None,
    ) -> Page:
        """A page of the list of games, newest first (:mod:`replay.index`): optionally only those whose title
        or players have words that the words of ``search`` start; after or before a cursor (a page's
        ``older`` or ``newer``), or from the top skipping ``offset``. It says how many games the search finds
        in all, and whether that count is exact."""
        return self.games.index.page(
            search=search,
            include_private=include_private,
            limit=limit,
            offset=offset,
            after=after,
            before=before,
        )

    def list_games(
        self, *, search: str | None = None, include_private: bool = False, limit: int = 50, offset: int = 0
    ) -> list[GameSummary]:
        return self.page_of_games(
            search=search, include_private=include_private, limit=limit, offset=offset
        ).summaries

    def iter_game_ids(self) -> Iterator[UUID]:
        return self.games.index.game_ids()

    def stored_game_ids(self) -> Iterator[UUID]:
        """Every game of every store, found in the stores' logs (not in the list of games: a damaged entry of
        the list hides no game from a backup or a check)."""
        for store in self.games.stores:
            yield from created_game_ids(store)


def _fresh_table(setup: Mapping[str, Any]) -> domain.GameState:
    """A fresh table game of this setup, before its setup's deals: what a layout form is made for."""
    normal = decisions.normalise_setup({**setup, "mode": "table"})
    try:
        return rules.fresh_state(normal, None)
    except domain.DomainError as error:
        raise InvalidSetup(error.message, **error.details) from error
