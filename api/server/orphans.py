"""A ``heronlog serve`` worker ends with its master, however the master ended.

gunicorn's workers are processes forked by the master. When the master is stopped as it should be (SIGTERM,
SIGINT), it stops them first. When it is killed outright (``kill -9``, the out-of-memory killer, a container
runtime that gave up waiting), a worker only notices at its next look at its parent, then stops gracefully: it
keeps serving the connections it holds for up to gunicorn's graceful timeout (30 s), an open event stream among
them, and keeps the listening socket it inherited open meanwhile. A ``heronlog serve`` started again in that time
found the port taken, or shared it with orphans that no master watched.

So each worker asks the kernel, first thing after the fork, to kill it the moment its master dies
(``prctl(PR_SET_PDEATHSIG, SIGKILL)``, Linux): the port is free as soon as the master is gone, and a restart
serves within the second or two its start takes. A worker whose master died before it could ask exits at once.
Elsewhere (no ``prctl``) gunicorn's own check remains.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
from typing import Any

from api.server import hooks

PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal this process gets when its parent dies (``<linux/prctl.h>``)."""


def die_with_parent(expected_parent: int) -> bool:
    """Have the kernel kill this process when its parent dies; True when it will. Exits at once when the parent
    (``expected_parent``) is gone already."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        return False
    if os.getppid() != expected_parent:  # the master died between the fork and the prctl
        os._exit(0)
    return True


def install(options: dict[str, Any]) -> None:
    """Add the hook that ties each worker to its master to gunicorn ``options`` (after any other ``post_fork``)."""

    def tie(server: Any, worker: Any) -> None:
        if die_with_parent(worker.ppid):
            server.log.debug("worker %s ends with its master %s", os.getpid(), worker.ppid)

    hooks.add(options, "post_fork", tie)
