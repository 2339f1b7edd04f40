"""Warm reads: the warm cache is bounded by bytes, every version of a game read from the store is a
lookup after one refold, and an undo across a snapshot refolds only back to the snapshot before it.

"Read from the store" here: the game log's cache is emptied, so the next read folds the game from its latest
snapshot, as another worker (or this one after a restart) would. tests/integration/replay/test_warm_reads_stores.py
does the same with a second game log on SQLite and Redis."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any
from uuid import UUID, uuid4

import pytest

import domain
from replay import rules
from replay.application import GameLog
from replay.cache import WarmCache, budget_from
from replay.config import StoreConfig, open_log
from replay.game import Game, fold
from replay.snapshots import SNAPSHOT_EVERY
from tests.replay_helpers import canonical, pick


@pytest.fixture
def log() -> Iterator[GameLog]:
    app = open_log(StoreConfig(kind="memory"))
    yield app
    app.close()


class Sized:
    def __init__(self, size: int) -> None:
        self.estimated_bytes = size


# --- the cache ------------------------------------------------------------------------------------------------


def test_the_cache_never_holds_more_than_its_budget_and_drops_the_least_recently_used() -> None:
    cache = WarmCache(1_000)
    assert cache, "an empty cache is still a cache (the library tests `if self.cache`)"
    for key in "abcde":
        cache.put(key, Sized(300))
        assert cache.stats().bytes <= 1_000
    assert cache.peek("a") is None and cache.peek("b") is None, "the two oldest made room"
    cache.get("c")  # used: now the newest
    cache.put("f", Sized(300))
    assert cache.peek("c") is not None and cache.peek("d") is None
    stats = cache.stats()
    assert (stats.entries, stats.bytes, stats.evictions, stats.hits) == (3, 900, 3, 1)
    with pytest.raises(KeyError):
        cache.get("zzz")
    assert cache.stats().misses == 1


def test_a_value_heavier_than_half_the_budget_is_not_kept() -> None:
    cache = WarmCache(1_000)
    cache.put("small", Sized(100))
    cache.put("huge", Sized(600))
    assert cache.peek("huge") is None and cache.peek("small") is not None and cache.stats().refused == 1


def test_put_if_keeps_a_value_only_while_its_condition_holds() -> None:
    cache = WarmCache(1_000)
    cache.put("k", Sized(10))
    assert not cache.put_if("k", Sized(20), lambda held: held is None)
    assert cache.put_if("k", Sized(20), lambda held: held is not None)
    assert cache.stats().bytes == 20


def test_forgetting_a_stream_forgets_what_was_derived_from_it_and_nothing_else() -> None:
    """What a store does when it no longer holds a stream as this process knew it (replay.stores): the fold,
    its states off the line and its line lengths go; another stream's stay."""
    cache = WarmCache(10_000)
    lost, other = uuid4(), uuid4()
    keys = [lost, ("state", lost, 3), ("lines", lost), other, ("state", other, 3), ("lines", other)]
    for key in keys:
        cache.put(key, Sized(10))
    cache.forget_stream(lost)
    assert [cache.peek(key) is not None for key in keys] == [False, False, False, True, True, True]
    assert cache.stats().bytes == 30


def test_the_budget_comes_from_cache_mb_and_zero_turns_caching_off() -> None:
    assert budget_from({}) == 48 * 1024 * 1024
    assert budget_from({"CACHE_MB": "1.5"}) == 1_572_864
    assert budget_from({"CACHE_MB": "0"}) is None
    for wrong in ["-1", "lots"]:
        with pytest.raises(ValueError):
            budget_from({"CACHE_MB": wrong})
    off = open_log(StoreConfig(kind="memory"), CACHE_MB="0")
    game_id = off.create_game({"players": 2, "seed": 1}).game_id
    assert off.cache is None and off.stores.all[0].repository.cache is None
    assert off.state_at(game_id, 1) is not None
    off.close()


def test_touching_many_games_keeps_the_cache_within_its_budget(log: GameLog) -> None:
    small = open_log(StoreConfig(kind="memory"), CACHE_MB="1")
    rng = random.Random(2)
    for seed in range(12):
        game_id = small.create_game({"players": 3, "seed": seed}).game_id
        game = small.get(game_id)
        for _ in range(30):
            game = small.play(game_id, pick(game.state, rng), expected_version=game.version, actor="t").game
        assert small.cache is not None and small.cache.stats().bytes <= small.cache.budget
    assert small.cache is not None and small.cache.stats().evictions > 0
    small.close()


# --- warm reads --------------------------------------------------------------------------------------------


