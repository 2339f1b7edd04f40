"""The round's end in the history (R-E03, R-E04): the gardens' activation is named as such and filed under the
round's end, not under the last player's turn, in the timeline and in the text record."""

from __future__ import annotations

import random

import domain
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from tests.unit.domain.helpers import eager


def garden_game() -> tuple[GameLog, object]:
    """A seeded 2-player game (seed 3, the eager player) played to the end of round 1's garden activation and
    one move past it. The seed must lead to a garden activation in round 1: under rules 0.4.0 seed 4, this
    test's before them, first activates one in round 2."""
    log = open_log(StoreConfig(kind="memory"))
    game_id = log.create_game({"players": ["Ann", "Ben"], "mode": "seeded", "seed": 3}).game_id
    rng = random.Random(3)
    activated = False
    while True:
        game = log.get(game_id)
        state = game.state
        in_garden = state.phase.value == "end_of_round" and domain.prompt_of(state)["seat"] is not None
        if activated and not in_garden:
            return log, game_id
        activated = activated or in_garden
        move = eager(rng, domain.legal_moves(state))
        log.play(game_id, move, expected_version=game.version, actor="owner")


def test_garden_activations_are_filed_under_the_rounds_end_and_named_so_r_e03() -> None:
    log, game_id = garden_game()
    entries = log.timeline(game_id)  # type: ignore[arg-type]
    garden = [entry for entry in entries if entry.phase == "end_of_round"]
    assert garden, "the game reached a garden activation"
    for entry in garden:
        assert entry.turn is None and entry.round == 1
        assert entry.description.startswith("End of round 1, garden activation: ")
    last_turn = [entry for entry in entries if entry.phase == "turns"][-1]
    assert last_turn.turn == 3 and last_turn.index < garden[0].index
    assert entries[-1].to_dict()["phase"] == "end_of_round"


def test_the_text_record_has_the_rounds_end_as_its_own_heading_r_e03() -> None:
    log, game_id = garden_game()
    lines = log.export_text(game_id).splitlines()  # type: ignore[arg-type]
    heading = lines.index("### End of round 1")
    assert lines[heading + 1].strip().split(". ", 1)[1].startswith("End of round 1, garden activation: ")
