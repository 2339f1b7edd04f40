"""``GameLog``: the one face of the game log, built once per process (docs/architecture/game-log.md).

It builds the repository of games (:mod:`replay.services.repository`) and the services of one purpose each over
it (:mod:`replay.services`), and does nothing else: every method it offers is a service's, named here as the
callers have always named it (``log.play`` is ``log.recording.play``). The API's views call the services by
name; the command line, backups and the tests use the face.
"""

from __future__ import annotations

from collections.abc import Mapping

from replay.ephemeral import RECEIPT_SECONDS
from replay.index import GameSummary, Page
from replay.services.annotating import Annotated, Annotating
from replay.services.creation import Creation
from replay.services.exchange import Exchange
from replay.services.history import History
from replay.services.players import Players
from replay.services.queries import Queries
from replay.services.recording import Recording
from replay.services.repository import GameRepository, Played, ReadAhead
from replay.services.rules_versions import RulesVersions
from replay.services.tokens import Tokens

__all__ = ["Annotated", "GameLog", "GameSummary", "Page", "Played", "ReadAhead"]


class GameLog:
    """Record, replay, undo, redo, amend, fork, annotate and export games of The White Castle.

    ``env`` is the eventsourcing library's environment (``PERSISTENCE_MODULE`` and the store's settings);
    ``shards`` the number of stores to spread games over (Redis only: each has its own hash tag). With
    ``SNAPSHOTS_IN_BACKGROUND`` set in ``env``, snapshots are written from a thread of each process;
    ``RECEIPT_SECONDS`` says how long a receipt is kept (:data:`replay.ephemeral.RECEIPT_SECONDS` by default);
    ``CACHE_MB`` is the budget of the warm cache (:mod:`replay.cache`; 0 turns it off)."""

    def __init__(self, env: Mapping[str, str] | None = None, *, shards: int = 1) -> None:
        receipts = int(dict(env or {}).get("RECEIPT_SECONDS") or RECEIPT_SECONDS)
        self.games = games = GameRepository(env, shards=shards)
        self.stores, self.index, self.cache, self.snapshots = (
            games.stores,
            games.index,
            games.cache,
            games.snapshots,
        )
        self.recording = Recording(games)
        self.history = History(games)
        self.tokens = Tokens(games, receipts)
        self.annotating = Annotating(games)
        self.creation = Creation(games, receipts)
        self.players = Players(games)
        games.followers.append(self.players.after_write)
        self.exchange = Exchange(games, self.creation, self.annotating, people=self.players.people)
        self.queries = Queries(games)
        self.rules_versions = RulesVersions(games)

        # The services' methods under the names the callers use.
        self.close, self.watch_for, self.ephemeral = games.close, games.watch_for, games.ephemeral
        self.get = self.get_game = games.get
        self.game_and_access, self.events_of, self.reaching = (
            games.game_and_access,
            games.events_of,
            games.reaching,
        )
        self.line_lengths, self.count_write = games.line_lengths, games.count_write
        self.play = self.recording.play
        self.undo, self.redo, self.amend = self.history.undo, self.history.redo, self.history.amend
        self.abandon = self.history.abandon
        self.access, self.authenticate = self.tokens.access, self.tokens.authenticate
        self.game_and_grant, self.issue_seat_token = self.tokens.game_and_grant, self.tokens.issue_seat_token
        self.revoke_seat = self.tokens.revoke_seat
        self.annotation_stream, self.annotations = self.annotating.stream, self.annotating.annotations
        self.annotate, self.edit_annotation = self.annotating.annotate, self.annotating.edit_annotation
        self.delete_annotation = self.annotating.delete_annotation
        self.create_game, self.fork = self.creation.create_game, self.creation.fork
        self.export, self.export_text = self.exchange.export, self.exchange.export_text
        self.export_bgstats, self.export_bgstats_link = (
            self.exchange.export_bgstats,
            self.exchange.export_bgstats_link,
        )
        self.export_bgg, self.import_log, self.check_log = (
            self.exchange.export_bgg,
            self.exchange.import_log,
            self.exchange.check_log,
        )
        queries = self.queries
        self.state_at, self.state_on_line, self.before_move = (
            queries.state_at,
            queries.state_on_line,
            queries.before_move,
        )
        self.locate, self.timeline, self.layout = queries.locate, queries.timeline, queries.layout
        self.layout_form, self.changes_since = queries.layout_form, queries.changes_since
        self.layout_choices = queries.layout_choices
        self.page_of_games, self.list_games = queries.page_of_games, queries.list_games
        self.iter_game_ids, self.stored_game_ids = queries.iter_game_ids, queries.stored_game_ids
        self.revalidate, self.revalidate_all = (
            self.rules_versions.revalidate,
            self.rules_versions.revalidate_all,
        )
        self.upgrade = self.rules_versions.upgrade

    def flush_snapshots(self, timeout: float | None = None) -> bool:
        """Wait until the snapshots taken in the background are stored (with ``SNAPSHOTS_IN_BACKGROUND``)."""
        return self.snapshots.flush(timeout)
