"""The server under ``heronlog serve``: stock gunicorn and its stock gevent worker, chosen by name, with documented
settings and hooks only. Each connection is a greenlet, so slow readers, event streams and silent connections cost
a socket, never a thread (docs/operations/slow-clients.md)."""

from __future__ import annotations

import resource
from collections.abc import Callable
from typing import Any

WORKER_CLASS = "gevent"
"""gunicorn's stock worker class, by its documented name (``worker_class``)."""

KEEPALIVE_SECONDS = 5
"""gunicorn's ``keepalive``: how long a gevent worker waits for a request's head on a connection, its first
included. A connection that sends none whole in that time (silent, idle between requests, or a slowloris head) is
closed."""

SPARE_FILES = 256
"""Open files a worker needs beyond its connections: the store's sockets or SQLite files, logs, metrics files."""

STREAMS_PER_WORKER = 100
"""Event streams one worker holds open at once, unless ``HERONLOG_STREAM_MAX_OPEN`` says otherwise: a stream
costs a greenlet, and on SQLite a read of the game every half second."""


def raise_open_files(connections: int) -> tuple[int, int] | None:
    """Raise this process's open-file soft limit to its hard limit when it is lower than ``connections`` and the
    worker's other files need (gunicorn's workers inherit it); the limits before and after when it was raised,
    else None. Debian's usual soft limit, 1,024 files, would refuse connections long before a worker's cap."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = connections + SPARE_FILES
    if soft != resource.RLIM_INFINITY and soft < needed and (hard == resource.RLIM_INFINITY or hard > soft):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        return soft, hard
    return None


def open_files_limit() -> int:
    """The open-file soft limit in force (``RLIM_INFINITY`` counted as a very large number)."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return 1 << 30 if soft == resource.RLIM_INFINITY else int(soft)


def patch_for_gevent() -> None:
    """Make the standard library cooperative (sockets, threads, locks, ``time.sleep``) in this process before
    the app's modules are imported, as gevent asks: a lock made at import time before the patch would be a real
    one, and a greenlet waiting on it would stop its whole worker. The master patches itself first thing; each
    worker, forked from it, is patched already (and gunicorn's worker patches again, which changes nothing)."""
    from gevent import monkey

    monkey.patch_all()


def options(
    *,
    bind: str,
    workers: int,
    connections: int,
    reuse_port: bool,
    post_worker_init: Callable[[Any], object],
) -> dict[str, Any]:
    """gunicorn's settings for ``heronlog serve``: stock gevent workers holding up to ``connections``
    connections each (``worker_connections``; beyond that, new connections wait in the kernel's queue)."""
    chosen: dict[str, Any] = {
        "bind": bind,
        "workers": workers,
        "worker_class": WORKER_CLASS,
        "worker_connections": connections,
        "keepalive": KEEPALIVE_SECONDS,
        # A worker whose loop has not run for this long (one request's CPU without end) is restarted.
        "timeout": 60,
        "accesslog": None,
        # With SO_REUSEPORT each worker listens on its own socket and the kernel spreads connections by a hash;
        # without it the workers share one socket, each accepting one connection at a time.
        "reuse_port": reuse_port,
        "post_worker_init": post_worker_init,
    }
    from gunicorn.config import Config

    if "control_socket_disable" in Config().settings:
        # gunicorn 25.1+ opens a control socket in $HOME by default: two servers on one machine would share
        # it, and a read-only container has no $HOME to write to.
        chosen["control_socket_disable"] = True
    return chosen


def run(factory: Callable[[], Any], settings: dict[str, Any]) -> None:
    """Serve the WSGI app ``factory`` builds, in each worker after the fork (never in the master), with the
    gunicorn ``settings``, until the master is stopped."""
    from gunicorn.app.base import BaseApplication

    class Server(BaseApplication):  # type: ignore[misc]  # gunicorn's documented way to embed it; no type hints
        def load_config(self) -> None:
            for key, value in settings.items():
                self.cfg.set(key, value)

        def load(self) -> Any:
            return factory()

    Server().run()
