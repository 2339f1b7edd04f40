"""Servers side by side: which stock server keeps heronlog answering beside clients that cost without asking.

Each candidate serves the same SQLite store (a copy each) holding a public game whose export is 8.9 MB:

* ``gthread``: stock gunicorn, its threaded worker (1 worker x 8 threads), nothing in front; its streams capped at
  6 (each holds a thread), as waitress's;
* ``gevent``: ``heronlog serve`` (stock gunicorn, its gevent worker, 1 worker): the chosen one;
* ``waitress``: waitress, 8 threads, its connection limit raised to 10,000 and poll() for its loop;
* ``nginx + gthread`` and ``nginx + gevent``: docker/nginx.conf as shipped in front of each.

For each, ten ``GET /healthz`` probes on new connections (one second each at most) alone (the anchor), then
beside 20 clients that never read the export, 20 open event streams, 2,000 silent connections (each opened again
when closed), 20 slowloris connections, and 4 clients reading the export again and again (a costly request in
flight: what a worker that runs one request at a time pays); and a 10 s closed loop of 50 clients recording
moves. It prints a Markdown section (bench/report.py puts it in docs/PERFORMANCE.md); it asserts nothing.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import bench_load  # noqa: E402  (the bench folder is on the path only from here)
import hostile_clients as hostile  # noqa: E402

from tests.nginx_process import running_nginx  # noqa: E402

PROBES = 10
HOST = "127.0.0.1"
BIG_BODIES = str(16 * 1024 * 1024)
LOAD_SECONDS = 10.0

Command = Callable[[int], list[str]]

SERVERS: dict[str, Command] = {
    "gthread": lambda port: [
        sys.executable,
        "-m",
        "gunicorn",
        "--worker-class",
        "gthread",
        "--workers",
        "1",
        "--threads",
        "8",
        "--bind",
        f"{HOST}:{port}",
        "api.app:create_app()",
    ],
    "gevent": lambda port: [sys.executable, "-m", "api.server", "serve", "--port", str(port)],
    "waitress": lambda port: [
        sys.executable,
        "-m",
        "waitress",
        f"--listen={HOST}:{port}",
        "--threads=8",
        "--connection-limit=10000",
        "--asyncore-use-poll",
        "--call",
        "api.app:create_app",
    ],
}

CANDIDATES: tuple[tuple[str, str, bool], ...] = (
    ("gthread", "gthread", False),
    ("gevent (heronlog serve)", "gevent", False),
    ("waitress", "waitress", False),
    ("nginx + gthread", "gthread", True),
    ("nginx + gevent", "gevent", True),
)
"""(name, server, behind nginx)."""


@contextlib.contextmanager
def started(server: str, data: Path, folder: Path) -> Iterator[int]:
    """``server`` on the SQLite store in ``data``, on a free loopback port, until the block ends."""
    port = bench_load.free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "HERONLOG_DATA": str(data),
        "HERONLOG_STORE": "sqlite",
        "REDIS_URL": "",
        "HERONLOG_MAX_CONTENT_LENGTH": BIG_BODIES,
        "HERONLOG_IMPORT_MAX_EVENTS": "0",  # the large game is one import of 2,040 annotations
        "HERONLOG_RATE_LIMIT_PER_ADDRESS": "0",
        "HERONLOG_RATE_LIMIT_PER_TOKEN": "0",
        "HERONLOG_LOG_LEVEL": "warning",
    }
    if server != "gevent":
        # Each stream holds a thread: two of the eight are left to the rest, as heronlog serve did with threads.
        env["HERONLOG_STREAM_MAX_OPEN"] = "6"
    with (folder / f"{server}-{port}.log").open("wb") as log:
        process = subprocess.Popen(
            SERVERS[server](port), env=env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        if not hostile.wait_until(lambda: hostile.probe(HOST, port, timeout=1) is not None, 60):
            raise RuntimeError(
                f"{server} did not start: {(folder / f'{server}-{port}.log').read_text()[-2000:]}"
            )
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def describe(results: list[float | None]) -> str:
    answered = [seconds for seconds in results if seconds is not None]
    if not answered:
        return f"0/{len(results)}"
    return f"{len(answered)}/{len(results)}, {statistics.median(answered) * 1000:.0f} ms"


def readers(port: int, path: str, count: int, stop: threading.Event) -> list[threading.Thread]:
    """``count`` clients that read ``path`` again and again until ``stop``."""

    def read() -> None:
        while not stop.is_set():
            with contextlib.suppress(OSError):
                hostile.probe(HOST, port, path, timeout=30)

    threads = [threading.Thread(target=read, daemon=True) for _ in range(count)]
    for thread in threads:
        thread.start()
    return threads


def measure(port: int, game_id: str) -> dict[str, str]:
    """Every scenario against the server on ``port``."""
    export = f"/api/games/{game_id}/export"
    crowd = hostile.Crowd
    found = {"alone": describe(hostile.probes(HOST, port, PROBES, 0.3))}
    scenarios: dict[str, Callable[[], tuple[hostile.Crowd, ...]]] = {
        "20 non-readers": lambda: (crowd(HOST, port, "nonreading", 20, export),),
        "20 streams": lambda: (crowd(HOST, port, "stream", 20, f"/api/games/{game_id}/stream?timeout=300"),),
        "2,000 silent": lambda: (crowd(HOST, port, "silent", 2000),),
        "20 slowloris": lambda: (crowd(HOST, port, "slow_head", 10), crowd(HOST, port, "slow_body", 10)),
    }
    for name, make in scenarios.items():
        with hostile.crowds(*make()) as crowds:
            # the answers begun (the exports being sent, the streams open) or a few seconds at most
            hostile.wait_until(lambda: all(c.answered >= c.count for c in crowds), 30 if "non" in name else 3)
            found[name] = describe(hostile.probes(HOST, port, PROBES, 0.3))
            if "streams" in name:
                found[name] += f" ({crowds[0].answered} open)"
        time.sleep(2.0)
    stop = threading.Event()
    threads = readers(port, export, 4, stop)
    time.sleep(2.0)
    found["4 reading the export"] = describe(hostile.probes(HOST, port, PROBES, 0.3))
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    loaded = bench_load.load(port, LOAD_SECONDS, one_request=True)
    found["closed loop"] = f"{loaded.rate:.0f} moves/s, p99 {loaded.percentile_ms('move', 0.99):.0f} ms"
    return found


def main() -> int:
    results: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory(prefix="heronlog-servers-") as temp:
        folder = Path(temp)
        made = folder / "made"
        with started("gevent", made, folder) as port:
            game_id = hostile.large_public_game(HOST, port)
        for name, server, proxied in CANDIDATES:
            data = folder / name.replace(" ", "-")
            shutil.copytree(made, data)
            with started(server, data, folder) as port:
                if proxied:
                    with running_nginx(f"{HOST}:{port}", folder / f"nginx-{server}") as front:
                        results[name] = measure(front, game_id)
                else:
                    results[name] = measure(port, game_id)
    columns = list(next(iter(results.values())))
    print("## Servers side by side: slow clients and load (bench_servers.py)\n")
    print(
        "The same SQLite store (a public game whose export is 8.9 MB) behind each candidate: stock gunicorn's "
        "threaded worker (1 × 8 threads), `heronlog serve` (stock gunicorn's gevent worker, 1 worker), waitress "
        "(8 threads, 10,000 connections, poll), and docker/nginx.conf in front of the first two. Each cell: "
        f"how many of {PROBES} `GET /healthz` probes (new connections, 0.3 s apart) were answered within a "
        "second, and their median; beside 20 clients that never read the export, 20 open event streams, 2,000 "
        "silent connections (reopened when closed), 10 slowloris heads and 10 slowloris bodies, 4 clients "
        f"reading the export again and again; then a {LOAD_SECONDS:.0f} s closed loop of 50 clients recording "
        f"moves. All on loopback, clients on the same {os.cpu_count()}-core machine.\n"
    )
    print("| server | " + " | ".join(columns) + " |")
    print("|---|" + "---|" * len(columns))
    for name, found in results.items():
        print(f"| {name} | " + " | ".join(found[column] for column in columns) + " |")
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
