"""Benchmark of replay.store, the Redis persistence module, beside SQLite, the in-memory store and a raw Redis round
trip (prints a Markdown section).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from uuid import uuid4

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from eventsourcing.persistence import ApplicationRecorder, InfrastructureFactory, StoredEvent  # noqa: E402
from eventsourcing.utils import Environment  # noqa: E402
from timing import median_us as median_of  # noqa: E402

from replay.store import RedisApplicationRecorder, RedisDatastore  # noqa: E402

STATE = (
    b'{"move":{"kind":"take-die","bridge":"red","end":"left"},"seat":2,'
    b'"timestamp":"2025-01-01T10:00:00+00:00"}'
)
TOPIC = "replay.events:MovePlayed"
SINGLE_INSERTS = 1000
BATCHES = 30
STREAM_READS = 200
PAGE_READS = 200
PINGS = 2000


def median_us(call: Callable[[], object], repeat: int) -> float:
    """Median wall time of one call, in microseconds (after a short warm-up)."""
    return median_of(call, repeat, warm=min(20, repeat))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def redis_server(*options: str) -> Iterator[str]:
    """A throwaway redis-server on a free loopback port."""
    executable = shutil.which("redis-server")
    if executable is None:
        raise RuntimeError("redis-server is not on PATH")
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        args = [executable, "--bind", "127.0.0.1", "--port", str(port), "--dir", folder, "--save", ""]
        process = subprocess.Popen([*args, *options], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.02)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait(timeout=10)


def measure(recorder: ApplicationRecorder) -> dict[str, float]:
    """The four operations, on one recorder."""
    figures: dict[str, float] = {}

    def insert_one() -> None:
        recorder.insert_events([StoredEvent(uuid4(), 1, TOPIC, STATE)])

    figures["insert 1 event"] = median_us(insert_one, SINGLE_INSERTS)

    def insert_batch() -> None:
        game = uuid4()
        recorder.insert_events([StoredEvent(game, v, TOPIC, STATE) for v in range(1, 101)])

    figures["insert batch of 100"] = median_us(insert_batch, BATCHES)

    game = uuid4()
    for version in range(1, 301):  # one move per append, as games are recorded
        recorder.insert_events([StoredEvent(game, version, TOPIC, STATE)])
    figures["select 300-event stream"] = median_us(lambda: recorder.select_events(game), STREAM_READS)

    top = recorder.max_notification_id() or 1
    starts = iter(list(range(1, max(2, top - 100), 37)) * (PAGE_READS // 10 + 1))
    figures["read 100 notifications"] = median_us(
        lambda: recorder.select_notifications(next(starts), 100), PAGE_READS
    )
    return figures


def library_recorder(env: dict[str, str]) -> tuple[ApplicationRecorder, InfrastructureFactory]:  # type: ignore[type-arg]
    factory = InfrastructureFactory.construct(Environment("Bench", env))
    return factory.application_recorder(), factory


def bytes_per_event(datastore: RedisDatastore, recorder: RedisApplicationRecorder) -> tuple[float, int]:
    """Server memory per recorded event (log plus per-aggregate index), and the state size for comparison."""
    client = datastore.client
    total = 0
    for key in client.scan_iter(match=recorder.tag + ":*", count=1000):
        total += int(client.memory_usage(key, samples=0) or 0)
    count = recorder.max_notification_id() or 1
    return total / count, len(STATE)


def ping_us(url: str) -> float:
    datastore = RedisDatastore(url, prefix="bench", check_durability=False)
    try:
        return median_us(datastore.client.ping, PINGS)
    finally:
        datastore.close()


def redis_benchmark_us(url: str) -> float | None:
    """One client's PING round trip as measured by redis-benchmark, if it is installed."""
    executable = shutil.which("redis-benchmark")
    if executable is None:
        return None
    port = url.rsplit(":", 1)[1].split("/", 1)[0]
    run = subprocess.run(
        [executable, "-h", "127.0.0.1", "-p", port, "-c", "1", "-n", "20000", "-t", "ping", "-q"],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )
    rates = [float(rate) for rate in re.findall(r"PING_MBULK: ([\d.]+) requests per second", run.stdout)]
    return 1e6 / rates[0] if rates else None


def redis_figures(url: str) -> tuple[dict[str, float], tuple[float, int]]:
    datastore = RedisDatastore(url, prefix="bench-" + uuid4().hex[:8], check_durability=False)
    try:
        recorder = RedisApplicationRecorder(datastore, name="Bench")
        figures = measure(recorder)
        footprint = bytes_per_event(datastore, recorder)
        for key in datastore.client.scan_iter(match=recorder.tag + ":*", count=1000):
            datastore.client.unlink(key)
        return figures, footprint
    finally:
        datastore.close()


def main() -> int:
    with contextlib.ExitStack() as stack:
        url = os.environ.get("HERONLOG_TEST_REDIS_URL") or stack.enter_context(redis_server())
        redis_results, (per_event, state_size) = redis_figures(url)
        ping = ping_us(url)
        benchmark = redis_benchmark_us(url)
        durable_url = stack.enter_context(redis_server("--appendonly", "yes", "--appendfsync", "always"))
        durable_results, _ = redis_figures(durable_url)
        durable_ping = ping_us(durable_url)

    with tempfile.TemporaryDirectory() as folder:
        sqlite, sqlite_factory = library_recorder(
            {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(Path(folder) / "bench.db")}
        )
        sqlite_results = measure(sqlite)
        sqlite_factory.close()
    popo, _ = library_recorder({"PERSISTENCE_MODULE": "eventsourcing.popo"})
    popo_results = measure(popo)

    print("## Event store: replay.store (Redis) beside SQLite, in-memory and the raw Redis round trip\n")
    print(
        f"Median microseconds per operation; events of {state_size} bytes of state. Redis on loopback "
        "(redis-py with hiredis); SQLite the library's module on a temporary file; "
        '"Redis, AOF always" a second server with the shipped durability settings.\n'
    )
    print("| operation | Redis | Redis, AOF always | SQLite | in-memory (popo) |")
    print("|---|---:|---:|---:|---:|")
    for name in redis_results:
        print(
            f"| {name} | {redis_results[name]:.0f} | {durable_results[name]:.0f} | "
            f"{sqlite_results[name]:.0f} | {popo_results[name]:.1f} |"
        )
    print()
    print("| raw ceiling | µs |")
    print("|---|---:|")
    print(f"| redis-py PING round trip | {ping:.0f} |")
    print(f"| redis-py PING round trip, AOF always server | {durable_ping:.0f} |")
    if benchmark is not None:
        print(f"| redis-benchmark PING, 1 client | {benchmark:.0f} |")
    else:
        print("| redis-benchmark | not on PATH |")
    print()
    ratio = redis_results["insert 1 event"] / ping
    verdict = "within" if ratio <= 2.5 else "ABOVE"
    print(
        f"One-event append = {ratio:.2f} PING round trips ({verdict} the target of 2.5). "
        f"Memory per event on the server (log entry + per-game index): {per_event:.0f} bytes "
        f"for {state_size} bytes of state: each state is stored once.\n"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
