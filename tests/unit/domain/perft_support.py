"""The legal-move listings of known positions (python-chess's perft idea): every position of the golden games,
replayed in table mode (so every chance prompt is listed too), and of seeded random playouts of every variant,
each listing digested. `perft.json` holds what the engine listed when it was written; `test_perft.py` lists
again and compares, so a change to how moves are listed (a faster path, a refactor) must list exactly the same.

Rewrite the file, after a deliberate change of the rules only, from the repository root:

    .venv/bin/python -m tests.unit.domain.perft_support
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import domain
from domain.state import GameState

from . import golden_support as golden
from .helpers import eager

HERE = Path(__file__).parent
PERFT = HERE / "perft.json"
GOLDEN_FILES = sorted(
    path.relative_to(HERE).as_posix()
    for folder in ("golden", "golden_solo", "matcha/golden", "tokugawa/golden")
    for path in (HERE / folder).glob("*.json")
)
PLAYOUTS: dict[str, dict[str, Any]] = {
    f"{name} {mode} {seed}": {**setup, "mode": mode, "seed": seed}
    for name, setup in {
        "2 players": {"players": 2},
        "3 players": {"players": 3},
        "4 players": {"players": 4},
        "solo hard": {"players": 1, "solo": "hard"},
        "matcha 3 players": {"players": 3, "expansions": ("matcha",)},
        "tokugawa easy": {"players": 1, "solo": "easy", "expansions": ("matcha",)},
    }.items()
    for mode, seed in (*(("seeded", seed) for seed in range(11, 16)), ("table", 16), ("table", 17))
}
"""Random playouts: seeded games (the seed draws chance), and table games (every chance outcome chosen at
random among the legal ones, so the chance prompts are listed too)."""

Listing = list[dict[str, Any]]


def digest(listings: list[Listing]) -> str:
    """One digest of a game's listings, in order (the moves as JSON with sorted keys)."""
    text = json.dumps(listings, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def golden_listings(path: str) -> list[Listing]:
    """The legal moves of every position of a golden game replayed in table mode, its end included."""
    game = golden.load(HERE / path)
    state = golden.start(game, mode="table")
    listings = []
    for move in game["moves"]:
        listings.append(domain.legal_moves(state))
        state = domain.apply(state, move)
    return [*listings, domain.legal_moves(state)]


def playout_listings(setup: dict[str, Any]) -> list[Listing]:
    """The legal moves of every position of a random playout, each move chosen among them (`eager`)."""
    rng = random.Random(setup["seed"])
    state: GameState = domain.new_game(
        setup["players"],
        mode=setup["mode"],
        seed=setup["seed"] if setup["mode"] == "seeded" else None,
        solo=setup.get("solo"),
        expansions=setup.get("expansions"),
    )
    listings = []
    while not domain.is_over(state):
        moves = domain.legal_moves(state)
        listings.append(moves)
        state = domain.apply(state, eager(rng, moves))
    return [*listings, domain.legal_moves(state)]


def summary(listings: list[Listing]) -> dict[str, Any]:
    """What perft.json keeps of a game: the number of legal moves at each position, and the digest."""
    return {"counts": [len(moves) for moves in listings], "digest": digest(listings)}


def compute() -> dict[str, dict[str, Any]]:
    games = {path: summary(golden_listings(path)) for path in GOLDEN_FILES}
    games |= {name: summary(playout_listings(setup)) for name, setup in PLAYOUTS.items()}
    return games


def write() -> None:
    """perft.json, one game a line."""
    games = compute()
    lines = [f"  {json.dumps(name)}: {json.dumps(games[name])}" for name in sorted(games)]
    PERFT.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")


if __name__ == "__main__":
    write()
    print(f"wrote {PERFT}")
