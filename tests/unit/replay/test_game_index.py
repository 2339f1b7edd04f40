"""The list of games (replay.index) on the in-memory store: paging by cursor, search by word starts, the cap
that says "refine your search", and the summaries each write keeps. The same suite runs on SQLite and Redis in
tests/integration/replay/test_game_index_stores.py."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

import domain
from replay import index
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.index import Key, matches, terms_of, words_in
from tests.replay_helpers import pick, play_random


@pytest.fixture
def log() -> Iterator[GameLog]:
    """A fresh game log on the in-memory store."""
    app = open_log(StoreConfig(kind="memory"))
    yield app
    app.close()


def create(log: GameLog, title: str, players: list[str], private: bool = False, seed: int = 1) -> str:
    return str(
        log.create_game({"players": players, "seed": seed, "title": title, "private": private}).game_id
    )


def titles(log: GameLog, **asked: object) -> list[str]:
    return [summary.title for summary in log.page_of_games(**asked).summaries]  # type: ignore[arg-type]


def test_words_are_normalised_split_and_cut() -> None:
    assert words_in("Club night — Ｔｕｅｓｄａｙ", "Chie-ko", "ÉRIC_2") == (
        "club",
        "night",
        "tuesday",
        "chie",
        "ko",
        "éric",
        "2",
    )
    assert words_in("x" * 50) == ("x" * index.WORD_MAX,)
    assert terms_of("  ") == () and terms_of(None) == ()
    assert terms_of(" ".join(f"w{n}" for n in range(20))) == tuple(f"w{n}" for n in range(index.TERMS_MAX))


def test_a_term_matches_the_start_of_a_word_only() -> None:
    text = " club night aiko"
    assert matches(text, ["ai", "club"]) and matches(text, ["nig"])
    assert not matches(text, ["iko"]) and not matches(text, ["club", "zed"])


def test_a_cursor_reads_back_and_a_forged_one_is_refused() -> None:
    key = Key(1_700_000_000_000_000, "ab" * 16)
    assert Key.parse(key.text()) == key
    for forged in ["", "12", "12_XYZ", "1_" + "ab" * 15, "1.5_" + "ab" * 16]:
        with pytest.raises(ValueError):
            Key.parse(forged)


def test_paging_by_cursor_shows_every_game_once_newest_first_and_back(log: GameLog) -> None:
    made = [create(log, f"Game {n}", ["Aiko", "Ben"], seed=n) for n in range(7)]
    seen: list[str] = []
    pages = []
    page = log.page_of_games(limit=3)
    assert page.newer is None
    while True:
        pages.append([summary.game_id for summary in page.summaries])
        seen += pages[-1]
        if page.older is None:
            break
        page = log.page_of_games(limit=3, after=page.older)
    assert seen == made[::-1]
    assert [len(ids) for ids in pages] == [3, 3, 1]
    # ... and back, by each page's "newer" cursor.
    back = log.page_of_games(limit=3, before=page.newer)
    assert [summary.game_id for summary in back.summaries] == pages[1]
    first = log.page_of_games(limit=3, before=back.newer)
    assert [summary.game_id for summary in first.summaries] == pages[0] and first.newer is None


def test_paging_stays_stable_while_games_are_created(log: GameLog) -> None:
    before = [create(log, f"Old {n}", ["Aiko", "Ben"], seed=n) for n in range(6)]
    page = log.page_of_games(limit=2)
    seen = [summary.game_id for summary in page.summaries]
    while page.older is not None:
        create(log, "Meanwhile", ["Chie", "Dai"])  # a new game at the top of the list
        page = log.page_of_games(limit=2, after=page.older)
        seen += [summary.game_id for summary in page.summaries]
    assert seen == before[::-1], "every game once, none twice, whatever was created meanwhile"
    assert titles(log, limit=3) == ["Meanwhile", "Meanwhile", "Old 5"], "the first page shows the new games"


def test_an_offset_pages_from_the_top_and_the_total_counts_public_games(log: GameLog) -> None:
    for n in range(5):
        create(log, f"Game {n}", ["Aiko", "Ben"], seed=n)
    create(log, "Secret", ["Aiko", "Ben"], private=True)
    page = log.page_of_games(limit=2, offset=3)
    assert [summary.title for summary in page.summaries] == ["Game 1", "Game 0"]
    assert page.total == 5 and page.complete and page.older is None and page.newer is not None
    assert log.page_of_games(include_private=True).total == 6


def test_a_search_finds_games_by_the_start_of_their_words_and_never_private_ones(log: GameLog) -> None:
    create(log, "Club night 1", ["Aiko", "Ben"])
    create(log, "At home", ["Chieko", "Dai"])
    create(log, "Club night 2", ["Chie", "Ben"])
    create(log, "Club secret", ["Chie", "Eri"], private=True)
    assert titles(log, search="chie") == ["Club night 2", "At home"]
    assert titles(log, search="CLUB Ben") == ["Club night 2", "Club night 1"]
    assert titles(log, search="club chie") == ["Club night 2"]
    assert titles(log, search="iko") == [], "a term starts a word: the middle of a word is not searched"
    assert titles(log, search="secret") == [], "a private game is never found"
    page = log.page_of_games(search="ni", limit=1)
    assert page.total == 2 and page.complete and [s.title for s in page.summaries] == ["Club night 2"]
    assert [s.title for s in log.page_of_games(search="ni", limit=1, after=page.older).summaries] == [
        "Club night 1"
    ]


def test_a_search_too_broad_to_use_the_index_scans_the_newest_games_and_says_so(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(8):
        create(log, f"Table {n}", [f"A{n}x", "Bo"], seed=n)
    monkeypatch.setattr(index, "SEARCH_CAP", 5)
    monkeypatch.setattr(index, "EXPANSION_MAX", 3)
    # "a" starts eight words (more than three): checked against the newest five games only.
    page = log.page_of_games(search="a", limit=10)
    assert [summary.title for summary in page.summaries] == [f"Table {n}" for n in (7, 6, 5, 4, 3)]
    assert page.total == 5 and not page.complete
    # "bo" is one word with eight games (more than five): paged directly, exactly.
    page = log.page_of_games(search="bo", limit=3)
    assert page.total == 8 and page.complete and len(page.summaries) == 3
    # "table a7": "table" has eight games, "a7" one: the rarest word drives, and the count is exact.
    page = log.page_of_games(search="table a7")
    assert [summary.title for summary in page.summaries] == ["Table 7"] and page.complete
    # "bo a": "bo" is one word past the cap and "a" too broad: the newest five of bo's games, checked for "a".
    page = log.page_of_games(search="bo a", limit=10)
    assert page.total == 5 and not page.complete


def test_each_write_that_changes_a_summary_keeps_it(log: GameLog) -> None:
    rng = random.Random(3)
    game_id = log.create_game({"players": 2, "seed": 3, "title": "Long one"}).game_id
    [listed] = log.list_games()
    assert (listed.status, listed.round, listed.version, listed.winner) == ("in progress", 1, 1, None)
    game = log.get(game_id)
    while game.state.round == 1:
        game = log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="t").game
    [listed] = log.list_games()
    assert (listed.round, listed.version) == (2, game.version)
    log.undo(game_id, expected_version=game.version, actor="t")
    [listed] = log.list_games()
    assert listed.round == 1 and listed.version == game.version + 1, "an undo across a round's end"
    while not domain.is_over(game.state):
        game = log.get(game_id)
        if domain.is_over(game.state):
            break
        game = log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="t").game
    [listed] = log.list_games()
    assert listed.status == "finished" and listed.winner in {"Player 1", "Player 2"}
    other = log.create_game({"players": 2, "seed": 4, "title": "Dropped"}).game_id
    log.abandon(other, expected_version=1, actor="owner")
    assert log.list_games()[0].status == "abandoned"


def test_the_version_shown_is_the_games_own_between_summaries(log: GameLog) -> None:
    game_id = log.create_game({"players": 3, "seed": 5}).game_id
    list(play_random(log, game_id, 3, random.Random(1)))
    [listed] = log.list_games()
    assert listed.version == log.get(game_id).version == 4 and listed.round == 1


def test_a_summary_that_cannot_be_written_never_fails_the_write(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = log.create_game({"players": 2, "seed": 6}).game_id
    listing = log.stores.of(game_id).listing

    def broken(*_: object) -> None:
        raise ConnectionError("the store is gone for a moment")

    monkeypatch.setattr(listing, "keep_summary", broken)
    game = log.get(game_id)
    log.abandon(game_id, expected_version=game.version, actor="owner")
    assert log.get(game_id).status == "abandoned"


def test_a_game_of_rules_this_build_does_not_replay_is_listed_as_rules_unsupported(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Such a game is read as recorded (replay.rules): its summary is worked out all the same."""
    from replay import rules

    game_id = log.create_game({"players": 2, "seed": 6, "title": "From the future"}).game_id
    listing = log.stores.of(game_id).listing
    assert isinstance(listing, index.MemoryListing)
    listing._summaries.clear()  # as an archive projected from its index stream: no summary yet
    assert log.cache is not None
    log.cache.clear()
    monkeypatch.setattr(rules, "COMPATIBLE", frozenset())
    [listed] = log.list_games()
    assert (listed.title, listed.status, listed.version) == ("From the future", "rules unsupported", 1)


