"""Benchmark of the game log: state at any version, undo and play, on SQLite and on Redis, each beside the library's
own repository read and append (prints a Markdown section).
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
from timing import median_ms

import domain
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.game import project_game

PLAYERS = 4
SEED = 2026


class Counter(Aggregate):
    """The anchor aggregate: the library's own declarative style, one trivial event at a time."""

    @event("Created")
    def __init__(self) -> None:
        self.count = 0

    @event("Incremented")
    def increment(self) -> None:
        self.count += 1


def library_anchor(env: dict[str, str], events: int = 300) -> float:
    app: Application[uuid.UUID] = Application(env={**env, "IS_SNAPSHOTTING_ENABLED": "n"})
    counter = Counter()
    for _ in range(events - 1):
        counter.increment()
    app.save(counter)
    result = median_ms(lambda: app.repository.get(counter.id), 20)
    app.close()
    return result


def pick(state: Any, rng: random.Random) -> dict[str, Any]:
    moves = domain.legal_moves(state)
    answers = [move for move in moves if move.get("kind") != "convert"] or moves
    return rng.choice(answers)


def record_game(log: GameLog) -> uuid.UUID:
    """A complete seeded 4-player game recorded move by move through the log."""
    rng = random.Random(SEED)
    game_id = log.create_game({"players": PLAYERS, "seed": SEED}).game_id
    game = log.get(game_id)
    while not domain.is_over(game.state):
        game = log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="bench").game
    return game_id


def measure(log: GameLog, env: dict[str, str]) -> dict[str, Any]:
    game_id = record_game(log)
    game = log.get(game_id)
    versions = list(range(1, game.version + 1))
    rng = random.Random(1)
    figures: dict[str, Any] = {"events": game.version}
    # state_at: a fresh application each time would measure start-up; use the live one (warm), then cold.
    figures["state_at_warm"] = median_ms(lambda: log.state_at(game_id, rng.choice(versions)), 200)
    # An empty AGGREGATE_CACHE_MAXSIZE turns the library's cache off ("0" would make it unbounded).
    cold = GameLog(env={**env, "AGGREGATE_CACHE_MAXSIZE": ""})
    figures["state_at_cold"] = median_ms(lambda: cold.state_at(game_id, rng.choice(versions)), 40)
    cold.close()
    # A game another process recorded: a reader's first read of an earlier version (the game from its latest
    # snapshot, then one refold back to that version), then any version (warm).
    firsts = []
    for _ in range(10):
        reader = GameLog(env=env)
        started = time.perf_counter()
        reader.state_at(game_id, rng.choice(versions[: len(versions) // 2]))
        firsts.append((time.perf_counter() - started) * 1000)
        reader.close()
    figures["stored_first"] = statistics.median(firsts)
    reader = GameLog(env=env)
    reader.state_at(game_id, 1)
    figures["stored_warm"] = median_ms(lambda: reader.state_at(game_id, rng.choice(versions)), 400)
    reader.close()
    full = GameLog(env={**env, "IS_SNAPSHOTTING_ENABLED": "n", "AGGREGATE_CACHE_MAXSIZE": ""})
    store = full.stores.of(game_id)
    figures["full_fold"] = median_ms(lambda: store.repository.get(game_id, projector_func=project_game), 10)
    full.close()

    def undo_redo() -> None:
        current = log.get(game_id)
        log.undo(game_id, expected_version=current.version, actor="bench")
        log.redo(game_id, expected_version=current.version + 1, actor="bench")

    figures["undo"] = median_ms(undo_redo, 30) / 2
    # play: a fresh game, moves of its first round.
    fresh = log.create_game({"players": PLAYERS, "seed": SEED + 1}).game_id
    play_rng = random.Random(3)

    def play_one() -> None:
        current = log.get(fresh)
        log.play(fresh, pick(current.state, play_rng), expected_version=current.version, actor="bench")

    figures["play"] = median_ms(play_one, 60)
    figures["anchor"] = library_anchor(env)
    figures["commit"] = commit_anchor(log)
    return figures


def commit_anchor(log: GameLog) -> float:
    """The store's own cost of durably appending one small event (the library's recorder, no game logic)."""
    counter = Counter()
    log.stores.all[0].save(counter)

    def one() -> None:
        counter.increment()
        log.stores.all[0].save(counter)

    return median_ms(one, 40)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextmanager
def redis_url() -> Iterator[str | None]:
    given = os.environ.get("HERONLOG_TEST_REDIS_URL")
    if given:
        yield given
        return
    server = shutil.which("redis-server")
    if server is None:
        yield None
        return
    port = free_port()
    folder = tempfile.mkdtemp()
    process = subprocess.Popen(
        [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", folder],
        stdout=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as folder:
        config = StoreConfig(kind="sqlite", sqlite_path=Path(folder) / "bench.sqlite")
        log = open_log(config)
        results["SQLite"] = measure(log, config.eventsourcing_env())
        log.close()
    with redis_url() as url:
        if url is not None:
            config = StoreConfig(kind="redis", redis_url=url, redis_prefix=f"bench-{uuid.uuid4().hex[:8]}")
            try:
                log = open_log(config)
            except Exception as error:
                print(f"<!-- redis store unavailable: {error} -->")
            else:
                results["Redis"] = measure(log, config.eventsourcing_env())
                log.close()
    print("## The game log (bench/bench_replay.py)\n")
    print(
        f"A complete seeded {PLAYERS}-player game recorded through `GameLog.play`; medians in milliseconds. "
        "Targets: state at any version ≤ 2 ms, undo ≤ 5 ms; state at any version of a stored game ≤ 0.5 ms "
        "warm.\n"
    )
    stores = list(results)
    print("| figure | " + " | ".join(stores) + " |")
    print("|---|" + "---|" * len(stores))
    rows = [
        ("events in the game's stream", "events", "{:.0f}"),
        ("`state_at` any version (warm application)", "state_at_warm", "{:.2f}"),
        ("`state_at` any version (cold: no cache, nearest snapshot + fold)", "state_at_cold", "{:.2f}"),
        (
            "`state_at` of a game another process recorded: first read of an earlier version (the game from "
            "its latest snapshot, one refold back)",
            "stored_first",
            "{:.2f}",
        ),
        ("`state_at` any version of that stored game, warm (after its first read)", "stored_warm", "{:.3f}"),
        ("`undo` (one undo; measured as undo+redo / 2)", "undo", "{:.2f}"),
        ("`play` one move", "play", "{:.2f}"),
        ("anchor: `repository.get` of this game, full fold, no snapshot, no cache", "full_fold", "{:.2f}"),
        ("anchor: the store's append of one trivial event (library aggregate)", "commit", "{:.2f}"),
        ("anchor: library `Aggregate` with 300 events, `repository.get`", "anchor", "{:.2f}"),
    ]
    for label, key, fmt in rows:
        print(f"| {label} | " + " | ".join(fmt.format(results[store][key]) for store in stores) + " |")
    print()


if __name__ == "__main__":
    main()
