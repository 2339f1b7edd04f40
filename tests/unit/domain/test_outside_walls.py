"""Outside the Walls (R-O01, R-O02)."""

from __future__ import annotations

import domain

from .helpers import answers_of, play, standard, with_player


def test_R_O01_value_five_any_colour() -> None:
    state = with_player(standard(), 0, lantern=())
    for bridge in ("coral", "black", "white"):
        after = play(state, {"kind": "take_die", "seat": 0, "bridge": bridge, "end": "right"})
        assert {"outside_1", "outside_2"} <= {m["space"] for m in answers_of(after, "place_die")}
    after = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "outside_1"},
    )
    assert after.players[0].coins == 5 + 1


def test_R_O02_one_of_the_two_actions_of_the_space() -> None:
    state = with_player(standard(), 0, lantern=(), food=5)  # food: a garden could be paid (0.3.0)
    one = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "outside_1"},
    )
    assert [m["option"] for m in answers_of(one, "choose")] == ["gardener", "courtier"]
    two = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "white", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "outside_2"},
    )
    assert [m["option"] for m in answers_of(two, "choose")] == ["warrior", "courtier"]
    # choosing one closes the space: after the Courtier action (an Audience, and no pearl to climb), the turn
    # ends
    two = play(two, {"kind": "choose", "seat": 0, "option": "courtier"}, {"kind": "audience", "seat": 0})
    assert domain.prompt_of(two) == {"kind": "take_die", "seat": 1}
    assert two.board.gate[0] == 1
