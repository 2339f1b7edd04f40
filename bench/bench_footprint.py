"""Benchmark of what long games cost on Redis (bytes per event, a 20,000-event export) and what the integrity check
costs per move, each figure beside its anchors (prints a Markdown section).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import statistics
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402
from eventsourcing.cipher import AESCipher  # noqa: E402
from eventsourcing.persistence import Mapper  # noqa: E402
from eventsourcing.utils import Environment  # noqa: E402
from timing import median_ms  # noqa: E402

import domain  # noqa: E402
from api.app import create_app  # noqa: E402
from api.server.collector import tune_worker_gc  # noqa: E402
from bench.bench_store import redis_server  # noqa: E402
from replay.config import StoreConfig, open_log  # noqa: E402
from replay.errors import NothingToRedo  # noqa: E402
from replay.events import MovePlayed, now  # noqa: E402
from replay.game import Game, project_game  # noqa: E402
from replay.integrity import CheckedMapper  # noqa: E402
from replay.snapshots import snapshot_due  # noqa: E402
from tests.api_helpers import ApiClient, flask_transport  # noqa: E402
from tests.replay_helpers import first_format_snapshot, pick  # noqa: E402

SIZES = tuple(int(size) for size in os.environ.get("FOOTPRINT_SIZES", "3000,20000").split(","))


def record(log: Any, events: int, seed: int) -> tuple[uuid.UUID, int]:
    """A game of ``events`` events recorded as a teaching session would: moves, undo (one or several), redo,
    every write with an Idempotency-Key. Returns the game and the bytes the earlier snapshot format would have
    stored for the snapshots the policy took."""
    rng = random.Random(seed)
    game_id = log.create_game({"players": 4, "seed": seed}).game_id
    earlier = 0
    game: Game = log.get(game_id)
    while game.version < events:
        before, roll, key = game, rng.random(), f"k{game.version}"
        if domain.is_over(game.state) or (len(game.line) > 8 and roll < 0.3):
            back = None if roll < 0.2 else game.line[-rng.randint(2, 4)]
            game = log.undo(game_id, to_version=back, expected_version=game.version, actor="coach",
                            idempotency_key=key).game  # fmt: skip
        elif game.redo and roll < 0.55:
            try:
                game = log.redo(
                    game_id, expected_version=game.version, actor="coach", idempotency_key=key
                ).game
            except NothingToRedo:
                continue
        else:
            game = log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="seat",
                            idempotency_key=key).game  # fmt: skip
        if snapshot_due(before, game):
            earlier += len(first_format_snapshot(game).state)
    return game_id, earlier


def footprint(client: redis.Redis, prefix: str, game_id: uuid.UUID) -> dict[str, int]:
    """Redis memory of the game: its log entries, its index (the sorted set of its versions) and snapshots."""
    tag = "{" + prefix + ":GameLog}"
    seq = f"{tag}:events:seq:{game_id}"
    ids = client.zrange(seq, 0, -1)
    log_key = f"{tag}:events:log"
    # The log is one hash for every stream of the store: its memory, shared out by the bytes of each entry.
    entries = sum(client.hstrlen(log_key, nid) for nid in ids)
    every = sum(client.hstrlen(log_key, nid) for nid in client.hkeys(log_key))
    log_bytes = int((client.memory_usage(log_key, samples=0) or 0) * entries / max(1, every))
    return {
        "log": log_bytes,
        "index": int(client.memory_usage(seq, samples=0) or 0),
        "snapshots": int(client.memory_usage(f"{tag}:snapshots:agg:{game_id}", samples=0) or 0),
    }


def long_games(url: str) -> list[str]:
    lines = [
        "| game | events | log B/event | index B/event | log + index | snapshots B/event | total B/event | "
        "earlier snapshot format, B/event |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    client = redis.Redis.from_url(url)
    http: list[str] = []
    for size in SIZES:
        prefix = f"footprint-{uuid.uuid4().hex[:8]}"
        store = StoreConfig(kind="redis", redis_url=url, redis_prefix=prefix)
        log = open_log(store)
        started = time.perf_counter()
        game_id, earlier = record(log, size, seed=size)
        built = time.perf_counter() - started
        game = log.get(game_id)
        log.close()
        sizes = footprint(client, prefix, game_id)
        per = {name: value / game.version for name, value in sizes.items()}
        lines.append(
            f"| {len(game.line)} moves on the line, {len(game.records)} recorded, {len(game.audit)} undo/redo "
            f"| {game.version:,} | {per['log']:.0f} | {per['index']:.0f} | {per['log'] + per['index']:.0f} "
            f"| {per['snapshots']:.0f} | {sum(per.values()):.0f} | {earlier / game.version:,.0f} |"
        )
        if size == max(SIZES):
            http = over_http(store, game_id, client, prefix, built)
        for key in client.scan_iter(match="{" + prefix + ":*", count=1000):
            client.unlink(key)
    return [*lines, "", *http]


def over_http(
    store: StoreConfig, game_id: uuid.UUID, client: redis.Redis, prefix: str, built: float
) -> list[str]:
    api = ApiClient(flask_transport(create_app({"STORE": store}).test_client()))
    cold_times = []
    for _ in range(3):  # a process that holds nothing yet: the nearest snapshot and the events it summarises
        fresh = open_log(store)
        started = time.perf_counter()
        game = fresh.get(game_id)
        cold_times.append((time.perf_counter() - started) * 1000)
        events = fresh.events_of(game_id)
        fresh.close()
    cold = statistics.median(cold_times)
    full = median_ms(lambda: project_game(None, events), 1)
    earlier = first_format_snapshot(game)
    restore_earlier = median_ms(lambda: project_game(None, [earlier]), 3)
    export = median_ms(lambda: api.get(f"/api/games/{game_id}/export"), 5)
    changes = median_ms(lambda: api.get(f"/api/games/{game_id}/changes?since=0"), 5)
    document = api.get(f"/api/games/{game_id}/export").body
    dumps = median_ms(lambda: json.dumps(document), 5)
    tag = "{" + prefix + ":GameLog}"

    def raw() -> None:
        ids = client.zrange(f"{tag}:events:seq:{game_id}", 0, -1)
        for start in range(0, len(ids), 1000):
            client.hmget(f"{tag}:events:log", ids[start : start + 1000])

    raw_ms = median_ms(raw, 5)
    events = len(document["events"]) + 1
    return [
        f"The {events:,}-event game (recorded through the game log in {built:.0f} s), over HTTP on Redis, median ms:",
        "",
        "| request | ms | anchor | ms |",
        "|---|---:|---|---:|",
        f"| `GET /api/games/{{id}}/export` | {export:.0f} | raw records read page by page, not decoded "
        f"| {raw_ms:.0f} |",
        f"| `GET /api/games/{{id}}/changes?since=0` | {changes:.0f} | `json.dumps` of the export document "
        f"| {dumps:.0f} |",
        f"| the game read by a process that holds nothing (snapshot and history) | {cold:.0f} | its events folded "
        f"through the rules, no snapshot | {full:.0f} |",
        f"| | | restoring the earlier format's snapshot of it (decode only) | {restore_earlier:.0f} |",
        "",
        f"Export of {events:,} events: {'under' if export < 1000 else 'OVER'} the target of one second.",
    ]


def integrity(url: str) -> list[str]:
    event = MovePlayed(
        originator_id=uuid.uuid4(), originator_version=42, timestamp=now(),
        move={"kind": "place_die", "seat": 2, "space": "castle_steward", "die": "coral"},
        chance=[{"kind": "roll", "bridge": "coral", "values": [3, 5, 6]}], seat=2, actor="seat:2",
        description="Aiko places the coral 3 on the Steward's room of the castle", idempotency_key="tap-4f2a9c",
    )  # fmt: skip
    log = open_log(StoreConfig(kind="memory"))
    transcoder = log.stores.all[0].mapper.transcoder
    cipher = AESCipher(Environment(env={"CIPHER_KEY": AESCipher.create_key(16)}))
    mappers = {
        "neither (the library's mapper)": Mapper(transcoder=transcoder),
        "heronlog's digest (BLAKE2b, 8 bytes)": CheckedMapper(transcoder=transcoder),
        "the library's AES-GCM cipher": Mapper(transcoder=transcoder, cipher=cipher),
    }
    rows = ["| record written and read back with | µs per event | bytes stored |", "|---|---:|---:|"]
    for name, mapper in mappers.items():
        stored = mapper.to_stored_event(event)
        us = (
            median_ms(lambda m=mapper: [m.to_domain_event(m.to_stored_event(event)) for _ in range(100)], 50)
            * 10
        )
        rows.append(f"| {name} | {us:.1f} | {len(stored.state)} |")
    ping = redis.Redis.from_url(url)
    ping_us = median_ms(lambda: [ping.ping() for _ in range(100)], 20) * 10
    rows.append(f"| anchor: a redis-py PING round trip | {ping_us:.1f} | |")
    log.close()
    return rows


def main() -> int:
    # Measured as in a `heronlog serve` worker, whose garbage collector is tuned (api/server/collector.py):
    # with the defaults, reading 20,000 events walks every live object again and again.
    tune_worker_gc()
    with contextlib.ExitStack() as stack:
        url = os.environ.get("HERONLOG_TEST_REDIS_URL") or stack.enter_context(redis_server())
        print("## Long games on Redis: bytes per event, export, and the integrity check\n")
        print(
            "Games recorded through the game log (moves, undo, redo, each with an Idempotency-Key; snapshots at "
            "each round's end and every 50 events). Bytes are Redis's `MEMORY USAGE`, per stored event.\n"
        )
        print("\n".join(long_games(url)))
        print()
        print("\n".join(integrity(url)))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
