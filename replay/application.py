"""``GameLog``: the one application service of heronlog (DESIGN §3, STYLE habit 9).

Every method reads as get the game, decide, save: it reads a game from its store (:mod:`replay.stores`), asks
:mod:`replay.decisions` (or :mod:`replay.annotations`, :mod:`replay.access`) what happens, and saves the events
in one atomic write. It creates, forks and imports games with their owner grant, records moves, undoes, redoes,
amends and abandons, keeps comments and seat tokens, answers history queries and exports, and lists games. The
same methods, with the same signatures, run on one store or on several (shards): the router picks each game's
store, and the list of games (:mod:`replay.index`) spans them.

Concurrency: every write names the version it expects. A stale one raises :class:`StaleVersion`; when two
writers race on the same version, the store's integrity check lets exactly one win and the other gets
``StaleVersion`` too. An ``Idempotency-Key`` makes a retried write safe and answers it as the first attempt
was answered (:mod:`replay.idempotency`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any
from uuid import UUID, uuid4

from eventsourcing.persistence import IntegrityError

import domain
from domain import GameState
from replay import access as grants
from replay import annotations as notes
from replay import decisions, exports, history, plays, rules
from replay.access import Access, Grant, Issued, project_access
from replay.annotations import Annotation, Annotations, project_annotations
from replay.cache import RESTORED_STATE_BYTES, Sized, WarmCache, budget_from
from replay.ephemeral import RECEIPT_SECONDS, Ephemeral
from replay.errors import GameCorrupt, GameNotFound, InvalidSetup, KeyReused, StaleVersion, UnknownVersion
from replay.events import (
    AnnotationAdded,
    AnnotationDeleted,
    AnnotationEdited,
    DomainEvent,
    GameCreated,
    Move,
    RulesUpgraded,
    now,
)
from replay.game import (
    MAX_VERSION,
    Game,
    GameSnapshot,
    NotAGameEvent,
    after_decided,
    created_game,
    project_game,
)
from replay.idempotency import Receipt, fingerprint, receipt_key, reused
from replay.index import GameIndex, GameSummary, Key, Page
from replay.snapshots import SNAPSHOT_EVERY, Snapshots, state_within
from replay.stores import GameStore, Projector, Stores
from replay.watch import ChangeWatch

__all__ = ["GameLog", "GameSummary", "Page", "Played"]

AnnotationEvent = AnnotationAdded | AnnotationEdited | AnnotationDeleted


@dataclass(frozen=True)
class Played:
    """The answer to a write: the versions it created (or found, for a retry of it) and the game as it stood
    right after them."""

    game: Game
    versions: tuple[int, ...]
    repeated: bool = False


def _versions(events: Sequence[DomainEvent]) -> tuple[int, ...]:
    return tuple(event.originator_version for event in events)


def _expected(game: Game, expected_version: int | None) -> None:
    """Refuse a write that expects another version than the game's (None: whatever it is now)."""
    if expected_version is not None and expected_version != game.version:
        raise StaleVersion(expected_version, game.version)


@dataclass(frozen=True)
class ReadAhead:
    """A game and its grants as the write guard read them with its count (:meth:`GameLog.tally_ahead`), for
    the one request it counted: a read made a moment before the write's own, in the same round trip."""

    game: Game
    access: Access


