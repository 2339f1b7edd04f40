"""Words a first-time player understands at the moments that puzzled one (domain.prompt_text, prompt_help,
describe): the round's end named when its rewards are asked (R-E03), the round's roll naming every bridge it asks
for (R-E04), a die tile that R-S05 lays on another space said so before and after, and the seal conversions
offered only where they can serve the player whose turn it is (R-T07)."""

from __future__ import annotations

import random

import domain
from domain.engine import conversions_serve, draw_chance, play
from domain.prompts import RollBridge
from domain.state import GameState
from domain.vocabulary import Phase


def randomly_until(seed: int, stop: object, mode: str = "seeded") -> GameState:
    """A 3-player game played at random (no standalone conversion) until `stop(state)`."""
    state = domain.new_game(["Aiko", "Ben", "Chie"], seed=seed, mode=mode)
    rng = random.Random(seed)
    for _ in range(400):
        if stop(state):  # type: ignore[operator]
            return state
        moves = domain.legal_moves(state)
        if moves and moves[0]["seat"] is None:
            state = play(state, draw_chance(state))
            continue
        state = domain.apply(state, rng.choice([m for m in moves if m["kind"] != "convert"] or moves))
    raise AssertionError("never reached")


def test_a_question_at_the_rounds_end_names_the_rounds_end_r_e03() -> None:
    state = randomly_until(
        1, lambda s: s.phase is Phase.END_OF_ROUND and domain.prompt_of(s)["seat"] is not None
    )
    assert domain.prompt_text(state).startswith(f"End of round {state.round}, ")
    assert domain.coordinates(state).phase is Phase.END_OF_ROUND  # the pages say "end of round" from this


def test_the_rounds_roll_names_every_bridge_it_asks_for_r_e04() -> None:
    state = randomly_until(
        2,
        lambda s: bool(s.stack) and isinstance(s.stack[-1], RollBridge) and s.phase is Phase.END_OF_ROUND,
        "table",
    )
    assert state.phase is Phase.END_OF_ROUND
    assert (
        domain.prompt_text(state)
        == "Chance: what did the dice of the coral, black and white bridges roll for round 2?"
    )


def test_a_die_tile_that_r_s05_lays_on_another_space_is_said_before_and_after() -> None:
    state = domain.new_game(["Aiko", "Ben", "Chie"], mode="table", seed=1, draw=False)
    while not domain.prompt_help(state):
        state = play(state, draw_chance(state))
    question, help_ = domain.prompt_text(state), domain.prompt_help(state)
    assert (
        question == "Chance: which colour of die tile was drawn for the castle's space 9, in diplomat room 1?"
    )
    assert help_.startswith(
        "A coral tile drawn now would leave diplomat room 1 all coral, so R-S05 lays it on the castle's space 10"
    )
    assert "asks again for this space" in help_
    coral = next(move for move in domain.legal_moves(state) if move["colour"] == "coral")
    line = domain.describe(state, coral)
    assert (
        "it would leave diplomat room 1 all coral, so it goes on to the castle's space 10" in line
        and "R-S05" in line
    )
    after = domain.apply(state, coral)
    assert domain.prompt_text(after) == question  # the space asked stays free: asked again, and now said why
    white = next(move for move in domain.legal_moves(state) if move["colour"] == "white")
    assert "R-S05" not in domain.describe(state, white)


def test_seal_conversions_serve_the_player_whose_turn_it_is_on_a_question_that_costs() -> None:
    placing = randomly_until(3, lambda s: domain.prompt_of(s)["kind"] == "place_die")
    assert conversions_serve(placing)
    taking = randomly_until(3, lambda s: domain.prompt_of(s)["kind"] == "take_die")
    assert not conversions_serve(taking)  # nothing to pay in taking a die
    end = randomly_until(
        1, lambda s: s.phase is Phase.END_OF_ROUND and domain.prompt_of(s)["seat"] is not None
    )
    assert not conversions_serve(end)  # the round's end: nobody's turn
    assert not conversions_serve(domain.new_game(["Aiko", "Ben"], seed=4))  # the starting choices
