"""Each of ``heronlog serve``'s workers kept on a CPU of its own, when the workers fill the machine.

A worker is one process; kept on a CPU of its own, its caches stay warm and the workers never queue on one CPU
(``--pin-workers``).
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Sequence
from typing import Any

from api.server import hooks

MODES = ("auto", "yes", "no")


def allowed_cpus() -> list[int]:
    """The CPUs this process may run on (all of them where the system cannot tell or cannot pin)."""
    if not hasattr(os, "sched_getaffinity"):
        return list(range(os.cpu_count() or 1))
    return sorted(os.sched_getaffinity(0))


def should_pin(mode: str, workers: int, allowed: Collection[int]) -> bool:
    """Whether ``workers`` workers are pinned in ``mode`` when the process may run on ``allowed``."""
    if mode not in MODES:
        raise ValueError(f"HERONLOG_PIN_WORKERS is auto, yes or no, not {mode!r}")
    if mode == "yes":
        if not hasattr(os, "sched_setaffinity"):
            raise ValueError("this system cannot keep a process on given CPUs: use --pin-workers no")
        return True
    return mode == "auto" and hasattr(os, "sched_setaffinity") and workers == len(allowed)


def choose_cpu(allowed: Sequence[int], taken: Iterable[int | None]) -> int:
    """The CPU of ``allowed`` that the fewest of the live workers' CPUs (``taken``; None: not pinned) are,
    the lowest first."""
    counts = dict.fromkeys(allowed, 0)
    for cpu in taken:
        if cpu in counts:
            counts[cpu] += 1
    return min(allowed, key=lambda cpu: (counts[cpu], cpu))


def install(options: dict[str, Any], mode: str) -> bool:
    """Add the hooks that pin the workers to gunicorn ``options`` when ``mode`` says so for this machine,
    after any hook already there for the same events; True when they were added."""
    allowed = allowed_cpus()
    if not should_pin(mode, int(options.get("workers", 1)), allowed):
        return False

    def choose(server: Any, worker: Any) -> None:
        live = [getattr(other, "pinned_cpu", None) for other in server.WORKERS.values()]
        worker.pinned_cpu = choose_cpu(allowed, live)

    def pin(server: Any, worker: Any) -> None:
        os.sched_setaffinity(0, {worker.pinned_cpu})
        server.log.info("worker %s kept on CPU %s", os.getpid(), worker.pinned_cpu)

    hooks.add(options, "pre_fork", choose)
    hooks.add(options, "post_fork", pin)
    return True
