"""Each of ``heronlog serve``'s workers kept on a CPU of its own, when the workers fill the machine.

A gunicorn worker is one Python process whose threads share one interpreter lock. When a thread's answer
from Redis or a client arrives, the kernel may wake it on the other CPU while the lock's holder runs here:
it spins up there only to wait for the lock, and the hand-over crosses CPUs (cold caches, a wake-up of a
thread on another CPU each time). Kept on one CPU, a worker's threads take turns in place, and each worker's
games stay in its own CPU's caches. Measured with the load benchmark in interleaved runs on the 2-core machine
(the README, "Load"): at 500 moves/s a worker switched threads about half as often, and the median answer
took about half as long.

Modes (``--pin-workers``, ``HERONLOG_PIN_WORKERS``):

* ``auto`` (the default) pins only when there are exactly as many workers as CPUs this process may run on:
  each worker then has a CPU to itself and none is left idle. A container limited by a CPU quota rather than
  a CPU set may run on every CPU of its host, so ``auto`` leaves its workers alone (pinning there would put
  every replica's workers on the host's first CPUs);
* ``yes`` always pins, the workers spread over the allowed CPUs;
* ``no`` never does.

The master chooses before forking (gunicorn's ``pre_fork``): the allowed CPU the fewest live workers are
kept on, the lowest first (:func:`choose_cpu`), so a worker started again after a crash takes the CPU its
predecessor left. The new worker applies it first thing (``post_fork``); the threads it starts afterwards
inherit it.
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
