"""The list of games: a read model that answers a page in O(page), across every store.

A projection of each store's index stream, paged by cursor and searched by words
(docs/architecture/list-and-cache.md); Redis and SQLite keep it in :mod:`replay.store.index` and
:mod:`replay.index_sqlite`, memory in :class:`MemoryListing`.
"""

from __future__ import annotations

import bisect
import logging
import re
import threading
import unicodedata
from collections.abc import Callable, Container, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, Protocol
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.persistence import StoredEvent

import domain
from replay import rules, stored_records
from replay.errors import GameCorrupt, store_unavailable
from replay.events import GameCreated, GameIndexed
from replay.game import Game

SEARCH_CAP = 10_000
"""The most games a search examines: past this it answers with the newest matches among them and says so."""
EXPANSION_MAX = 64
"""The most indexed words one word of a search may expand to (``a`` expands to every word starting with a):
past this, that word is checked against each game's words instead."""
TERMS_MAX = 8
"""The most words of a search that count (the rest are ignored)."""
WORD_MAX = 40
"""Words are indexed and searched by their first this many characters (a player's name has at most 40)."""
CATCH_UP_BATCH = 1_000
"""Index entries projected per step when the list catches up with its index stream."""

logger = logging.getLogger(__name__)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_SPLIT = re.compile(r"[\W_]+")
_KEY = re.compile(r"^(-?\d{1,20})_([0-9a-f]{32})$")


# --- what the list holds ----------------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Key:
    """A game's place in the list: when it was listed (microseconds since 1970) and its id (32 hex digits).
    The list is in descending order of keys; a page's cursor is the key of the last game it shows."""

    created: int
    game: str

    def text(self) -> str:
        """The cursor as clients see it (opaque to them)."""
        return f"{self.created}_{self.game}"

    @classmethod
    def parse(cls, text: str) -> Key:
        """A cursor sent back by a client; ``ValueError`` if it is not one."""
        found = _KEY.match(text)
        if found is None:
            raise ValueError(f"not a cursor of the list of games: {text!r}")
        return cls(int(found.group(1)), found.group(2))


