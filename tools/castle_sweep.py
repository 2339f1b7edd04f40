"""Deal the castle of many seeded games and report every room left one colour (R-S05, decision C.9)."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import domain  # noqa: E402
from domain.engine import draw_chance  # noqa: E402

Room = tuple[str, tuple[str | None, ...]]


def castle(players: int, seed: int, rules_version: str | None = None) -> tuple[Room, ...]:
    """The castle's die tiles of the seeded game (room id, colours in tile order), dealt as far as they go."""
    state = domain.new_game(players, seed=seed, draw=False, rules_version=rules_version)
    while any(None in room.tiles for room in state.board.rooms):
        state = domain.apply(state, draw_chance(state), check=False, draw=False)
    return tuple(
        (room.id, tuple(None if t is None else t.value for t in room.tiles)) for room in state.board.rooms
    )


def one_colour_rooms(
    seeds: Iterable[int], players: Iterable[int] = (2, 3, 4), rules_version: str | None = None
) -> Iterator[tuple[int, int, str, tuple[str | None, ...]]]:
    """Every room left one colour: (players, seed, room id, its tiles)."""
    counts = tuple(players)
    for seed in seeds:
        for count in counts:
            for room, tiles in castle(count, seed, rules_version):
                if len(set(tiles)) < 2:
                    yield count, seed, room, tiles


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", type=int, default=10_000, help="seeds 0 to N-1 (default 10,000)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], help="player counts")
    parser.add_argument(
        "--rules-version", help=f"one of {', '.join(domain.RULES_VERSIONS)} (default: the current)"
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    found = list(one_colour_rooms(range(args.seeds), args.players, args.rules_version))
    for count, seed, room, tiles in found:
        print(f"{count} players, seed {seed}: {room} is {' '.join(str(t) for t in tiles)}")
    deals = args.seeds * len(args.players)
    version = args.rules_version or domain.RULES_VERSION
    print(
        f"rules {version}: {deals:,} castles dealt (seeds 0-{args.seeds - 1} at {args.players} players) in "
        f"{time.perf_counter() - started:.1f} s, {len(found)} with a one-colour room"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
