"""The rival in the log (R-SO03): its turns described in words, prompts and seats marked automatic, solo
states as JSON, and multiplayer states unchanged by the solo fields."""

from __future__ import annotations

import json
import random

import pytest

import domain
from domain.vocabulary import Phase

from .helpers import assert_round_trips_through_json, docs_examples, eager, run_examples, with_bridge
from .solo_helpers import HUMAN, RIVAL, cards, reveal, solo_game


def test_R_SO03_describe_tells_what_the_rival_did_on_each_solo_card() -> None:
    state = solo_game("medium")
    state = with_bridge(state, "coral", left=None, middle=(), right=None)
    miss = {"kind": "solo_card", "seat": None, "card": "SO1"}
    assert domain.describe(state, miss) == (
        "Rival (automatic) reveals SO1 (coral die, left end → steward room 1): no die at that end"
    )
    state = domain.apply(state, miss)
    hit = {"kind": "solo_card", "seat": None, "card": "SO3"}
    assert domain.describe(state, hit) == (
        "Rival (automatic) reveals SO3 (black die, left end → steward room 2): takes the black 2 and places it "
        "on steward room 2; resolves SO1 and SO3; a courtier to the Gate; +1 CP; "
        "a gardener to the coral stone garden (SG1, 1 CP); +2 coins"
    )


def test_R_SO05_describe_tells_the_choice_made_for_the_rival_and_what_followed() -> None:
    state = reveal(solo_game("medium", catalog=cards(SO9={"icons": ["gate", "ascent:1", "cp:2"]})), "SO9")
    move = {"kind": "rival_room", "seat": HUMAN, "room": "steward_2"}
    assert domain.describe(state, move) == (
        "Ana chooses steward room 2 for the rival's courtier; then Rival (automatic): a courtier climbs from "
        "the Gate to steward room 2, whose card S4 is discarded"
    )
    state = domain.apply(state, move)
    refill = domain.legal_moves(state)[0]
    assert domain.describe(state, refill).endswith("; then Rival (automatic): +2 CP")


def test_R_SO04_the_move_that_ends_a_round_tells_the_rivals_end_of_round() -> None:
    """Medium: the rival plays first, so the player's move ends the round (a playout of rules 0.2.0, whose
    eager moves end round 1 with the player's)."""
    state = domain.new_game(["Ana"], solo="medium", seed=2, rules_version="0.2.0")
    rng = random.Random(2)
    lines = []
    while state.round == 1:
        move = eager(rng, domain.legal_moves(state))
        lines.append(domain.describe(state, move))
        state = domain.apply(state, move)
    told = [line for line in lines if "end of round 1" in line]
    assert len(told) == 1 and "; then Rival (automatic): end of round 1, " in told[0]
    assert told[0].endswith("the solo deck is reshuffled")


def test_R_SO03_prompts_of_the_rivals_turn_are_marked_automatic() -> None:
    state = solo_game("medium")
    assert domain.prompt_of(state) == {"kind": "solo_card", "seat": None, "rival": RIVAL, "automatic": True}
    state = reveal(state, "SO1")
    assert "automatic" not in domain.prompt_of(state)
    assert domain.is_automatic(state, RIVAL) and not domain.is_automatic(state, HUMAN)
    assert not domain.is_automatic(state, None) and not domain.is_automatic(state, 7)


def test_R_SO03_the_coordinates_of_the_rivals_turn_name_its_seat() -> None:
    coords = domain.coordinates(solo_game("medium"))
    assert (coords.round, coords.turn, coords.seat, coords.phase) == (1, 1, RIVAL, Phase.TURNS)


def test_C2_no_seal_conversion_during_the_rivals_turn() -> None:
    state = reveal(solo_game("medium", catalog=cards(SO9={"icons": ["gate", "ascent:1"]})), "SO9")
    assert domain.prompt_of(state)["seat"] == HUMAN and state.players[HUMAN].seals == 1
    assert all(move["kind"] != "convert" for move in domain.legal_moves(state))
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "convert", "seat": HUMAN, "to": "coin"})
    assert error.value.rule == "R-T07"


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_every_state_of_a_solo_game_round_trips_through_json(difficulty: str) -> None:
    rng = random.Random(difficulty)
    state = domain.new_game(["Ana"], solo=difficulty, seed=31, draw=False)
    while True:
        assert_round_trips_through_json(state)
        if domain.is_over(state):
            break
        state = domain.apply(state, rng.choice(domain.legal_moves(state)), draw=False)
        state = domain.resolve_chance(state).state if rng.random() < 0.5 else state


def test_a_state_recorded_before_the_solo_fields_still_loads() -> None:
    state = domain.new_game(3, seed=2)
    data = domain.state_to_dict(state)
    assert "solo" not in data and not any("automatic" in player for player in data["players"])
    assert domain.state_from_dict(json.loads(json.dumps(data))) == state


def test_the_docs_solo_examples_run() -> None:
    blocks = docs_examples("engine/solo.md", "py")
    assert len(blocks) == 2
    printed, namespace = run_examples(blocks)
    assert printed == [
        "{'kind': 'solo_card', 'seat': None, 'rival': 1, 'automatic': True}",
        "Rival (automatic) reveals SO9 (white die, right end → steward room 2)",
        "{'kind': 'take_die', 'seat': 0}",
    ]
    state = namespace["state"]
    assert isinstance(state, domain.GameState) and state.catalog.solo_cards["SO4"].icons[-1].amount == 1
