"""Requests at once, per worker: a gevent worker runs every request it has accepted side by side, and each of
them gives way to all the others at each of its store round trips, so under load a request that makes many trips
waits many times over (the tail of the latency grows with the number in flight). At most
``HERONLOG_REQUESTS_AT_ONCE`` requests of a worker (8 by default) run the app at once, in the order they came
(gevent's semaphore wakes its waiters in order); the others wait their turn before the app, their bodies read
already (api.server.slow_clients), their answers written after it. Probes and event streams pass: a probe must
answer beside any load, and a stream's work happens while it is written."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

PASS = ("/healthz", "/readyz", "/metrics")
"""Paths never held: the probes and the metrics, cheap and wanted most when the server is busy."""

WsgiApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]


def in_turn(app: WsgiApp, at_once: int) -> WsgiApp:
    """``app`` run by at most ``at_once`` requests of this worker at once, in the order they came (``app``
    itself when ``at_once`` is 0). The semaphore is gevent's: made in the worker, after the fork."""
    if at_once <= 0:
        return app
    from gevent.lock import BoundedSemaphore

    turns = BoundedSemaphore(at_once)

    def held(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        path = environ.get("PATH_INFO", "")
        if path in PASS or path.endswith("/stream"):
            return app(environ, start_response)
        with turns:
            return app(environ, start_response)

    return held
