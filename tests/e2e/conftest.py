"""End-to-end fixtures: a real `heronlog serve` process (gunicorn) spoken to over real HTTP."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import free_port


@dataclass
class Served:
    """A running server: its base URL, its process, and what it printed at start."""

    url: str
    process: subprocess.Popen[str]
    log: Path

    def get_json(self, path: str) -> tuple[int, Any]:
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def output(self) -> str:
        return self.log.read_text()


def serve(
    tmp_path: Path,
    env: Mapping[str, str],
    *args: str,
    command: Sequence[str] | None = None,
    inherit: bool = True,
    user: int | None = None,
    cwd: Path | None = None,
) -> Iterator[Served]:
    """Start `heronlog serve` (or ``command``) on a free loopback port, wait until it answers, and stop it
    afterwards. ``{port}`` in the command's words or in ``env``'s values is that port. ``env`` adds to this
    process's environment, or is the whole of it with ``inherit=False``; ``user`` runs the server as that
    user and group id (root may)."""
    port = free_port()
    log = tmp_path / f"serve-{port}.log"
    argv = (
        [sys.executable, "-m", "api.server", "serve", "--port", "{port}", *args]
        if command is None
        else command
    )
    environ = {**os.environ, **env} if inherit else dict(env)
    with log.open("w") as out:
        process = subprocess.Popen(
            [word.replace("{port}", str(port)) for word in argv],
            env={name: value.replace("{port}", str(port)) for name, value in environ.items()},
            user=user,
            group=user,
            cwd=cwd,
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
    served = Served(f"http://127.0.0.1:{port}", process, log)
    try:
        deadline = time.monotonic() + 30
        while True:
            if process.poll() is not None:
                pytest.fail(f"heronlog serve exited early:\n{served.output()}")
            try:
                served.get_json("/healthz")
                break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"heronlog serve did not answer:\n{served.output()}")
                time.sleep(0.1)
        yield served
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def open_tab(served: Served, path: str) -> tuple[socket.socket, bytes]:
    """A raw connection that sent ``GET path`` and read the answer's head (a stream's first line, or a whole
    refusal): what a browser tab that stays open holds."""
    host, port = served.url.removeprefix("http://").split(":")
    tab = socket.create_connection((host, int(port)), timeout=15)
    tab.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
    received = b""
    while b"retry:" not in received and b"too_many_streams" not in received:
        chunk = tab.recv(4096)
        assert chunk, received
        received += chunk
    return tab, received


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[Served]:
    """`heronlog serve` on the default embedded store, its data folder in a temporary directory."""
    env = {"HERONLOG_DATA": str(tmp_path / "data"), "REDIS_URL": "", "HERONLOG_STORE": ""}
    yield from serve(tmp_path, env)
