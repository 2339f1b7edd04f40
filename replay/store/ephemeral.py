"""Short-lived records of a Redis store (:mod:`replay.ephemeral`): rate-limit counters and receipts, as keys under
the store's hash tag, so a node that is down stops only its own games' writes.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import cast

from replay.ephemeral import window_of
from replay.store.datastore import RedisDatastore


class RedisEphemeral:
    """Counters and receipts of one store, under its hash tag ``tag``."""

    def __init__(self, datastore: RedisDatastore, tag: str, clock: Callable[[], float] = time.time) -> None:
        self._datastore = datastore
        self._tag = tag
        self._clock = clock

    def counter(self, key: str, window: int) -> tuple[str, int, int]:
        """The counter of ``key``'s current window: its name, how long it is kept (seconds), and the seconds left
        of the window. A write's count may travel with its read (``GameStore.count_reading``)."""
        start, left = window_of(self._clock(), window)
        return f"{self._tag}:ratelimit:{key}:{start}", window + 1, left

    def hit(self, key: str, window: int, weight: int = 1) -> tuple[int, int]:
        name, seconds, left = self.counter(key, window)
        pipe = self._datastore.client.pipeline(transaction=False)
        pipe.incrby(name, weight)
        pipe.expire(name, seconds)
        count, _ = self._datastore.write(pipe.execute)
        return int(count), left

    def claimed(self, key: str) -> str:
        """The Redis key a key use is kept under (a count may claim it in its own script)."""
        return f"{self._tag}:keyuse:{key}"

    def claim(self, key: str, value: str, seconds: int) -> str:
        name = self.claimed(key)
        pipe = self._datastore.client.pipeline(transaction=False)
        pipe.set(name, value, ex=max(1, seconds), nx=True)
        pipe.get(name)
        _, kept = self._datastore.write(pipe.execute)
        return kept.decode() if isinstance(kept, bytes) else value

    def hit_and_claim(
        self, key: str, window: int, weight: int, claim: tuple[str, str, int]
    ) -> tuple[int, int, str]:
        """:meth:`hit` and :meth:`claim` in one round trip (a pipeline)."""
        name, seconds, left = self.counter(key, window)
        used, value, keep = claim
        pipe = self._datastore.client.pipeline(transaction=False)
        pipe.incrby(name, weight)
        pipe.expire(name, seconds)
        pipe.set(self.claimed(used), value, ex=max(1, keep), nx=True)
        pipe.get(self.claimed(used))
        count, _, _, kept = self._datastore.write(pipe.execute)
        return int(count), left, kept.decode() if isinstance(kept, bytes) else value

    def add(self, key: str, value: bytes, seconds: int) -> bool:
        name = f"{self._tag}:receipt:{key}"
        return bool(
            self._datastore.write(
                lambda: self._datastore.client.set(name, value, ex=max(1, seconds), nx=True)
            )
        )

    def get(self, key: str) -> bytes | None:
        name = f"{self._tag}:receipt:{key}"
        return cast(bytes | None, self._datastore.read(lambda: self._datastore.client.get(name)))
