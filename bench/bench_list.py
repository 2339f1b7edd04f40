"""Benchmark of the list of games (a page and a search at 1,000 to 100,000 games) and of a worker's memory after
10,000 games, on Redis and SQLite (prints a Markdown section).
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_replay import redis_url  # noqa: E402
from timing import median_ms as median_of  # noqa: E402

import domain  # noqa: E402
from replay.application import GameLog  # noqa: E402
from replay.config import StoreConfig, open_log  # noqa: E402
from replay.index import index_id  # noqa: E402
from tests.bulk_games import template, write_games  # noqa: E402

SIZES = [int(size) for size in os.environ.get("HERONLOG_BENCH_LIST_SIZES", "1000,10000,100000").split(",")]
TOUCHED = int(os.environ.get("HERONLOG_BENCH_TOUCHED", "10000"))
SEARCHES = {
    "a player's name": "aiko",
    "a name's start": "chi",
    "two words": "club aiko",
    "one letter": "a",
    "a number's start": "1",
}
GOAL_PAGE_MS = 20.0
GOAL_SEARCH_MS = 100.0
GOAL_RSS_MB = 150.0


def median_ms(call: Callable[[], Any], repeat: int) -> float:
    return median_of(call, repeat, warm=1)  # once first: scripts loaded, caches warm


def anchor_ms(log: GameLog, kind: str) -> float:
    """The store's cheapest round trip, measured now."""
    store: Any = log.stores.all[0]
    if kind == "Redis":
        client = store.recorder.datastore.client
        return median_ms(client.ping, 200)
    datastore = store.recorder.datastore
    stream = index_id(store).hex

    def read_one() -> None:
        with datastore.transaction(commit=False) as cursor:
            cursor.execute(
                "SELECT originator_version FROM stored_events WHERE originator_id = ? ORDER BY originator_version "
                "DESC LIMIT 1",
                (stream,),
            )
            cursor.fetchall()

    return median_ms(read_one, 200)


def whole_index_ms(log: GameLog, repeat: int) -> float:
    """What a listing did before: read every entry of the index, sort them by time."""
    return median_ms(lambda: sorted(log.index.entries(), key=lambda e: e.timestamp, reverse=True), repeat)


def redis_list_bytes(log: GameLog) -> int:
    recorder: Any = log.stores.all[0].recorder
    client = recorder.datastore.client
    return sum(
        int(client.memory_usage(key, samples=0) or 0)
        for key in client.scan_iter(match=f"{recorder.tag}:view:games:*", count=5000)
    )


