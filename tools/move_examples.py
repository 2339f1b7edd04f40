"""Write the OpenAPI document's move examples (api/resources/move_examples.json) from recorded games.

Run it after a change to the move kinds (domain.kinds); a test fails when the examples are not what this writes,
so every move kind's example is a real move.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TARGET = ROOT / "api" / "resources" / "move_examples.json"

GAMES: tuple[dict[str, Any], ...] = (
    {"players": ["Aiko", "Ben"], "expansions": [], "solo": None},
    {"players": ["Aiko", "Ben", "Chie"], "expansions": ["matcha"], "solo": None},
    {"players": ["Aiko"], "expansions": [], "solo": "medium"},
    {"players": ["Aiko"], "expansions": ["matcha"], "solo": "medium"},
)
"""The recorded games, in order; each is played with seeds 1, 2, ... until every kind is found."""

MAX_SEED = 40


def recorded_examples() -> dict[str, Any]:
    """The first move of each kind played in the games of :data:`GAMES`, with where it was played."""
    import domain
    from domain.kinds import KINDS

    found: dict[str, dict[str, Any]] = {}
    kinds = set(KINDS)
    for setup in GAMES:
        for seed in range(1, MAX_SEED + 1):
            if kinds <= set(found):
                break
            rng = random.Random(f"openapi-examples:{seed}")
            state = domain.new_game(
                list(setup["players"]),
                mode="table",
                seed=seed,
                draw=False,
                expansions=setup["expansions"] or None,
                solo=setup["solo"],
            )
            index = 0
            while not domain.is_over(state):
                move = dict(rng.choice(list(domain.legal_moves(state))))
                index += 1
                if move["kind"] not in found:
                    found[move["kind"]] = {
                        "move": move,
                        "game": {**setup, "mode": "table", "seed": seed, "move": index},
                    }
                state = domain.apply(state, move, draw=False)
    missing = sorted(kinds - set(found))
    if missing:
        raise SystemExit(f"no recorded game played these kinds: {', '.join(missing)}")
    return {
        "about": "Moves as recorded games played them (tools/move_examples.py writes this file): for each "
        "kind, the move and the game it was played in (table mode, seeded random legal moves; `move` counts "
        "the moves from 1).",
        "examples": {kind: found[kind] for kind in sorted(found)},
    }


def text() -> str:
    return json.dumps(recorded_examples(), indent=2, ensure_ascii=False) + "\n"


def main() -> int:
    TARGET.write_text(text(), encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
