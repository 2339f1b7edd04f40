"""Benchmark of the players (prints a Markdown section): the players list and a player's page with 100,000 games
and 1,000 players, on Redis and SQLite, over the app's HTTP layer; and a rebuild of the projection from the log of
10,000 recorded games. Each figure beside an anchor measured in the same run.
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_list import anchor_ms, clean  # noqa: E402
from bench_replay import redis_url  # noqa: E402
from timing import median_ms  # noqa: E402

import domain  # noqa: E402
from api.app import create_app  # noqa: E402
from replay.config import StoreConfig, open_log  # noqa: E402
from replay.game import GameSnapshot  # noqa: E402
from replay.players.facts import GameFacts, SeatFacts  # noqa: E402
from replay.players.names import id_of  # noqa: E402
from replay.players.rebuild import reader  # noqa: E402
from tests.bulk_games import write_games  # noqa: E402
from tests.replay_helpers import pick  # noqa: E402

GAMES = int(os.environ.get("HERONLOG_BENCH_PLAYERS_GAMES", "100000"))
PLAYERS = int(os.environ.get("HERONLOG_BENCH_PLAYERS", "1000"))
REBUILT = int(os.environ.get("HERONLOG_BENCH_PLAYERS_REBUILD", "10000"))
GOAL_READ_MS = 20.0
GOAL_REBUILD_S = 60.0
LINES = ("in_game_cp", "coins_seals", "resources", "passage_of_time", "courtiers", "warriors", "gardeners")


def club(games: int, players: int, seed: int = 3) -> list[GameFacts]:
    """A club's archive as the projection keeps it: 2 to 4 of ``players`` at each game, a twentieth solo, a tenth
    with Matcha, a tenth private, a few abandoned or in progress; one game a minute."""
    rng = random.Random(seed)
    names = [f"Player {number:04d}" for number in range(players)]
    made = []
    start = 1_700_000_000_000_000
    for number in range(games):
        solo = number % 20 == 7
        seated = rng.sample(names, 1 if solo else rng.choice((2, 3, 3, 4)))
        status = "abandoned" if number % 50 == 11 else "in progress" if number % 97 == 13 else "finished"
        finished = status == "finished"
        totals = [rng.randrange(30, 120) for _ in seated] + ([rng.randrange(30, 120)] if solo else [])
        ranks = [1 + sorted(totals, reverse=True).index(total) for total in totals]
        seats = [
            SeatFacts(
                seat=index,
                name=name,
                player=name,
                automatic=name == "Rival",
                lines=dict(zip(LINES, (total // 7,) * 7, strict=True)) if finished else {},
                total=total if finished else None,
                rank=rank if finished else None,
                start=f"SR{rng.randrange(1, 10)}",
            )
            for index, (name, total, rank) in enumerate(
                zip([*seated, *(["Rival"] if solo else [])], totals, ranks, strict=True)
            )
        ]
        played = start + number * 60_000_000
        made.append(
            GameFacts(
                game_id=str(uuid.UUID(int=number + 1, version=4)),
                version=120,
                links=0,
                title=f"Club night {number}",
                mode="seeded",
                private=number % 10 == 9,
                forked=False,
                played=played,
                played_on="2024-01-01T00:00:00+00:00",
                status=status,
                finished=played + 3_000_000_000 if finished else None,
                matcha=number % 10 == 3,
                solo="hard" if solo else None,
                seats=tuple(seats),
            )
        )
    return made


def measure_reads(kind: str, store: StoreConfig, facts: list[GameFacts]) -> dict[str, Any]:
    log = open_log(store)
    projection = log.players.projection
    started = time.perf_counter()
    projection.write_whole(projection.keys(), facts, {})
    written = time.perf_counter() - started
    app = create_app({"STORE": store, "TESTING": True})
    client = app.test_client()
    player = id_of("Player 0042")
    other = next(rival["player_id"] for rival in client.get(f"/api/players/{player}").get_json()["versus"])

    def get(path: str) -> Callable[[], None]:
        def call() -> None:
            answer = client.get(path)
            assert answer.status_code == 200, (path, answer.get_data(as_text=True)[:300])

        return call

    row: dict[str, Any] = {"kind": kind, "written_s": written, "anchor_ms": anchor_ms(log, kind)}
    row["healthz_ms"] = median_ms(get("/healthz"), 50, warm=3)
    row["list_ms"] = median_ms(get("/api/players?limit=50"), 30, warm=2)
    row["list_rating_ms"] = median_ms(get("/api/players?limit=50&order=rating"), 20, warm=2)
    row["list_deep_ms"] = median_ms(get("/api/players?limit=50&offset=900"), 20, warm=2)
    row["search_ms"] = median_ms(get("/api/players?search=player%2000"), 20, warm=2)
    row["player_ms"] = median_ms(get(f"/api/players/{player}"), 30, warm=2)
    row["games_ms"] = median_ms(get(f"/api/players/{player}/games?limit=50"), 30, warm=2)
    row["versus_ms"] = median_ms(get(f"/api/players/{player}/versus/{other}"), 30, warm=2)
    row["player_games"] = client.get(f"/api/players/{player}").get_json()["record"]["listed"]
    log.close()
    return row


def measure_rebuild(store: StoreConfig, games: int) -> dict[str, Any]:
    """A rebuild of ``games`` recorded games (each a whole three-player game, its moves and the snapshot the
    game log wrote at its end), in as many processes as cores, beside one game read cold."""
    log = open_log(store)
    rng = random.Random(1)
    game_id = log.create_game({"players": ["Aiko", "Ben", "Chie"], "seed": 1}).game_id
    game = log.get(game_id)
    while not domain.is_over(game.state):
        game = log.play(game_id, pick(game.state, rng), expected_version=game.version, actor="bench").game
    created, *moves = log.events_of(game_id)
    ids = write_games(log, games - 1, created, follow=moves, batch=100)
    snapshot = GameSnapshot.take(game)
    home = log.stores.all[0]
    assert home.snapshots is not None
    for start in range(0, len(ids), 200):
        home.snapshots.put([replace(snapshot, originator_id=made) for made in ids[start : start + 200]])
    log.close()
    log = open_log(store, CACHE_MB="0")
    sample = [ids[number] for number in range(0, len(ids), max(1, len(ids) // 200))]
    cold = median_ms(lambda: [log.get(made) for made in sample], 3) / len(sample)
    jobs = os.cpu_count() or 1
    started = time.perf_counter()
    count = log.players.rebuild(read=reader(store, jobs) if jobs > 1 else None)
    seconds = time.perf_counter() - started
    log.close()
    return {"games": count, "seconds": seconds, "jobs": jobs, "cold_ms": cold, "events": len(moves) + 1}


def report(rows: list[dict[str, Any]], rebuilt: dict[str, Any] | None) -> None:
    print("## Players (bench/bench_players.py)\n")
    print(
        f"{GAMES:,} games and {PLAYERS:,} players written into the projection, read through the app (Flask's test "
        f"client); medians in ms. Goal: the list and a player's page ≤ {GOAL_READ_MS:.0f} ms.\n"
    )
    header = [
        "store",
        "list",
        "by rating",
        "offset 900",
        "search",
        "a player",
        "their games",
        "versus",
        "anchor: round trip",
        "anchor: `/healthz`",
        "written in",
    ]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        cells = [
            row["kind"],
            *(
                f"{row[key]:.2f}"
                for key in (
                    "list_ms",
                    "list_rating_ms",
                    "list_deep_ms",
                    "search_ms",
                    "player_ms",
                    "games_ms",
                    "versus_ms",
                )
            ),
            f"{row['anchor_ms']:.3f}",
            f"{row['healthz_ms']:.2f}",
            f"{row['written_s']:.0f} s",
        ]
        print("| " + " | ".join(cells) + " |")
    print()
    for row in rows:
        slowest = max(row["list_ms"], row["list_rating_ms"], row["player_ms"])
        print(
            f"- {row['kind']}: the player read sat in {row['player_games']} games; slowest read {slowest:.2f} ms "
            f"({'met' if slowest <= GOAL_READ_MS else 'NOT met'})."
        )
    if rebuilt is not None:
        estimate = rebuilt["cold_ms"] * rebuilt["games"] / 1000
        print(
            f"- Rebuilt from the log (SQLite): {rebuilt['games']:,} games of {rebuilt['events']} events and a "
            f"snapshot in **{rebuilt['seconds']:.0f} s**, {rebuilt['jobs']} processes, the {domain.ENGINE} engine "
            f"(`HERONLOG_ENGINE`; goal < "
            f"{GOAL_REBUILD_S:.0f} s: {'met' if rebuilt['seconds'] < GOAL_REBUILD_S else 'NOT met'}); anchor: a "
            f"game read cold, {rebuilt['cold_ms']:.1f} ms ({estimate:.0f} s for all, one after another)."
        )
    print()


def main() -> None:
    facts = club(GAMES, PLAYERS)
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        rows.append(
            measure_reads("SQLite", StoreConfig(kind="sqlite", sqlite_path=Path(folder) / "p.sqlite"), facts)
        )
        rebuilt = (
            measure_rebuild(StoreConfig(kind="sqlite", sqlite_path=Path(folder) / "rebuild.sqlite"), REBUILT)
            if REBUILT
            else None
        )
    with redis_url() as url:
        if url is not None:
            prefix = f"bench-players-{uuid.uuid4().hex[:8]}"
            try:
                rows.insert(
                    0,
                    measure_reads(
                        "Redis", StoreConfig(kind="redis", redis_url=url, redis_prefix=prefix), facts
                    ),
                )
            finally:
                clean(url, prefix)
    report(rows, rebuilt)


if __name__ == "__main__":
    main()
