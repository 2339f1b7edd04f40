"""Workers kept on CPUs of their own (api.server.pinning): when to pin, which CPU the master gives each worker, and the
hooks that do it, chained after the others'. The real thing (a ``heronlog serve`` whose workers the kernel
keeps where they were put) is tests/e2e/test_pinning_http.py."""

from __future__ import annotations

import os
import threading
from types import SimpleNamespace
from typing import Any

import pytest

from api.server import pinning
from api.server.pinning import choose_cpu, should_pin


def test_auto_pins_only_when_the_workers_are_as_many_as_the_cpus() -> None:
    assert should_pin("auto", 2, [0, 1])
    assert should_pin("auto", 4, [2, 3, 4, 5])
    assert not should_pin("auto", 1, [0, 1])  # a CPU would be left idle
    assert not should_pin("auto", 3, [0, 1])  # two workers would share one, the third would not
    assert not should_pin("auto", 2, list(range(64)))  # a quota'd container sees its host's CPUs


def test_yes_always_pins_and_no_never() -> None:
    assert should_pin("yes", 1, [0, 1]) and should_pin("yes", 5, [0, 1])
    assert not should_pin("no", 2, [0, 1])


def test_any_other_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="auto, yes or no"):
        should_pin("sometimes", 2, [0, 1])


def test_each_worker_gets_the_cpu_fewest_live_workers_are_on_the_lowest_first() -> None:
    assert choose_cpu([0, 1], []) == 0
    assert choose_cpu([0, 1], [0]) == 1
    assert choose_cpu([0, 1], [0, 1]) == 0
    assert choose_cpu([0, 1], [0, 1, 0]) == 1
    assert choose_cpu([0, 1], [None, 1]) == 0  # a worker not pinned takes no CPU's place
    assert choose_cpu([2, 5], [2, 7]) == 5  # only the CPUs this process may run on


def test_a_worker_started_again_takes_the_cpu_its_predecessor_left() -> None:
    live = [0, 1, 2]
    live.remove(1)  # that worker died
    assert choose_cpu([0, 1, 2], live) == 1


def install_on(options: dict[str, Any], monkeypatch: pytest.MonkeyPatch, cpus: list[int], mode: str) -> bool:
    monkeypatch.setattr(pinning, "allowed_cpus", lambda: cpus)
    return pinning.install(options, mode)


def test_install_adds_its_hooks_after_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    told: list[str] = []
    pinned: list[tuple[int, set[int]]] = []
    monkeypatch.setattr(os, "sched_setaffinity", lambda pid, cpus: pinned.append((pid, set(cpus))))
    options: dict[str, Any] = {
        "workers": 2,
        # The balanced workers' slot (api.server.balance) and any post_fork already there must still run first.
        "pre_fork": lambda _server, _worker: told.append("balance"),
        "post_fork": lambda _server, _worker: told.append("earlier post_fork"),
    }
    assert install_on(options, monkeypatch, [0, 1], "auto")
    logged: list[str] = []
    server = SimpleNamespace(
        WORKERS={}, log=SimpleNamespace(info=lambda *args: logged.append(args[0] % args[1:]))
    )
    first, second = SimpleNamespace(), SimpleNamespace()
    options["pre_fork"](server, first)
    server.WORKERS[101] = first
    options["pre_fork"](server, second)
    assert (first.pinned_cpu, second.pinned_cpu) == (0, 1)
    options["post_fork"](server, second)
    assert told == ["balance", "balance", "earlier post_fork"]
    assert pinned == [(0, {1})]
    assert logged == [f"worker {os.getpid()} kept on CPU 1"]


def test_install_leaves_the_options_alone_when_not_pinning(monkeypatch: pytest.MonkeyPatch) -> None:
    for cpus, mode in (([0, 1], "no"), ([0, 1, 2, 3], "auto")):
        options: dict[str, Any] = {"workers": 2}
        assert not install_on(options, monkeypatch, cpus, mode)
        assert options == {"workers": 2}


def test_a_pinned_worker_and_the_threads_it_starts_stay_on_its_cpu() -> None:
    """Forked as gunicorn forks a worker: the real system call, in the child, then a thread started after it."""
    cpu = max(pinning.allowed_cpus())
    pid = os.fork()
    if pid == 0:  # the worker
        code = 1
        try:
            server = SimpleNamespace(log=SimpleNamespace(info=lambda *args: None))
            options: dict[str, Any] = {"workers": 1}
            pinning.install(options, "yes")
            options["post_fork"](server, SimpleNamespace(pinned_cpu=cpu))
            seen: list[set[int]] = []
            thread = threading.Thread(target=lambda: seen.append(os.sched_getaffinity(0)))
            thread.start()
            thread.join()
            code = 0 if os.sched_getaffinity(0) == {cpu} and seen == [{cpu}] else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert len(os.sched_getaffinity(0)) == len(pinning.allowed_cpus())  # the test's own process is untouched
