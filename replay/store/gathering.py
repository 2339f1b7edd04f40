"""Scripts gathered into one round trip, so that Redis syncs its append-only file once for many writes.

With ``appendfsync always`` Redis syncs the file once per turn of its event loop, for every command that turn read.
Behind the earlier threaded server requests reached Redis in bunches and shared syncs; behind a gevent worker
(``heronlog serve``) each greenlet sends its script alone, and Redis synced once per 1.6 write commands instead
of 7.6, spending about 60 % more CPU (docs/operations/slow-clients.md). Here the scripts that a worker's
greenlets send during one turn of gevent's loop go as one pipeline (not a transaction: each script stays atomic
on its own, as before), and each caller gets its own reply or its own error. In a process gevent has not
patched, scripts go one by one.

The switch is ``REDIS_GATHER`` (``yes`` by default); a cluster client never gathers (its pipelines split by node).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import redis
import redis.exceptions as rex

Arguments = Sequence[str | bytes | int | float]


class Sendable(Protocol):
    """A script as :class:`Gathering` sends it (``replay.store.datastore.Script``)."""

    sha: str

    def whole(self, keys: Sequence[str], args: Arguments) -> Any: ...


def cooperative() -> bool:
    """Whether gevent has made this process's sockets cooperative (a ``heronlog serve`` worker)."""
    try:
        from gevent import monkey
    except ImportError:  # pragma: no cover - gevent is a dependency
        return False
    return bool(monkey.is_module_patched("socket"))


def together(calls: Sequence[Callable[[], None]]) -> None:
    """Make ``calls`` at once, each in a greenlet of its own, in a process gevent made cooperative: the scripts
    they send in the same turn then travel in one round trip (what follows a write: the list's summary and the
    players' facts). Elsewhere, one after the other. An error of any of them is raised once all are done."""
    if len(calls) < 2 or not cooperative():
        for call in calls:
            call()
        return
    import gevent

    others = [gevent.spawn(call) for call in calls[1:]]
    try:
        calls[0]()
    finally:
        gevent.joinall(others)
    for other in others:
        if other.exception is not None:
            raise other.exception


class Gathering:
    """The scripts waiting to be sent to one Redis client in the current turn of gevent's loop."""

    def __init__(self, client: redis.Redis) -> None:
        self.client = client
        self.waiting: list[tuple[Sendable, Sequence[str], Arguments, Any]] = []
        self.sent = 0
        """Round trips sent (a pipeline is one); beside the scripts they carried, what gathering saved."""
        self.scripts = 0

    def send(self, script: Sendable, keys: Sequence[str], args: Arguments) -> Any:
        """Send ``script`` with the others of this turn and wait for its own reply (or raise its own error)."""
        import gevent
        from gevent.event import AsyncResult

        result: AsyncResult[Any] = AsyncResult()
        self.waiting.append((script, keys, args, result))
        if len(self.waiting) == 1:
            # Runs once every greenlet ready in this turn has run up to its own wait.
            gevent.get_hub().loop.run_callback(self._flush)
        return result.get()

    def _flush(self) -> None:
        import gevent

        waiting, self.waiting = self.waiting, []
        gevent.spawn(self._send, waiting)  # the loop's callback cannot wait on a socket itself

    def _send(self, waiting: list[tuple[Sendable, Sequence[str], Arguments, Any]]) -> None:
        self.sent += 1
        self.scripts += len(waiting)
        try:
            pipe = self.client.pipeline(transaction=False)
            for script, keys, args, _ in waiting:
                pipe.evalsha(script.sha, len(keys), *keys, *args)
            replies = pipe.execute(raise_on_error=False)
            for (script, keys, args, result), reply in zip(waiting, replies, strict=True):
                if isinstance(reply, rex.NoScriptError):  # it did not run: sent whole, once
                    try:
                        result.set(script.whole(keys, args))
                    except Exception as error:
                        result.set_exception(error)
                elif isinstance(reply, Exception):
                    result.set_exception(reply)
                else:
                    result.set(reply)
        except BaseException as error:
            # The connection failed (or this greenlet was killed): every script not answered learns it, and its
            # caller treats it as any lost reply (replay.store.errors: the outcome of a write is unknown).
            for *_, result in waiting:
                if not result.ready():
                    result.set_exception(
                        error if isinstance(error, Exception) else rex.ConnectionError(str(error))
                    )
            if not isinstance(error, Exception):
                raise
