"""A real ``heronlog serve --workers 2`` keeps each worker on a CPU of its own (api.server.pinning), as the kernel
reports it (``/proc/<pid>/status``), keeps the workers where the kernel put them when told not to, and puts a
worker started again after a crash on the CPU its predecessor left."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import Served, serve

pytestmark = pytest.mark.skipif(
    not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="pinning two workers apart needs two CPUs to run on",
)


def two_workers(tmp_path: Path, pin: str) -> Iterator[Served]:
    env = {"HERONLOG_DATA": str(tmp_path / "data"), "REDIS_URL": "", "HERONLOG_STORE": ""}
    yield from serve(tmp_path, {**env, "HERONLOG_PIN_WORKERS": pin}, "--workers", "2")


@pytest.fixture
def pinned(tmp_path: Path) -> Iterator[Served]:
    yield from two_workers(tmp_path, "yes")


@pytest.fixture
def unpinned(tmp_path: Path) -> Iterator[Served]:
    yield from two_workers(tmp_path, "no")


def workers(master: int, count: int = 2) -> list[int]:
    """The pids of the master's worker processes, once it has ``count`` of them."""
    deadline = time.monotonic() + 20
    while True:
        children = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == master:
                    children.append(int(entry.name))
        if len(children) == count or time.monotonic() > deadline:
            return sorted(children)
        time.sleep(0.05)


def cpus_of(pid: int) -> set[int]:
    return os.sched_getaffinity(pid)


@pytest.mark.timeout(120)
def test_each_worker_is_kept_on_a_cpu_of_its_own(pinned: Served) -> None:
    assert pinned.get_json("/healthz")[0] == 200
    found = [cpus_of(pid) for pid in workers(pinned.process.pid)]
    assert all(len(cpus) == 1 for cpus in found), found
    assert found[0] != found[1]
    assert len(cpus_of(pinned.process.pid)) == len(os.sched_getaffinity(0))  # the master is not pinned
    for pid in workers(pinned.process.pid):
        assert f"worker {pid} kept on CPU" in pinned.output()


@pytest.mark.timeout(120)
def test_a_worker_started_again_takes_the_cpu_of_the_one_that_died(pinned: Served) -> None:
    before = {pid: cpus_of(pid) for pid in workers(pinned.process.pid)}
    # The worker on the higher CPU: its successor must not simply take the lowest one.
    victim = max(before, key=lambda pid: min(before[pid]))
    os.kill(victim, signal.SIGKILL)
    deadline = time.monotonic() + 30
    while True:
        now = workers(pinned.process.pid)
        if victim not in now and len(now) == 2:
            break
        assert time.monotonic() < deadline, "no worker started in place of the killed one"
        time.sleep(0.1)
    (newcomer,) = set(now) - set(before)
    # The master forks the newcomer before the newcomer pins itself (gunicorn's post_fork, its first step):
    # wait for its line saying where it is kept, then look.
    while f"worker {newcomer} kept on CPU" not in pinned.output():
        assert time.monotonic() < deadline, "the new worker never said where it is kept"
        time.sleep(0.1)
    assert cpus_of(newcomer) == before[victim]
    assert pinned.get_json("/healthz")[0] == 200


@pytest.mark.timeout(120)
def test_no_leaves_the_workers_where_the_kernel_puts_them(unpinned: Served) -> None:
    assert unpinned.get_json("/healthz")[0] == 200
    everywhere = os.sched_getaffinity(0)
    assert [cpus_of(pid) for pid in workers(unpinned.process.pid)] == [everywhere, everywhere]
    assert "kept on CPU" not in unpinned.output()
