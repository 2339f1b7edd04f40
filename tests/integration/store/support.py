"""Helpers for the Redis store tests: per-test key prefixes, their cleanup, a Redis-backed projection view."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from uuid import uuid4

import redis
from eventsourcing.persistence import Tracking
from eventsourcing.tests.projection import EventCountersView
from redis.cluster import RedisCluster

from replay.store import RedisDatastore, RedisTrackingRecorder


def fresh_prefix() -> str:
    """A key prefix no other test uses, so tests never see each other's keys (and may run in parallel)."""
    return "test-" + uuid4().hex[:12]


def purge(url: str, prefix: str) -> int:
    """Delete the keys under one prefix (SCAN + UNLINK, never FLUSHALL: the servers are shared)."""
    datastore = RedisDatastore(url, prefix=prefix, check_durability=False)
    client = datastore.client
    try:
        keys = list(client.scan_iter(match="{" + prefix + ":*", count=1000))
        for key in keys:
            client.unlink(key)
        return len(keys)
    finally:
        datastore.close()


def raw_client(url: str) -> redis.Redis | RedisCluster:
    """A plain redis-py client for looking at what the recorders stored."""
    datastore = RedisDatastore(url, prefix="raw", check_durability=False)
    return datastore.client


class RedisEventCountersView(RedisTrackingRecorder, EventCountersView):
    """The library's event-counters view kept in Redis: each count changes atomically with its tracking."""

    def get_created_event_counter(self) -> int:
        return self._count(b"created")

    def get_subsequent_event_counter(self) -> int:
        return self._count(b"subsequent")

    def incr_created_event_counter(self, tracking: Tracking) -> None:
        self.insert_tracking(tracking, ("HINCRBY", "counters", "created", 1))

    def incr_subsequent_event_counter(self, tracking: Tracking) -> None:
        self.insert_tracking(tracking, ("HINCRBY", "counters", "subsequent", 1))

    def _count(self, field: bytes) -> int:
        client = self.datastore.client
        value = self.datastore.read(lambda: client.hget(self.view_key("counters"), field))
        return int(value or 0)


ROOT = Path(__file__).resolve().parents[3]


def in_patched_process(code: str, *args: str) -> Any:
    """What ``code`` prints as JSON when run in a process of its own, with this tree on its path and ``args`` as
    its arguments: code that patches the standard library for gevent first, as ``heronlog serve``'s workers do,
    without patching the test process."""
    paths = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr  # the process's own error, not only its exit code
    return json.loads(done.stdout)
