"""The Tokugawa rival in the log (R-TK01..R-TK07): its symbols and the player's choices for it described in
words, its prompts marked automatic, its states as JSON (exact round trip), and the demo."""

from __future__ import annotations

import json
import random

import domain
from domain.demo import demo

from ..helpers import eager
from .helpers import HUMAN, RIVAL, reveal, tokugawa_game, with_matcha, with_rival


def test_R_TK05_describe_tells_the_symbols_steps_in_order() -> None:
    state = with_rival(tokugawa_game("medium"), cp=5)
    move = {"kind": "solo_card", "seat": None, "card": "TK1"}
    assert domain.describe(state, move) == (
        "Rival (automatic) reveals TK1 (green die, left end → the Tea Room (symbol 1)): takes the green 2 and "
        "places it on the left Tea Room space, gaining 1 coin; resolves TK1; symbol 2: a geisha from its supply to "
        "the Tea Garden entrance; loses 3 CP; cannot advance another geisha 1 step (none can): +1 CP"
    )


def test_R_TK03_describe_tells_the_players_choice_for_the_rival_and_what_followed() -> None:
    state = reveal(with_matcha(tokugawa_game("medium"), entrance=(RIVAL,)), "TK1")
    move = {"kind": "rival_geisha", "seat": HUMAN, "from": "entrance", "to": "path_1"}
    assert domain.describe(state, move) == (
        "Ana advances a geisha of the rival from the Tea Garden entrance to path space 1; then Rival (automatic): "
        "a geisha advances from the Tea Garden entrance to path space 1"
    )
    state = domain.apply(state, move)
    move = {"kind": "rival_discard", "seat": HUMAN, "deck": "calligraphy"}
    assert domain.describe(state, move) == (
        "Ana chooses the Calligraphy deck to discard from, for the rival's geisha; then Rival (automatic): "
        "the Calligraphy card CA1 is discarded"
    )


def test_R_TK01_describe_tells_the_starting_choice() -> None:
    state = domain.new_game(["Ana"], solo="easy", seed=4, expansions=["matcha"])
    move = domain.legal_moves(state)[0]
    assert domain.describe(state, move).startswith(
        f"Ana chooses the starting cards {move['resource']} + {move['action']} and ceremony token {move['token']}; "
        "gains "  # what the Starting Resource card gives
    )


def test_R_TK03_tokugawa_states_round_trip_through_json_and_keep_their_rival_fields() -> None:
    state = domain.new_game(["Ana"], solo="hard", seed=8, expansions=["matcha"])
    rng = random.Random(8)
    seen = set()
    while not domain.is_over(state):
        data = json.loads(json.dumps(domain.state_to_dict(state)))
        assert domain.state_from_dict(data) == state
        seen.add(domain.prompt_of(state)["kind"])
        state = domain.apply(state, eager(rng, domain.legal_moves(state)))
    data = domain.state_to_dict(state)
    assert data["solo"]["difficulty"] == "hard" and data["players"][RIVAL]["automatic"] is True
    assert "rival_geisha" in seen or "rival_discard" in seen


def test_R_TK01_the_demo_plays_a_tokugawa_game() -> None:
    text = demo(1, seed=4, solo="medium", expansions=("matcha",))
    assert "Tokugawa" in text and "chooses the starting cards" in text
    assert "symbol" in text and "Rival" in text