def measure_list(kind: str, log: GameLog) -> list[dict[str, Any]]:
    like = template(log)
    made = 1
    results = []
    for size in SIZES:
        write_games(log, size - made, like, catalog="empty", seed=size, private_every=10, batch=500)
        made = size
        started = time.perf_counter()
        log.page_of_games(limit=1)  # the projection catches up with the index stream (built once)
        build = (time.perf_counter() - started) * 1000
        row: dict[str, Any] = {"kind": kind, "size": size, "build_ms": build}
        row["anchor_ms"] = anchor_ms(log, kind)
        row["whole_index_ms"] = whole_index_ms(log, 1 if size >= 50_000 else 5)
        row["first_ms"] = median_ms(lambda: log.page_of_games(limit=50), 40)
        cursor = None
        for _ in range(20):
            cursor = log.page_of_games(limit=50, after=cursor).older
        row["deep_ms"] = median_ms(lambda cursor=cursor: log.page_of_games(limit=50, after=cursor), 40)
        row["offset_ms"] = median_ms(lambda half=size // 2: log.page_of_games(limit=50, offset=half), 20)
        for label, words in SEARCHES.items():
            row[label] = median_ms(lambda words=words: log.page_of_games(search=words, limit=50), 15)
            page = log.page_of_games(search=words, limit=50)
            row[label + " found"] = f"{page.total}{'' if page.complete else '+'}"
        if kind == "Redis":
            row["bytes_per_game"] = redis_list_bytes(log) / size
        results.append(row)
    return results


# --- a worker's memory ----------------------------------------------------------------------------------------


def touch(url: str, prefix: str, ids_file: str) -> dict[str, Any]:
    """In a child process: an app on Redis touches every game of ``ids_file``; its memory before and after."""
    from api.app import create_app
    from api.resources.context import game_log
    from api.server.observability import resident_bytes

    ids = json.loads(Path(ids_file).read_text())
    app = create_app({"STORE": StoreConfig(kind="redis", redis_url=url, redis_prefix=prefix)})
    client = app.test_client()
    assert client.get(f"/api/games/{ids[0]}").status_code == 200
    idle = resident_bytes() or 0
    started = time.perf_counter()
    for number, game_id in enumerate(ids):
        assert client.get(f"/api/games/{game_id}").status_code == 200
        if number % 10 == 0:
            assert client.get(f"/api/games/{game_id}/states/{2 + number % 20}").status_code == 200
    seconds = time.perf_counter() - started
    with app.app_context():
        stats = game_log().cache.stats()  # type: ignore[union-attr]
    return {
        "idle": idle,
        "after": resident_bytes() or 0,
        "seconds": seconds,
        "budget": stats.budget,
        "cache": stats.bytes,
        "entries": stats.entries,
        "evictions": stats.evictions,
    }


def measure_memory(url: str) -> dict[str, Any]:
    prefix = f"bench-rss-{uuid.uuid4().hex[:8]}"
    log = open_log(StoreConfig(kind="redis", redis_url=url, redis_prefix=prefix))
    rng = random.Random(3)
    game_id = log.create_game({"players": 4, "seed": 3}).game_id
    game = log.get(game_id)
    while game.version < 31 and not domain.is_over(game.state):
        moves = [move for move in domain.legal_moves(game.state) if move.get("kind") != "convert"]
        game = log.play(game_id, rng.choice(moves), expected_version=game.version, actor="bench").game
    events = list(log.stores.all[0].events.get(game_id))
    ids = write_games(log, TOUCHED, events[0], follow=events[1:], batch=100)
    log.close()
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump([str(game) for game in ids], handle)
    try:
        run = subprocess.run(
            [sys.executable, __file__, "--touch", url, prefix, handle.name],
            check=False,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if run.returncode != 0:
            raise RuntimeError(f"the touching worker failed:\n{run.stderr[-3000:]}")
    finally:
        os.unlink(handle.name)
        clean(url, prefix)
    figures: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    figures["events"] = len(events)
    return figures


def clean(url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    for key in list(client.scan_iter(match=f"{{{prefix}:*", count=5000)):
        client.unlink(key)
    client.close()


# --- the report -----------------------------------------------------------------------------------------------


def report(lists: list[dict[str, Any]], memory: dict[str, Any] | None) -> None:
    print("## The list of games and a worker's memory (bench/bench_list.py)\n")
    print(
        "Games written by `tests/bulk_games.py` (every tenth private), in one store; medians in milliseconds, "
        "beside the store's cheapest round trip and a read and sort of the whole index. "
        f"Goals at 100,000 games: a page ≤ {GOAL_PAGE_MS:.0f} ms, a "
        f"search ≤ {GOAL_SEARCH_MS:.0f} ms, on Redis and SQLite.\n"
    )
    header = ["store", "games", "first page", "page 21 (cursor)", "page by offset n/2", *SEARCHES]
    header += ["anchor: one round trip", "before: whole index", "projection built once"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in lists:
        cells = [row["kind"], f"{row['size']:,}", f"{row['first_ms']:.2f}", f"{row['deep_ms']:.2f}"]
        cells.append(f"{row['offset_ms']:.2f}")
        cells += [f"{row[label]:.2f} ({row[label + ' found']})" for label in SEARCHES]
        cells += [
            f"{row['anchor_ms']:.3f}",
            f"{row['whole_index_ms']:.0f}",
            f"{row['build_ms'] / 1000:.1f} s",
        ]
        print("| " + " | ".join(cells) + " |")
    print()
    print(
        "Searches, with the games each finds (`+`: cut short, the newest matches among the newest 10,000 games): "
        + ", ".join(f"{label} `{words}`" for label, words in SEARCHES.items())
        + ".\n"
    )
    sized = [row for row in lists if "bytes_per_game" in row]
    if sized:
        print(
            "- Redis bytes of the list per game at "
            + " / ".join(f"{row['size']:,}" for row in sized)
            + " games: "
            + " / ".join(f"{row['bytes_per_game']:.0f}" for row in sized)
            + "."
        )
    largest = {row["kind"]: row for row in lists if row["size"] == max(SIZES)}
    for kind, row in largest.items():
        page = max(row["first_ms"], row["deep_ms"])
        search = max(row[label] for label in SEARCHES)
        print(
            f"- {kind} at {row['size']:,} games: a page {page:.2f} ms (goal ≤ {GOAL_PAGE_MS:.0f}: "
            f"{'met' if page <= GOAL_PAGE_MS else 'NOT met'}), the slowest search {search:.2f} ms "
            f"(goal ≤ {GOAL_SEARCH_MS:.0f}: {'met' if search <= GOAL_SEARCH_MS else 'NOT met'})."
        )
    print()
    if memory is not None:
        mb = 1024 * 1024
        print(
            f"A worker (`create_app` on Redis, in a process of its own) touched {TOUCHED:,} distinct stored games "
            f"(`GET /api/games/<id>`, every tenth also an earlier state; {memory['events']} events each) in "
            f"{memory['seconds']:.0f} s: resident memory **{memory['after'] / mb:.0f} MB** after (goal ≤ "
            f"{GOAL_RSS_MB:.0f} MB: {'met' if memory['after'] / mb <= GOAL_RSS_MB else 'NOT met'}), against "
            f"{memory['idle'] / mb:.0f} MB after its first request (the anchor). Its warm cache held "
            f"{memory['entries']:,} entries, {memory['cache'] / mb:.1f} MB by its estimate, within its budget of "
            f"{memory['budget'] / mb:.0f} MB ({memory['evictions']:,} evictions).\n"
        )


def main() -> None:
    lists: list[dict[str, Any]] = []
    memory = None
    with tempfile.TemporaryDirectory() as folder:
        log = open_log(StoreConfig(kind="sqlite", sqlite_path=Path(folder) / "list.sqlite"))
        lists += measure_list("SQLite", log)
        log.close()
    with redis_url() as url:
        if url is not None:
            prefix = f"bench-list-{uuid.uuid4().hex[:8]}"
            log = open_log(StoreConfig(kind="redis", redis_url=url, redis_prefix=prefix))
            try:
                lists += measure_list("Redis", log)
            finally:
                log.close()
                clean(url, prefix)
            if TOUCHED:
                memory = measure_memory(url)
    lists.sort(key=lambda row: (row["kind"] != "Redis", row["size"]))
    report(lists, memory)


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--touch":
        print(json.dumps(touch(sys.argv[2], sys.argv[3], sys.argv[4])))
    else:
        main()
