"""Write the golden games of tests/unit/domain/golden/ (run with the venv python from the repository root)."""

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
GOLDEN_SOLO = ROOT / "tests" / "unit" / "domain" / "golden_solo"
GOLDEN_MATCHA = ROOT / "tests" / "unit" / "domain" / "matcha" / "golden"
GOLDEN_TOKUGAWA = ROOT / "tests" / "unit" / "domain" / "tokugawa" / "golden"
GAMES = {
    "two_players.json": (["Ana", "Bo"], 1012),
    "three_players.json": (["Ana", "Bo", "Cy"], 2020),
    "four_players.json": (["Ana", "Bo", "Cy", "Di"], 3034),
}
SOLO_GAMES = {
    "solo_easy.json": (["Ana"], 4101, "easy"),
    "solo_hard.json": (["Ana"], 4303, "hard"),
}
MATCHA_GAMES = {
    "matcha_four_players.json": (["Ana", "Bo", "Cy", "Di"], 4057),
}
TOKUGAWA_GAMES = {
    "tokugawa_medium.json": (["Ana"], 5202, "medium"),
}


def eager_choice(rng: random.Random, moves: list[dict[str, Any]]) -> dict[str, Any]:
    acting = [m for m in moves if m["kind"] not in ("done", "convert")]
    if acting and rng.random() < 0.9:
        return rng.choice(acting)
    return rng.choice(moves)


def rival_lines(before: Any, outcomes: tuple[dict[str, Any], ...]) -> list[str]:
    """The log lines of the solo cards among chance outcomes drawn after the state `before`."""
    lines = []
    for outcome in outcomes:
        if outcome["kind"] == "solo_card":
            lines.append(domain.describe(before, outcome))
        before = domain.apply(before, outcome, check=False, draw=False)
    return lines


def record(
    players: list[str], seed: int, solo: str | None = None, expansions: tuple[str, ...] = ()
) -> dict[str, Any]:
    rng = random.Random(seed)
    fresh = domain.new_game(players, seed=seed, draw=False, solo=solo, expansions=expansions)
    step = domain.resolve_chance(fresh)
    moves = list(step.chance)
    rival_log = rival_lines(fresh, step.chance)
    state = step.state
    while not domain.is_over(state):
        move = eager_choice(rng, domain.legal_moves(state))
        step = domain.step(state, move)
        rival_log += rival_lines(domain.apply(state, move, draw=False), step.chance)
        moves.append(move)
        moves.extend(step.chance)
        state = step.state
    if solo:
        rival = " against the Tokugawa clan (Matcha)" if expansions else ""
        description = f"solo game ({solo}){rival}, seed {seed}, the player is a seeded eager random player"
    else:
        game = " with Matcha" if expansions else ""
        description = f"{len(players)}-player game{game}, seed {seed}, played by a seeded eager random player"
    data: dict[str, Any] = {
        "description": description,
        "rules_version": domain.RULES_VERSION,
        "seed": seed,
        "players": players,
        "options": {},
        **({"expansions": list(expansions)} if expansions else {}),  # base files keep their shape
        "moves": moves,
        "final_score": [sheet.to_dict() for sheet in domain.score(state)],
        "catalog": domain.catalog_of(state),
    }
    if solo:
        data = {**data, "solo": solo, "rival_log": rival_log}
    return data


def dump(data: dict[str, Any]) -> str:
    """JSON with one move and one score sheet per line, so that a diff shows which move changed."""
    parts = []
    for key, value in data.items():
        if key in ("moves", "final_score", "hand_check", "rival_log"):
            lines = ",\n    ".join(json.dumps(item, ensure_ascii=False) for item in value)
            parts.append(f"  {json.dumps(key)}: [\n    {lines}\n  ]")
        else:
            parts.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(parts) + "\n}\n"


def main() -> int:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    GOLDEN_SOLO.mkdir(parents=True, exist_ok=True)
    GOLDEN_MATCHA.mkdir(parents=True, exist_ok=True)
    GOLDEN_TOKUGAWA.mkdir(parents=True, exist_ok=True)
    games: dict[Path, tuple[list[str], int, str | None, tuple[str, ...]]] = {
        GOLDEN / name: (players, seed, None, ()) for name, (players, seed) in GAMES.items()
    }
    games.update({GOLDEN_SOLO / name: (*spec, ()) for name, spec in SOLO_GAMES.items()})
    games.update({GOLDEN_MATCHA / name: (*spec, None, ("matcha",)) for name, spec in MATCHA_GAMES.items()})
    games.update({GOLDEN_TOKUGAWA / name: (*spec, ("matcha",)) for name, spec in TOKUGAWA_GAMES.items()})
    for path, (players, seed, solo, expansions) in games.items():
        name = path.name
        data = record(players, seed, solo, expansions)
        if path.exists():
            old = json.loads(path.read_text())
            if "hand_check" in old:
                data["hand_check"] = old["hand_check"]
        path.write_text(dump(data))
        print(f"{name}: {len(data['moves'])} moves, totals {[s['total'] for s in data['final_score']]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
