"""Requests served in the order they came: a ``heronlog serve`` worker runs at most ``HERONLOG_CONCURRENT_REQUESTS``
of them in the app at once; the rest wait their turn, first come, first served (docs/operations/slow-clients.md).

Why: a gevent worker runs each ready greenlet in turn. With 25 requests in the app, each Redis round trip puts a
request behind all the others again, so one that waits several times (a game's creation) finishes last: a long
tail. A handful at once still covers the Redis waits. gevent's own ``Semaphore`` lets a newcomer take a freed
place ahead of those waiting, so here the place is handed to the oldest waiter instead.

A request holds its place only while the app makes its answer. Its body was read before (api.server.slow_clients)
and its answer is written after, so a slow client never holds one; an event stream's events are sent outside it.
The probes and the metrics never wait: they are cheap, and wanted most when the worker is busiest.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from gevent.event import Event

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

PASS = frozenset({"/healthz", "/readyz", "/metrics"})
"""Paths that never wait their turn."""


class Turns:
    """At most ``places`` holders at once; the others wait, and a freed place goes to the one waiting longest."""

    def __init__(self, places: int) -> None:
        self.free = places
        self.waiting: deque[Event] = deque()

    def enter(self) -> None:
        """Take a place, waiting for one (behind every earlier waiter) when none is free."""
        if self.free > 0 and not self.waiting:
            self.free -= 1
            return
        turn = Event()
        self.waiting.append(turn)
        try:
            turn.wait()
        except BaseException:
            # Killed or timed out while waiting: a place already handed over goes on to the next one.
            if turn.is_set():
                self.leave()
            else:
                self.waiting.remove(turn)
            raise

    def leave(self) -> None:
        """Give the place up: to the oldest waiter, else back to the free ones."""
        if self.waiting:
            self.waiting.popleft().set()
        else:
            self.free += 1


def in_turn(app: WsgiApp, at_once: int) -> WsgiApp:
    """``app`` with at most ``at_once`` requests inside it at a time, the rest in order of arrival (0: no
    limit, ``app`` itself)."""
    if at_once <= 0:
        return app
    turns = Turns(at_once)

    def admitted(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        if environ.get("PATH_INFO") in PASS:
            return app(environ, start_response)
        turns.enter()
        try:
            return app(environ, start_response)
        finally:
            turns.leave()

    return admitted
