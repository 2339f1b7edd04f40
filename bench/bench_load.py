"""Load benchmark: 50 concurrent clients, each recording its own seeded game through the HTTP API.

Paced (open-loop) and closed-loop runs on `heronlog serve` (stock gunicorn, its gevent workers) and redis-server,
each beside `/healthz` and Redis anchors, then the parts of a move timed in process (docs/performance/load.md).
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import math
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import move_parts  # noqa: E402  (the bench folder is on the path only from here)

REDIS_CONF = ROOT / "docker" / "redis.conf"
CLIENTS = 50
WARMUP_SECONDS = 3.0
LOAD_SECONDS = float(os.environ.get("HERONLOG_LOAD_SECONDS", "20"))
TARGET_MOVES_PER_SECOND = 500
TARGET_P99_MS = 50.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(check: Callable[[], bool], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start in {timeout:.0f} s")
        time.sleep(0.05)


def answers_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextlib.contextmanager
def redis_server(folder: Path, *overrides: str) -> Iterator[str]:
    """redis-server from docker/redis.conf (plus ``overrides``) on a free loopback port, in ``folder``."""
    executable = shutil.which("redis-server") or os.environ.get("HERONLOG_TEST_REDIS_SERVER")
    if executable is None:
        raise RuntimeError("redis-server is not on PATH")
    port = free_port()
    folder.mkdir(parents=True, exist_ok=True)
    args = [executable, str(REDIS_CONF), "--bind", "127.0.0.1", "--port", str(port), "--dir", str(folder)]
    with (folder / "redis.log").open("wb") as log:
        process = subprocess.Popen([*args, *overrides], stdout=log, stderr=subprocess.STDOUT)
    SERVERS["redis"] = process.pid
    try:
        wait_for(lambda: answers_ping(port), "redis-server")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=30)


def get_status(port: int, path: str) -> int:
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        connection.request("GET", path)
        status = connection.getresponse().status
        connection.close()
        return status
    except OSError:
        return 0


@contextlib.contextmanager
def heronlog_serve(
    redis_url: str, folder: Path, workers: int, threads: int, source: Path = ROOT
) -> Iterator[int]:
    """``heronlog serve`` (gunicorn) on Redis, on a free loopback port. Rate limits stay on (their Redis
    counters are part of every write's cost) with a limit no client reaches here."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": str(source),
        "HERONLOG_STORE": "redis",
        "REDIS_URL": redis_url,
        "REDIS_KEY_PREFIX": "load-" + uuid.uuid4().hex[:8],
        "HERONLOG_RATE_LIMIT_PER_TOKEN": "1000000",
        "HERONLOG_RATE_LIMIT_PER_ADDRESS": "1000000",
    }
    # The command line: `python -m api.server` since serve runs gevent workers (its threads option gone),
    # api.server.cli since the api package was regrouped, api.cli before.
    if (source / "api" / "server" / "launch.py").exists():
        command = [
            sys.executable,
            "-m",
            "api.server",
            "serve",
            "--port",
            str(port),
            "--workers",
            str(workers),
        ]
    else:
        module = "api.server.cli" if (source / "api" / "server" / "cli.py").exists() else "api.cli"
        command = [sys.executable, "-m", module, "serve", "--port", str(port)]
        command += ["--workers", str(workers), "--threads", str(threads)]
    with (folder / f"serve-{port}.log").open("wb") as log:
        process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, cwd=source)
    SERVERS["heronlog"] = process.pid
    try:
        wait_for(lambda: get_status(port, "/healthz") == 200, "heronlog serve")
        # Every worker up and answering before the clients connect: a worker still starting takes none of them.
        wait_for(
            lambda: answering_workers(port, folder / f"serve-{port}.log") >= workers, f"{workers} workers"
        )
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def server_words(source: Path, workers: int, threads: int) -> str:
    """How the tree in ``source`` serves: gevent workers since api.server.launch, threaded ones before."""
    if (source / "api" / "server" / "launch.py").exists():
        return f"stock gunicorn, {workers} gevent workers"
    return f"gunicorn, {workers} threaded workers × {threads} threads"


def answering_workers(port: int, log: Path) -> int:
    """How many workers have answered a request, from the request log, after one more ``/healthz``."""
    get_status(port, "/healthz")
    pids = set()
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("{") and '"heronlog.request"' in line:
            with contextlib.suppress(ValueError):
                pids.add(json.loads(line).get("pid"))
    return len(pids)


# --- where the machine's time went -------------------------------------------------------------------------

