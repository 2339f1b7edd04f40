"""replay.watch: a spectator's stream wakes when its game changes, never misses a change committed after its
mark, is not woken by other games, and the watch's thread runs only while someone waits.

The recorder here is a small stand-in with the Redis recorder's four calls (its blocking read is a condition
variable); tests/e2e/api/test_games_http.py runs the real one on Redis and on the Redis Cluster.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any
from uuid import uuid4

from replay.config import StoreConfig, open_log
from replay.watch import ChangeWatch, can_watch


class Log:
    """A notification log and its notices, in memory; ``fail`` makes every call raise, as a store that went
    away."""

    def __init__(self) -> None:
        self.changed = threading.Condition()
        self.records: list[Any] = []
        self.fail = False

    def commit(self, originator: Any) -> None:
        with self.changed:
            self.records.append(SimpleNamespace(id=len(self.records) + 1, originator_id=originator))
            self.changed.notify_all()

    def break_down(self) -> None:
        with self.changed:
            self.fail = True
            self.changed.notify_all()

    def _check(self) -> None:
        if self.fail:
            raise ConnectionError("the store went away")

    def max_notification_id(self) -> int | None:
        self._check()
        return len(self.records) or None

    def last_notice(self) -> bytes:
        self._check()
        return str(len(self.records)).encode()

    def select_notifications(self, start: int | None, limit: int, **options: Any) -> Sequence[Any]:
        self._check()
        first = (start or 0) + (0 if options.get("inclusive_of_start", True) else 1)
        return [record for record in self.records if record.id >= first][:limit]

    def wait_for_notice(self, after: bytes, timeout_ms: int) -> bool:
        with self.changed:
            self.changed.wait_for(lambda: self.fail or len(self.records) > int(after), timeout_ms / 1000)
        self._check()
        return len(self.records) > int(after)


def eventually(condition: Callable[[], bool], seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def woken(watch: ChangeWatch, game: Any, mark: int, then: Callable[[], None]) -> bool | None:
    """Wait for ``game`` for five minutes in a thread, do ``then``, and give the thread 10 s: what its wait
    answered, or None when it was still waiting (never woken)."""
    answers: list[bool] = []
    waiter = threading.Thread(target=lambda: answers.append(watch.wait(game, mark, timeout=300)), daemon=True)
    waiter.start()
    assert eventually(lambda: bool(watch._waiters.get(game)))
    then()
    waiter.join(timeout=10)
    return answers[0] if answers else None


def test_a_change_after_the_mark_wakes_the_games_waiter() -> None:
    log, game = Log(), uuid4()
    watch = ChangeWatch(log, block_ms=50)
    mark = watch.mark()
    assert woken(watch, game, mark, lambda: log.commit(game)) is True


def test_a_change_committed_between_the_mark_and_the_wait_is_not_missed() -> None:
    log, game = Log(), uuid4()
    watch = ChangeWatch(log, block_ms=50)
    mark = watch.mark()
    log.commit(game)  # as if committed while the stream read the game, before it waits
    assert eventually(lambda: watch.mark() > mark)
    assert watch.wait(game, mark, timeout=0) is True


def test_a_change_of_another_game_does_not_wake_a_waiter() -> None:
    log, game, other = Log(), uuid4(), uuid4()
    watch = ChangeWatch(log, block_ms=50)
    mark = watch.mark()
    log.commit(other)
    assert eventually(lambda: watch.mark() > mark)
    assert watch.wait(game, mark, timeout=0.2) is False
    assert watch.wait(other, mark, timeout=0) is True


def test_a_change_before_the_mark_is_not_news() -> None:
    log, game = Log(), uuid4()
    log.commit(game)
    watch = ChangeWatch(log, block_ms=50)
    mark = watch.mark()
    assert mark == 1
    assert watch.wait(game, mark, timeout=0.2) is False


def test_the_thread_stops_when_no_one_waits_and_the_next_mark_starts_it_from_the_logs_end() -> None:
    log, game = Log(), uuid4()
    now = [0.0]
    watch = ChangeWatch(log, block_ms=20, idle_seconds=5, clock=lambda: now[0])
    watch.mark()
    assert watch.following
    now[0] = 4.0
    time.sleep(0.1)
    assert watch.following  # used 4 s ago: still following
    now[0] = 10.0
    assert eventually(lambda: not watch.following)
    log.commit(game)  # while no one follows the log
    mark = watch.mark()
    assert watch.following and mark == 1
    assert watch.wait(game, mark, timeout=0.2) is False
    assert woken(watch, game, mark, lambda: log.commit(game)) is True


def test_a_waiter_keeps_the_thread_going_however_long_it_waits() -> None:
    log, game = Log(), uuid4()
    now = [0.0]
    watch = ChangeWatch(log, block_ms=20, idle_seconds=5, clock=lambda: now[0])
    mark = watch.mark()

    def later() -> None:
        now[0] = 100.0
        time.sleep(0.1)
        assert watch.following
        log.commit(game)

    assert woken(watch, game, mark, later) is True


def test_a_store_failure_wakes_every_waiter_and_the_next_mark_starts_again() -> None:
    log, game = Log(), uuid4()
    watch = ChangeWatch(log, block_ms=50)
    mark = watch.mark()
    answers: list[bool] = []
    waiters = [
        threading.Thread(target=lambda: answers.append(watch.wait(game, mark, timeout=60))) for _ in range(3)
    ]
    for waiter in waiters:
        waiter.start()
    assert eventually(lambda: len(watch._waiters.get(game, ())) == 3)
    log.break_down()
    for waiter in waiters:
        waiter.join(timeout=30)
        assert not waiter.is_alive()
    assert answers == [False, False, False]
    assert not watch.following
    log.fail = False
    mark = watch.mark()
    assert watch.following
    assert woken(watch, game, mark, lambda: log.commit(game)) is True


def test_only_a_store_that_can_block_gets_a_watch() -> None:
    assert can_watch(Log())
    log = open_log(StoreConfig(kind="memory"))
    try:
        assert not can_watch(log.stores.all[0].recorder)
        assert log.watch_for(uuid4()) is None
    finally:
        log.close()
