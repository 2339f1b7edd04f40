"""Write the golden games of tests/unit/domain/golden/ (run with the venv python from the repository root).

Each golden game is a seeded game played by a seeded "eager" random player (it prefers acting over declining),
recorded move by move with every chance move, together with the catalog it was played with and the final score
sheets the engine computed. The test replays it in table mode and compares. Regenerating a file replaces its
expectations: check the new score sheets by hand (see the ``hand_check`` of the 2-player game) before
committing.

    .venv/bin/python tools/golden_games.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import domain  # noqa: E402

GOLDEN = ROOT / "tests" / "unit" / "domain" / "golden"
GAMES = {
    "two_players.json": (["Ana", "Bo"], 1012),
    "three_players.json": (["Ana", "Bo", "Cy"], 2020),
    "four_players.json": (["Ana", "Bo", "Cy", "Di"], 3034),
}


def eager_choice(rng: random.Random, moves: list[dict[str, Any]]) -> dict[str, Any]:
    acting = [m for m in moves if m["kind"] not in ("done", "convert")]
    if acting and rng.random() < 0.9:
        return rng.choice(acting)
    return rng.choice(moves)


def record(players: list[str], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    step = domain.resolve_chance(domain.new_game(players, seed=seed, draw=False))
    moves = list(step.chance)
    state = step.state
    while not domain.is_over(state):
        move = eager_choice(rng, domain.legal_moves(state))
        step = domain.step(state, move)
        moves.append(move)
        moves.extend(step.chance)
        state = step.state
    return {
        "description": f"{len(players)}-player game, seed {seed}, played by a seeded eager random player",
        "rules_version": domain.RULES_VERSION,
        "seed": seed,
        "players": players,
        "options": {},
        "moves": moves,
        "final_score": [sheet.to_dict() for sheet in domain.score(state)],
        "catalog": domain.catalog_of(state),
    }


def dump(data: dict[str, Any]) -> str:
    """JSON with one move and one score sheet per line, so that a diff shows which move changed."""
    parts = []
    for key, value in data.items():
        if key in ("moves", "final_score", "hand_check"):
            lines = ",\n    ".join(json.dumps(item, ensure_ascii=False) for item in value)
            parts.append(f"  {json.dumps(key)}: [\n    {lines}\n  ]")
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main() -> int:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, (players, seed) in GAMES.items():
        data = record(players, seed)
        path = GOLDEN / name
        if path.exists():
            old = json.loads(path.read_text())
            if "hand_check" in old:
                data["hand_check"] = old["hand_check"]
        path.write_text(dump(data))
        print(f"{name}: {len(data['moves'])} moves, totals {[s['total'] for s in data['final_score']]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
