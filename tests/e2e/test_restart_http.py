"""A ``heronlog serve`` whose master is killed outright (``kill -9``) leaves nothing behind: its workers end with it
(api.server.orphans), even one holding an open event stream, nothing keeps the port, and the same command started
again serves within a few seconds. Real processes on loopback."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import cast

import pytest

from tests.conftest import free_port
from tests.e2e.conftest import Served, open_tab

GONE_WITHIN = 10.0
"""How long the test waits for the killed master's workers to be gone (gunicorn's own graceful stop of an orphan
took up to its 30 s graceful timeout; with the kernel's help they go at once)."""


def start(tmp_path: Path, port: int) -> subprocess.Popen[bytes]:
    env = {**os.environ, "HERONLOG_DATA": str(tmp_path / "data"), "REDIS_URL": "", "HERONLOG_STORE": ""}
    command = [sys.executable, "-m", "api.server", "serve", "--port", str(port), "--workers", "2"]
    with (tmp_path / f"serve-{time.monotonic_ns()}.log").open("wb") as log:
        return subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)


def answers(port: int, within: float) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                return answer.status == 200
        except OSError:
            time.sleep(0.1)
    return False


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` is a process that runs (a zombie waiting to be reaped holds no socket)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def port_is_free(port: int) -> bool:
    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


@pytest.mark.timeout(120)
@pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="the kernel's parent-death signal is Linux's"
)
def test_a_killed_master_takes_its_workers_with_it_and_a_restart_serves_within_seconds(
    tmp_path: Path,
) -> None:
    port = free_port()
    master = start(tmp_path, port)
    restarted = None
    try:
        assert answers(port, 30), "heronlog serve did not start"
        deadline = time.monotonic() + 20
        while len(workers := children(master.pid)) < 2:
            assert time.monotonic() < deadline, "the two workers did not start"
            time.sleep(0.1)
        served = Served(
            f"http://127.0.0.1:{port}", cast("subprocess.Popen[str]", master), tmp_path / "unused.log"
        )
        created = urllib.request.Request(
            served.url + "/api/games",
            data=b'{"players": 2}',
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(created, timeout=10) as answer:
            game_id = json.loads(answer.read())["game"]["game_id"]
        tab, _ = open_tab(served, f"/api/games/{game_id}/stream?timeout=120")  # a connection a worker holds
        try:
            master.send_signal(signal.SIGKILL)
            master.wait(timeout=10)
            deadline = time.monotonic() + GONE_WITHIN
            while any(alive(pid) for pid in workers) or not port_is_free(port):
                assert time.monotonic() < deadline, "orphan workers outlived their master, or hold the port"
                time.sleep(0.1)
        finally:
            tab.close()
        restarted = start(tmp_path, port)
        assert answers(port, 30), "the restarted server did not serve"
    finally:
        for process in (master, restarted):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(timeout=30)
