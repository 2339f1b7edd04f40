"""`heronlog demo`: a seeded game played by random legal moves, printed move by move, then its score sheet."""

from __future__ import annotations

import random

from domain.describe import describe
from domain.engine import apply, is_over, legal, resolve_chance
from domain.game import RULES_VERSION, new_game
from domain.kinds import Move, parse
from domain.scoring import score
from domain.setup import parse_players
from domain.state import GameState
from domain.vocabulary import Phase

NAMES = ("Ana", "Bo", "Cy", "Di")


def _choose(rng: random.Random, moves: list[Move]) -> Move:
    acting = [move for move in moves if move.acting]
    return rng.choice(acting if acting and rng.random() < 0.85 else moves)


def score_table(state: GameState) -> list[str]:
    """The score sheets as a fixed-width table (with a Geishas column in a Matcha game)."""
    matcha = state.board.matcha is not None
    header: tuple[str, ...] = (
        "Player",
        "CP",
        "Coins+seals",
        "Resources",
        "Time",
        "Courtiers",
        "Warriors",
        "Gardeners",
        *(("Geishas",) if matcha else ()),
        "Total",
        "Rank",
    )
    rows = [
        tuple(value for key, value in sheet.to_dict().items() if key != "seat")
        for sheet in sorted(score(state), key=lambda sheet: sheet.rank)
    ]
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    return [
        "  ".join(
            str(cell).ljust(width) if i == 0 else str(cell).rjust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        )
        for row in [header, *rows]
    ]


def demo(players: int = 4, seed: int = 1, solo: str | None = None, expansions: tuple[str, ...] = ()) -> str:
    """Play a seeded game with random legal moves; return its log and final score sheet as text. With `solo`
    (a difficulty), one player plays against the rival, whose turns show as the solo cards it reveals; with
    ``expansions=("matcha",)`` the game is a Matcha game (solo: against the Tokugawa clan, R-TK01..R-TK07)."""
    names = list(NAMES[:1] if solo else NAMES[: len(parse_players(players))])
    rng = random.Random(f"demo:{seed}")
    title = "The White Castle: Matcha" if "matcha" in expansions else "The White Castle"
    rival = "Tokugawa clan" if "matcha" in expansions else "rival"
    what = f"a solo game against the {solo} {rival}" if solo else f"{len(names)} players"
    lines = [f"{title}: a seeded demo game, {what}, seed {seed} (rules {RULES_VERSION})"]
    sections: list[str] = []

    def log(state: GameState, move: Move) -> GameState:
        heading = "Setup" if state.phase is Phase.SETUP else f"Round {state.round}"
        if not sections or sections[-1] != heading:
            sections.append(heading)
            lines.extend(["", heading])
        turn = f"[{state.turn_index // len(state.players) + 1}] " if state.phase is Phase.TURNS else ""
        lines.append(f"  {turn}{describe(state, move)}")
        return apply(state, move, draw=False)

    def chance(state: GameState) -> GameState:
        for move in resolve_chance(state).chance:
            state = log(state, parse(move))
        return state

    state = chance(new_game(names, seed=seed, draw=False, solo=solo, expansions=expansions))
    while not is_over(state):
        state = chance(log(state, _choose(rng, legal(state))))
    lines += ["", "Final score sheet (ties go to the player higher on the turn-order track)", ""]
    lines += ["  " + row for row in score_table(state)]
    return "\n".join(lines) + "\n"
