"""What a hostile client's imports cost a real `heronlog serve`, beside a full game's import and a plain read (prints
a Markdown section).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def worker_cpu(master: int) -> float:
    """CPU seconds (user + system) of the server's worker processes so far."""
    total = 0.0
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    for pid in children:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


def full_game(base: str) -> tuple[str, str, dict[str, Any]]:
    """A four-player game played to its end with random legal moves, and its export."""
    status, created = call(base, "POST", "/api/games", {"players": ["Aiko", "Ben", "Chie", "Dai"], "seed": 7})
    assert status == 201, created
    game_id, token = created["game"]["game_id"], created["owner_token"]
    rng = random.Random(7)
    while True:
        _, legal = call(base, "GET", f"/api/games/{game_id}/legal-moves")
        if legal["over"] or not legal["moves"]:
            break
        move = rng.choice(legal["moves"])
        request = urllib.request.Request(
            f"{base}/api/games/{game_id}/moves", data=json.dumps(move).encode(), method="POST"
        )
        request.add_header("Content-Type", "application/json")
        request.add_header("Authorization", f"Bearer {token}")
        request.add_header("If-Match", f'"{legal["version"]}"')
        with urllib.request.urlopen(request, timeout=60):
            pass
    _, document = call(base, "GET", f"/api/games/{game_id}/export")
    return game_id, token, document


def padded(document: dict[str, Any], total: int) -> dict[str, Any]:
    """``document`` with undo/redo pairs of its last move until it holds ``total`` events."""
    out = copy.deepcopy(document)
    events = out["events"]
    last = max(entry["version"] for entry in events if entry["type"] == "MovePlayed")
    version, at = events[-1]["version"], events[-1]["at"]
    index = 0
    while len(events) + len(out["annotations"]) < total:
        version += 1
        kind = "MovesUndone" if index % 2 == 0 else "MovesRedone"
        data = {"versions": [last], "actor": "owner", "idempotency_key": None}
        events.append({"type": kind, "version": version, "at": at, "data": data})
        index += 1
    if len(events) % 2 == 1 and events[-1]["type"] == "MovesUndone":
        events.pop()
    return out


def file_size(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.glob("heronlog.sqlite*"))


def measured(base: str, master: int, folder: Path, body: bytes) -> tuple[int, float, int]:
    """(status, server CPU seconds, SQLite bytes added) of one import of ``body``."""
    size, cpu = file_size(folder), worker_cpu(master)
    status, _ = call(base, "POST", "/api/games/import?new_id=1", body)
    time.sleep(0.2)  # the worker's last ticks of the request
    return status, worker_cpu(master) - cpu, file_size(folder) - size


def read_latency(base: str, game_id: str, count: int = 20) -> float:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        status, _ = call(base, "GET", f"/api/games/{game_id}")
        assert status == 200
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", default=str(ROOT), help="the checkout to serve (default: this one)")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="heronlog-hostile-"))
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": args.code,
        "HERONLOG_DATA": str(folder),
        "HERONLOG_STORE": "sqlite",
        "REDIS_URL": "",
        "HERONLOG_RATE_LIMIT_PER_ADDRESS": "0",
        "HERONLOG_RATE_LIMIT_PER_TOKEN": "0",
        "HERONLOG_RATE_LIMIT_PER_SOURCE": "0",
        "HERONLOG_LOG_LEVEL": "warning",
    }
    log = (folder / "serve.log").open("w")
    server = subprocess.Popen(
        [sys.executable, "-m", "api.server", "serve", "--port", str(port)],
        env=env,
        cwd=args.code,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                call(base, "GET", "/healthz")
                break
            except OSError:
                time.sleep(0.1)
        game_id, _, document = full_game(base)
        anchor = json.dumps(document).encode()
        largest = json.dumps(padded(document, 5000)).encode()
        costly_document = padded(document, 20_000)
        while len(json.dumps(costly_document)) > 2 * 1024 * 1024 - 1024:  # just within the body limit
            costly_document["events"] = costly_document["events"][:-200]
        costly = json.dumps(costly_document).encode()
        events = len(costly_document["events"]) + len(costly_document["annotations"])

        rows = []
        for label, body in (
            (
                f"a full four-player game ({len(document['events']) + 1} events, {len(anchor):,} bytes)",
                anchor,
            ),
            (f"the largest import taken (5,000 events, {len(largest):,} bytes)", largest),
            (f"an export padded to 2 MiB ({events:,} events, {len(costly):,} bytes)", costly),
        ):
            status, cpu, grown = measured(base, server.pid, folder, body)
            rows.append(f"| {label} | {status} | {cpu:.2f} s | {grown / 1e6:.2f} MB |")

        read_latency(
            base, game_id, count=5
        )  # warm: the game folded and kept, as a read of a live game finds it
        alone = read_latency(base, game_id)
        heavy = json.dumps(padded(document, 4000)).encode()
        answers: list[int] = []
        lock = threading.Lock()

        def send() -> None:
            status, _ = call(base, "POST", "/api/games/import?new_id=1", heavy)
            with lock:
                answers.append(status)

        threads = [threading.Thread(target=send) for _ in range(10)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        during: list[float] = []
        while any(
            thread.is_alive() for thread in threads
        ):  # reads, one after another, until every import ends
            before = time.perf_counter()
            status, _ = call(base, "GET", f"/api/games/{game_id}")
            during.append(time.perf_counter() - before)
        for thread in threads:
            thread.join()
        took = time.perf_counter() - started
        print("## Hostile clients: the cost of imports (bench_hostile.py)\n")
        served = "" if Path(args.code).resolve() == ROOT else "Another checkout served (`--code`); "
        print(f"{served}SQLite, one worker, eight threads; rate limits off.\n")
        print("| import | status | server CPU | SQLite grew by |")
        print("|---|---|---|---|")
        print("\n".join(rows))
        print()
        print("| a plain read | median | slowest |")
        print("|---|---|---|")
        print(f"| alone (anchor) | {alone * 1000:.1f} ms | |")
        refolded, busy = answers.count(201), answers.count(503)
        print(
            f"| while ten imports of 4,000 events are sent at once ({refolded} refolded, {busy} answered 503, "
            f"all answered in {took:.1f} s; {len(during)} reads) | {statistics.median(during) * 1000:.1f} ms "
            f"| {max(during) * 1000:.0f} ms |"
        )
        print()
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
