"""What a hostile client's requests cost a real `heronlog serve`: its imports, beside a full game's import and a plain
read; then the worst body of every route, each beside the CPU of a normal move measured in the same run (prints
Markdown sections).
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
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TICKS = os.sysconf("SC_CLK_TCK")
sys.path.insert(0, str(ROOT))
from api.server.environment import DEFAULTS  # noqa: E402

LARGEST_IMPORT = int(DEFAULTS["IMPORT_MAX_EVENTS"])
"""The most events an import may hold on a server of the default settings: the largest import sent."""


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


def send(
    base: str, method: str, path: str, body: Any = None, token: str | None = None, **headers: str
) -> int:
    """The status of one request (its answer read whole and dropped: any content type)."""
    data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    for name, value in headers.items():
        request.add_header(name.replace("_", "-"), value)
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        error.read()
        return int(error.code)


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


BODY_LIMIT = 2 * 1024 * 1024
"""The default largest body (``MAX_CONTENT_LENGTH``): every hostile body is made as large as it allows."""
BYTES_PER_WRITE = 64 * 1024
"""The default ``BODY_BYTES_PER_WRITE``: what a body weighs in its rate limit."""
LIMIT_IN_MOVES = 100
"""What no request may cost: the CPU of this many normal moves."""


def filled(make: Callable[[int], Any]) -> Any:
    """``make(n)`` for the largest ``n`` whose JSON fits the body limit (a few KiB to spare for the headers)."""
    room = BODY_LIMIT - 4096
    low, high = 1, 2
    while len(json.dumps(make(high))) <= room:
        low, high = high, high * 2
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if len(json.dumps(make(middle))) <= room else (low, middle)
    return make(low)


def post_move(base: str, game_id: str, token: str, move: Any, version: int) -> dict[str, Any]:
    request = urllib.request.Request(
        f"{base}/api/games/{game_id}/moves", data=json.dumps(move).encode(), method="POST"
    )
    request.add_header("Content-Type", "application/json")
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("If-Match", f'"{version}"')
    with urllib.request.urlopen(request, timeout=60) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def post_json(base: str, path: str, body: Any, token: str, version: int) -> dict[str, Any]:
    """A write's answer (the write expects ``version``)."""
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST")
    request.add_header("Content-Type", "application/json")
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("If-Match", f'"{version}"')
    with urllib.request.urlopen(request, timeout=300) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def normal_move(base: str, master: int, moves: int = 100) -> float:
    """The server's CPU per ``POST moves`` of a four-player game (the anchor): each move chosen from the legal
    moves the answer before carried, so that nothing but moves is sent while the CPU is counted."""
    status, created = call(base, "POST", "/api/games", {"players": 4, "seed": 11})
    assert status == 201, created
    game_id, token, legal = created["game"]["game_id"], created["owner_token"], created["legal_moves"]
    rng = random.Random(11)
    post_move(base, game_id, token, legal["moves"][0], legal["version"])  # the game read and kept, as in play
    legal = call(base, "GET", f"/api/games/{game_id}/legal-moves")[1]
    before = worker_cpu(master)
    for _ in range(moves):
        choices = [move for move in legal["moves"] if move.get("kind") != "convert"] or legal["moves"]
        legal = post_move(base, game_id, token, rng.choice(choices), legal["version"])["legal_moves"]
    time.sleep(0.2)  # the worker's last ticks
    return (worker_cpu(master) - before) / moves


