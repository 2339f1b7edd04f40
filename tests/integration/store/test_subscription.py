"""Subscriptions follow the log: in order, without gaps, from before they started and across processes."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from uuid import uuid4

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Notification, StoredEvent

from replay.store import RedisApplicationRecorder, RedisDatastore
from tests.integration.store.follower import Games
from tests.integration.store.support import RedisEventCountersView

ROOT = Path(__file__).resolve().parents[3]
MakeDatastore = Callable[[str], RedisDatastore]


def test_a_subscription_delivers_old_and_new_notifications_in_order_without_gaps(
    any_url: str, make_datastore: MakeDatastore
) -> None:
    recorder = RedisApplicationRecorder(make_datastore(any_url), name="games")
    writer = RedisApplicationRecorder(make_datastore(any_url), name="games")
    games = [uuid4() for _ in range(3)]
    for version in range(1, 4):
        recorder.insert_events([StoredEvent(game, version, f"t{version % 2}", b"") for game in games])
    received: list[Notification] = []

    def write_more() -> None:
        for version in range(4, 14):
            writer.insert_events([StoredEvent(game, version, f"t{version % 2}", b"") for game in games])

    with recorder.subscribe(gt=2) as subscription:
        thread = threading.Thread(target=write_more)
        thread.start()
        for notification in subscription:
            received.append(notification)
            if notification.id == 39:
                break
        thread.join()
    assert [n.id for n in received] == list(range(3, 40))

    with recorder.subscribe(gt=None, topics=["t1"]) as subscription:
        odd = []
        for notification in subscription:
            odd.append(notification)
            if len(odd) == 21:
                break
    assert all(n.topic == "t1" for n in odd)
    assert [n.id for n in odd] == [n.id for n in recorder.select_notifications(None, 100, topics=["t1"])]


def test_a_projection_in_another_process_follows_this_ones_notifications(
    redis_url: str, prefix: str, make_datastore: MakeDatastore
) -> None:
    env = {"PERSISTENCE_MODULE": "replay.store", "REDIS_URL": redis_url, "REDIS_KEY_PREFIX": prefix}
    app = Games(env=env)
    make_datastore(redis_url)  # deletes this test's keys afterwards
    try:
        before = Aggregate()
        before.trigger_event(Aggregate.Event)
        app.save(before)  # recorded before the other process subscribes: it must catch up
        with subprocess.Popen(
            [sys.executable, "-m", "tests.integration.store.follower", redis_url, prefix],
            cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        ) as follower:
            assert follower.stdout is not None and follower.stdout.readline().strip() == "following"
            last = None
            for _ in range(5):
                aggregate = Aggregate()
                aggregate.trigger_event(Aggregate.Event)
                aggregate.trigger_event(Aggregate.Event)
                last = app.save(aggregate)[-1].notification.id
            view = RedisEventCountersView(make_datastore(redis_url), name="eventcounters")
            view.wait("Games", last, timeout=15)
            assert last == 17
            assert view.max_tracking_id("Games") == 17
            assert view.get_created_event_counter() == 6
            assert view.get_subsequent_event_counter() == 11
            assert follower.stdin is not None
            follower.stdin.close()
            assert follower.wait(timeout=15) == 0
    finally:
        app.close()