def micros(moment: datetime) -> int:
    """A timestamp as whole microseconds since 1970 (exact: no float on the way)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - _EPOCH) // timedelta(microseconds=1)


def normal(text: str) -> str:
    """Text as the search compares it: NFKC (a full-width letter is the letter), case folded."""
    return unicodedata.normalize("NFKC", text).casefold()


def words_in(*texts: str) -> tuple[str, ...]:
    """The distinct words of some texts, in order, normalised and cut to :data:`WORD_MAX` characters."""
    seen: dict[str, None] = {}
    for text in texts:
        for word in _SPLIT.split(normal(text)):
            if word:
                seen.setdefault(word[:WORD_MAX], None)
    return tuple(seen)


def terms_of(search: str | None) -> tuple[str, ...]:
    """The words a search looks for (at most :data:`TERMS_MAX`); none for a blank search."""
    return words_in(search or "")[:TERMS_MAX]


def matches(words: str, terms: Iterable[str]) -> bool:
    """Whether every term starts a word of ``words`` (a game's words, as :attr:`Entry.text` spells them)."""
    return all(" " + term in words for term in terms)


@dataclass(frozen=True)
class Entry:
    """What the list knows of a game from its index entry: never changes."""

    game_id: str
    created_on: str
    created: int
    title: str
    players: tuple[str, ...]
    mode: str
    private: bool
    parent: Mapping[str, Any] | None

    @property
    def key(self) -> Key:
        return Key(self.created, UUID(self.game_id).hex)

    @property
    def words(self) -> tuple[str, ...]:
        return words_in(self.title, *self.players)

    @property
    def text(self) -> str:
        """The game's words, each after a space: a term starts a word when ``" " + term`` is in it."""
        return "".join(" " + word for word in self.words)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "created_on": self.created_on,
            "created": self.created,
            "title": self.title,
            "players": list(self.players),
            "mode": self.mode,
            "private": self.private,
            "parent": dict(self.parent) if self.parent else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Entry:
        return cls(
            game_id=data["game_id"],
            created_on=data["created_on"],
            created=int(data["created"]),
            title=data["title"],
            players=tuple(data["players"]),
            mode=data["mode"],
            private=bool(data["private"]),
            parent=data["parent"],
        )

    @classmethod
    def of(cls, indexed: GameIndexed) -> Entry:
        return cls(
            game_id=indexed.game_id,
            created_on=indexed.timestamp.isoformat(),
            created=micros(indexed.timestamp),
            title=indexed.title,
            players=tuple(indexed.players),
            mode=indexed.mode,
            private=indexed.private,
            parent=indexed.parent,
        )


@dataclass(frozen=True)
class Summary:
    """What changes as a game is played, as of one version of it; and the game's own date (when it was played:
    an imported game is listed by when it came here, and shows the date it was recorded)."""

    version: int
    status: str
    round: int
    winner: str | None
    created_on: str | None = None
    rules_version: str | None = None
    """The rules the game is recorded under (None in a summary written before it was kept): a build that does
    not replay them lists the game as ``rules unsupported`` (:meth:`shown`), whatever the summary says."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "status": self.status,
            "round": self.round,
            "winner": self.winner,
            "created_on": self.created_on,
            "rules_version": self.rules_version,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Summary:
        return cls(
            int(data["version"]),
            data["status"],
            int(data["round"]),
            data["winner"],
            data.get("created_on"),
            data.get("rules_version"),
        )

    def shown(self) -> Summary:
        """The summary as this build lists it: a game of rules it does not replay is ``rules unsupported``,
        with neither round nor winner (those are the rules engine's to say)."""
        if self.rules_version is None or rules.is_supported(self.rules_version) or self.status == DAMAGED:
            return self
        return replace(self, status=UNSUPPORTED, round=0, winner=None)


DAMAGED = "damaged"
"""The status the list shows for a game whose stored events are damaged (opening it names the damage)."""
UNSUPPORTED = "rules unsupported"
"""The status of a game recorded under rules this build does not replay (``Game.status`` says the same)."""


def summary_of(game: Game) -> Summary:
    """A game's summary as it stands (a game of rules this build does not replay: its status, ``rules
    unsupported``, with neither round nor winner: those are the rules engine's to say)."""
    created_on = game.created_on.isoformat()
    if not game.playable:
        return Summary(game.version, game.status, 0, None, created_on, game.rules_version)
    winner = None
    if domain.is_over(game.state):
        sheets = [sheet.to_dict() for sheet in domain.score(game.state)]
        best = min(range(len(sheets)), key=lambda seat: sheets[seat]["rank"])
        winner = str(game.setup["players"][best]["name"])
    return Summary(game.version, game.status, int(game.state.round), winner, created_on, game.rules_version)


@dataclass(frozen=True)
class Row:
    """One game of a page: its entry, its summary as last written (None: never), its version now, whether the
    store holds its first record (version 1, its ``GameCreated``), and that record (None: not asked for)."""

    entry: Entry
    summary: Summary | None
    version: int | None
    started: bool
    first: StoredEvent | None = None

    @property
    def key(self) -> Key:
        return self.entry.key


@dataclass(frozen=True)
class Query:
    """One store's part of a page: games after (older than) or before (newer than) a cursor, or from the top
    skipping ``offset``; at most ``limit``, newest first."""

    terms: tuple[str, ...] = ()
    include_private: bool = False
    after: Key | None = None
    before: Key | None = None
    limit: int = 50
    offset: int = 0


@dataclass(frozen=True)
class Found:
    """One store's answer: the rows (newest first), how many games the query finds in all (at least, when not
    ``complete``), and where the store's projection stood when it answered."""

    rows: list[Row]
    total: int
    complete: bool = True
    position: int = 0
    stream: int = 0
    """The index stream's last version: when above ``position`` the projection was behind."""

    @property
    def behind(self) -> bool:
        return self.stream > self.position


class Listing(Protocol):
    """A store's projection of its index stream (see the module docstring): Redis, SQLite or memory. A page's
    rows say whether the store holds each game's first record, and carry that record for the games not in
    ``checked`` (the games whose first record this process has checked already: see :class:`GameIndex`)."""

    def position(self) -> int:
        """The index stream's version up to which every entry is projected."""

    def add(self, entries: Sequence[tuple[Entry, Summary | None]], position: int) -> None:
        """Project entries (again, harmlessly) and move the position up to ``position`` (never down)."""

    def keep_summary(self, game_id: UUID, summary: Summary) -> None:
        """Keep a game's summary, unless one of a later version is kept already."""

    def page(self, query: Query, checked: Container[str] = ()) -> Found:
        """Answer one store's part of a page (see :class:`Query`)."""


@dataclass(frozen=True)
class Page:
    """A page of the list of games, across every store."""

    summaries: list[GameSummary]
    total: int
    complete: bool
    newer: Key | None
    """The cursor of the page before this one (newer games), when there is one."""
    older: Key | None
    """The cursor of the page after this one (older games), when there is one."""
    unavailable: tuple[str, ...] = ()
    """The stores (shards) that did not answer (a cluster node down): their games are missing from the page
    and from the total (empty when every store answered)."""


@dataclass(frozen=True)
class GameSummary:
    """A game as the list of games shows it."""

    game_id: str
    title: str
    players: tuple[str, ...]
    mode: str
    private: bool
    parent: Mapping[str, Any] | None
    created_on: str
    version: int
    status: str
    round: int
    winner: str | None
    key: Key | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "title": self.title,
            "players": list(self.players),
            "mode": self.mode,
            "private": self.private,
            "parent": dict(self.parent) if self.parent else None,
            "created_on": self.created_on,
            "version": self.version,
            "status": self.status,
            "round": self.round,
            "winner": self.winner,
        }


# --- the search, written once for the stores that run it in this process ------------------------------------


Direction = Literal["after", "before"]


class Primitives(Protocol):
    """What :func:`answer` asks of a store's projection (memory, SQLite); Redis runs the same steps in Lua."""

    def expand(self, term: str, most: int) -> list[tuple[str, int]]:
        """The indexed words that ``term`` starts (alphabetically, at most ``most``) and each one's games."""

    def count(self, source: str | None, include_private: bool) -> int:
        """How many games a source holds: one word's (``source``), or every (public) game's (None)."""

    def keys(
        self, source: str | None, *, private: bool, start: Key | None, direction: Direction, skip: int, n: int
    ) -> list[Key]:
        """Up to ``n`` keys of a source past ``start`` (from the newest when None) going ``after`` (older,
        newest first) or ``before`` (newer, nearest first), skipping the first ``skip``."""

    def intersection(self, words: Sequence[str], query: Query) -> tuple[list[Key], int]:
        """The page (by the query's cursor or offset) of the games that have every one of these indexed words,
        and how many there are."""

    def gathered(self, words: Sequence[str]) -> list[tuple[Key, str]]:
        """Every game of these indexed words (once each, in no particular order), with its words."""

    def walk(
        self, source: str | None, start: Key | None, direction: Direction, n: int
    ) -> list[tuple[Key, str]]:
        """Up to ``n`` public games of a source past ``start`` (as :meth:`keys`), with their words."""

    def rows(self, keys: Sequence[Key]) -> list[Row]:
        """The rows of these games, in the same order."""


MEMBERSHIP_MAX = 16
"""A word of a search that starts at most this many indexed words is checked by looking each game up in their
sets (Redis: ``ZMSCORE``), not by reading each game's words: the same answer, found faster."""


@dataclass(frozen=True)
class Plan:
    """How a store answers a query (see the module docstring): ``empty`` (a word of the search starts no indexed
    word), ``direct`` (a page of a sorted source: every game, or one word's), ``intersect`` (the games that have
    every one of ``words``), ``gather`` (every game of the driver's ``words``, checked against the ``filters``)
    or ``scan`` (the newest :data:`SEARCH_CAP` games of a source, checked against the ``filters``). ``source``
    None is every (public) game. Each filter is a term and, when it starts at most :data:`MEMBERSHIP_MAX`
    indexed words, those words (else None): a game passes when it has one of them, which is when the term
    starts one of its words."""

    mode: Literal["empty", "direct", "intersect", "gather", "scan"]
    source: str | None = None
    words: tuple[str, ...] = ()
    filters: tuple[tuple[str, tuple[str, ...] | None], ...] = ()


def plan(query: Query, expand: Callable[[tuple[str, ...]], list[list[tuple[str, int]]]]) -> Plan:
    """The plan for a query; ``expand`` gives, for each term, the indexed words it starts (alphabetically, at
    most ``EXPANSION_MAX + 1``) with how many games each has."""
    if not query.terms:
        return Plan("direct")
    plans = expand(query.terms)
    if any(not words for words in plans):
        return Plan("empty")
    sizes = [sum(count for _, count in words) if len(words) <= EXPANSION_MAX else None for words in plans]
    # A term's words are the whole of what it starts only when its expansion was not cut at EXPANSION_MAX + 1:
    # a cut list checked as membership would miss the games of the words past the cut (Redis checks by
    # membership, the other stores by each game's words). With the limits as set, a cut list is always too
    # long for membership; a test that lowers EXPANSION_MAX below MEMBERSHIP_MAX met the difference.
    checks = [
        (term, tuple(word for word, _ in words) if len(words) <= min(MEMBERSHIP_MAX, EXPANSION_MAX) else None)
        for term, words in zip(query.terms, plans, strict=True)
    ]
    known = [index for index, size in enumerate(sizes) if size is not None]
    if not known:
        return Plan("scan", filters=tuple(checks))
    driver = min(known, key=lambda index: (sizes[index] or 0, index))
    others = tuple(check for index, check in enumerate(checks) if index != driver)
    if len(plans[driver]) == 1 and all(words is not None and len(words) == 1 for _, words in others):
        word = plans[driver][0][0]
        if not others:
            return Plan("direct", source=word)
        return Plan("intersect", words=(word, *(words[0] for _, words in others if words)))
    if (sizes[driver] or 0) <= SEARCH_CAP:
        return Plan("gather", words=tuple(word for word, _ in plans[driver]), filters=others)
    if len(plans[driver]) == 1:
        return Plan("scan", source=plans[driver][0][0], filters=others)
    return Plan("scan", filters=tuple(checks))


def answer(store: Primitives, query: Query) -> tuple[list[Key], int, bool]:
    """The keys of a store's part of a page (newest first), how many games the query finds in all, and whether
    that count is exact."""
    chosen = plan(query, lambda terms: [store.expand(term, EXPANSION_MAX + 1) for term in terms])
    if chosen.mode == "empty":
        return [], 0, True
    if chosen.mode == "direct":
        return _direct(store, chosen.source, query)
    if chosen.mode == "intersect":
        keys, total = store.intersection(chosen.words, query)
        return keys, total, True
    terms = [term for term, _ in chosen.filters]
    if chosen.mode == "gather":
        found = store.gathered(chosen.words)
        ordered = sorted((key for key, text in found if matches(text, terms)), reverse=True)
        return slice_of(ordered, query), len(ordered), True
    return _scan(store, chosen.source, terms, query)


SCAN_STEP = 500
"""Games read per step of a scan."""


def _scan(
    store: Primitives, source: str | None, terms: Sequence[str], query: Query
) -> tuple[list[Key], int, bool]:
    """A page of the source's newest :data:`SEARCH_CAP` games that match every term, read from the page's
    cursor (or the top) on in steps, and only until the page is full: a scan happens for words that start many
    others, which match many games, so it usually stops early. The total is then the page's end (at least that
    many); a scan that reads to the end counts every match from where it began, exactly so when that was the
    top and the source is within the cap."""
    last = store.keys(source, private=False, start=None, direction="after", skip=SEARCH_CAP - 1, n=1)
    floor = last[0] if last else None  # the oldest game a scan may reach
    capped = floor is not None and store.count(source, False) > SEARCH_CAP
    direction: Direction = "before" if query.before is not None else "after"
    start = query.before if query.before is not None else query.after
    need = query.offset + query.limit
    found: list[Key] = []
    exhausted = False
    while len(found) < need:
        if direction == "after" and start is not None and floor is not None and start <= floor:
            exhausted = True  # past the cap
            break
        step = store.walk(source, start, direction, SCAN_STEP)
        found += [key for key, text in step if (floor is None or key >= floor) and matches(text, terms)]
        if len(step) < SCAN_STEP:
            exhausted = True
            break
        start = step[-1][0]
    page = found[query.offset : need]
    whole = exhausted and query.after is None and query.before is None and not capped
    return (page[::-1] if direction == "before" else page), len(found) if exhausted else need, whole


def slice_of(ordered: Sequence[Key], query: Query) -> list[Key]:
    """A page of keys in descending order, by the query's cursor or offset."""
    if query.before is not None:
        newer = [key for key in ordered if key > query.before]
        end = max(0, len(newer) - query.offset)
        return newer[max(0, end - query.limit) : end]
    if query.after is not None:
        ordered = [key for key in ordered if key < query.after]
    return list(ordered[query.offset : query.offset + query.limit])


def _direct(store: Primitives, source: str | None, query: Query) -> tuple[list[Key], int, bool]:
    """A page straight from a sorted source (every game, or one word's): exact and O(page)."""
    private = query.include_private and source is None
    if query.before is not None:
        keys = store.keys(
            source, private=private, start=query.before, direction="before", skip=query.offset, n=query.limit
        )[::-1]
    else:
        keys = store.keys(
            source, private=private, start=query.after, direction="after", skip=query.offset, n=query.limit
        )
    return keys, store.count(source, private), True


# --- the projection in this process (the memory store) ------------------------------------------------------


class MemoryListing:
    """The list of games of a store kept in this process (the in-memory store: tests, demos)."""

    def __init__(
        self,
        versions: Callable[[UUID], int],
        stream: Callable[[], int],
        first: Callable[[UUID], StoredEvent | None],
    ) -> None:
        self._versions = versions
        self._stream = stream
        self._first = first
        self._lock = threading.Lock()
        self._position = 0
        self._entries: dict[str, Entry] = {}
        self._texts: dict[str, str] = {}
        self._summaries: dict[str, Summary] = {}
        self._all: list[Key] = []  # ascending: bisect keeps it sorted
        self._public: list[Key] = []
        self._words: dict[str, list[Key]] = {}
        self._sorted_words: list[str] = []

    def position(self) -> int:
        return self._position

    def add(self, entries: Sequence[tuple[Entry, Summary | None]], position: int) -> None:
        with self._lock:
            for entry, summary in entries:
                key = entry.key
                if key.game not in self._entries:
                    self._entries[key.game] = entry
                    bisect.insort(self._all, key)
                    if not entry.private:
                        self._texts[key.game] = entry.text
                        bisect.insort(self._public, key)
                        for word in entry.words:
                            if word not in self._words:
                                self._words[word] = []
                                bisect.insort(self._sorted_words, word)
                            bisect.insort(self._words[word], key)
                if summary is not None:
                    self._keep(key.game, summary)
            self._position = max(self._position, position)

    def keep_summary(self, game_id: UUID, summary: Summary) -> None:
        with self._lock:
            self._keep(game_id.hex, summary)

    def _keep(self, game: str, summary: Summary) -> None:
        held = self._summaries.get(game)
        if held is None or held.version < summary.version:
            self._summaries[game] = summary

    def page(self, query: Query, checked: Container[str] = ()) -> Found:
        with self._lock:
            keys, total, complete = answer(self, query)
            rows = self.rows(keys, checked)
        return Found(rows, total, complete, self._position, self._stream())

    # Primitives (called with the lock held)

    def expand(self, term: str, most: int) -> list[tuple[str, int]]:
        start = bisect.bisect_left(self._sorted_words, term)
        found = []
        for word in self._sorted_words[start : start + most]:
            if not word.startswith(term):
                break
            found.append((word, len(self._words[word])))
        return found

    def _source(self, source: str | None, include_private: bool) -> list[Key]:
        if source is not None:
            return self._words.get(source, [])
        return self._all if include_private else self._public

    def count(self, source: str | None, include_private: bool) -> int:
        return len(self._source(source, include_private))

    def keys(
        self, source: str | None, *, private: bool, start: Key | None, direction: Direction, skip: int, n: int
    ) -> list[Key]:
        ordered = self._source(source, private)
        if direction == "after":
            end = len(ordered) if start is None else bisect.bisect_left(ordered, start)
            end -= skip
            return ordered[max(0, end - n) : max(0, end)][::-1]
        begin = 0 if start is None else bisect.bisect_right(ordered, start)
        begin += skip
        return ordered[begin : begin + n]

    def intersection(self, words: Sequence[str], query: Query) -> tuple[list[Key], int]:
        common = set(self._words.get(words[0], []))
        for word in words[1:]:
            common &= set(self._words.get(word, []))
        ordered = sorted(common, reverse=True)
        return slice_of(ordered, query), len(ordered)

    def gathered(self, words: Sequence[str]) -> list[tuple[Key, str]]:
        found = {key for word in words for key in self._words.get(word, [])}
        return [(key, self._texts[key.game]) for key in found]

    def walk(
        self, source: str | None, start: Key | None, direction: Direction, n: int
    ) -> list[tuple[Key, str]]:
        keys = self.keys(source, private=False, start=start, direction=direction, skip=0, n=n)
        return [(key, self._texts[key.game]) for key in keys]

    def rows(self, keys: Sequence[Key], checked: Container[str] = ()) -> list[Row]:
        rows = []
        for key in keys:
            first = self._first(UUID(key.game))
            rows.append(
                Row(
                    self._entries[key.game],
                    self._summaries.get(key.game),
                    self._versions(UUID(key.game)) or None,
                    first is not None,
                    None if key.game in checked else first,
                )
            )
        return rows


# --- the list across stores ----------------------------------------------------------------------------------


def index_id(store: Any) -> UUID:
    """The id of a store's index stream (derived from the store's name, so every process finds it)."""
    return uuid5(NAMESPACE_URL, f"heronlog:index:{store.name}")


def entry_for(
    created: GameCreated, stream_id: UUID, position: int, listed_at: datetime | None = None
) -> GameIndexed:
    """The index's record of a new game, at ``position`` of the index stream. Its time is when the game was
    listed, ``listed_at`` (an import: when it came here), else when it was created; the list is newest first
    by it. An imported game keeps its own date, when it was played, in its first event (``created_on``):
    a made-up date in an export never pins it anywhere in the list."""
    return GameIndexed(
        originator_id=stream_id,
        originator_version=position,
        timestamp=listed_at or created.timestamp,
        game_id=str(created.originator_id),
        players=[seat["name"] for seat in created.setup["players"]],
        mode=created.setup["mode"],
        title=created.setup["title"],
        private=created.setup["private"],
        parent=created.parent,
    )


DAMAGED_KEPT = 1_024
"""At most this many games found damaged are remembered by a process (past it, the memory starts again)."""
CHECKED_KEPT = 10_000
"""At most this many games whose first record was checked are remembered by a process (past it, the memory
starts again: those games' first records are checked again when next listed)."""


class GameIndex:
    """The list of games across every store of a game log. ``load`` reads a game as it stands.

    The list never refuses a game, and a store that does not answer (a cluster node down) stops only its own
    games: a page names it (:attr:`Page.unavailable`) and lists the others.

    A game whose first stored record (its ``GameCreated``) is missing is listed as ``damaged`` by every
    process, without reading the game: each store says which of its page's games it holds a first record of,
    in the round trip that reads their versions. That record is also checked against its checksum
    (:func:`replay.stored_records.starts_whole`) the first time a process lists the game; it never changes,
    and holds the game's whole setup (tens of kilobytes), so it is not sent again while the process
    remembers the game checked. A game damaged further on is listed as ``damaged`` once this process has
    found it so (reading it, or working out its summary): its summary is the last one written, which the
    damage does not reach, so the list asks the game again at each page until it reads whole."""

    def __init__(
        self, stores: Sequence[Any], load: Callable[[UUID], Game], of: Callable[[UUID], Any]
    ) -> None:
        self._stores = stores
        self._load = load
        self._of = of
        self._damaged: set[UUID] = set()
        self._damaged_lock = threading.Lock()
        self._checked: set[str] = set()

    def found_damaged(self, game_id: UUID) -> None:
        """A read found this game's stored events damaged (:class:`replay.errors.GameCorrupt`)."""
        with self._damaged_lock:
            if len(self._damaged) >= DAMAGED_KEPT:
                self._damaged.clear()
            self._damaged.add(game_id)

    def next_entry(self, store: Any, created: GameCreated, listed_at: datetime | None = None) -> GameIndexed:
        """The entry a new game of ``store`` takes: the next position of its index stream. A game indexed at
        the same moment by another process takes that position first; the writer then asks again."""
        stream_id = index_id(store)
        return entry_for(created, stream_id, store.last_version(stream_id) + 1, listed_at)

    def entries(self, store: Any | None = None) -> list[GameIndexed]:
        """Every game of every store (or of ``store`` only), in the order they were indexed (the whole
        index stream: for backups and revalidation, not for pages)."""
        return [entry for each in (self._stores if store is None else [store]) for entry in _stream(each)]

    def game_ids(self, store: Any | None = None) -> Iterator[UUID]:
        """The ids of every game (of ``store`` only, when it is given)."""
        for entry in self.entries(store):
            yield UUID(entry.game_id)

    # --- keeping it -------------------------------------------------------------------------------------

    def catch_up(self, store: Any) -> int:
        """Project the store's index entries that its list has not taken yet; how many there were."""
        listing: Listing = store.listing
        taken = 0
        for position, batch in batches(store, listing.position()):
            listing.add([(Entry.of(event), None) for event in batch], position)
            taken += len(batch)
        return taken

    def after_write(self, before: Game | None, after: Game) -> None:
        """After a write: keep the game's summary when the write changed it (a new game, a round's end, the
        end of the game, an abandon, an undo or amendment across one of those). The write is stored already:
        a summary that cannot be written now is only late (the list puts it right, see the module docstring),
        so a failure here is logged, never the write's answer."""
        if before is not None and not changes_summary(before, after):
            return
        try:
            self._of(after.id).listing.keep_summary(after.id, summary_of(after))
        except Exception:
            logger.warning("could not keep the list's summary of game %s", after.id, exc_info=True)

    # --- reading it -------------------------------------------------------------------------------------

    def page(
        self,
        *,
        search: str | None = None,
        include_private: bool = False,
        limit: int = 50,
        offset: int = 0,
        after: Key | None = None,
        before: Key | None = None,
    ) -> Page:
        """Games newest first (by when they were listed: created here, or imported here), those whose title or
        players have words that the words of ``search`` start, when it is given; after or before a cursor, or
        from the top skipping ``offset``."""
        if after is not None and before is not None:
            raise ValueError("a page is either after a cursor or before one")
        terms = terms_of(search)
        single = len(self._stores) == 1
        # Each store answers one more game than asked, so that the page knows whether another follows it.
        wanted = limit + 1
        query = Query(
            terms,
            include_private,
            after,
            before,
            limit=wanted if single else offset + wanted,
            offset=offset if single else 0,
        )
        found: list[Found] = []
        unavailable: list[str] = []
        for store in self._stores:
            try:
                found.append(self._found(store, query))
            except Exception as error:
                if not store_unavailable(error) or len(unavailable) + 1 == len(self._stores):
                    raise  # not a store that is down, or none answered: the page's own answer
                logger.warning("the list of games goes without store %s: %s", store.name, error)
                unavailable.append(store.name)
        rows = sorted((row for each in found for row in each.rows), key=lambda row: row.key, reverse=True)
        if before is not None:
            rows = rows if single else rows[max(0, len(rows) - offset - wanted) : len(rows) - offset]
            more_newer = len(rows) > limit
            rows = rows[-limit:] if more_newer else rows
            more_older = True  # the cursor's own game is older than this page
        else:
            rows = rows if single else rows[offset:]
            more_older = len(rows) > limit
            rows = rows[:limit]
            more_newer = after is not None or offset > 0
        summaries = [self._summary(row) for row in rows]
        return Page(
            summaries,
            total=sum(each.total for each in found),
            complete=all(each.complete for each in found),
            newer=rows[0].key if rows and more_newer else None,
            older=rows[-1].key if rows and more_older else None,
            unavailable=tuple(unavailable),
        )

    def _found(self, store: Any, query: Query) -> Found:
        found: Found = store.listing.page(query, self._checked)
        if found.behind:  # games created since this store's list was last brought up to date
            self.catch_up(store)
            found = store.listing.page(query, self._checked)
        return found

    def _starts_whole(self, game_id: UUID, row: Row) -> bool:
        """Whether the game's first record is there and, when the store sent it, passes its check (then
        remembered as checked: see the class docstring)."""
        if not row.started:
            return False
        if row.first is None:
            return True  # checked by this process already
        if not stored_records.starts_whole(game_id, row.first):
            return False
        with self._damaged_lock:
            if len(self._checked) >= CHECKED_KEPT:
                self._checked.clear()
            self._checked.add(row.entry.key.game)
        return True

    def _summary(self, row: Row) -> GameSummary:
        entry, summary = row.entry, row.summary
        game_id = UUID(entry.game_id)
        version = row.version or (summary.version if summary else 0)
        damaged = game_id in self._damaged
        if not self._starts_whole(game_id, row):
            # Its first record (the GameCreated) is gone or damaged: no read of the game could succeed, and the
            # store answered that with the page, so no process needs to have read the game to say so.
            summary = Summary(version, DAMAGED, 0, None, summary.created_on if summary else None)
        elif summary is None or summary.version < version or damaged:
            # Never written (an archive projected from its index), or maybe left behind: worked out from the
            # game when there is no summary at all, or when this process holds the game warm anyway, or found
            # it damaged (asked again: it may have been repaired).
            warm = self._of(game_id).cached_value(game_id)
            game = warm if isinstance(warm, Game) and warm.version == version else None
            if game is None and (summary is None or damaged):
                try:
                    game = self._load(game_id)
                except GameCorrupt:  # opening it names the damage; the list only says so
                    self.found_damaged(game_id)
                    summary = Summary(version, DAMAGED, 0, None, summary.created_on if summary else None)
                except domain.DomainError as error:  # a game this build cannot read at all
                    logger.warning("the list cannot read game %s: %s", game_id, error)
                    summary = Summary(version, "unreadable", 0, None)
            if game is not None:
                with self._damaged_lock:
                    self._damaged.discard(game_id)
                fresh = summary_of(game)
                if fresh != summary:
                    self._of(game_id).listing.keep_summary(game_id, fresh)
                summary, version = fresh, game.version
        assert summary is not None
        summary = summary.shown()
        return GameSummary(
            game_id=entry.game_id,
            title=entry.title,
            players=entry.players,
            mode=entry.mode,
            private=entry.private,
            parent=entry.parent,
            # When it was played, from the game (an import is listed when it came, later): the summary has it.
            created_on=summary.created_on or entry.created_on,
            version=version,
            status=summary.status,
            round=summary.round,
            winner=summary.winner,
            key=entry.key,
        )


def batches(store: Any, after: int = 0) -> Iterator[tuple[int, list[GameIndexed]]]:
    """A store's index stream after position ``after``, :data:`CATCH_UP_BATCH` entries at a time (a store
    reads a stream of any length that way, in bounded steps): each batch with the position it ends at. An
    entry whose record is damaged is left out (and logged: ``heronlog verify`` names it), so it hides no other
    game; the game itself is still found by backups and checks (:mod:`replay.census`)."""
    while True:
        events, last = store.readable_events(index_id(store), gt=after or None, limit=CATCH_UP_BATCH)
        if last is None:
            return
        after = last
        yield after, [event for event in events if isinstance(event, GameIndexed)]


def _stream(store: Any) -> Iterator[GameIndexed]:
    for _, batch in batches(store):
        yield from batch


def changes_result(before: Game, after: Game) -> bool:
    """Whether a write changed a game's status, result or rules (what the players keep of a game)."""
    if not (before.playable and after.playable) or before.rules_version != after.rules_version:
        return True  # moved to other rules, or no states to compare (rules not replayed here)
    if before.abandoned is not after.abandoned:
        return True
    # A finished game's summary names its winner: a correction of its moves may change it.
    return bool(domain.is_over(before.state) or domain.is_over(after.state))


def changes_summary(before: Game, after: Game) -> bool:
    """Whether a write changed what the list of games shows of a game: its result (:func:`changes_result`) or
    its round."""
    return changes_result(before, after) or before.state.round != after.state.round
