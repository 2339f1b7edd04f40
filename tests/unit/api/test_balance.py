"""The workers' turns at accepting connections (api.server.balance): the rule, the shared table, the slots the master
hands out, and how the threaded worker's loop reads them. The real thing (two gunicorn workers, real
connections) is tests/e2e/test_balance_http.py."""

from __future__ import annotations

import os
from types import SimpleNamespace
from typing import Any

import pytest
from gunicorn.workers.gthread import ThreadWorker

from api.server import balance
from api.server.balance import FREE, SLACK, BalancedThreadWorker, Shares, assign_slot, free_slot, may_accept


def test_a_worker_accepts_up_to_one_connection_above_the_least_loaded_and_alone_always() -> None:
    assert SLACK == 1
    assert may_accept(3, 3) and may_accept(4, 3)
    assert not may_accept(5, 3)
    assert may_accept(0, 7)  # the least loaded always may: someone always accepts
    assert may_accept(10_000, None)  # no other live worker


def test_the_table_leaves_out_free_slots_and_the_asking_worker() -> None:
    shares = Shares(slots=4)
    assert list(shares.counts) == [FREE] * 4
    assert shares.fewest_elsewhere(0) is None
    shares.publish(0, 2)
    shares.publish(2, 5)
    assert shares.fewest_elsewhere(0) == 5
    assert shares.fewest_elsewhere(2) == 2
    assert shares.fewest_elsewhere(1) == 2


def test_the_table_is_shared_with_forked_workers() -> None:
    shares = Shares(slots=2)
    pid = os.fork()
    if pid == 0:  # the child writes, as a worker does
        shares.publish(1, 42)
        os._exit(0)
    os.waitpid(pid, 0)
    assert shares.counts[1] == 42


def test_the_master_hands_out_the_lowest_free_slot_and_frees_what_dead_workers_left() -> None:
    shares = Shares(slots=4)
    first, second, third = SimpleNamespace(), SimpleNamespace(), SimpleNamespace()
    assign_slot(shares, [], first)
    assign_slot(shares, [first], second)
    assert (first.balance_slot, second.balance_slot) == (0, 1)
    shares.publish(0, 7)
    shares.publish(1, 9)
    # The first worker died without its exit being seen: its slot is free again for the next one.
    assign_slot(shares, [second], third)
    assert third.balance_slot == 0
    assert list(shares.counts) == [0, 9, FREE, FREE]
    free_slot(shares, second)
    assert shares.counts[1] == FREE
    free_slot(shares, SimpleNamespace())  # a worker that never had a slot: nothing to free


def test_a_worker_beyond_the_table_accepts_freely() -> None:
    shares = Shares(slots=1)
    first, second = SimpleNamespace(), SimpleNamespace()
    assign_slot(shares, [], first)
    assign_slot(shares, [first], second)
    assert second.balance_slot is None
    assert worker_with(shares, None, held=50).worker_connections == 1000


def worker_with(shares: Shares | None, slot: int | None, held: int, accepting: bool = True) -> Any:
    """A BalancedThreadWorker with only what its turn needs (gunicorn's own set-up needs a whole arbiter)."""
    worker: Any = BalancedThreadWorker.__new__(BalancedThreadWorker)
    worker.worker_connections = 1000  # what ThreadWorker.__init__ sets from the configuration
    worker.shares = shares
    worker.balance_slot = slot
    worker.nr_conns = held
    worker._accepting = accepting
    return worker


def test_the_loop_sees_the_configured_limit_in_its_turn_and_its_own_count_otherwise() -> None:
    shares = Shares(slots=3)
    shares.publish(1, 4)
    worker = worker_with(shares, 0, held=5)
    # gthread's loop accepts while nr_conns < worker_connections
    assert worker.worker_connections == 1000
    assert shares.counts[0] == 5  # published as it asked
    worker.nr_conns = 6
    assert worker.worker_connections == 6
    assert not worker.nr_conns < worker.worker_connections
    shares.publish(1, 5)  # the other worker caught up
    assert worker.worker_connections == 1000
    worker.nr_conns = 1200  # past the configured limit, the limit still holds
    shares.publish(1, 2000)
    assert worker.worker_connections == 1000
    assert not worker.nr_conns < worker.worker_connections


def test_a_worker_that_passed_its_turn_looks_again_soon(monkeypatch: pytest.MonkeyPatch) -> None:
    waits: list[float] = []
    monkeypatch.setattr(
        ThreadWorker, "wait_for_and_dispatch_events", lambda self, timeout: waits.append(timeout)
    )
    worker = worker_with(Shares(slots=2), 0, held=0, accepting=False)
    worker.wait_for_and_dispatch_events(1.0)
    worker._accepting = True
    worker.wait_for_and_dispatch_events(1.0)
    assert waits == [balance.RECHECK_SECONDS, 1.0]


def test_install_sets_the_worker_and_its_hooks_and_refuses_reuse_port() -> None:
    metrics_told: list[Any] = []
    options: dict[str, Any] = {
        "reuse_port": False,
        "workers": 2,
        # The metrics' own hook (api.server.observability.serving) must still run.
        "child_exit": lambda _server, worker: metrics_told.append(worker),
    }
    try:
        balance.install(options)
        assert options["worker_class"] is BalancedThreadWorker
        shares = BalancedThreadWorker.shares
        assert shares is not None
        worker, server = SimpleNamespace(), SimpleNamespace(WORKERS={})
        options["pre_fork"](server, worker)
        assert worker.balance_slot == 0 and shares.counts[0] == 0
        options["child_exit"](server, worker)
        assert shares.counts[0] == FREE
        assert metrics_told == [worker]
        shares.publish(0, 3)
        options["worker_exit"](server, worker)
        assert shares.counts[0] == FREE
    finally:
        BalancedThreadWorker.shares = None
    try:
        balance.install({"reuse_port": False, "workers": 20})  # room for workers added while serving
        assert BalancedThreadWorker.shares is not None
        assert len(BalancedThreadWorker.shares.counts) == 40
    finally:
        BalancedThreadWorker.shares = None
    with pytest.raises(ValueError, match="reuse_port"):
        balance.install({"reuse_port": True})