def legal_batch(base: str, game_id: str, most: int) -> list[dict[str, Any]]:
    """The longest batch of legal moves from where the game stands (at most ``most``), worked out with the rules
    engine on the game's board and catalog, as a client recording a game offline sends it."""
    import domain

    board = dict(call(base, "GET", f"/api/games/{game_id}")[1]["state"])
    board["catalog"] = call(base, "GET", f"/api/games/{game_id}/catalog")[1]["catalog"]
    state = domain.state_from_dict(json.loads(json.dumps(board)))
    moves: list[dict[str, Any]] = []
    rng = random.Random(5)
    while len(moves) < most and not domain.is_over(state):
        choices = [move for move in domain.legal_moves(state) if move.get("kind") != "convert"]
        move = dict(rng.choice(choices))
        moves.append(move)
        state = domain.apply(state, move)
    return moves


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def route_costs(base: str, master: int, full: tuple[str, str, dict[str, Any]]) -> None:
    """The worst body of each route, each sent a few times; its server CPU beside a normal move's."""
    full_id, full_token, document = full
    anchor = normal_move(base, master)
    status, imported = call(base, "POST", "/api/games/import?new_id=1", padded(document, LARGEST_IMPORT))
    assert status == 201, imported
    large_id, large_token = imported["game"]["game_id"], imported["owner_token"]
    last = call(base, "GET", f"/api/games/{full_id}")[1]["version"]
    first_move = next(
        e["version"]
        for e in document["events"]
        if e["type"] == "MovePlayed" and e["data"]["seat"] is not None
    )
    before = call(base, "GET", f"/api/games/{full_id}/legal-moves?before={first_move}")[1]
    recorded = next(e["data"]["move"] for e in document["events"] if e["version"] == first_move)
    other = next(move for move in before["moves"] if move != recorded)

    fresh = [call(base, "POST", "/api/games", {"players": 4, "seed": 23})[1] for _ in range(3)]
    batch = legal_batch(base, fresh[0]["game"]["game_id"], 500)
    batches = iter(fresh)

    def batch_of_legal_moves() -> int:
        game = next(batches)
        version = game["legal_moves"]["version"]
        return send(
            base,
            "POST",
            f"/api/games/{game['game']['game_id']}/moves",
            {"moves": batch},
            game["owner_token"],
            If_Match=f'"{version}"',
        )

    mid = call(base, "POST", "/api/games", {"players": 4, "seed": 29})[1]
    mid_id, mid_token = mid["game"]["game_id"], mid["owner_token"]

    def undo_all_then_redo() -> int:
        version = call(base, "GET", f"/api/games/{full_id}")[1]["version"]
        undone = post_json(base, f"/api/games/{full_id}/undo", {"to_version": 1}, full_token, version)
        count = undone["game"]["redoable"]
        return send(
            base,
            "POST",
            f"/api/games/{full_id}/redo",
            {"count": count},
            full_token,
            If_Match=f'"{version + 1}"',
        )

    tallies = {
        "name": "Aiko",
        "cp": 41,
        "coins": 6,
        "seals": 2,
        "food": 3,
        "iron": 7,
        "pearl": 1,
        "pot": 20,
        "courtiers": {"gate": 1, "steward": 2},
        "warriors": {"yard_1": 2},
        "gardeners": ["PG1", "PG2"],
    }
    deep_catalog = json.loads(json.dumps(document))
    deep_catalog["catalog"]["odd"] = nested(500)
    deep_catalog["setup"]["catalog_override"] = True
    deep_note = json.loads(json.dumps(deep_catalog))
    deep_note["catalog"]["odd"] = nested(90)
    wide_catalog = json.loads(json.dumps(document))
    wide_catalog["setup"]["catalog_override"] = True
    gardens = wide_catalog["catalog"]["gardens"]
    wide_catalog = filled(
        lambda n: {
            **wide_catalog,
            "catalog": {
                **wide_catalog["catalog"],
                "gardens": gardens + [{"id": f"G{i}", "cp": 1} for i in range(n)],
            },
        }
    )
    position = dict(call(base, "GET", f"/api/games/{mid_id}")[1]["state"])
    position["catalog"] = call(base, "GET", f"/api/games/{mid_id}/catalog")[1]["catalog"]

    note = call(base, "POST", f"/api/games/{large_id}/annotations", {"version": 2, "text": "a"}, large_token)[
        1
    ]
    people = [{"name": f"Player {i:04d} " + "n" * 180, "uuid": str(uuid.UUID(int=i))} for i in range(5000)]
    tokens = {"Game-Tokens": f"{full_id}={full_token}"}

    cases: list[tuple[str, str, Any, Callable[[Any], int], int]] = [
        (
            "POST /api/games",
            "a castle list of 32,000 entries",
            {
                "players": ["A", "B"],
                "mode": "table",
                "layout": {"castle": {f"x{i}": "S1" for i in range(32_000)}},
            },
            lambda body: send(base, "POST", "/api/games", body),
            3,
        ),
        (
            "POST /api/games",
            "a castle list filling the body",
            filled(
                lambda n: {
                    "players": ["A", "B"],
                    "mode": "table",
                    "layout": {"castle": {f"x{i}": "S1" for i in range(n)}},
                }
            ),
            lambda body: send(base, "POST", "/api/games", body),
            3,
        ),
        (
            "POST /api/games",
            "a name padded with invisible characters",
            filled(lambda n: {"players": ["A" + "\u200b" * n, "B"]}),
            lambda body: send(base, "POST", "/api/games", body),
            3,
        ),
        (
            "POST /api/games",
            "setup options filling the body",
            filled(lambda n: {"players": 2, "options": {f"o{i}": True for i in range(n)}}),
            lambda body: send(base, "POST", "/api/games", body),
            3,
        ),
        (
            "POST …/moves",
            f"{len(batch)} legal moves",
            {"moves": batch},
            lambda body: batch_of_legal_moves(),
            3,
        ),
        (
            "POST …/moves",
            "a batch of moves filling the body",
            filled(lambda n: {"moves": [{"kind": "roll"}] * n}),
            lambda body: send(base, "POST", f"/api/games/{mid_id}/moves", body, mid_token, If_Match="*"),
            3,
        ),
        (
            "POST …/moves",
            "a move of fields filling the body",
            filled(lambda n: {"kind": "roll", "seat": 0, **{f"k{i}": 1 for i in range(n)}}),
            lambda body: send(base, "POST", f"/api/games/{mid_id}/moves", body, mid_token, If_Match="*"),
            3,
        ),
        (
            "POST …/moves",
            "a move whose list fills the body",
            filled(lambda n: {"kind": "stack_order", "seat": None, "order": [0] * n}),
            lambda body: send(base, "POST", f"/api/games/{mid_id}/moves", body, mid_token, If_Match="*"),
            3,
        ),
        (
            "POST …/amend",
            f"a dry run at the first of {last} versions",
            {"version": first_move, "move": other, "dry_run": True},
            lambda body: send(base, "POST", f"/api/games/{full_id}/amend", body, full_token, If_Match="*"),
            3,
        ),
        (
            "POST …/amend",
            "resolutions filling the body",
            filled(
                lambda n: {
                    "version": first_move,
                    "move": other,
                    "dry_run": True,
                    "resolutions": [
                        {"index": 2 + i % 400, "moves": [{"kind": "roll"}] * 50} for i in range(n)
                    ],
                }
            ),
            lambda body: send(base, "POST", f"/api/games/{full_id}/amend", body, full_token, If_Match="*"),
            3,
        ),
        (
            "POST …/amend",
            "moves filling the body",
            filled(lambda n: {"version": first_move, "moves": [other] * n, "dry_run": True}),
            lambda body: send(base, "POST", f"/api/games/{full_id}/amend", body, full_token, If_Match="*"),
            3,
        ),
        (
            "POST …/undo, …/redo",
            "a whole game undone, then redone",
            {"to_version": 1},
            lambda body: undo_all_then_redo(),
            3,
        ),
        (
            "POST …/abandon",
            "a reason filling the body",
            filled(lambda n: {"reason": "r" * n}),
            lambda body: send(base, "POST", f"/api/games/{mid_id}/abandon", body, mid_token, If_Match="*"),
            3,
        ),
        (
            "POST …/annotations",
            "4,000 characters",
            {"version": 2, "text": "é" * 4000, "glyph": "!?", "target": {"kind": "room", "id": "steward_1"}},
            lambda body: send(base, "POST", f"/api/games/{large_id}/annotations", body, large_token),
            3,
        ),
        (
            "POST …/annotations",
            "a target filling the body",
            filled(lambda n: {"version": 2, "text": "a", "target": {f"k{i}": "x" for i in range(n)}}),
            lambda body: send(base, "POST", f"/api/games/{large_id}/annotations", body, large_token),
            3,
        ),
        (
            "PATCH …/annotations/<id>",
            "a text filling the body",
            filled(lambda n: {"text": "é" * n}),
            lambda body: send(
                base, "PATCH", f"/api/games/{large_id}/annotations/{note['id']}", body, large_token
            ),
            3,
        ),
        (
            "POST …/players",
            "a name filling the body",
            filled(lambda n: {"seat": 0, "name": "n" * n}),
            lambda body: send(base, "POST", f"/api/games/{full_id}/players", body, full_token, If_Match="*"),
            3,
        ),
        (
            "POST /api/players/bgstats",
            "5,000 players, the most taken",
            {"players": people, "games": []},
            lambda body: send(base, "POST", "/api/players/bgstats", body, **tokens),
            3,
        ),
        (
            "POST /api/players/bgstats",
            "players filling the body",
            filled(lambda n: {"players": [{"name": "A", "uuid": str(uuid.UUID(int=0))}] * n}),
            lambda body: send(base, "POST", "/api/players/bgstats", body, **tokens),
            3,
        ),
        (
            "POST …/forks",
            f"the {LARGEST_IMPORT:,}-event game",
            {},
            lambda body: send(base, "POST", f"/api/games/{large_id}/forks", body, large_token),
            3,
        ),
        (
            "POST …/seats/0/token",
            "a seat token",
            None,
            lambda body: send(base, "POST", f"/api/games/{large_id}/seats/0/token", body, large_token),
            3,
        ),
        (
            "POST /api/score-sheets",
            "four players",
            {"players": [dict(tallies, name=n, turn_order=i + 1) for i, n in enumerate("ABCD")]},
            lambda body: send(base, "POST", "/api/score-sheets", body),
            3,
        ),
        (
            "POST /api/score-sheets",
            "tallies filling the body",
            filled(lambda n: {"players": [{f"k{i}": 1 for i in range(n)}]}),
            lambda body: send(base, "POST", "/api/score-sheets", body),
            3,
        ),
        (
            "POST /api/games/import",
            f"{LARGEST_IMPORT:,} events, the most taken",
            padded(document, LARGEST_IMPORT),
            lambda body: send(base, "POST", "/api/games/import?new_id=1", body),
            3,
        ),
        (
            "POST /api/games/import",
            "a catalog 500 levels deep",
            deep_catalog,
            lambda body: send(base, "POST", "/api/games/import?new_id=1", body),
            3,
        ),
        (
            "POST /api/games/import",
            "a catalog 90 levels deep",
            deep_note,
            lambda body: send(base, "POST", "/api/games/import?new_id=1", body),
            3,
        ),
        (
            "POST /api/games/import",
            "gardens filling the body",
            wide_catalog,
            lambda body: send(base, "POST", "/api/games/import?new_id=1", body),
            3,
        ),
        (
            "POST /api/analyse",
            "the most playouts",
            {"position": position, "playouts": 100_000},
            lambda body: send(base, "POST", "/api/analyse", body),
            1,
        ),
        (
            "GET /api/players",
            "a search of 100 characters",
            None,
            lambda body: send(base, "GET", "/api/players?search=" + "a" * 100),
            3,
        ),
        (
            "GET /api/games",
            "a search of 50 words",
            None,
            lambda body: send(base, "GET", "/api/games?search=" + "+".join(["a"] * 50)),
            3,
        ),
    ]
    for path in (
        "",
        "/legal-moves",
        "/timeline",
        "/export",
        "/export/text",
        "/export/bgg",
        "/states/3",
        "/states",
        "/players",
        "/changes?since=0",
        "/score",
        "/layout",
        "/catalog",
        "/annotations",
        "/access",
    ):

        def read(body: Any, path: str = path) -> int:
            return send(base, "GET", f"/api/games/{large_id}{path}", None, large_token)

        cases.append((f"GET …{path.split('?')[0]}", f"of the {LARGEST_IMPORT:,}-event game", None, read, 3))

    rows: list[tuple[str, str, int, int, float]] = []
    for route, what, body, request, repeat in cases:
        size = 0 if body is None else len(json.dumps(body).encode())
        cpu = worker_cpu(master)
        statuses = [request(body) for _ in range(repeat)]
        time.sleep(0.2)
        rows.append((route, what, size, statuses[-1], (worker_cpu(master) - cpu) / repeat))
    reads = [row for row in rows if row[0].startswith("GET …")]
    costliest = max(reads, key=lambda row: row[4])
    rows = [row for row in rows if row not in reads]
    rows.append(
        (
            costliest[0],
            f"the costliest of {len(reads)} reads of the {LARGEST_IMPORT:,}-event game",
            0,
            200,
            costliest[4],
        )
    )

    print("## Hostile clients: the worst body of each route (bench_hostile.py)\n")
    print(
        f"The same server; each request sent 3 times (an analysis once), its server CPU averaged and counted in "
        f"normal moves: a `POST moves` of this run, **{anchor * 1000:.2f} ms** (the mean of 100). Over "
        f"{LIMIT_IN_MOVES} in bold.\n"
    )
    print("| route | the body | bytes | answer | normal moves |")
    print("|---|---|---:|---|---:|")
    for route, what, size, status, each in rows:
        moves = each / anchor
        shown = f"**{moves:.0f}**" if moves > LIMIT_IN_MOVES else f"{moves:.0f}"
        print(f"| `{route}` | {what} | {size:,} | {status} | {shown} |", flush=True)
    print()


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
        game_id, token, document = full_game(base)
        anchor = json.dumps(document).encode()
        largest = json.dumps(padded(document, LARGEST_IMPORT)).encode()
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
            (f"the largest import taken ({LARGEST_IMPORT:,} events, {len(largest):,} bytes)", largest),
            (f"an export padded to 2 MiB ({events:,} events, {len(costly):,} bytes)", costly),
        ):
            status, cpu, grown = measured(base, server.pid, folder, body)
            rows.append(f"| {label} | {status} | {cpu:.2f} s | {grown / 1e6:.2f} MB |")

        read_latency(
            base, game_id, count=5
        )  # warm: the game folded and kept, as a read of a live game finds it
        alone = read_latency(base, game_id)
        heavy = largest  # the most events an import may hold: each one a heavy import (over 500)
        answers: list[int] = []
        lock = threading.Lock()

        def import_heavy() -> None:
            status, _ = call(base, "POST", "/api/games/import?new_id=1", heavy)
            with lock:
                answers.append(status)

        threads = [threading.Thread(target=import_heavy) for _ in range(10)]
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
            f"| while ten imports of {LARGEST_IMPORT:,} events are sent at once ({refolded} refolded, {busy} "
            "answered 503, "
            f"all answered in {took:.1f} s; {len(during)} reads) | {statistics.median(during) * 1000:.1f} ms "
            f"| {max(during) * 1000:.0f} ms |"
        )
        print()
        route_costs(base, server.pid, (game_id, token, document))
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