SERVERS: dict[str, int] = {}
"""The pids of the servers started last (their workers are found as their children)."""
TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def family(pid: int) -> list[int]:
    """A process and its children (gunicorn's workers)."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            children.append(int(stat.parent.name))
    return [pid, *children]


def placement(pid: int, workers: int) -> str:
    """Where the kernel lets the ``workers`` workers of the server ``pid`` run (``heronlog serve
    --pin-workers``), once they are all up."""
    wait_for(lambda: len(family(pid)) > workers, f"{workers} workers", timeout=20)
    try:
        cpus = [os.sched_getaffinity(worker) for worker in family(pid)[1:]]
    except OSError:
        return "the workers' CPUs unknown"
    if cpus and all(len(allowed) == 1 for allowed in cpus) and len(set(map(frozenset, cpus))) == len(cpus):
        kept = ", ".join(str(next(iter(allowed))) for allowed in sorted(cpus, key=min))
        return f"each worker kept on a CPU of its own ({kept})"
    return "the workers free to run on any CPU"


def machine_seconds() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far."""
    values = [int(value) for value in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = values[3] + values[4]
    return (sum(values) - idle) / TICK, sum(values) / TICK


@dataclass
class CpuShare:
    """Cores used during a run, by whom: heronlog (master and workers), Redis, the clients, everything else."""

    heronlog: float
    redis: float
    clients: float
    others: float
    workers: tuple[float, ...] = ()
    wall: float = 0.0
    """Seconds the measurement lasted."""

    def describe(self) -> str:
        spread = " + ".join(f"{share:.2f}" for share in self.workers)
        return (
            f"heronlog {self.heronlog:.2f} (workers {spread}), Redis {self.redis:.2f}, clients "
            f"{self.clients:.2f}, others {self.others:.2f}"
        )


@contextlib.contextmanager
def cpu_share() -> Iterator[list[CpuShare]]:
    """Measure the cores each party used while the block runs."""
    pids = {"heronlog": family(SERVERS["heronlog"]), "redis": [SERVERS["redis"]]}
    before = {name: sum(cpu_seconds(pid) for pid in group) for name, group in pids.items()}
    workers = pids["heronlog"][1:]  # gunicorn's workers; their master is the first
    worker_before = [cpu_seconds(pid) for pid in workers]
    mine, (busy, _), began = time.process_time(), machine_seconds(), time.monotonic()
    found: list[CpuShare] = []
    yield found
    wall = time.monotonic() - began
    used = {name: (sum(cpu_seconds(pid) for pid in pids[name]) - before[name]) / wall for name in pids}
    clients = (time.process_time() - mine) / wall
    total_busy = (machine_seconds()[0] - busy) / wall
    others = max(0.0, total_busy - used["heronlog"] - used["redis"] - clients)
    spread = tuple(
        (cpu_seconds(pid) - began_at) / wall for pid, began_at in zip(workers, worker_before, strict=True)
    )
    found.append(CpuShare(used["heronlog"], used["redis"], clients, others, spread, wall))


class WindowMeter:
    """Measures the cores each party used during a measured window, from a thread of its own: the warm-up
    (servers' caches, the first games set up) and a paced run's backlog are left out."""

    def __init__(self, window: Window) -> None:
        self.found: list[CpuShare] = []
        self.thread = threading.Thread(target=self._watch, args=(window,), daemon=True)
        self.thread.start()

    def _watch(self, window: Window) -> None:
        time.sleep(max(0.0, window.start - time.perf_counter()))
        with cpu_share() as share:
            time.sleep(max(0.0, window.end - time.perf_counter()))
        self.found.extend(share)

    def result(self) -> CpuShare | None:
        self.thread.join(timeout=10)
        return self.found[0] if self.found else None


# --- the clients --------------------------------------------------------------------------------------------


@dataclass
class Tally:
    """What one client saw: request latencies (seconds) by kind, inside the measured window."""

    latencies: dict[str, list[float]] = field(default_factory=dict)
    moves: int = 0
    games: int = 0
    errors: dict[str, int] = field(default_factory=dict)

    def add(self, kind: str, seconds: float) -> None:
        self.latencies.setdefault(kind, []).append(seconds)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


class Client:
    """One keep-alive HTTP/1.1 connection, as a phone's browser would hold it.

    Spoken over a bare socket rather than ``http.client``: the 50 clients share this process and its
    interpreter lock on the same 2 cores as the server, and ``http.client`` (its headers parsed by the
    ``email`` package) cost several times what the requests themselves need; every core the load generator
    takes is one the server under test does not get (the report still says how much the clients used)."""

    def __init__(self, port: int, timeout: float = 30) -> None:
        self.port = port
        self.timeout = timeout
        self.socket: socket.socket | None = None
        self.buffer = b""

    def _connect(self) -> socket.socket:
        if self.socket is None:
            self.socket = socket.create_connection(("127.0.0.1", self.port), timeout=self.timeout)
            self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            self.buffer = b""
        return self.socket

    def call(self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None) -> Any:
        lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        data = b""
        if body is not None:
            data = msgspec.json.encode(body)
            lines += ["Content-Type: application/json", f"Content-Length: {len(data)}"]
        try:
            sock = self._connect()
            sock.sendall("\r\n".join(lines).encode("latin-1") + b"\r\n\r\n" + data)
            status, head, raw = self._response(sock)
        except OSError:
            self.close()
            raise
        if head.get("connection") == "close":
            self.close()
        return status, head.get("etag"), msgspec.json.decode(raw) if raw else None

    def _response(self, sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
        """Read one answer: its status, its headers (names in lower case) and its body (``Content-Length``
        framed: the server never chunks these answers)."""
        while (end := self.buffer.find(b"\r\n\r\n")) < 0:
            self._fill(sock)
        status_line, *header_lines = self.buffer[:end].decode("latin-1").split("\r\n")
        self.buffer = self.buffer[end + 4 :]
        head = {}
        for line in header_lines:
            name, _, value = line.partition(":")
            head[name.strip().lower()] = value.strip()
        if "content-length" not in head:
            raise ConnectionError(f"an answer without Content-Length: {status_line}")
        length = int(head["content-length"])
        while len(self.buffer) < length:
            self._fill(sock)
        raw, self.buffer = self.buffer[:length], self.buffer[length:]
        return int(status_line.split(" ", 2)[1]), head, raw

    def _fill(self, sock: socket.socket) -> None:
        chunk = sock.recv(262144)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buffer += chunk

    def close(self) -> None:
        if self.socket is not None:
            self.socket.close()
        self.socket = None


@dataclass
class Window:
    """The measured window: requests that start inside it count."""

    start: float
    end: float

    def holds(self, moment: float) -> bool:
        return self.start <= moment < self.end


def record_games(
    port: int, seed: int, window: Window, stop: threading.Event, tally: Tally, *, one_request: bool
) -> None:
    """Create seeded games and record them until ``stop``: with ``one_request``, as the pages do (each write's
    answer carries the next legal moves: one ``POST moves`` per move); otherwise ``GET legal-moves`` before
    each ``POST moves``, as clients did before the answers carried them."""
    rng = random.Random(seed)
    client = Client(port)
    try:
        while not stop.is_set():
            status, version, created = client.call(
                "POST", "/api/games", {"players": rng.choice([2, 3, 4]), "seed": rng.randrange(10**9)}
            )
            if status != 201:
                tally.error(f"create {status}")
                continue
            game_id = created["game"]["game_id"]
            headers = {"Authorization": f"Bearer {created['owner_token']}"}
            listing = created.get("legal_moves")
            tally.games += 1
            while not stop.is_set():
                began = listed = time.perf_counter()
                if not one_request:
                    status, version, listing = client.call("GET", f"/api/games/{game_id}/legal-moves")
                    listed = time.perf_counter()
                    if status != 200:
                        tally.error(f"legal-moves {status}")
                        break
                if listing is None:
                    tally.error("no legal_moves in the answer")
                    break
                if listing["over"]:
                    break
                move = rng.choice(listing["moves"])
                key = uuid.UUID(int=rng.getrandbits(128)).hex
                status, version, answer = client.call(
                    "POST",
                    f"/api/games/{game_id}/moves",
                    move,
                    {**headers, "If-Match": version, "Idempotency-Key": key},
                )
                done = time.perf_counter()
                if status != 201:
                    tally.error(f"moves {status}")
                    break
                listing = answer.get("legal_moves")
                if window.holds(began):
                    if not one_request:
                        tally.add("legal-moves", listed - began)
                    tally.add("moves", done - listed)
                    tally.add("move", done - began)
                    tally.moves += 1
    except OSError as error:
        tally.error(type(error).__name__)
    finally:
        client.close()


@dataclass(frozen=True)
class Pace:
    """An open-loop schedule: one client offers a move every ``1 / rate`` seconds from ``start`` (plus its
    ``phase``, so that the clients do not all send at the same instant), whatever the answers' latency.

    A move's latency is counted from its scheduled send time, not from when it was actually sent: a slow answer
    makes the next moves late, and that wait is part of their latency (no coordinated omission)."""

    start: float
    rate: float
    phase: float = 0.0

    def slot(self, index: int) -> float:
        """The scheduled send time of the client's move number ``index`` (from 0)."""
        return self.start + self.phase + index / self.rate

    @staticmethod
    def phases(clients: int, rate: float) -> list[float]:
        """Start offsets spreading ``clients`` evenly over one interval of ``1 / rate`` seconds."""
        return [index / (clients * rate) for index in range(clients)]


SNAPSHOT_EVERY = 50
"""replay.application.SNAPSHOT_EVERY, restated so that the bench reads it as a client would (from answers)."""


def move_kind(before: dict[str, Any], after: dict[str, Any], first: bool, over: bool = False) -> str:
    """What a move was, as its client can tell from the game before and after it: the first of a new game, the
    last (``over``: the game's end is scored and its players' records updated), one that ended a round or
    passed one of the game's snapshot versions (every ``SNAPSHOT_EVERY`` events from a phase drawn from the
    game's id, as replay.snapshots.snapshot_phase says: the server snapshots the game while recording it), or
    an ordinary one."""
    if first:
        return "first move of a game"
    if over:
        return "last move of a game"
    phase = uuid.UUID(after["game_id"]).int % SNAPSHOT_EVERY
    crossed = (before["version"] - phase) // SNAPSHOT_EVERY != (after["version"] - phase) // SNAPSHOT_EVERY
    if crossed or before["coordinates"]["round"] != after["coordinates"]["round"]:
        return "snapshot move (round's end or every 50 events)"
    return "ordinary move"


def play_paced(
    port: int,
    seed: int,
    window: Window,
    pace: Pace,
    *,
    hard_stop: threading.Event,
    tally: Tally,
    requests: dict[str, tuple[str, float]] | None = None,
) -> None:
    """Record seeded games as a player at a table does: a move at each scheduled time of ``pace`` (one request
    each; the answer carries the next legal moves), a new game when one ends, until the schedule reaches the
    end of the window. A move scheduled inside the window counts, with its latency from its scheduled time,
    even when the server's backlog sends it after the window ended (``hard_stop`` ends that wait).

    With ``requests`` (the breakdown), each request inside the window is also timed from when it was actually
    sent, by kind (:func:`move_kind`, or a game's creation), and sent with an ``X-Request-ID`` recorded there
    with that kind and time, to be matched with the server's request log."""
    rng = random.Random(seed)
    client = Client(port)
    index = created_count = 0
    try:
        while not hard_stop.is_set():
            request_id = f"bench-{seed}-create-{created_count}"
            created_count += 1
            sent_at = time.perf_counter()
            status, version, created = client.call(
                "POST",
                "/api/games",
                {"players": rng.choice([2, 3, 4]), "seed": rng.randrange(10**9)},
                {"X-Request-ID": request_id} if requests is not None else None,
            )
            if status != 201:
                tally.error(f"create {status}")
                continue
            if requests is not None and window.holds(sent_at):
                seconds = time.perf_counter() - sent_at
                tally.add("sent: game creation", seconds)
                requests[request_id] = ("game creation", seconds)
            game_id = created["game"]["game_id"]
            headers = {"Authorization": f"Bearer {created['owner_token']}"}
            listing = created["legal_moves"]
            game = created["game"]
            first = True
            tally.games += 1
            while not listing["over"]:
                scheduled = pace.slot(index)
                if scheduled >= window.end or hard_stop.is_set():
                    return
                index += 1
                wait = scheduled - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                move = rng.choice(listing["moves"])
                key = uuid.UUID(int=rng.getrandbits(128)).hex
                request_id = f"bench-{seed}-move-{index}"
                sent = {**headers, "If-Match": version, "Idempotency-Key": key}
                if requests is not None:
                    sent["X-Request-ID"] = request_id
                sent_at = time.perf_counter()
                status, version, answer = client.call("POST", f"/api/games/{game_id}/moves", move, sent)
                done = time.perf_counter()
                if status != 201:
                    tally.error(f"moves {status}")
                    break
                listing = answer["legal_moves"]
                if requests is not None and window.holds(scheduled):
                    kind = move_kind(game, answer["game"], first, listing["over"])
                    tally.add(f"sent: {kind}", done - sent_at)
                    requests[request_id] = (kind, done - sent_at)
                game, first = answer["game"], False
                if window.holds(done):  # throughput: the moves answered inside the window
                    tally.moves += 1
                if window.holds(scheduled):  # latency: every move scheduled inside it, however late
                    tally.add("move", done - scheduled)
                    tally.add("late", max(0.0, -wait))
    except OSError as error:
        tally.error(type(error).__name__)
    finally:
        client.close()


def paced_load(
    port: int, seconds: float, rate: float, requests: dict[str, tuple[str, float]] | None = None
) -> Result:
    """Every client on an open-loop schedule (:class:`Pace`), together offering ``rate`` moves per second: a
    warm-up, then ``seconds`` whose scheduled moves are measured, then the backlog drained (at most 30 s).
    With ``requests``, every request is tagged for the breakdown (see :func:`play_paced`)."""
    per_client = rate / CLIENTS
    now = time.perf_counter() + 0.5  # the clients' threads start first
    window = Window(now + WARMUP_SECONDS, now + WARMUP_SECONDS + seconds)
    meter = WindowMeter(window)
    hard_stop = threading.Event()
    tallies = [Tally() for _ in range(CLIENTS)]
    threads = [
        threading.Thread(
            target=play_paced,
            args=(port, seed, window, Pace(now, per_client, phase)),
            kwargs={"hard_stop": hard_stop, "tally": tallies[seed], "requests": requests},
            daemon=True,
        )
        for seed, phase in enumerate(Pace.phases(CLIENTS, per_client))
    ]
    for thread in threads:
        thread.start()
    deadline = window.end + 30
    for thread in threads:
        thread.join(timeout=max(0.0, deadline - time.perf_counter()))
    hard_stop.set()
    for thread in threads:
        thread.join(timeout=60)
    return Result.merge(tallies, seconds, meter.result())


def hammer(call: Callable[[], None], window: Window, stop: threading.Event, tally: Tally, kind: str) -> None:
    """Repeat ``call`` until ``stop``, timing the calls that start inside the window."""
    while not stop.is_set():
        began = time.perf_counter()
        try:
            call()
        except Exception as error:  # an anchor's failure is reported, not raised
            tally.error(type(error).__name__)
            continue
        if window.holds(began):
            tally.add(kind, time.perf_counter() - began)
            tally.moves += 1


def run_clients(
    workers: Sequence[Callable[[Window, threading.Event, Tally], None]], seconds: float
) -> Result:
    """Run every worker in its own thread: a warm-up, then ``seconds`` measured, then stop them all."""
    now = time.perf_counter()
    window = Window(now + WARMUP_SECONDS, now + WARMUP_SECONDS + seconds)
    meter = WindowMeter(window) if "heronlog" in SERVERS else None
    stop = threading.Event()
    tallies = [Tally() for _ in workers]
    threads = [
        threading.Thread(target=worker, args=(window, stop, tally), daemon=True)
        for worker, tally in zip(workers, tallies, strict=True)
    ]
    for thread in threads:
        thread.start()
    time.sleep(max(0.0, window.end - time.perf_counter()))
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    return Result.merge(tallies, seconds, meter.result() if meter else None)


@dataclass
class Result:
    """Throughput and latency percentiles over every client of one run."""

    rate: float
    count: int
    latencies: dict[str, list[float]]
    errors: dict[str, int]
    cpu: CpuShare | None = None
    """The cores each party used during the measured window."""

    @classmethod
    def merge(cls, tallies: Sequence[Tally], seconds: float, cpu: CpuShare | None = None) -> Result:
        latencies: dict[str, list[float]] = {}
        errors: dict[str, int] = {}
        for tally in tallies:
            for kind, values in tally.latencies.items():
                latencies.setdefault(kind, []).extend(values)
            for what, count in tally.errors.items():
                errors[what] = errors.get(what, 0) + count
        count = sum(tally.moves for tally in tallies)
        return cls(count / seconds, count, latencies, errors, cpu)

    def percentile_ms(self, kind: str, share: float) -> float:
        values = sorted(self.latencies.get(kind) or [float("nan")])
        return values[min(len(values) - 1, int(share * len(values)))] * 1000

    def median_ms(self, kind: str) -> float:
        return statistics.median(self.latencies.get(kind) or [float("nan")]) * 1000


def load(port: int, seconds: float, one_request: bool) -> Result:
    workers = [
        lambda window, stop, tally, seed=seed: record_games(
            port, seed, window, stop, tally, one_request=one_request
        )
        for seed in range(CLIENTS)
    ]
    return run_clients(workers, seconds)


def healthz_anchor(port: int, seconds: float) -> Result:
    def worker(window: Window, stop: threading.Event, tally: Tally) -> None:
        client = Client(port)

        def call() -> None:
            status, _, _ = client.call("GET", "/healthz")
            if status != 200:
                raise RuntimeError(f"healthz {status}")

        hammer(call, window, stop, tally, "healthz")
        client.close()

    return run_clients([worker] * CLIENTS, seconds)


SLOW_CLIENTS = 200
"""Slow connections of the slow-clients run."""

PROBE_TIMEOUT = 5.0
"""How long a probe of the slow-clients run waits for its answer before it counts as not answered."""


class SlowClients:
    """``count`` slowloris connections: half send a request head a header line at a time, half a whole head
    announcing a body and then the body a byte at a time, one line or byte per connection every second. A
    connection the server closes (a refusal after its deadline) is opened again: the attack lasts as long as the
    run. Run in a thread of its own (:meth:`run`) until ``stop``."""

    def __init__(self, port: int, count: int) -> None:
        self.port = port
        self.count = count
        self.sockets: list[socket.socket | None] = [None] * count
        self.opened = 0

    def _open(self, index: int) -> socket.socket | None:
        try:
            slow = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            slow.setblocking(False)
            if index % 2:
                head = "POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                slow.send(f"{head}Content-Length: 2000\r\n\r\n{{".encode())
            else:
                slow.send(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        except OSError:
            return None
        self.opened += 1
        return slow

    def run(self, stop: threading.Event) -> None:
        for index in range(self.count):
            self.sockets[index] = self._open(index)
        line = 0
        while not stop.wait(1.0):
            line += 1
            for index, slow in enumerate(self.sockets):
                try:
                    if slow is None:
                        raise OSError("closed")
                    slow.send(b" " if index % 2 else f"X-Slow-{line}: x\r\n".encode())
                except OSError:
                    if slow is not None:
                        slow.close()
                    self.sockets[index] = self._open(index)
        for slow in self.sockets:
            if slow is not None:
                slow.close()


def probe_once(port: int, game: dict[str, Any], rng: random.Random) -> tuple[float, float | None]:
    """One ``/healthz`` on a new connection and one move on another, as a newcomer would send them: the
    seconds each took (None: not answered within :data:`PROBE_TIMEOUT`)."""
    timings: list[float | None] = []
    for kind in ("healthz", "move"):
        client = Client(port, timeout=PROBE_TIMEOUT)
        began = time.perf_counter()
        try:
            if kind == "healthz":
                status, _, _ = client.call("GET", "/healthz")
                ok = status == 200
            else:
                if game.get("over", True):
                    status, version, created = client.call(
                        "POST", "/api/games", {"players": 2, "seed": rng.randrange(10**9)}
                    )
                    game.update(
                        id=created["game"]["game_id"],
                        token=created["owner_token"],
                        version=version,
                        moves=created["legal_moves"]["moves"],
                        over=False,
                    )
                    client.close()
                    client = Client(port, timeout=PROBE_TIMEOUT)
                    began = time.perf_counter()
                headers = {"Authorization": f"Bearer {game['token']}", "If-Match": game["version"]}
                status, version, answer = client.call(
                    "POST", f"/api/games/{game['id']}/moves", rng.choice(game["moves"]), headers
                )
                ok = status == 201
                if ok:
                    listing = answer["legal_moves"]
                    game.update(version=version, moves=listing["moves"], over=listing["over"])
            timings.append(time.perf_counter() - began if ok else None)
        except (OSError, ValueError, KeyError, TypeError):
            timings.append(None)
        finally:
            client.close()
    return timings[0] or math.inf, timings[1]


@dataclass
class Probes:
    """What the probes of one run saw: seconds per answered ``/healthz`` and move, and how many were not
    answered in time."""

    healthz: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)
    unanswered: int = 0
    slow_opened: int = 0

    def describe(self, kind: str) -> str:
        values = sorted(self.healthz if kind == "healthz" else self.moves)
        if not values:
            return "none answered"
        p50 = values[len(values) // 2] * 1000
        p99 = values[min(len(values) - 1, int(0.99 * len(values)))] * 1000
        return f"{len(values)} answered, p50 {p50:.1f} ms, p99 {p99:.1f} ms, max {values[-1] * 1000:.1f} ms"


def slow_clients_run(port: int, seconds: float, slow: int) -> Probes:
    """For ``seconds``, every 50 ms a ``/healthz`` and a move, each on a new connection, with ``slow``
    slowloris connections open meanwhile (:class:`SlowClients`; none: the anchor)."""
    stop = threading.Event()
    attack = SlowClients(port, slow)
    attacker = threading.Thread(target=attack.run, args=(stop,), daemon=True)
    if slow:
        attacker.start()
        time.sleep(2.0)  # every slow connection open, and dripping
    probes = Probes()
    game: dict[str, Any] = {}
    rng = random.Random(7)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        healthz, move = probe_once(port, game, rng)
        for kind, took in (("healthz", healthz), ("move", move)):
            if took is None or took == math.inf:
                probes.unanswered += 1
                game["over"] = True if kind == "move" else game.get("over", True)
            else:
                (probes.healthz if kind == "healthz" else probes.moves).append(took)
        time.sleep(0.05)
    stop.set()
    if slow:
        attacker.join(timeout=10)
    probes.slow_opened = attack.opened
    return probes


def ping_anchor(redis_url: str, seconds: float) -> tuple[Result, float]:
    import redis

    pool = redis.ConnectionPool.from_url(redis_url, max_connections=CLIENTS + 1)
    shared = redis.Redis(connection_pool=pool)

    def ping() -> None:
        shared.ping()

    def worker(window: Window, stop: threading.Event, tally: Tally) -> None:
        hammer(ping, window, stop, tally, "PING")

    result = run_clients([worker] * CLIENTS, seconds)
    single = []
    for _ in range(2000):
        began = time.perf_counter()
        shared.ping()
        single.append(time.perf_counter() - began)
    pool.disconnect()
    return result, statistics.median(single) * 1e6


def server_durations(log: Path) -> dict[str, float]:
    """Seconds each request took inside heronlog (``duration_ms`` of its ``heronlog.request`` log line), by
    request id: from the first ``before_request`` hook to the answer built, so the gap to the client's figure
    is the wait for a worker thread, the interpreter lock, the network and the client itself."""
    found: dict[str, float] = {}
    with contextlib.suppress(OSError), log.open(encoding="utf-8", errors="replace") as lines:
        for line in lines:
            if '"duration_ms"' not in line:
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict) and "request_id" in entry and "duration_ms" in entry:
                found[str(entry["request_id"])] = float(entry["duration_ms"]) / 1000
    return found


def breakdown_table(requests: dict[str, tuple[str, float]], server: dict[str, float]) -> list[str]:
    """The paced run's requests by kind: latency from when each was actually sent, the time heronlog itself
    spent on it (its request log), and the gap between the two."""
    by_kind: dict[str, list[tuple[float, float | None]]] = {}
    for request_id, (kind, seconds) in requests.items():
        by_kind.setdefault(kind, []).append((seconds, server.get(request_id)))

    def pct(values: list[float], share: float) -> str:
        if not values:
            return "–"
        ordered = sorted(values)
        return f"{ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000:.1f}"

    lines = [
        "| request (paced run) | count | sent→answer p50 / p99 / max ms | in heronlog p50 / p99 / max ms | "
        "gap p99 ms | share of the run's slowest 1 % |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    every = sorted(seconds for _, seconds in requests.values())
    threshold = every[int(0.99 * len(every))] if every else 0.0
    slowest = sum(1 for seconds in every if seconds >= threshold) or 1
    for kind, pairs in sorted(by_kind.items(), key=lambda item: -len(item[1])):
        client = [seconds for seconds, _ in pairs]
        inside = [seconds for _, seconds in pairs if seconds is not None]
        gaps = [seconds - spent for seconds, spent in pairs if spent is not None]
        share = sum(1 for seconds in client if seconds >= threshold) / slowest
        lines.append(
            f"| {kind} | {len(pairs)} | {pct(client, 0.5)} / {pct(client, 0.99)} / {pct(client, 1.0)} | "
            f"{pct(inside, 0.5)} / {pct(inside, 0.99)} / {pct(inside, 1.0)} | {pct(gaps, 0.99)} | {share:.0%} |"
        )
    return lines


# --- the report ---------------------------------------------------------------------------------------------


def row(name: str, result: Result, kind: str, unit: str) -> str:
    errors = ", ".join(f"{what} ×{count}" for what, count in sorted(result.errors.items())) or "none"
    return (
        f"| {name} | {result.rate:.0f} {unit}/s | {result.median_ms(kind):.1f} | "
        f"{result.percentile_ms(kind, 0.99):.1f} | {errors} |"
    )


def sweep_table(swept: Sequence[tuple[float, Result]], target: float) -> str:
    """The sweep's runs, and the highest rate that kept up."""
    lines = [
        f"Most paced runs at {target:.0f} moves/s did not keep up, so lower paced rates were tried, highest first, "
        f"each {SWEEP_STEP:.0f} moves/s below the last, until one served what it offered with a p99 within "
        f"{TARGET_P99_MS:.0f} ms:",
        "",
        "| offered | answered | p50 ms | p99 ms | heronlog CPU per move | kept up |",
        "|---:|---:|---:|---:|---:|---|",
    ]
    for rate, result in swept:
        cpu = f"{result.cpu.heronlog / max(result.rate, 0.01) * 1000:.2f} ms" if result.cpu else "?"
        lines.append(
            f"| {rate:.0f} moves/s | {result.rate:.0f} moves/s | {result.median_ms('move'):.1f} | "
            f"{result.percentile_ms('move', 0.99):.1f} | {cpu} | {'yes' if keeps_up(result, rate) else 'no'} |"
        )
    kept = [rate for rate, result in swept if keeps_up(result, rate)]
    lines.append("")
    lines.append(
        f"The highest paced rate that kept its p99 within {TARGET_P99_MS:.0f} ms in this run: {max(kept):.0f} "
        f"moves/s ({max(kept) / target:.0%} of the {target:.0f} offered first)."
        if kept
        else f"No rate tried kept its p99 within {TARGET_P99_MS:.0f} ms."
    )
    return "\n".join(lines)


def cpu_table(runs: Sequence[tuple[str, Result | None]], healthz_ms: float | None) -> str:
    """The cores each party used in each run, and heronlog's CPU per move beside a ``/healthz``'s (the anchor)."""
    lines = [
        "| run | cores: heronlog (workers) | Redis | clients | others | heronlog CPU per move | × a `/healthz` |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    for name, result in runs:
        if result is None:
            continue
        share = result.cpu
        if share is None:
            lines.append(f"| {name} | not measured | | | | | |")
            continue
        per_move = share.heronlog / max(result.rate, 0.01) * 1000  # both over the measured window
        times = f"{per_move / healthz_ms:.1f}" if healthz_ms else ""
        spread = " + ".join(f"{part:.2f}" for part in share.workers)
        lines.append(
            f"| {name} | {share.heronlog:.2f} ({spread}) | {share.redis:.2f} | {share.clients:.2f} | "
            f"{share.others:.2f} | {per_move:.2f} ms | {times} |"
        )
    if healthz_ms:
        lines.append(f"\nheronlog's CPU per `/healthz` request in the anchor run: {healthz_ms:.3f} ms.")
    return "\n".join(lines)


SWEEP_STEP = 50.0
"""Moves per second between two paced rates the sweep tries."""


def sweep_rates(target: float, step: float = SWEEP_STEP) -> list[float]:
    """The paced rates the sweep tries when the target's is too much: from one step below it down to one
    step, highest first (the first that keeps up ends the sweep)."""
    rates = []
    rate = target - step
    while rate >= step:
        rates.append(rate)
        rate -= step
    return rates


def keeps_up(result: Result, offered: float) -> bool:
    """Whether a paced run served what it offered (97 % of it answered inside the window: the window's
    edges cut a few moves either way) with a p99 within the target's."""
    return result.rate >= 0.97 * offered and result.percentile_ms("move", 0.99) <= TARGET_P99_MS


def sweep(port: int, seconds: float, rates: Sequence[float]) -> list[tuple[float, Result]]:
    """Paced runs at ``rates`` (highest first) until one keeps up: the rate this server sustains within the
    target's p99, measured rather than guessed from the closed loop."""
    tried = []
    for rate in rates:
        result = paced_load(port, seconds, rate)
        tried.append((rate, result))
        if keeps_up(result, rate):
            break
    return tried


PACED_REPEATS = 3


def most_keep_up(runs: Sequence[Result], offered: float) -> bool:
    """Whether more than half of the paced runs at ``offered`` kept up (:func:`keeps_up`)."""
    return sum(keeps_up(result, offered) for result in runs) * 2 > len(runs)


def met_target(result: Result, offered: float | None = None) -> bool:
    """Whether a run met the target. A closed-loop run must answer the target's rate itself. A paced run
    must offer at least the target's rate and keep up with it (:func:`keeps_up`): its answered rate sits a
    few moves either side of the offered one (the window's edges), so 499.9 moves/s answered of 500 offered is
    the same as 500.1, and a backlog shows in the p99 anyway. A run with errors met nothing."""
    if result.errors:
        return False
    if offered is None:
        return result.rate >= TARGET_MOVES_PER_SECOND and result.percentile_ms("move", 0.99) <= TARGET_P99_MS
    return offered >= TARGET_MOVES_PER_SECOND and keeps_up(result, offered)


def verdict_of_runs(name: str, runs: Sequence[Result], offered: float) -> str:
    """One line for repeated paced runs at ``offered``: how many met the target, with each one's figures."""
    if len(runs) == 1:
        return verdict(name, runs[0], offered)
    met = sum(met_target(result, offered) for result in runs)
    each = "; ".join(
        f"{result.rate:.0f} moves/s, p99 {result.percentile_ms('move', 0.99):.1f} ms" for result in runs
    )
    return (
        f"- {name}, shipped settings, {len(runs)} runs at {offered:.0f} moves/s offered: target "
        f"**met in {met} of {len(runs)}** ({TARGET_MOVES_PER_SECOND} moves/s with p99 ≤ {TARGET_P99_MS:.0f} ms; "
        f"{each})."
    )


def verdict(name: str, result: Result, offered: float | None = None) -> str:
    """One line: whether a run met the target (both its throughput and its p99; see :func:`met_target`)."""
    p99 = result.percentile_ms("move", 0.99)
    met = met_target(result, offered)
    rate = f"{result.rate:.0f} moves/s"
    if offered is not None:
        rate = f"{offered:.0f} moves/s offered, {rate} answered"
    return (
        f"- {name}, shipped settings: {rate}, p99 {p99:.1f} ms per move: target "
        f"**{'met' if met else 'NOT met'}** ({TARGET_MOVES_PER_SECOND} moves/s with p99 ≤ {TARGET_P99_MS:.0f} ms; "
        f"{result.count} moves in the measured window)."
    )


def parts_of_a_move(redis_url: str) -> move_parts.Parts:
    """The parts of a move, each timed in a process of their own on this Redis (bench/move_parts.py)."""
    run = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "move_parts.py"), redis_url],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return move_parts.from_json(run.stdout.strip().splitlines()[-1])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=LOAD_SECONDS, help="measured seconds per run")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes (default 2)")
    parser.add_argument(
        "--threads", type=int, default=8, help="threads per worker, for an older --source tree (default 8)"
    )
    parser.add_argument("--no-anchors", action="store_true", help="only the load itself (for profiling)")
    parser.add_argument(
        "--paced-rate",
        type=float,
        default=float(TARGET_MOVES_PER_SECOND),
        help=f"moves per second the paced (open-loop) run offers, all clients together (default "
        f"{TARGET_MOVES_PER_SECOND}); 0 skips that run",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=PACED_REPEATS,
        help=f"paced runs at the offered rate, one after the other (default {PACED_REPEATS}): on a shared machine "
        "one run's p99 says little, so each is reported and the verdict counts those that met the target",
    )
    parser.add_argument(
        "--no-sweep",
        action="store_true",
        help="when the paced run misses the target, do not look for the highest paced rate that keeps its p99 "
        f"within {TARGET_P99_MS:.0f} ms (rates {SWEEP_STEP:.0f} moves/s apart, below the offered one)",
    )
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="also break the paced run's latency down by request (a game's creation, a move that snapshots, "
        "the first and the last move of a game, an ordinary move), from the client and from heronlog's request log",
    )
    parser.add_argument(
        "--client",
        choices=("both", "one", "two", "none"),
        default="both",
        help="one request per move (POST moves, whose answer carries the next legal moves), two (GET "
        "legal-moves first, as older clients did; the only one an older server can serve), both (default), or none "
        "(the paced run only)",
    )
    parser.add_argument(
        "--slow-clients",
        type=int,
        default=SLOW_CLIENTS,
        help=f"slowloris connections of the slow-clients run (default {SLOW_CLIENTS}; 0 skips that run): a "
        "/healthz and a move every 50 ms, each on a new connection, beside them and then without them",
    )
    parser.add_argument(
        "--source",
        type=Path,
        default=ROOT,
        help="serve the heronlog source tree in this folder instead (compare a change: before and after)",
    )
    args = parser.parse_args(argv)

    single = double = relaxed = health = pings = None
    parts: move_parts.Parts | None = None
    probes: dict[int, Probes] = {}
    paced_runs: list[Result] = []
    swept: list[tuple[float, Result]] = []
    ping_us = 0.0
    requests: dict[str, tuple[str, float]] | None = {} if args.breakdown else None
    breakdown: list[str] = []
    with tempfile.TemporaryDirectory(prefix="heronlog-load-") as temp:
        folder = Path(temp)
        with (
            redis_server(folder / "always") as url,
            heronlog_serve(url, folder, args.workers, args.threads, args.source) as port,
        ):
            where = placement(SERVERS["heronlog"], args.workers)
            if args.client in ("both", "one"):
                single = load(port, args.seconds, one_request=True)
            if args.client in ("both", "two"):
                double = load(port, args.seconds, one_request=False)
            if args.paced_rate > 0:
                # The first run carries the breakdown's request ids, if asked for.
                paced_runs = [
                    paced_load(port, args.seconds, args.paced_rate, requests if run == 0 else None)
                    for run in range(max(1, args.repeats))
                ]
                if requests is not None:
                    time.sleep(1.0)  # the workers' last log lines
                    breakdown = breakdown_table(requests, server_durations(folder / f"serve-{port}.log"))
                if not args.no_sweep and not most_keep_up(paced_runs, args.paced_rate):
                    swept = sweep(port, max(5.0, args.seconds / 2), sweep_rates(args.paced_rate))
            if not args.no_anchors:
                health = healthz_anchor(port, args.seconds / 2)
                pings, ping_us = ping_anchor(url, args.seconds / 2)
                if args.source.resolve() == ROOT:  # the parts are timed on this tree's code only
                    parts = parts_of_a_move(url)
            if args.slow_clients > 0:
                for slow in (0, args.slow_clients):
                    probes[slow] = slow_clients_run(port, max(5.0, args.seconds / 2), slow)
        if not args.no_anchors:
            with (
                redis_server(folder / "everysec", "--appendfsync", "everysec") as url,
                heronlog_serve(url, folder, args.workers, args.threads, args.source) as port,
            ):
                relaxed = load(port, args.seconds, one_request=args.client != "two")

    print("## Load: 50 clients recording games over HTTP (bench_load.py)\n")
    print(
        f"{CLIENTS} clients record seeded games, each move a `POST moves` with `If-Match` and an "
        f"`Idempotency-Key` ([The load bench](performance/load.md)): paced runs offer {args.paced_rate:.0f} "
        "moves/s on a fixed schedule (latency from each move's scheduled time), closed-loop runs send each move "
        "when the previous answer arrives. "
        f"`heronlog serve`: {server_words(args.source, args.workers, args.threads)}, {where}; redis-server "
        f"from docker/redis.conf; all on loopback, {os.cpu_count()} cores. {WARMUP_SECONDS:.0f} s warm-up, "
        f"{args.seconds:.0f} s measured per run. Target: {TARGET_MOVES_PER_SECOND} moves/s or more with a p99 of "
        f"{TARGET_P99_MS:.0f} ms or less.\n"
    )
    print("| run | throughput | p50 ms | p99 ms | errors |")
    print("|---|---:|---:|---:|---:|")
    for run, paced in enumerate(paced_runs, 1):
        print(
            row(
                f"paced: {args.paced_rate:.0f} moves/s offered, AOF `always` (shipped)"
                + (f", run {run} of {len(paced_runs)}" if len(paced_runs) > 1 else ""),
                paced,
                "move",
                "moves",
            )
        )
    if single is not None:
        print(
            row(
                "closed loop: a move in one request, AOF `appendfsync always` (shipped)",
                single,
                "move",
                "moves",
            )
        )
    if double is not None:
        print(row("closed loop: a move in two requests, AOF `appendfsync always`", double, "move", "moves"))
        print(row("  its `GET legal-moves` alone", double, "legal-moves", "moves"))
        print(row("  its `POST moves` alone", double, "moves", "moves"))
    if relaxed is not None:
        asked = "two requests" if args.client == "two" else "one request"
        print(row(f"closed loop: a move in {asked}, AOF `appendfsync everysec`", relaxed, "move", "moves"))
    if health is not None and pings is not None:
        print(
            row(
                "anchor: `GET /healthz` (liveness: the HTTP round trip, no store)",
                health,
                "healthz",
                "requests",
            )
        )
        print(row("anchor: redis-py PING, 50 threads", pings, "PING", "PINGs"))
        print(f"| anchor: one redis-py PING round trip | | {ping_us / 1000:.3f} | | |")
    print()
    paced_names = [
        f"paced, run {run} of {len(paced_runs)}" if len(paced_runs) > 1 else "paced"
        for run in range(1, len(paced_runs) + 1)
    ]
    for name, paced in zip(paced_names, paced_runs, strict=True):
        late = paced.latencies.get("late") or [0.0]
        share_late = sum(1 for wait in late if wait > 0.001) / len(late)
        if share_late >= 0.01:  # a client still waiting for its previous answer: said only when it happened
            print(
                f"In the {name} run {share_late:.0%} of the moves left more than 1 ms after their scheduled time; "
                f"p99 of that delay {paced.percentile_ms('late', 0.99):.1f} ms."
            )
    if breakdown:
        print()
        print("\n".join(breakdown))
        print()
    if swept:
        print()
        print(sweep_table(swept, args.paced_rate))
        print()
    healthz_ms = (
        health.cpu.heronlog / max(health.rate, 0.01) * 1000 if health is not None and health.cpu else None
    )
    print()
    print(
        cpu_table(
            [
                *zip(paced_names, paced_runs, strict=True),
                ("closed loop, one request", single),
                ("closed loop, two requests", double),
            ],
            healthz_ms,
        )
    )
    if health is not None:
        print(
            f"The `/healthz` anchor puts the ceiling of this stack in this run at about {health.rate:.0f} moves/s "
            f"with one request per move ({health.rate / 2:.0f} with two)."
        )
    if parts is not None:
        healthz_cpu = health.cpu.heronlog / max(health.rate, 0.01) * 1000 if health and health.cpu else None
        move_cpu = single.cpu.heronlog / max(single.rate, 0.01) * 1000 if single and single.cpu else None
        print()
        print("\n".join(move_parts.report(parts, healthz_cpu, move_cpu)))
    if probes:
        print()
        print(
            f"Slow clients: every 50 ms a `/healthz` and a move (one request), each on a new connection, "
            f"{PROBE_TIMEOUT:.0f} s client timeout; first alone, then beside {args.slow_clients} slowloris "
            "connections (half send their head a header line a second, half their body a byte a second; one the "
            "server closes is opened again):"
        )
        print()
        print("| run | `/healthz` | move | not answered in time | slow connections opened |")
        print("|---|---|---|---:|---:|")
        for slow, found in probes.items():
            name = f"beside {slow} slow connections" if slow else "alone (anchor)"
            print(
                f"| {name} | {found.describe('healthz')} | {found.describe('move')} | {found.unanswered} | "
                f"{found.slow_opened} |"
            )
    print()
    if paced_runs:
        print(verdict_of_runs("paced (open-loop)", paced_runs, args.paced_rate))
    if single is not None:
        print(verdict("closed-loop, one request per move", single))
    if not paced_runs and single is None and double is not None:
        print(verdict("closed-loop, two requests per move", double))
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
