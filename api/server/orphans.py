"""A ``heronlog serve`` worker ends with its master, however the master ended.

Each worker asks the kernel to be killed with its master, so a master killed with ``kill -9`` leaves no worker
holding the port or an open event stream.
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