def test_a_search_word_whose_expansion_was_cut_is_checked_by_each_games_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Redis checks a search's other words by membership in the games of the words each one starts; a list cut
    at EXPANSION_MAX + 1 would miss the games of the words past the cut ("1" starting "19"). Found by the
    stores' suite, which lowers EXPANSION_MAX under MEMBERSHIP_MAX."""
    monkeypatch.setattr(index, "EXPANSION_MAX", 2)
    starts = {"night": [("night", 1)], "1": [("10", 1), ("11", 1), ("12", 1)], "2": [("20", 1), ("21", 1)]}
    cut = index.plan(index.Query(terms=("night", "1")), lambda terms: [starts[term] for term in terms])
    assert (cut.mode, cut.words, cut.filters) == ("gather", ("night",), (("1", None),))
    whole = index.plan(index.Query(terms=("night", "2")), lambda terms: [starts[term] for term in terms])
    assert whole.filters == (("2", ("20", "21")),)


def test_a_game_whose_first_record_is_missing_or_damaged_is_listed_damaged_without_reading_it(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each store answers a page with whether it holds its games' first records, and the records this process
    has not checked yet (replay.index.Row): a game whose ``GameCreated`` is gone, or fails its checksum, is
    listed damaged though no read of it found so."""
    from eventsourcing.persistence import StoredEvent

    games = [uuid.UUID(create(log, f"Game {n}", ["Aiko", "Ben"], seed=n)) for n in range(4)]
    log.abandon(games[3], expected_version=1, actor="owner")
    recorder: Any = log.stores.of(games[0]).recorder
    del recorder._stored_events_index[str(games[0])][1]  # the record is gone
    position = recorder._stored_events_index[str(games[1])][1]
    held = recorder._stored_events[position]
    flipped = held.state[:-3] + bytes([held.state[-3] ^ 1]) + held.state[-2:]
    recorder._stored_events[position] = StoredEvent(
        originator_id=held.originator_id, originator_version=1, topic=held.topic, state=flipped
    )

    def no_read(*_: object, **__: object) -> None:
        raise AssertionError("the list read a game whole")

    monkeypatch.setattr(log.stores.of(games[0]), "read", no_read)
    statuses = {summary.game_id: summary.status for summary in log.list_games()}
    assert statuses == {
        str(games[0]): "damaged",
        str(games[1]): "damaged",
        str(games[2]): "in progress",
        str(games[3]): "abandoned",
    }
    del recorder._stored_events_index[str(games[2])][1]  # gone after this process checked it
    assert [summary.status for summary in log.list_games()].count("damaged") == 3
