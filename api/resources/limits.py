"""Write rate limits and the idempotency cache: counters and answers kept in Redis when Redis is the store,
in this process otherwise.

Rate limits are fixed windows: at most N writes per window per token (per client address for writes made
without a token, such as creating a game). A refused write is ``429 rate_limited`` with ``Retry-After``.

The idempotency cache keeps the first answer to a write sent with an ``Idempotency-Key`` for a while, keyed by
who sent it (the token's hash, or the address) and the key; the same key with another request body is
refused (``422 idempotency_key_reused``). Recording moves is also de-duplicated durably by the game log
itself (the key is stored in the move's event), so a retried move is safe even after the cache forgot it.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from api.resources import fastjson

Clock = Callable[[], float]


@dataclass(frozen=True)
class Verdict:
    """A rate-limit decision: allowed or not, and when to try again."""

    allowed: bool
    limit: int
    remaining: int
    retry_after: int


class Counter(Protocol):
    def hit(self, key: str, window: int) -> tuple[int, int]:
        """Count one hit in the current window; return (hits so far, seconds until the window ends)."""


class MemoryCounter:
    """Fixed-window counters in this process (a lock, and a dictionary pruned as windows end)."""

    def __init__(self, clock: Clock = time.time) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._counts: dict[str, tuple[int, int]] = {}

    def hit(self, key: str, window: int) -> tuple[int, int]:
        now = self._clock()
        start = int(now // window) * window
        with self._lock:
            if len(self._counts) > 10_000:
                self._counts = {k: v for k, v in self._counts.items() if v[0] == start}
            began, count = self._counts.get(key, (start, 0))
            if began != start:
                count = 0
            count += 1
            self._counts[key] = (start, count)
        return count, max(1, int(start + window - now))


class RedisCounter:
    """Fixed-window counters in Redis: ``INCR`` a key named after the window, which expires with it. Each key
    stands alone (one slot), so this works on Redis Cluster too."""

    def __init__(self, client: Any, prefix: str, clock: Clock = time.time) -> None:
        self.client = client
        self._prefix = prefix
        self._clock = clock

    def window_key(self, key: str, window: int) -> tuple[str, int]:
        """The counter's key for the current window, and the seconds until that window ends."""
        now = self._clock()
        start = int(now // window) * window
        return f"{self._prefix}:ratelimit:{key}:{start}", max(1, int(start + window - now))

    def hit(self, key: str, window: int) -> tuple[int, int]:
        name, reset = self.window_key(key, window)
        pipe = self.client.pipeline(transaction=False)
        pipe.incr(name)
        pipe.expire(name, window + 1)
        count, _ = pipe.execute()
        return int(count), reset


class RateLimiter:
    """Allows ``limit`` hits per ``window`` seconds per key; a limit of 0 switches the check off."""

    def __init__(self, counter: Counter, window: int) -> None:
        self.counter = counter
        self.window = max(1, window)

    def check(self, key: str, limit: int) -> Verdict:
        if limit <= 0:
            return Verdict(True, 0, 0, 0)
        count, reset = self.counter.hit(key, self.window)
        return self.verdict(limit, count, reset)

    @staticmethod
    def verdict(limit: int, count: int, reset: int) -> Verdict:
        return Verdict(count <= limit, limit, max(0, limit - count), reset)

    def check_and_recall(
        self,
        key: str,
        limit: int,
        answers: AnswerCache,
        answer_key: str | None,
        extra: Sequence[Any] | None = None,
    ) -> tuple[Verdict, Remembered | None, Any]:
        """The rate-limit verdict for ``key``, the answer remembered under ``answer_key`` (if one is given),
        and the reply to ``extra``, a read-only command for the same Redis (the game a write is about, read
        ahead: ``api.app``), or None when it was not sent. One Redis round trip for all three when they live
        in the same Redis, as every write asks for them."""
        counter = self.counter
        if (
            limit > 0
            and isinstance(counter, RedisCounter)
            and isinstance(answers, RedisAnswers)
            and counter.client is answers.client
            and (answer_key is not None or extra is not None)
        ):
            name, reset = counter.window_key(key, self.window)
            pipe = counter.client.pipeline(transaction=False)
            pipe.incr(name)
            pipe.expire(name, self.window + 1)
            if answer_key is not None:
                pipe.get(answers.name(answer_key))
            if extra is not None:
                pipe.execute_command(*extra)
            replies = pipe.execute(raise_on_error=False)
            for reply in replies[: 3 if answer_key is not None else 2]:
                if isinstance(reply, Exception):
                    raise reply
            text = replies[2] if answer_key is not None else None
            remembered = Remembered.from_json(text) if text else None
            read = replies[-1] if extra is not None else None
            return self.verdict(limit, int(replies[0]), reset), remembered, read
        verdict = self.check(key, limit)
        remembered = answers.get(answer_key) if answer_key is not None and verdict.allowed else None
        return verdict, remembered, None


@dataclass(frozen=True)
class Remembered:
    """A write's first answer, as it was sent."""

    fingerprint: str
    status: int
    body: str
    headers: dict[str, str]

    def to_json(self) -> str:
        # msgspec (api.resources.fastjson): the body is a whole answer, a board included, escaped into one string.
        return fastjson.encode(
            {
                "fingerprint": self.fingerprint,
                "status": self.status,
                "body": self.body,
                "headers": self.headers,
            }
        ).decode()

    KEPT_HEADERS = ("Content-Type", "ETag", "Location")
    """The headers a retry gets back with the body (a new request id is given to each request)."""

    @classmethod
    def of(cls, fingerprint: str, response: Any) -> Remembered:
        """The answer ``response`` (a Flask response) as the cache keeps it."""
        keep = {name: value for name, value in response.headers.items() if name in cls.KEPT_HEADERS}
        return cls(fingerprint, response.status_code, response.get_data(as_text=True), keep)

    @classmethod
    def from_json(cls, text: str | bytes) -> Remembered:
        data = fastjson.decode(text)
        return cls(data["fingerprint"], int(data["status"]), data["body"], dict(data["headers"]))


class AnswerCache(Protocol):
    def get(self, key: str) -> Remembered | None: ...

    def put(self, key: str, answer: Remembered, ttl: int) -> None: ...


class MemoryAnswers:
    """Answers kept in this process, the oldest dropped first beyond ``capacity`` or after their time."""

    def __init__(self, capacity: int = 10_000, clock: Clock = time.time) -> None:
        self._capacity = capacity
        self._clock = clock
        self._lock = threading.Lock()
        self._items: OrderedDict[str, tuple[float, Remembered]] = OrderedDict()

    def get(self, key: str) -> Remembered | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                return None
            if item[0] < self._clock():
                del self._items[key]
                return None
            return item[1]

    def put(self, key: str, answer: Remembered, ttl: int) -> None:
        with self._lock:
            self._items[key] = (self._clock() + ttl, answer)
            self._items.move_to_end(key)
            while len(self._items) > self._capacity:
                self._items.popitem(last=False)


class RedisAnswers:
    """Answers kept in Redis with an expiry (``SET ... EX``), shared by every worker and server."""

    def __init__(self, client: Any, prefix: str) -> None:
        self.client = client
        self._prefix = prefix

    def name(self, key: str) -> str:
        return f"{self._prefix}:idempotency:{key}"

    def get(self, key: str) -> Remembered | None:
        text = self.client.get(self.name(key))
        return Remembered.from_json(text) if text else None

    def put(self, key: str, answer: Remembered, ttl: int) -> None:
        self.client.set(self.name(key), answer.to_json(), ex=ttl)


class StreamSlots:
    """How many event streams this process may hold open at once (``STREAM_MAX_OPEN``; 0: no cap). Each open
    stream holds one of the process's threads for up to ``STREAM_MAX_SECONDS``: without a cap, anyone could
    open a stream per thread (a public game needs no token) and every other request, moves included, would
    wait for a thread. ``heronlog serve`` leaves two threads of each worker to the rest of the API."""

    def __init__(self, limit: int) -> None:
        self.limit = max(0, limit)
        self._lock = threading.Lock()
        self.open = 0

    def take(self) -> bool:
        """Hold a slot for a new stream; False when every slot is held."""
        with self._lock:
            if self.limit and self.open >= self.limit:
                return False
            self.open += 1
            return True

    def give_back(self) -> None:
        with self._lock:
            self.open = max(0, self.open - 1)
