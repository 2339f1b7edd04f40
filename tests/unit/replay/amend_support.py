"""Games to correct, shared by the tests of amendments with resolutions (the unit tiers of replay and api, and
the Redis integration test): the correction scenario in a seeded game, the recorded 2-player golden game in table
mode, and what a table that knows what really happened answers at each misfit."""

from __future__ import annotations

import json
import random
import uuid
from pathlib import Path
from typing import Any

import domain
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from tests.unit.domain.helpers import eager

GOLDEN = Path(__file__).resolve().parents[1] / "domain" / "golden" / "two_players.json"

Move = dict[str, Any]

SCENARIO_RULES = "0.2.0"
"""The rules the seeded scenario was written under: its eager player's moves, and so move 10 and move 14, are
those its legal moves led to (rules 0.3.0 list other moves: conversions included, nothing for nothing)."""


def seeded_scenario(log: GameLog) -> uuid.UUID:
    """The correction scenario: a finished 2-player seeded game (seed 277, played by the golden games' eager
    player) in which move 10, "Ben places the coral 2 on the Well", really went to steward room 1; move 14,
    "Ben places the black 1 on steward room 1", then finds that room full (R-P05): Ben really placed it on
    the Well. 56 moves follow move 10."""
    game_id = log.create_game(
        {"players": ["Ann", "Ben"], "mode": "seeded", "seed": 277}, rules_version=SCENARIO_RULES
    ).game_id
    rng = random.Random(277)
    game = log.get(game_id)
    while not domain.is_over(game.state):
        move = eager(rng, domain.legal_moves(game.state), bias=0.9)
        game = log.play(game_id, move, expected_version=game.version, actor="owner").game
    return game_id


def seeded_scenario_export() -> dict[str, Any]:
    """The correction scenario as an export (JSON data), for a server to import: the way a game recorded under
    rules 0.2.0 reaches a server whose new games are under later rules, which deal seed 277 otherwise (0.4.0
    draws from another generator), so the scenario's moves could not be played again on a new game there."""
    log = open_log(StoreConfig(kind="memory"))
    try:
        return json.loads(json.dumps(log.export(seeded_scenario(log))))
    finally:
        log.close()


MOVE_10_RECORDED = (
    "Ben places the coral 2 on the Well, gaining 1 coin; with the Lantern Reward and the Well: gains 1 coin, 1 seal, "
    "1 food and 1 CP"
)
MOVE_14_RECORDED = (
    "Ben places the black 1 on steward room 1, paying 2 coins; with the Lantern Reward and steward room 1: gains 2 "
    "food and 1 pearl"
)
MOVE_14_RESOLVED = (
    "Ben places the black 1 on the Well; with the Lantern Reward and the Well: gains 1 coin, 1 seal, 1 food "
    "and 1 CP"
)
"""The scenario's words (what each move did, as the log says it)."""

SEEDED_CORRECTION = {"kind": "place_die", "seat": 1, "space": "steward_1"}
"""Move 10 of :func:`seeded_scenario` as it was really played."""
SEEDED_RESOLUTIONS = [{"index": 14, "move": {"kind": "place_die", "seat": 1, "space": "well"}}]
"""What really happened at the one misfit of that correction."""


def golden_table_game(log: GameLog) -> uuid.UUID:
    """The golden 2-player game (tests/unit/domain/golden, 117 moves, the setup's chance moves among them:
    dice, cards and tiles entered as moves) recorded in a table-mode game, in one batch: finished."""
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    game_id = log.create_game(
        {"players": ["Ana", "Bo"], "mode": "table"},
        catalog=golden["catalog"],
        rules_version=golden["rules_version"],
    ).game_id
    log.play(game_id, golden["moves"], expected_version=1, actor="owner")
    return game_id


TABLE_CORRECTIONS: dict[str, tuple[int, Move, list[dict[str, Any]]]] = {
    # Move 44, the game's first placement ("Bo places the coral 6 on Outside the Walls 1"): it went to Bo's
    # Domain. The action that followed, then Bo's next placement and its actions, were other moves.
    "first placement": (
        44,
        {"kind": "place_die", "seat": 1, "space": "domain"},
        [
            {"index": 45, "move": {"kind": "choose", "seat": 1, "option": "all"}},
            {"index": 51, "move": {"kind": "place_die", "seat": 1, "space": "steward_1"}},
            {"index": 52, "move": {"kind": "choose", "seat": 1, "option": "middle"}},
            {"index": 53, "moves": []},
        ],
    ),
    # Move 66, "Bo places the white 6 on the Well": it went to steward room 1. Bo declined that room's action
    # (a move left out of the record, before move 67, which happened), and move 70 finds steward room 1 full
    # (R-P05): Bo's coral 3 went to steward room 2, so Ana's coral 5 (move 73) went to the Well...
    "well to steward room 1": (
        66,
        {"kind": "place_die", "seat": 1, "space": "steward_1"},
        [
            {"index": 67, "moves": [{"kind": "done", "seat": 1}], "keep_recorded": True},
            {"index": 70, "move": {"kind": "place_die", "seat": 1, "space": "steward_2"}},
            {"index": 71, "moves": []},
            {"index": 73, "move": {"kind": "place_die", "seat": 0, "space": "well"}},
            {"index": 79, "moves": []},
            {"index": 80, "moves": []},
            {"index": 81, "moves": []},
            {"index": 113, "move": {"kind": "choose", "seat": 1, "option": "all"}},
            {"index": 114, "moves": []},
            {"index": 115, "move": {"kind": "done", "seat": 1}},
        ],
    ),
}
"""Corrections of the golden table game: the move's line index, the move really played, and the resolutions of
its misfits, found one at a time with dry runs (what a table that remembers its game would answer)."""


def resolve_next(
    resolutions: list[dict[str, Any]], misfit: dict[str, Any], rng: random.Random
) -> list[dict[str, Any]] | None:
    """The resolutions with one more, for ``misfit`` (a report's ``first_misfit``), as a hurried recorder might
    give it: mostly a legal move in its place, now and then "it never happened" or a move left out before it.
    A misfit still there after the moves of its own resolution extends that resolution. None when nothing is
    legal there (the game is over): the rest is dropped."""
    legal = [move for move in misfit["legal_moves"] if move["kind"] != "convert"] or misfit["legal_moves"]
    earlier: list[Move] = []
    if misfit["after_resolution"]:
        *resolutions, extended = resolutions
        assert extended["index"] == misfit["index"]
        earlier = list(extended["moves"])
    roll = rng.random()
    if roll < 0.15:
        moves: list[Move] = []
        keep = False
    elif not legal:
        return None
    else:
        # a move left out before the recorded one, at most twice in one place (each one must be legal)
        keep = roll < 0.3 and len(earlier) < 2
        moves = [rng.choice(legal)]
    return [*resolutions, {"index": misfit["index"], "moves": earlier + moves, "keep_recorded": keep}]
