"""The move kinds (domain.kinds): every move reads from and writes back to its JSON form unchanged, and every
price a move's words or the engine name is the game's catalog's (R-CA01, R-M07, R-R02, R-M15), so that a
catalog overriding one changes the rule, the log, the buttons and the errors alike."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import domain
from domain.effects import why_no_action
from domain.kinds import KINDS, parse
from domain.prompts import CourtierAction, GeishaAction
from domain.state import GameState, with_board
from domain.vocabulary import IconKind

from .helpers import STANDARD, table_game, with_player
from .matcha.helpers import MATCHA_STANDARD, matcha_game

EXAMPLES = Path(__file__).resolve().parents[3] / "api" / "resources" / "move_examples.json"
CHOOSE = ["SR6", "SR9", "SR3"]


def test_every_kind_reads_and_writes_its_json_form_unchanged() -> None:
    examples = json.loads(EXAMPLES.read_text())["examples"]
    assert set(examples) == set(KINDS)
    for kind, example in examples.items():
        move = parse(example["move"])
        assert type(move) is KINDS[kind] and move.as_json() == example["move"]
        assert parse(move.as_json()) == move and hash(parse(move.as_json())) == hash(move)


@pytest.mark.parametrize(
    "setup",
    [
        {"players": 3},
        {"players": 2, "expansions": ("matcha",)},
        {"players": 1, "solo": "hard", "mode": "table"},
    ],
)
def test_the_legal_moves_are_the_engines_typed_moves_in_their_json_form(setup: dict[str, Any]) -> None:
    from domain.engine import legal

    setup = dict(setup)
    state = domain.new_game(setup.pop("players"), seed=11, **setup)
    rng = random.Random(11)
    while not domain.is_over(state):
        listed = domain.legal_moves(state)
        assert listed == [move.as_json() for move in legal(state)]
        assert all(parse(move).as_json() == move for move in listed)
        state = domain.apply(state, rng.choice(listed))


def test_a_json_form_made_by_hand_is_checked_as_any_move() -> None:
    from domain.kinds.setup import RevealMove

    assert RevealMove.form(pool="steward", card="S4") == {
        "kind": "reveal",
        "seat": None,
        "pool": "steward",
        "card": "S4",
    }
    with pytest.raises(domain.InvalidMove, match=r"reveal\.card must be a str"):
        parse(RevealMove.form(pool="steward", card=4))


# --- prices from the catalog -


def _base(catalog: dict[str, Any]) -> GameState:
    return table_game(3, answers=STANDARD, choose=CHOOSE, catalog=catalog)


def _said(state: GameState, move: dict[str, Any]) -> tuple[str, str]:
    """The move's log line and its button's words."""
    return domain.describe(state, move), domain.choice(state, move)["words"]


def test_R_M07_the_entrance_costs_what_the_catalog_says_in_the_rule_and_every_word() -> None:
    catalog = {"matcha": {"geisha_action": {"entrance_cost": {"coin": 3}}}}
    game = matcha_game(3, answers=MATCHA_STANDARD, choose=CHOOSE, catalog=catalog)
    assert domain.catalog_of(game)["matcha"]["geisha_action"]["entrance_cost"] == {"coin": 3}
    send = {"kind": "send_geisha", "seat": 0}
    action = replace(game, stack=(*game.stack, GeishaAction(0, False, False)))
    rich = with_player(action, 0, coins=3, seals=0, whisks=0)
    log, button = _said(rich, send)
    assert log.startswith("Player 1 sends a geisha to the Tea Garden entrance for 3 coins")
    assert button == "Part A: a geisha to the Tea Garden entrance (3 coins)"
    assert domain.apply(rich, send).players[0].coins == 0
    poor = with_player(action, 0, coins=2, seals=0, whisks=0)
    assert send not in domain.legal_moves(poor)
    with pytest.raises(domain.IllegalMove, match="sending a geisha to the entrance costs 3 coins") as error:
        domain.apply(poor, send)
    assert error.value.rule == "R-M07"
    reason = why_no_action(poor, 0, IconKind.GEISHA)
    assert reason is not None and reason[0].startswith("neither the entrance (3 coins) nor a step (2 whisks)")


def test_R_CA01_the_audience_and_the_ascent_cost_what_the_catalog_says() -> None:
    catalog = {"courtier": {"audience_cost": {"coin": 3}, "ascent_pearl": {"1": 3}}}
    game = _base(catalog)
    action = replace(game, stack=(*game.stack, CourtierAction(0, False, False)))
    action = with_board(action, gate=(1, 0, 0))  # a courtier of seat 0 at the Gate, to climb
    audience = {"kind": "audience", "seat": 0}
    ascent = {"kind": "ascend", "seat": 0, "from": "gate", "to": "steward_1"}
    rich = with_player(action, 0, coins=3, pearl=3, seals=0)
    assert _said(rich, audience) == (
        "Player 1 sends a courtier to the Gate for 3 coins",
        "Audience: a courtier to the Gate (3 coins)",
    )
    assert domain.apply(rich, audience).players[0].coins == 0
    assert domain.describe(rich, ascent).startswith(
        "Player 1's courtier climbs from the Gate to steward room 1 for 3"
    )
    assert domain.apply(rich, ascent).players[0].pearl == 0
    poor = with_player(action, 0, coins=2, pearl=2, seals=0)
    assert audience not in domain.legal_moves(poor) and ascent not in domain.legal_moves(poor)
    with pytest.raises(domain.IllegalMove, match="Audience costs 3 coins"):
        domain.apply(poor, audience)
    with pytest.raises(domain.IllegalMove, match="this ascent costs 3 pearl"):
        domain.apply(poor, ascent)
    reason = why_no_action(with_player(poor, 0, pearl=0), 0, IconKind.COURTIER)
    assert reason is not None and reason[0].startswith(
        "neither the Gate (3 coins) nor a climb (3 pearl a floor)"
    )


def test_R_R02_R_M15_a_seal_conversion_costs_what_the_catalog_says() -> None:
    game = with_player(_base({"seal_conversions": {"prices": {"coin": 2}}}), 0, seals=2)
    coin = {"kind": "convert", "seat": 0, "to": "coin"}
    assert coin in domain.legal_moves(game)
    assert _said(game, coin) == ("Player 1 converts 2 seals into 1 coin", "2 seals → 1 coin")
    assert domain.choice(game, coin)["icons"] == ["seal:2", "coin:1"]
    after = domain.apply(game, coin).players[0]
    assert (after.seals, after.coins) == (0, game.players[0].coins + 1)
    short = with_player(game, 0, seals=1)
    assert coin not in domain.legal_moves(short)
    with pytest.raises(domain.IllegalMove, match="a coin costs 2 seals"):
        domain.apply(short, coin)
    matcha = matcha_game(
        3, answers=MATCHA_STANDARD, choose=CHOOSE, catalog={"matcha": {"seal_conversion": {"whisk": 3}}}
    )
    whisk = {"kind": "convert", "seat": 0, "to": "whisk"}
    assert whisk in domain.legal_moves(with_player(matcha, 0, seals=3))
    assert whisk not in domain.legal_moves(with_player(matcha, 0, seals=2))
    assert domain.choice(matcha, whisk)["words"] == "3 seals → 1 whisk"
