"""Where a move's CPU goes: the parts of `POST moves`, each timed in process on the load bench's own Redis.

It shows what the ratio of a move to a `/healthz` is made of, and the floor no move can go below
(docs/performance/load.md#floor).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

PARTS = ("the game as held (one trip)", "deciding the move", "the append, counted and checked", "the answer")
UNSKIPPABLE = ("deciding the move", "the append, counted and checked", "the answer")
"""The parts any `POST moves` must run whatever the server and framework: the rules' verdict and the event, the
event written, and an answer carrying the next legal moves (the one-request client plays from it)."""


@dataclass
class Parts:
    """CPU seconds per part, summed over ``moves`` moves; ``requests``: the whole request through the test client
    (a move, a `/healthz`), summed likewise."""

    moves: int = 0
    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PARTS, 0.0))
    requests: dict[str, float] = field(default_factory=lambda: {"move": 0.0, "healthz": 0.0})

    def ms(self, part: str) -> float:
        return self.cpu[part] / max(self.moves, 1) * 1000

    def request_ms(self, kind: str) -> float:
        return self.requests[kind] / max(self.moves, 1) * 1000

    @property
    def floor_ms(self) -> float:
        """What the unskippable parts take together, per move."""
        return sum(self.ms(part) for part in UNSKIPPABLE)


@contextlib.contextmanager
def clock(sink: dict[str, float], name: str) -> Iterator[None]:
    """Add the process's CPU the block takes to ``sink[name]`` (the process's, not the thread's: a snapshot the
    append hands to a background thread counts, as it does in a worker)."""
    started = time.process_time()
    yield
    sink[name] += time.process_time() - started


def seeded_games(rng: random.Random) -> Iterator[dict[str, Any]]:
    """Setups as the load bench's clients send them: 2 to 4 players, a random seed."""
    while True:
        yield {"players": rng.choice([2, 3, 4]), "seed": rng.randrange(10**9)}


def measure(redis_url: str, moves: int = 2000, warm: int = 300) -> Parts:
    """Record ``warm`` moves, then ``moves`` measured ones, each part timed; return the sums."""
    from api.app import create_app
    from api.resources.context import game_log
    from api.resources.fastjson import encode
    from api.resources.games import played
    from replay import decisions
    from replay.config import StoreConfig
    from replay.game import after_decided

    store = StoreConfig.from_environ(
        {
            "HERONLOG_STORE": "redis",
            "REDIS_URL": redis_url,
            "REDIS_KEY_PREFIX": "parts-" + uuid.uuid4().hex[:8],
        }
    )
    app = create_app({"STORE": store})
    client = app.test_client()
    with app.app_context():
        log = game_log()
    rng = random.Random(28)
    setups = seeded_games(rng)

    def run(count: int) -> Parts:
        parts = Parts()
        while parts.moves < count:
            created = client.post("/api/games", json=next(setups)).get_json()
            game_id, token = uuid.UUID(created["game"]["game_id"]), created["owner_token"]
            listing = created["legal_moves"]
            while not listing["over"] and parts.moves < count:
                move = rng.choice(listing["moves"])
                key = uuid.UUID(int=rng.getrandbits(128)).hex
                cpu = parts.cpu
                with clock(cpu, "the game as held (one trip)"):
                    trip = log.games.count_later("parts", 60, near=game_id, limit=0)
                    assert trip is not None, "a game this process created is held warm"
                    game, grant = log.game_and_grant(game_id, token, trip.ahead)
                assert grant is not None
                with clock(cpu, "deciding the move"):
                    decided = decisions.play(game, [move], actor=grant.actor, idempotency_key=key)
                with clock(cpu, "the append, counted and checked"), log.games.counting_with_append(trip):
                    result = log.games.commit(
                        game, decided.events, after_decided(game, decided.events, decided.states)
                    )
                with app.test_request_context(), clock(cpu, "the answer"):
                    answer = encode(played(result, 201)[0])
                listing = json.loads(answer)["legal_moves"]
                with clock(parts.requests, "healthz"):
                    client.get("/healthz")
                parts.moves += 1
        return parts

    run(warm)
    parts = run(moves)
    parts.requests["move"] = whole_requests(client, rng, setups, moves)
    return parts


