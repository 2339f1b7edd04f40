"""nginx run on this machine with the shipped docker/nginx.conf, in front of a local `heronlog serve`: the compose
deployment's proxy tested without a Docker engine. Only the addresses and the folder of its files change (the
compose network's ``api:8000`` and port 8000, and /tmp); each change is checked to have happened, so a config
that no longer has those lines fails the tests rather than runs with something else."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

from tests.conftest import free_port

NGINX_CONF = Path(__file__).resolve().parent.parent / "docker" / "nginx.conf"


def nginx_executable() -> str:
    """Debian's nginx (provisioned by tools/teststack.py, HERONLOG_TEST_NGINX); a missing one fails the test."""
    found = os.environ.get("HERONLOG_TEST_NGINX") or shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(found).exists():
        raise RuntimeError("nginx is not installed: make test provisions it (apt-get install nginx-light)")
    return found


def local_config(upstream: str, port: int, folder: Path) -> str:
    """docker/nginx.conf with the API at ``upstream`` (host:port), listening on loopback ``port``, its files in
    ``folder``."""
    text = NGINX_CONF.read_text()
    for old, new in (
        ("server api:8000;", f"server {upstream};"),
        ("listen 8000;", f"listen 127.0.0.1:{port};"),
        (" /tmp/", f" {folder}/"),
    ):
        assert old in text, f"docker/nginx.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


@contextlib.contextmanager
def running_nginx(upstream: str, folder: Path) -> Iterator[int]:
    """nginx with the shipped config in front of ``upstream``; yields its port, stops it afterwards."""
    port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "nginx.conf"
    config.write_text(local_config(upstream, port, folder))
    # Started as root (make test on a fresh machine), its workers would become "nobody" and could not write
    # under the test's folder; in the container nginx starts as an ordinary user and never switches.
    settings = "daemon off;" + (" user root;" if os.geteuid() == 0 else "")
    log = folder / "nginx.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [nginx_executable(), "-c", str(config), "-p", str(folder), "-e", "stderr", "-g", settings],
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 15
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"nginx exited: {log.read_text()}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"nginx did not listen: {log.read_text()}")
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