class GameLog:
    """Record, replay, undo, redo, amend, fork, annotate and export games of The White Castle.

    ``env`` is the eventsourcing library's environment (``PERSISTENCE_MODULE`` and the store's settings);
    ``shards`` the number of stores to spread games over (Redis only: each has its own hash tag). With
    ``SNAPSHOTS_IN_BACKGROUND`` set in ``env``, snapshots are written from a thread of each process;
    ``RECEIPT_SECONDS`` says how long a receipt is kept (:data:`replay.ephemeral.RECEIPT_SECONDS` by default);
    ``CACHE_MB`` is the budget of the warm cache (:mod:`replay.cache`; 0 turns it off)."""

    def __init__(self, env: Mapping[str, str] | None = None, *, shards: int = 1) -> None:
        env = dict(env or {})
        budget = budget_from(env)
        self.cache = WarmCache(budget) if budget is not None else None
        self.stores = Stores.build(env, shards, self.cache)
        self.index = GameIndex(self.stores.all, self.get_game, self.stores.of)
        background = env.get("SNAPSHOTS_IN_BACKGROUND", "n").lower() in ("y", "yes", "true", "1")
        self.snapshots = Snapshots(self._write_snapshot, background=background)
        self._creating = threading.Lock()
        self._receipt_seconds = int(env.get("RECEIPT_SECONDS") or RECEIPT_SECONDS)

    def close(self) -> None:
        self.snapshots.close()
        self.stores.close()

    def flush_snapshots(self, timeout: float | None = None) -> bool:
        """Wait until the snapshots taken in the background are stored (with ``SNAPSHOTS_IN_BACKGROUND``)."""
        return self.snapshots.flush(timeout)

    def watch_for(self, game_id: UUID) -> ChangeWatch | None:
        """What wakes a spectator of this game when it changes (:mod:`replay.watch`), or None when its store
        cannot wake anyone (SQLite, memory): a spectator then polls."""
        return self.stores.of(game_id).watch

    def ephemeral(self, near: UUID | None = None, key: str = "") -> Ephemeral:
        """The short-lived records (counters, receipts) kept in the store of the game ``near``, or in the store
        that ``key`` picks when there is no game (:mod:`replay.ephemeral`)."""
        return (self.stores.of(near) if near is not None else self.stores.of_key(key)).ephemeral

    def tally(self, key: str, window: int, *, near: UUID | None = None, weight: int = 1) -> tuple[int, int]:
        """Count ``weight`` hits of ``key`` in the current ``window`` (seconds), beside the game ``near`` when
        there is one: the hits so far and the seconds left (the API's rate limits; a costly write weighs more
        than one)."""
        return self.ephemeral(near, key).hit(key, window, weight)

    def tally_ahead(
        self, key: str, window: int, game_id: UUID, *, weight: int = 1
    ) -> tuple[int, int, ReadAhead | None]:
        """:meth:`tally` beside the game ``game_id``, reading the game and its grants in the same round trip when
        the store can (Redis, both kept warm here): the write guard counts a write to a game and reads it ahead
        for the write (:meth:`game_and_access` takes it). The count, the seconds left, and what was read (None
        when only the count was made)."""
        store = self.stores.of(game_id)
        if not isinstance(store.cached(game_id), Game):  # only a game kept warm here is read ahead
            return (*store.ephemeral.hit(key, window, weight), None)
        streams: list[tuple[UUID, Projector]] = [
            (game_id, project_game),
            (grants.stream_id(game_id), project_access),
        ]
        count, left, folds = store.count_reading(key, window, weight, streams)
        if folds is None or not isinstance(folds[0], Game):
            return count, left, None
        access = folds[1] if isinstance(folds[1], Access) else grants.empty(game_id)
        return count, left, ReadAhead(folds[0], access)

    # --- reading -------------------------------------------------------------------------------------------

    def get_game(self, game_id: UUID, version: int | None = None) -> Game:
        """The game at its current version, or as it stood right after event ``version``."""
        if version is not None and not 1 <= version <= MAX_VERSION:  # never handed to the store
            now = self.get_game(game_id)  # an unknown game is still 404 game_not_found first
            raise UnknownVersion(f"this game has versions 1 to {now.version}", version=version)
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
            store.keep(game_id, game)
        return game

    get = get_game

    def game_and_access(self, game_id: UUID, ahead: ReadAhead | None = None) -> tuple[Game, Access]:
        """The game as it stands (``GameNotFound`` as :meth:`get_game`) and its live grants, read together:
        every write with a token asks for both (one round trip on Redis when both are cached; none when the
        write guard read them ahead for this very request, ``ahead`` from :meth:`tally_ahead`)."""
        store = self.stores.of(game_id)
        if ahead is not None and ahead.game.id == game_id:
            store.keep(game_id, ahead.game)
            return ahead.game, ahead.access
        access_id = grants.stream_id(game_id)
        try:
            game, stream = store.read_together([(game_id, project_game), (access_id, project_access)])
        except NotAGameEvent:
            game, stream = None, None
        if not isinstance(game, Game):
            raise GameNotFound(f"no game {game_id}", game_id=str(game_id))
        store.keep(game_id, game)
        return game, stream if isinstance(stream, Access) else grants.empty(game_id)

    def game_and_grant(
        self, game_id: UUID, token: str, ahead: ReadAhead | None = None
    ) -> tuple[Game, Grant | None]:
        """The game and the live grant of ``token`` for it, or None (``ahead``: as :meth:`game_and_access`)."""
        game, access = self.game_and_access(game_id, ahead)
        return game, access.match(token)

    def access(self, game_id: UUID) -> Access:
        """The game's live grants (none for a game that has none, or no game)."""
        try:
            stream = self.stores.of(game_id).read(grants.stream_id(game_id), project_access)
        except GameCorrupt as error:
            raise error.within(game_id, "grants") from error
        return stream if isinstance(stream, Access) else grants.empty(game_id)

    def authenticate(self, game_id: UUID, token: str) -> Grant | None:
        """The live grant of this token for this game, or None."""
        return self.access(game_id).match(token)

    def state_at(self, game_id: UUID, version: int) -> GameState:
        """The rules-engine state right after event ``version`` (what a player saw then).

        Warm for every game, recorded here or read from the store: the first read of an earlier version
        makes the game's states reach back to it (:meth:`reaching`, kept in the warm cache), so the states
        of the line of play are then lookups; a version whose move was undone or corrected since is folded
        once from the store and kept too."""
        if version < 1:
            raise UnknownVersion("versions start at 1", version=version)
        store = self.stores.of(game_id)
        if store.repository.cache is None:  # nothing is kept: fold from the nearest snapshot only
            return self.get_game(game_id, version).state
        game = self.get_game(game_id)
        if version > game.version:
            raise UnknownVersion(f"this game has versions 1 to {game.version}", version=version)
        moves = self.line_lengths(game)[version]
        if moves >= 0:  # the line then is the start of today's line: its state is one of the game's
            return self.reaching(game, moves).state_after(moves)
        key = ("state", game_id, version)
        kept = store.peek(key)
        if isinstance(kept, Sized):
            held: GameState = kept.value
            return held
        state = self.get_game(game_id, version).state
        store.remember(key, Sized(state, RESTORED_STATE_BYTES))
        return state

    def line_lengths(self, game: Game) -> list[int]:
        """How many moves of today's line of play stood after each version (-1: a line since undone or
        corrected): :func:`replay.decisions.line_lengths`, worked out once per version of a game and kept."""
        store = self.stores.of(game.id)
        key = ("lines", game.id)
        kept = store.peek(key)
        if isinstance(kept, Sized) and kept.value[0] == game.version:
            lengths: list[int] = kept.value[1]
            return lengths
        lengths = decisions.line_lengths(game)
        store.remember(key, Sized((game.version, lengths), 64 + 40 * len(lengths)))
        return lengths

    def reaching(self, game: Game, moves: int) -> Game:
        """The game with its states from the first ``moves`` moves of its line on (every state, for 0).

        A game read from a snapshot holds only the states after it; the ones before are rebuilt here once,
        from the nearest snapshot on today's line at or before that point (or from the opening, within the
        first :data:`~replay.snapshots.SNAPSHOT_EVERY` moves), and the longer game is kept warm in place of the
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

        self.stores.of(game.id).remember(game.id, longer, still)
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

    def state_on_line(self, game_id: UUID, version: int) -> GameState:
        """The rules-engine state right after the move at ``version`` of today's line of play (the replay of
        the game as it stands now, amendments included); :class:`UnknownVersion` when ``version`` is not a move
        of the line."""
        game = self.get_game(game_id)
        if version in game.line:
            game = self.reaching(game, game.line.index(version) + 1)
        return decisions.state_after_move(game, version)

    def before_move(self, game_id: UUID, version: int) -> tuple[Game, GameState]:
        """The game now, and the rules-engine state just before the move at ``version`` of its line of play
        (what amending that move is judged against)."""
        game = self.get_game(game_id)
        if version in game.line:
            game = self.reaching(game, game.line.index(version))
        return game, decisions.state_before_move(game, version)

    def as_it_stood(self, game_id: UUID, version: int) -> Game:
        """The game folded up to ``version`` (its records as they were then), or as it stands now when that
        version is not an earlier one. A branch copies the moves as recorded at its version: an amend recorded
        since may have redrawn the chance of the later moves it kept."""
        game = self.get_game(game_id)
        return self.get_game(game_id, version) if 1 <= version < game.version else game

    @staticmethod
    def layout_form(setup: Mapping[str, Any]) -> dict[str, Any]:
        """The fields of a table setup's layout for a game of this setup (players, expansions, solo, options),
        with the components each may take, in words (``domain.setup_form``): what the new-game page draws."""
        normal = decisions.normalise_setup({**setup, "mode": "table"})
        try:
            state = rules.fresh_state(normal, None)
        except domain.DomainError as error:
            raise InvalidSetup(error.message, **error.details) from error
        form: dict[str, Any] = domain.setup_form(state)
        return form

    @staticmethod
    def layout_choices(setup: Mapping[str, Any], layout: Mapping[str, Any]) -> dict[str, Any]:
        """What each field of that setup's layout form may still take beside `layout` (``domain.setup_choices``):
        the cards the new-game page's pickers offer, and the colours of each die-tile space."""
        normal = decisions.normalise_setup({**setup, "mode": "table"})
        try:
            state = rules.fresh_state(normal, None)
        except domain.DomainError as error:
            raise InvalidSetup(error.message, **error.details) from error
        choices: dict[str, Any] = domain.setup_choices(state, layout)
        return choices

    def layout(self, game_id: UUID) -> history.SetupLayout:
        """The game's setup layout: what the setup's chance dealt, as one JSON object (``domain.layout_of``)."""
        return history.setup_layout(self.get_game(game_id))

    def timeline(self, game_id: UUID, *, include_undone: bool = False) -> list[history.TimelineEntry]:
        return history.timeline(self.reaching(self.get_game(game_id), 0), include_undone=include_undone)

    def locate(self, game_id: UUID, round: int, turn: int, seat: int | None = None) -> int:
        """The version of the first move of ``turn`` of ``round`` (of ``seat``, an index from 0, if given)."""
        game = self.reaching(self.get_game(game_id), 0)
        for entry in history.timeline(game):
            if entry.round == round and entry.turn == turn and (seat is None or entry.seat == seat):
                return entry.version
        of = "" if seat is None else f" of {domain.seat_text(game.state, seat)}"
        raise UnknownVersion(f"no move{of} in round {round}, turn {turn}", round=round, turn=turn, seat=seat)

    def events_of(self, game_id: UUID, after: int = 0) -> list[DomainEvent]:
        """The game's stored events after version ``after``, in order."""
        store = self.stores.of(game_id)
        if after > MAX_VERSION:  # beyond any store's integers (SQLite's are 64-bit): nothing comes after it
            self.get_game(game_id)
            return []
        # Read from the store and checked record by record, without folding: a game recorded under rules this
        # build does not replay exports all the same.
        events = store.stream_events(game_id, gt=after or None)
        first = events[:1] if after == 0 else store.stream_events(game_id, lte=1)
        if not first or not isinstance(first[0], GameCreated):  # none, or another kind of stream
            raise GameNotFound(f"no game {game_id}", game_id=str(game_id))
        return events

    def changes_since(self, game_id: UUID, version: int) -> list[dict[str, Any]]:
        """What happened after ``version``: each later event as JSON (the spectators' feed)."""
        return [exports.event_to_dict(event) for event in self.events_of(game_id, after=version)]

    # --- new games: created, forked or imported, each with its owner -----------------------------------

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
        ``draw_rest``. ``rules_version`` (one of ``rules.COMPATIBLE``; the current one by default) records the game
        under an earlier version of the rules (the tests' scenarios written for one)."""

        def decide(game_id: UUID) -> tuple[list[DomainEvent], list[DomainEvent], Any]:
            if rules_version is not None and rules_version != domain.RULES_VERSION:
                rules.ensure_supported(rules_version)
                created, opening = decisions.create(
                    setup, catalog=catalog, game_id=game_id, rules_version=rules_version
                )
                return [created], [], opening
            created, opening = decisions.create(
                setup, catalog=catalog, game_id=game_id, layout=layout, draw_rest=draw_rest
            )
            return [created], [], opening

        laid = {"layout": layout, "draw_rest": draw_rest} if layout is not None else {}
        if rules_version is not None:
            laid["rules_version"] = rules_version
        asked = fingerprint("create", setup=setup, catalog=catalog, **laid)
        return self._new_owned_game("create", idempotency_key, asked, decide, game_id=game_id)

    def fork(
        self, game_id: UUID, version: int, title: str | None = None, *, idempotency_key: str | None = None
    ) -> Issued:
        """A new game that starts as this one stood at ``version`` ("what if"), linked to it, titled ``title``
        or by default as a branch of this one (``decisions.branch_title``), owned by the caller."""
        game = self.as_it_stood(game_id, version)  # the records as they were then

        def decide(branch: UUID) -> tuple[list[DomainEvent], list[DomainEvent], Any]:
            return decisions.fork_events(game, version, branch, title), [], None

        asked = fingerprint("fork", game_id=game_id, version=version, title=title)
        return self._new_owned_game("fork", idempotency_key, asked, decide)

    def import_log(
        self,
        data: Any,
        *,
        keep_id: bool = True,
        game_id: UUID | None = None,
        idempotency_key: str | None = None,
        max_events: int = 0,
    ) -> Issued:
        """Write an exported log as a game of this log, after refolding it with the rules, owned by the caller.
        The game keeps its id unless that id is taken here (or ``keep_id`` is false); ``game_id`` imposes one
        (a restore keeps every game's): if a game has it already, nothing is written and the store's
        ``IntegrityError`` is raised. ``max_events``: the most events it may hold (0: no cap).

        An import is listed in the list of games as of now (its own date stays the game's, when it was
        played), and a branch's parent must be a game of this log; a restore (``game_id``) keeps the list's
        order and each branch's link as the backup has them."""
        restoring = game_id is not None
        limits = exports.Limits(
            now=now(), max_events=max_events, parent_version=None if restoring else self._version_of
        )
        listed_at = None if restoring else limits.now

        def decide(new_id: UUID) -> tuple[list[DomainEvent], list[DomainEvent], Any]:
            imported = exports.refold(data, game_id=new_id, limits=limits)
            return list(imported.game_events), list(imported.note_events), None

        asked = fingerprint("import", data=data, keep_id=keep_id, game_id=game_id)
        if game_id is not None or not keep_id:
            return self._new_owned_game(
                "import", idempotency_key, asked, decide, game_id=game_id, listed_at=listed_at
            )
        try:
            own = self._free_import_id(data)
            return self._new_owned_game(
                "import", idempotency_key, asked, decide, game_id=own, listed_at=listed_at
            )
        except IntegrityError:
            if idempotency_key is not None:
                raise
            # The same export imported at the same moment took that id first: this copy takes a new one.
            return self._new_owned_game("import", None, asked, decide, listed_at=listed_at)

    def check_log(self, data: Any, *, max_events: int = 0) -> Game:
        """Refold an exported log without writing anything (raises ``InvalidLog`` listing every problem, or
        ``ImportTooLarge``) as :meth:`import_log` would, but for its parent: a branch's parent is not looked
        for (a file is checked before the games it links to are there)."""
        limits = exports.Limits(now=now(), max_events=max_events)
        return exports.refold(data, game_id=uuid4(), limits=limits).game

    def _version_of(self, game_id: UUID) -> int | None:
        """The version of a game of this log, or None when it has no such game."""
        try:
            return self.get_game(game_id).version
        except GameNotFound:
            return None

    def _free_import_id(self, data: Any) -> UUID | None:
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
        if wanted.version != 4 or self.stores.of(wanted).exists(wanted):
            return None
        return wanted

    def _new_owned_game(
        self,
        kind: str,
        key: str | None,
        asked: str,
        decide: Callable[[UUID], tuple[list[DomainEvent], list[DomainEvent], Any]],
        *,
        game_id: UUID | None = None,
        listed_at: datetime | None = None,
    ) -> Issued:
        """Decide and save a new game with its owner grant. With an ``Idempotency-Key``, a receipt is kept
        first (:mod:`replay.idempotency`): a retry answers from it, or finishes a creation that crashed."""
        if key is None:
            return self._save_new_owned(decide, game_id or uuid4(), grants.new_token(), None, listed_at)
        name = receipt_key(kind, key)
        kept = self.ephemeral(key=name)
        new_id = game_id or self.stores.new_id_in(self.stores.of_key(name))
        decided = decide(new_id)  # a refused request leaves no receipt
        fresh = Receipt(asked, new_id, grants.new_token(), str(uuid4()), len(decided[0]))
        if kept.add(name, fresh.to_bytes(), self._receipt_seconds):
            return self._save_new_owned(lambda _: decided, new_id, fresh.token, fresh.grant_id, listed_at)
        receipt = self._receipt(kept, name, asked)
        if not self.stores.of(receipt.game_id).exists(receipt.game_id):
            try:  # the first attempt crashed before its events were saved: finish it, as it was decided
                return self._save_new_owned(
                    decide, receipt.game_id, receipt.token, receipt.grant_id, listed_at
                )
            except IntegrityError:
                pass  # ... or the same request, sent twice at once, has just saved them
        owner = self.access(receipt.game_id).grants.get(receipt.grant_id)
        if owner is None:  # the id went to another game first (two imports of one export at once)
            raise KeyReused("this Idempotency-Key's game was taken by another write: use a new key")
        self.stores.of(receipt.game_id).confirm_replicated()  # answered only once the replicas hold it
        return Issued(receipt.game_id, receipt.token, owner, repeated=True, version=receipt.version)

    @staticmethod
    def _receipt(kept: Ephemeral, name: str, asked: str) -> Receipt:
        """The receipt kept under ``name`` for a retry that asks ``asked`` (:class:`KeyReused` if it asks for
        something else)."""
        found = kept.get(name)
        if found is None:  # it expired between the two calls: nothing is left to answer from
            raise KeyReused("this Idempotency-Key was used a moment ago: use a new key for a new write")
        receipt = Receipt.from_bytes(found)
        receipt.check(asked)
        return receipt

    def _save_new_owned(
        self,
        decide: Callable[[UUID], tuple[list[DomainEvent], list[DomainEvent], Any]],
        game_id: UUID,
        token: str,
        grant_id: str | None,
        listed_at: datetime | None = None,
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
        store = self.stores.of(game_id)
        self._save_new_game(store, events, [*extra, owner], opening, listed_at)
        access = grants.mutate(owner, None)
        # Kept with the game: the game's first write then reads both in one round trip, as every later write.
        store.keep(access.id, access)
        return Issued(game_id, token, access.grants[owner.grant_id], version=len(events))

    def _save_new_game(
        self,
        store: GameStore,
        events: Sequence[DomainEvent],
        extra: Sequence[DomainEvent],
        opening: Any,
        listed_at: datetime | None = None,
    ) -> None:
        """Save a new game's events, its index entry and ``extra`` (its grant, an import's annotations) in one
        transaction, retrying only the index's position when another game was indexed at the same moment.
        ``opening`` is the game's opening state when the caller has just built it (not set up once more);
        ``listed_at`` the time it is listed at, when not its own (an import: :func:`replay.index.entry_for`)."""
        created = events[0]
        assert isinstance(created, GameCreated)
        with self._creating:
            for _ in range(20):
                entry = self.index.next_entry(store, created, listed_at)
                try:
                    store.save(*events, entry, *extra)
                except IntegrityError:
                    if store.exists(created.originator_id):
                        raise
                    continue
                start = created_game(created, opening) if opening is not None else None
                game = project_game(start, events[1:] if start is not None else events)
                assert game is not None
                store.keep(game.id, game)  # read back at once (its creator's answer): not folded again
                self.snapshots.after_write(None, game)
                self.index.noted(None, game)
                return
        raise StaleVersion(entry.originator_version, store.last_version(entry.originator_id))

    # --- recording -----------------------------------------------------------------------------------------

    def play(
        self,
        game_id: UUID,
        move: Move | Sequence[Move],
        *,
        expected_version: int | None,
        actor: str,
        idempotency_key: str | None = None,
        known: Game | None = None,
    ) -> Played:
        """Record one move, or a batch (a list) applied all or nothing. ``known`` is the game as the caller has
        just read it (saves reading it again); if it is stale, the store's version check refuses the write as
        with any lost race. ``expected_version`` None means "whatever it is now"."""
        moves = [move] if isinstance(move, Mapping) else list(move)
        game = known if known is not None and known.id == game_id else self.get_game(game_id)

        def same(before: Game, versions: tuple[int, ...], now: Game) -> bool:
            recorded = [now.records[version].move for version in versions]
            return exports.same_json(recorded, moves)

        repeated = self._repeated(game, idempotency_key, expected_version, same)
        if repeated is not None:
            return repeated
        _expected(game, expected_version)
        decided = decisions.play(game, moves, actor=actor, idempotency_key=idempotency_key)
        after = after_decided(game, decided.events, decided.states)
        try:
            return self._commit(game, decided.events, after)
        except StaleVersion:
            # Lost a race. If the winner was this same request sent twice, answer as it was answered.
            now = self.get_game(game_id)
            repeated = self._repeated(now, idempotency_key, expected_version, same)
            if repeated is not None:
                return repeated
            raise

    def undo(
        self,
        game_id: UUID,
        *,
        to_version: int | None = None,
        expected_version: int | None,
        actor: str,
        idempotency_key: str | None = None,
    ) -> Played:
        """Undo the last move, or every move after ``to_version``: an appended event, nothing deleted."""

        def kept(game: Game) -> int:  # the moves that stay: the game needs its states back to there
            if to_version is None:
                return len(game.line) - 1
            if (
                to_version == 1 or to_version not in game.line
            ):  # (the decision refuses a version off the line)
                return 0 if to_version == 1 else game.base
            return game.line.index(to_version) + 1

        return self._decide_one(
            game_id,
            expected_version,
            idempotency_key,
            lambda game: decisions.undo(
                game, actor=actor, to_version=to_version, idempotency_key=idempotency_key
            ),
            reach=kept,
        )

    def redo(
        self,
        game_id: UUID,
        *,
        count: int = 1,
        expected_version: int | None,
        actor: str,
        idempotency_key: str | None = None,
    ) -> Played:
        """Redo the next ``count`` undone moves, exactly as they were recorded."""
        return self._decide_one(
            game_id,
            expected_version,
            idempotency_key,
            lambda game: decisions.redo(game, actor=actor, count=count, idempotency_key=idempotency_key),
        )

    def abandon(
        self,
        game_id: UUID,
        *,
        expected_version: int | None,
        actor: str,
        reason: str = "",
        idempotency_key: str | None = None,
    ) -> Played:
        """Close a game in progress; it can still be read, replayed, forked and exported."""
        return self._decide_one(
            game_id,
            expected_version,
            idempotency_key,
            lambda game: decisions.abandon(game, actor=actor, reason=reason, idempotency_key=idempotency_key),
        )

    def amend(
        self,
        game_id: UUID,
        version: int,
        move: Move,
        *,
        expected_version: int | None,
        actor: str,
        dry_run: bool = False,
        resolutions: Sequence[Any] = (),
        idempotency_key: str | None = None,
    ) -> tuple[Played, decisions.AmendReport]:
        """Replace the move recorded at ``version``; the report says which later moves still fit.
        ``resolutions`` give the moves really played where later moves no longer fit (``decisions.amend``)."""
        reports: list[decisions.AmendReport] = []

        def decide(game: Game) -> Sequence[DomainEvent]:
            events, report = decisions.amend(
                game,
                version,
                move,
                actor=actor,
                resolutions=resolutions,
                idempotency_key=None if dry_run else idempotency_key,
            )
            reports.append(report)
            return events

        if dry_run:
            game = self.reaching(self.get_game(game_id), 0)
            _expected(game, expected_version)
            decide(game)
            return Played(game, ()), reports[-1]
        # An amendment plays the line again from the corrected move: the game needs every state (kept warm,
        # so that a correction after its dry run rebuilds nothing).
        played = self._decide_one(game_id, expected_version, idempotency_key, decide, reach=lambda _: 0)
        return played, reports[-1]

    def _decide_one(
        self,
        game_id: UUID,
        expected_version: int | None,
        key: str | None,
        decide: Callable[[Game], DomainEvent | Sequence[DomainEvent]],
        reach: Callable[[Game], int] | None = None,
    ) -> Played:
        """One write to a game: get the game, answer a retry from the log, decide, save. A retry is the same
        request when deciding it on the game as it stood before the recorded write decides what was recorded
        (:mod:`replay.idempotency`). ``reach``: how many moves of the line the write keeps, when it cuts the
        line back (the game's states are made to reach back there first: :meth:`reaching`)."""
        game = self.get_game(game_id)
        if reach is not None:
            game = self.reaching(game, reach(game))

        def decided(on: Game) -> list[DomainEvent]:
            events = decide(on)
            return [events] if isinstance(events, DomainEvent) else list(events)

        def same(before: Game, versions: tuple[int, ...], now: Game) -> bool:
            again = decided(before)
            written = self.stores.of(game_id).events.get(game_id, gt=versions[0] - 1, lte=versions[-1])
            recorded = list(written)
            return [_payload(event) for event in again] == [_payload(event) for event in recorded]

        repeated = self._repeated(game, key, expected_version, same)
        if repeated is not None:
            return repeated
        _expected(game, expected_version)
        return self._commit(game, decided(game))

    def _repeated(
        self,
        game: Game,
        key: str | None,
        expected_version: int | None,
        same: Callable[[Game, tuple[int, ...], Game], bool],
    ) -> Played | None:
        """The answer to a retry: the write recorded under this ``Idempotency-Key``, as the game stood right
        after it, if there is one and it is the same request (the same version expected too); None when the
        key is new. A key recorded with another request is :class:`KeyReused`."""
        versions = game.keys.get(key) if key else None
        if not versions:
            return None
        if expected_version is not None and expected_version != versions[0] - 1:
            raise reused(versions)
        before = self.get_game(game.id, versions[0] - 1)
        try:
            asked_the_same = same(before, versions, game)
        except domain.DomainError:  # this request could not even be made there: it is not the one recorded
            asked_the_same = False
        if not asked_the_same:
            raise reused(versions)
        then = game if game.version == versions[-1] else self.get_game(game.id, versions[-1])
        self.stores.of(game.id).confirm_replicated()  # answered only once the replicas hold it
        return Played(then, versions, repeated=True)

    def _commit(self, game: Game, events: Sequence[DomainEvent], after: Game | None = None) -> Played:
        """Save the events; a clash on a version means another writer won the race. ``after`` is the game
        they lead to, when the caller has it already."""
        store = self.stores.of(game.id)
        try:
            store.save(*events)
        except IntegrityError:
            raise StaleVersion(game.version, self.get_game(game.id).version) from None
        if after is None:
            after = project_game(game, events)
        assert after is not None
        store.keep(after.id, after)
        self.snapshots.after_write(game, after)
        self.index.noted(game, after)
        return Played(after, _versions(events))

    def _write_snapshot(self, game: Game) -> None:
        snapshots = self.stores.of(game.id).snapshots
        assert snapshots is not None
        snapshots.put([GameSnapshot.take(game)])

    # --- seat tokens ---------------------------------------------------------------------------------------

    def issue_seat_token(
        self, game_id: UUID, seat: int, *, by: str, idempotency_key: str | None = None
    ) -> Issued:
        """A new token for ``seat`` (an index from 0); any earlier token of that seat stops working (a lost
        phone). :class:`InvalidSeat` for a seat the game does not have, and for the seat the engine plays. A
        retry with the same key answers the same token while it still works (``TokenSuperseded`` after)."""
        game, access = self.game_and_access(game_id)
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
            kept = self.ephemeral(game_id)
            asked = fingerprint("seat", seat=seat, by=by)
            if not kept.add(name, Receipt(asked, game_id, token, grant_id).to_bytes(), self._receipt_seconds):
                receipt = self._receipt(kept, name, asked)
                token, grant_id = receipt.token, receipt.grant_id
                live = access.grants.get(grant_id)
                if live is not None:
                    self.stores.of(game_id).confirm_replicated()  # answered only once the replicas hold it
                    return Issued(game_id, token, live, repeated=True)
                if any(
                    isinstance(event, grants.AccessGranted) and event.grant_id == grant_id
                    for event in self.stores.of(game_id).events.get(grants.stream_id(game_id))
                ):
                    raise grants.superseded(game.state, seat, access)
                # else the first attempt crashed before its grant was saved: save it now, as it was decided
        return self._grant_seat(game_id, seat, by, token, grant_id)

    def _grant_seat(self, game_id: UUID, seat: int, by: str, token: str, grant_id: str) -> Issued:
        store = self.stores.of(game_id)
        for _ in range(5):  # another grant written at the same moment moves ours one place on
            access = self.access(game_id)
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
        raise StaleVersion(access.version, self.access(game_id).version)

    def revoke_seat(self, game_id: UUID, seat: int, *, by: str) -> int:
        """Withdraw every token of ``seat`` (an index from 0); returns how many stopped working (none for a
        seat without one, so a retry is answered alike). :class:`InvalidSeat` for a seat the game lacks."""
        grants.check_seat(self.get_game(game_id), seat)
        store = self.stores.of(game_id)
        for _ in range(5):
            access = self.access(game_id)
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
        raise StaleVersion(access.version, self.access(game_id).version)

    # --- annotations ---------------------------------------------------------------------------------------

    def annotation_stream(self, game_id: UUID, version: int | None = None) -> Annotations:
        """The fold of the game's annotation stream (at ``version`` of that stream, or as it stands)."""
        try:
            stream = self.stores.of(game_id).read(notes.stream_id(game_id), project_annotations, version)
        except GameCorrupt as error:
            raise error.within(game_id, "annotations") from error
        return stream if isinstance(stream, Annotations) else notes.empty(game_id)

    def annotations(self, game_id: UUID) -> list[Annotation]:
        self.get_game(game_id)
        return self.annotation_stream(game_id).visible()

    def annotate(
        self,
        game_id: UUID,
        *,
        version: int,
        author: str,
        text: str,
        glyph: str | None = None,
        target: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        author_grant: str | None = None,
    ) -> Annotation:
        """Add a comment by ``author`` (an actor), written with the token of the grant ``author_grant``: that
        token's holder may change it later (``Annotation.changeable_by``), as may the owner."""
        game = self.get_game(game_id)
        parts = domain.board_parts(game.state)

        def decide(stream: Annotations) -> AnnotationEvent:
            return notes.add(
                stream,
                version=version,
                game_version=game.version,
                author=author,
                text=text,
                glyph=glyph,
                target=target,
                parts=parts,
                idempotency_key=idempotency_key,
                author_grant=author_grant,
            )

        return self._annotation_write(game_id, idempotency_key, decide)

    def edit_annotation(
        self,
        game_id: UUID,
        annotation_id: str,
        *,
        editor: str,
        text: str,
        glyph: str | None = None,
        target: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
    ) -> Annotation:
        parts = domain.board_parts(self.get_game(game_id).state)

        def decide(stream: Annotations) -> AnnotationEvent:
            return notes.edit(
                stream,
                annotation_id,
                editor=editor,
                text=text,
                glyph=glyph,
                target=target,
                parts=parts,
                idempotency_key=idempotency_key,
            )

        return self._annotation_write(game_id, idempotency_key, decide, retry_races=False)

    def delete_annotation(
        self, game_id: UUID, annotation_id: str, *, actor: str, idempotency_key: str | None = None
    ) -> None:
        def decide(stream: Annotations) -> AnnotationEvent:
            return notes.delete(stream, annotation_id, actor=actor, idempotency_key=idempotency_key)

        self._annotation_write(game_id, idempotency_key, decide, retry_races=False, deleted=True)

    def _annotation_write(
        self,
        game_id: UUID,
        key: str | None,
        decide: Callable[[Annotations], AnnotationEvent],
        *,
        retry_races: bool = True,
        deleted: bool = False,
    ) -> Annotation:
        """Get the annotation stream, answer a retry from it, decide, save. A new comment never conflicts in
        substance with another written at the same moment: a lost race is decided again (``retry_races``); an
        edit or a deletion that lost one is stale."""
        store = self.stores.of(game_id)
        for _ in range(5 if retry_races else 1):
            stream = self.annotation_stream(game_id)
            done = stream.keys.get(key) if key else None
            if done is not None:
                then = self.annotation_stream(game_id, done[0])
                before = self.annotation_stream(game_id, done[0] - 1) if done[0] > 1 else None
                written = list(store.events.get(stream.id, gt=done[0] - 1, lte=done[0]))
                try:
                    again: AnnotationEvent | None = decide(before or notes.empty(game_id))
                except domain.DomainError:  # not a request that could be made there: not the one recorded
                    again = None
                fresh = ("annotation_id",) if isinstance(again, AnnotationAdded) else ()  # a new comment's id
                if again is None or not written or _payload(again, *fresh) != _payload(written[0], *fresh):
                    raise reused((done[0],))
                store.confirm_replicated()  # answered only once the replicas hold it
                return then.items[done[1]]
            event = decide(stream)
            try:
                store.save(event)
            except IntegrityError:
                continue
            folded = notes.mutate(event, stream)
            return folded.items[event.annotation_id] if deleted else folded.get(event.annotation_id)
        raise StaleVersion(stream.version, self.annotation_stream(game_id).version)

    # --- exports -------------------------------------------------------------------------------------------

    def export(self, game_id: UUID) -> dict[str, Any]:
        """The full log as JSON (setup, catalog, rules version, every event, every annotation event)."""
        # The annotations are read first: each was anchored to a version the game had when it was written, so
        # the game's events read next reach it, and an export taken while people annotate still imports.
        store = self.stores.of(game_id)
        try:
            note_events = [
                event
                for event in store.stream_events(notes.stream_id(game_id))
                if isinstance(event, DomainEvent)
            ]
        except GameCorrupt as error:
            raise error.within(game_id, "annotations") from error
        return exports.export_document(self.events_of(game_id), note_events)

    def export_text(self, game_id: UUID) -> str:
        return history.text_record(self.reaching(self.get_game(game_id), 0), self.annotations(game_id))

    def export_bgstats(self, game_id: UUID) -> dict[str, Any]:
        """The game as a BG Stats play file (:func:`replay.plays.bgstats_file`)."""
        return plays.bgstats_file(self.get_game(game_id))

    def export_bgstats_link(self, game_id: UUID) -> dict[str, Any]:
        """BG Stats' create-play link of a finished game and the play it carries; ``GameUnfinished`` for a
        game that is not finished (:func:`replay.plays.bgstats_link`)."""
        return plays.bgstats_link(self.get_game(game_id))

    def export_bgg(self, game_id: UUID) -> str:
        """The game as a BoardGameGeek play record, XML (:func:`replay.plays.bgg_play_xml`)."""
        return plays.bgg_play_xml(self.get_game(game_id))

    # --- rules versions ------------------------------------------------------------------------------------

    def revalidate(self, game_id: UUID, *, rules_version: str | None = None) -> dict[str, Any]:
        """Dry-run: check the game's opening and line of play again under ``rules_version`` (the current
        rules by default), with every check; report the first move they would reject, or that all pass. A
        game recorded under rules this build no longer replays is checked all the same (its moves are read
        as recorded); one whose stored events are damaged is reported, not raised (``GameNotFound`` is)."""
        target = rules_version or domain.RULES_VERSION
        report: dict[str, Any] = {"game_id": str(game_id), "rules_version": None, "checked_under": target}
        try:
            game = self.get_game(game_id)
        except GameCorrupt as error:
            return {**report, "ok": False, "version": error.details.get("version"), "error": error.to_dict()}
        report["rules_version"] = game.rules_version
        report["draw_change"] = rules.draw_change(game.setup, game.rules_version, target)
        report["draw_kept"] = rules.draw_kept(game.setup, game.rules_version, target)
        line = [(v, game.records[v].move, game.records[v].chance) for v in game.line]
        refused = rules.first_refusal(game.setup, game.catalog, game.opening, line, target)
        if refused is None:
            return {**report, "ok": True, "version": None}
        version, move, refusal = refused
        found = {**report, "ok": False, "version": version, "error": refusal.to_dict()}
        return found if move is None else {**found, "move": move}

    def revalidate_all(self, *, rules_version: str | None = None) -> list[dict[str, Any]]:
        return [self.revalidate(game_id, rules_version=rules_version) for game_id in self.stored_game_ids()]

    def upgrade(
        self, game_id: UUID, *, to: str | None = None, apply: bool = False, actor: str = "heronlog upgrade"
    ) -> dict[str, Any]:
        """Move a game to the rules ``to`` (the current ones by default) when its whole line of play passes
        them: with ``apply``, a ``RulesUpgraded`` event is appended and the game is replayed and played on
        under them from then on; without it, only what would happen is reported. A game that does not pass is
        left as recorded (and, if this build no longer replays its rules, read as recorded and flagged). A
        seeded game whose draw they would change stays under its own rules while this build replays them
        (``draw_kept`` says why: `replay.rules.draw_kept`). ``outcome``: ``current`` (already under them),
        ``refused``, ``kept`` (that seeded game), ``would move`` or ``moved``; ``draw_change`` says how a
        seeded game that moves draws from then on."""
        target = to or domain.RULES_VERSION
        rules.ensure_supported(target)
        report = self.revalidate(game_id, rules_version=target)
        if report["rules_version"] == target:
            return {**report, "outcome": "current"}
        if not report["ok"]:
            return {**report, "outcome": "refused"}
        if report["draw_kept"]:
            return {**report, "outcome": "kept"}
        if not apply:
            return {**report, "outcome": "would move"}
        game = self.get_game(game_id)
        if game.rules_version == target:  # moved meanwhile (two upgrades at once)
            return {**report, "outcome": "current"}
        moved = RulesUpgraded(
            originator_id=game.id,
            originator_version=game.version + 1,
            timestamp=now(),
            rules_version=target,
            previous=game.rules_version,
            actor=actor,
        )
        played = self._commit(game, [moved])  # a move recorded meanwhile: StaleVersion, run it again
        return {**report, "outcome": "moved", "version": played.versions[0]}

    # --- the list of games ---------------------------------------------------------------------------------

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
        return self.index.page(
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
        return self.index.game_ids()

    def stored_game_ids(self) -> Iterator[UUID]:
        """Every game of every store, found in the stores' logs (not in the list of games: a damaged entry of
        the list hides no game from a backup or a check)."""
        for store in self.stores:
            yield from store.created_game_ids()


_HEADER = frozenset({"originator_id", "originator_version", "timestamp"})


def _payload(event: Any, *ignored: str) -> dict[str, Any]:
    """What an event decided, without where and when it was decided (and without ``ignored`` fields, such as
    the random id a new comment draws): two decisions of the same request have the same payload."""
    skip = _HEADER | set(ignored)
    return {name: value for name, value in vars(event).items() if name not in skip}
