"""A move said anew for the seat that really made it (`domain.reseated`): what a correction swapping two seats'
moves says of each recorded move (docs/api/amend.md)."""

from __future__ import annotations

import domain

SWAP = {0: 1, 1: 0}


def test_a_players_move_is_made_by_the_other_seat() -> None:
    take = {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"}
    assert domain.reseated(take, SWAP) == {**take, "seat": 1}


def test_a_turn_order_names_the_seats_that_really_played() -> None:
    order = {"kind": "stack_order", "seat": None, "order": [2, 0, 1]}
    assert domain.reseated(order, SWAP) == {**order, "order": [2, 1, 0]}


def test_a_move_of_a_seat_not_swapped_and_a_card_revealed_are_as_recorded() -> None:
    place = {"kind": "place_die", "seat": 2, "space": "well"}
    card = {"kind": "reveal", "seat": None, "pool": "steward", "card": "S4"}
    assert domain.reseated(place, SWAP) is not place and domain.reseated(place, SWAP) == place
    assert domain.reseated(card, SWAP) == card
