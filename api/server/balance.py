"""Keep-alive connections spread evenly over ``heronlog serve``'s workers.

A gunicorn worker is one Python process: its threads share one interpreter lock, so a worker does at most
about one core's work. A keep-alive connection stays with the worker that accepted it for as long as it is
open, and a phone or a bot keeps its connection for a whole game. Left to chance, the connections split
unevenly: with ``SO_REUSEPORT`` the kernel hashes each connection to a worker (50 clients split 19/31 to
23/27 in the load benchmark), and with one shared socket whichever worker wakes first takes a burst of them.
The worker with the larger share then runs near its one core while the other idles, and its answers queue:
that was where the load benchmark's slowest answers came from.

So the workers share one listening socket and take turns: each publishes how many connections it holds in a
small table in memory shared with the master (:class:`Shares`, made before the workers are forked), and a
worker stops accepting while it holds more than the fewest any worker holds, plus :data:`SLACK`
(:func:`may_accept`). The worker holding the fewest always may, so someone always accepts. A worker that
stopped looks again every :data:`RECHECK_SECONDS` (its loop would otherwise sleep up to a second) so that it
takes its turn as soon as the others have caught up.

The master gives each worker a slot of the table before forking it (:func:`assign_slot`, gunicorn's
``pre_fork``) and frees it when the worker exits, however it ended (:func:`free_slot`, ``child_exit`` and
``worker_exit``): a dead worker's count never holds the others back.
"""

from __future__ import annotations

import multiprocessing.sharedctypes
from collections.abc import Sequence
from typing import Any

from api.server import hooks
from api.server.gather import GatheringThreadWorker

SLOTS = 16
"""Fewest slots in the table (:func:`install` makes room for twice the configured workers, for workers added
while serving); a worker beyond them accepts freely."""

FREE = -1
"""A slot no live worker holds."""

SLACK = 1
"""How many connections more than the least loaded worker a worker may hold and still accept."""

RECHECK_SECONDS = 0.01
"""How often a worker that stopped accepting looks whether its turn came back."""


class Shares:
    """How many connections each worker holds, one slot per worker, in memory its forks share."""

    def __init__(self, slots: int = SLOTS) -> None:
        self.counts = multiprocessing.sharedctypes.RawArray("q", [FREE] * slots)
        # Read through a memoryview: one copy of the whole table as a list costs a tenth of reading the
        # ctypes array item by item, and a worker reads it at every turn of its loop.
        self._view = memoryview(self.counts).cast("B").cast("q")

    def publish(self, slot: int, count: int) -> None:
        self.counts[slot] = count

    def fewest_elsewhere(self, slot: int) -> int | None:
        """The fewest connections any other live worker holds, or None when no other worker is live."""
        counts = self._view.tolist()
        counts[slot] = FREE
        others = [count for count in counts if count != FREE]
        return min(others) if others else None


def may_accept(held: int, fewest_elsewhere: int | None) -> bool:
    """Whether a worker holding ``held`` connections takes the next one."""
    return fewest_elsewhere is None or held <= fewest_elsewhere + SLACK


def assign_slot(shares: Shares, live: Sequence[Any], worker: Any) -> None:
    """In the master, before forking ``worker``: the lowest slot no live worker holds, counted from 0 (and
    any slot left by a worker that is gone is freed on the way)."""
    taken = {getattr(other, "balance_slot", None) for other in live}
    worker.balance_slot = None
    for slot in range(len(shares.counts)):
        if slot in taken:
            continue
        if worker.balance_slot is None:
            worker.balance_slot = slot
            shares.publish(slot, 0)
        else:
            shares.publish(slot, FREE)


def free_slot(shares: Shares, worker: Any) -> None:
    """In the master, when ``worker`` has exited (or in the worker, as it exits)."""
    slot = getattr(worker, "balance_slot", None)
    if slot is not None:
        shares.publish(slot, FREE)


class BalancedThreadWorker(GatheringThreadWorker):
    """The gathering threaded worker (:mod:`api.server.gather`), taking new connections only in its turn (see the
    module's docstring).

    The threaded worker's loop asks, at each turn, whether ``nr_conns < worker_connections``; here
    ``worker_connections`` is that turn's answer: the configured limit while the worker may accept, and the
    number it holds (so the comparison fails) while it may not."""

    shares: Shares | None = None
    """Set on the class in the master, before any worker is forked (:func:`install`)."""

    balance_slot: int | None = None

    @property
    def worker_connections(self) -> int:
        limit: int = self._configured_connections
        shares, slot = self.shares, self.balance_slot
        if shares is None or slot is None:
            return limit
        held: int = self.nr_conns
        shares.publish(slot, held)
        return limit if may_accept(held, shares.fewest_elsewhere(slot)) else min(held, limit)

    @worker_connections.setter
    def worker_connections(self, value: int) -> None:
        self._configured_connections = value

    def wait_for_and_dispatch_events(self, timeout: float) -> None:
        if not self._accepting:
            timeout = min(timeout, RECHECK_SECONDS)
        super().wait_for_and_dispatch_events(timeout)


def install(options: dict[str, Any]) -> None:
    """Add the balanced worker and its hooks to gunicorn ``options``, after any hook already there for the same
    event (the metrics' ``child_exit``). Their ``reuse_port`` must be off: a worker that passes its turn must not
    hold a socket of its own that only it would accept from."""
    if options.get("reuse_port"):
        raise ValueError("balanced workers share one listening socket: reuse_port must be off")
    shares = Shares(max(SLOTS, 2 * int(options.get("workers", 1))))
    BalancedThreadWorker.shares = shares
    options["worker_class"] = BalancedThreadWorker

    def fork(server: Any, worker: Any) -> None:
        assign_slot(shares, list(server.WORKERS.values()), worker)

    def gone(_server: Any, worker: Any) -> None:
        free_slot(shares, worker)

    for name, hook in (("pre_fork", fork), ("child_exit", gone), ("worker_exit", gone)):
        hooks.add(options, name, hook)