def record(log: GameLog, players: int = 4, seed: int = 9, moves: int = 400) -> UUID:
    """A seeded game with undone, redone and corrected moves (some versions are then off the line)."""
    rng = random.Random(seed)
    # Snapshots fall at versions drawn from the game's id (replay.snapshots.snapshot_phase). Phase 46 puts one at
    # version 96, whose move the undo at 97 takes back: a cold read from it then plays the line again from its
    # first move (base 0), correct but not what these tests read. Phase 0 keeps every snapshot clear of an undo.
    phased = UUID(int=uuid4().int // SNAPSHOT_EVERY * SNAPSHOT_EVERY)
    game_id = log.create_game({"players": players, "seed": seed}, game_id=phased).game_id
    game = log.get(game_id)
    for step in range(moves):
        if domain.is_over(game.state):
            break
        if step % 37 == 20 and len(game.line) > 3:
            game = log.undo(game_id, expected_version=game.version, actor="t").game
            if step % 2:
                game = log.redo(game_id, expected_version=game.version, actor="t").game
            continue
        game = log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="t").game
    log.flush_snapshots()
    return game_id


def cold(log: GameLog) -> None:
    """Forget every game this process keeps: the next read comes from the store (its latest snapshot)."""
    assert log.cache is not None
    log.cache.clear()


class Counted:
    """Counts the moves the rules engine re-applies (a refold's work)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        plain = rules.reapply

        def counting(state: Any, move: Any, chance: Any) -> Any:
            self.calls += 1
            return plain(state, move, chance)

        monkeypatch.setattr(rules, "reapply", counting)


def test_every_version_of_a_game_read_from_the_store_is_its_fold_from_scratch(log: GameLog) -> None:
    game_id = record(log)
    events = list(log.stores.of(game_id).events.get(game_id))
    cold(log)
    for version in range(len(events), 0, -1):  # from the last: each earlier one reaches further back
        assert canonical(log.state_at(game_id, version)) == canonical(fold(events[:version]).state), version


def test_the_first_earlier_version_refolds_the_line_once_then_every_version_is_a_lookup(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = record(log)
    cold(log)
    game = log.get(game_id)
    assert game.base > 0, "read back from a snapshot: only the states after it"
    counted = Counted(monkeypatch)
    log.state_at(game_id, 2)
    assert counted.calls <= game.base, "one refold, from the opening"
    kept = log.get(game_id)
    assert kept.base == 0 and len(kept.states) == len(kept.line) + 1
    counted.calls = 0
    on_line = [version for version in range(1, game.version + 1) if log.line_lengths(game)[version] >= 0]
    for version in on_line:
        log.state_at(game_id, version)
    assert counted.calls == 0, "every state of the line is in memory"


def test_a_version_off_the_line_is_folded_once_and_kept(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = record(log)
    game = log.get(game_id)
    off = [version for version in range(1, game.version + 1) if log.line_lengths(game)[version] < 0]
    assert off, "the recorded game has undone moves"
    first = log.state_at(game_id, off[0])
    counted = Counted(monkeypatch)
    assert log.state_at(game_id, off[0]) is first and counted.calls == 0


def test_an_undo_across_a_snapshot_refolds_from_the_snapshot_before_it_not_the_whole_line(
    log: GameLog, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(5)
    game_id = log.create_game({"players": 4, "seed": 5}).game_id
    game = log.get(game_id)
    snapshots = log.stores.of(game_id).snapshots
    assert snapshots is not None

    def snapshot_now() -> bool:
        latest = list(snapshots.get(game_id, desc=True, limit=1))
        return bool(latest) and latest[0].originator_version == game.version

    while not (len(game.line) > SNAPSHOT_EVERY + 1 and snapshot_now()):
        assert not domain.is_over(game.state), "the game ended before a snapshot past 51 moves"
        game = log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="t").game
    cold(log)
    assert log.get(game_id).base == len(game.line), "read back: only the snapshot's state"
    counted = Counted(monkeypatch)
    after = log.undo(game_id, expected_version=game.version, actor="t").game
    # Snapshots are at most SNAPSHOT_EVERY events apart: the refold starts at the one before, not the opening.
    assert 0 < counted.calls <= SNAPSHOT_EVERY < len(game.line) - 1, counted.calls
    events = list(log.stores.of(game_id).events.get(game_id))
    assert canonical(after.state) == canonical(fold(events).state)
    assert after.line == game.line[:-1]


def test_games_read_from_the_store_share_one_catalog(log: GameLog) -> None:
    first = log.create_game({"players": 2, "seed": 1}).game_id
    second = log.create_game({"players": 3, "seed": 2}).game_id
    cold(log)
    one, two = log.get(first), log.get(second)
    assert one.catalog is two.catalog and isinstance(one, Game)
    assert one.catalog == domain.catalog_of(one.state)