def whole_requests(client: Any, rng: random.Random, setups: Iterator[dict[str, Any]], moves: int) -> float:
    """The CPU of ``moves`` whole `POST moves` requests through the test client (creations not counted)."""
    total, done = 0.0, 0
    while done < moves:
        created = client.post("/api/games", json=next(setups)).get_json()
        game_id, token = created["game"]["game_id"], created["owner_token"]
        listing, version = created["legal_moves"], f'"{created["game"]["version"]}"'
        while not listing["over"] and done < moves:
            headers = {
                "Authorization": f"Bearer {token}",
                "If-Match": version,
                "Idempotency-Key": uuid.uuid4().hex,
            }
            move = rng.choice(listing["moves"])
            started = time.process_time()
            answer = client.post(f"/api/games/{game_id}/moves", json=move, headers=headers)
            total += time.process_time() - started
            if answer.status_code != 201:
                raise RuntimeError(
                    f"a move was refused: {answer.status_code} {answer.get_data(as_text=True)}"
                )
            version, listing = answer.headers["ETag"], answer.get_json()["legal_moves"]
            done += 1
    return total


def report(parts: Parts, healthz_http_ms: float | None, move_http_ms: float | None) -> list[str]:
    """The section's lines: each part per move, its share of the in-process move, and the floor against the HTTP
    `/healthz` of the same run."""
    whole = sum(parts.ms(part) for part in PARTS)
    lines = [
        "### Where a move's CPU goes (in process, on the same Redis)\n",
        f"{parts.moves:,} moves of seeded games recorded in the bench's process, each part of a `POST moves` timed "
        "on its own (the process's CPU, so a snapshot handed to a background thread counts); beside them, the "
        "whole request through Flask's test client (no server, no socket) and a `GET /healthz` the same way.\n",
        "| part | CPU per move | share of the parts |",
        "|---|---:|---:|",
    ]
    for part in PARTS:
        mark = " (unskippable)" if part in UNSKIPPABLE else ""
        lines.append(f"| {part}{mark} | {parts.ms(part):.3f} ms | {parts.ms(part) / max(whole, 1e-9):.0%} |")
    lines.append(f"| the parts together | {whole:.3f} ms | |")
    lines.append(
        f"| anchor: the whole `POST moves` through the test client | {parts.request_ms('move'):.3f} ms | |"
    )
    lines.append(
        f"| anchor: `GET /healthz` through the test client | {parts.request_ms('healthz'):.3f} ms | |"
    )
    lines.append("")
    if healthz_http_ms is not None:
        floor = healthz_http_ms + parts.floor_ms
        lines.append(
            f"The floor of a move on this stack, this run: a `/healthz` over HTTP ({healthz_http_ms:.3f} ms: the "
            f"server, Flask, the request log and metrics) plus the parts no move can skip "
            f"({parts.floor_ms:.3f} ms) = {floor:.3f} ms, {floor / max(healthz_http_ms, 1e-9):.1f}× a `/healthz`"
            + (
                f" (measured over HTTP: {move_http_ms:.3f} ms, {move_http_ms / max(healthz_http_ms, 1e-9):.1f}×)."
                if move_http_ms is not None
                else "."
            )
        )
    return lines


def from_json(text: str) -> Parts:
    found = json.loads(text)
    return Parts(moves=found["moves"], cpu=found["cpu"], requests=found["requests"])


if __name__ == "__main__":
    sys.path.insert(0, os.getcwd())  # the tree measured: the bench runs this script from its root
    measured = measure(sys.argv[1])
    print(json.dumps({"moves": measured.moves, "cpu": measured.cpu, "requests": measured.requests}))
