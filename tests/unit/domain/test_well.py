"""The Well (R-W01, R-W02)."""

from __future__ import annotations

import domain

from .helpers import play, standard, with_player


def test_R_W01_any_colour_gains_die_minus_one() -> None:
    state = with_player(standard(), 0, lantern=(), coins=0)
    for bridge, value in (("coral", 6), ("black", 6), ("white", 6)):
        after = play(
            state,
            {"kind": "take_die", "seat": 0, "bridge": bridge, "end": "right"},
            {"kind": "place_die", "seat": 0, "space": "well"},
        )
        assert after.players[0].coins == value - 1 + 1  # + the coin tile T11


def test_R_W02_one_seal_and_both_tile_rewards() -> None:
    state = with_player(standard(), 0, lantern=(), coins=0, seals=0, iron=0)
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"},
        {"kind": "place_die", "seat": 0, "space": "well"},
    )
    player = state.players[0]
    assert (player.seals, player.iron, player.coins) == (1, 1, 1)  # seal, T6 = 1 iron, T11 = 1 coin


def test_R_W02_the_well_action_icon_gives_the_same_without_a_die() -> None:
    # steward_2 = S4; a coral die faces its middle block "1 coin + Well action" and bottom "Lantern"
    state = with_player(standard(), 0, lantern=(), coins=0, seals=0, iron=0)
    state = play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"},
        {"kind": "place_die", "seat": 0, "space": "steward_2"},
    )
    player = state.players[0]
    # 6 on 3 = 3 coins, block: 1 coin + (1 seal, 1 iron, 1 coin); the Lantern block gives nothing here
    assert (player.coins, player.seals, player.iron) == (3 + 1 + 1, 1, 1)
    assert domain.prompt_of(state)["seat"] == 1
