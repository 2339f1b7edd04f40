"""A redis-server of the test's own, started from docker/redis.conf, that a fault test may kill and restart."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

from tests.conftest import free_port, required_env

REDIS_CONF = Path(__file__).resolve().parent.parent / "docker" / "redis.conf"


class RedisProcess:
    """One redis-server with the shipped durability settings (AOF, appendfsync always) in ``folder``."""

    def __init__(self, folder: Path, *extra: str, port: int | None = None) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 15) -> None:
        executable = required_env("HERONLOG_TEST_REDIS_SERVER")
        with (self.folder / "redis.log").open("ab") as log:
            args = ["--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.folder), *self.extra]
            self.process = subprocess.Popen(
                [executable, str(REDIS_CONF), *args],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while not self.ready():
            if time.monotonic() > deadline or self.process.poll() is not None:
                raise RuntimeError(
                    f"redis-server did not start: {(self.folder / 'redis.log').read_text()[-2000:]}"
                )
            time.sleep(0.05)

    def ready(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def kill(self) -> None:
        """kill -9: no shutdown, no final save; only what the AOF holds survives."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
