"""Scenario tests from an audit of the engine against its rules (docs/rules/): situations the area tests did not
drive, each played through `legal_moves` and `apply`, checking both what is offered and what is refused."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

import domain
from domain.vocabulary import Phase

from .helpers import (
    answers_of,
    at_turn,
    die,
    finish_turn,
    kinds,
    play,
    standard,
    with_board,
    with_bridge,
    with_player,
    with_room,
)


def take_and_place(state: domain.GameState, bridge: str, end: str, space: str) -> domain.GameState:
    return play(
        state,
        {"kind": "take_die", "seat": 0, "bridge": bridge, "end": end},
        {"kind": "place_die", "seat": 0, "space": space},
    )


# --- R-T01, R-E01, R-M02: turns per round and the end-of-round count, at every player count -


@pytest.mark.parametrize(
    ("players", "expansions", "seed"),
    [(2, (), 11), (4, (), 12), (2, ("matcha",), 13), (4, ("matcha",), 14)],
)
def test_R_T01_R_E01_every_player_takes_the_rounds_turns_and_the_round_ends_at_the_dice_left(
    players: int, expansions: tuple[str, ...], seed: int
) -> None:
    """3 turns per player per round (4 with Matcha), in turn-order-track order, and each round ends with 3 dice
    (Matcha: 4, the green bridge counted) left on the bridges: checked on a whole random game."""
    rng = random.Random(seed)
    state = domain.new_game(players, seed=seed, expansions=list(expansions))
    per_round = state.rules.turns_per_round
    turns: dict[tuple[int, int], int] = {}
    left_at_end: dict[int, int] = {}
    while not domain.is_over(state):
        if state.phase is Phase.END_OF_ROUND and state.round not in left_at_end:
            left_at_end[state.round] = sum(bridge.count() for bridge in state.board.bridges)
        move = rng.choice(domain.legal_moves(state))
        if move["kind"] == "take_die":
            assert move["seat"] == state.turn_order[state.turn_index % players]
            turns[(state.round, move["seat"])] = turns.get((state.round, move["seat"]), 0) + 1
        state = domain.apply(state, move)
    assert turns == {(r, s): per_round for r in (1, 2, 3) for s in range(players)}
    # rounds 1 and 2 pause on their garden activation or reroll; round 3 goes straight to the end (R-E05)
    dice_left = state.rules.dice_left_at_round_end
    assert all(left_at_end[r] == dice_left for r in left_at_end)
    assert sum(bridge.count() for bridge in state.board.bridges) == dice_left


# --- R-O02: one of the two actions of the space, and only those -


@pytest.mark.parametrize(
    ("space", "offered", "refused"),
    [("outside_1", ["gardener", "courtier"], "warrior"), ("outside_2", ["warrior", "courtier"], "gardener")],
)
def test_R_O02_one_action_of_the_two_shown_and_never_the_third(
    space: str, offered: list[str], refused: str
) -> None:
    state = with_player(standard(), 0, lantern=(), food=7, iron=7, pearl=7, coins=9)
    state = take_and_place(state, "white", "right", space)
    assert [m["option"] for m in answers_of(state, "choose")] == offered
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "choose", "seat": 0, "option": refused})
    assert error.value.rule == "R-O02" and f"not {refused!r}" in error.value.message
    # the first action taken and declined, the space gives nothing more: the next player's turn
    first = offered[0]
    state = play(state, {"kind": "choose", "seat": 0, "option": first}, {"kind": "done", "seat": 0})
    assert domain.prompt_of(state) == {"kind": "take_die", "seat": 1}
    with pytest.raises(domain.DomainError):
        domain.apply(state, {"kind": "choose", "seat": 0, "option": "courtier"})


# --- R-C03: a diplomat room's two tiles each face one block -


def test_R_C03_a_diplomat_die_gives_only_the_block_its_tile_faces() -> None:
    # diplomat_1 = D2 with tiles coral (top: Courtier action, dark, free) and black (middle+bottom: PoT +2)
    state = with_player(standard(), 0, lantern=(), coins=5, pearl=0)
    black = take_and_place(state, "black", "right", "diplomat_1")
    assert (black.players[0].pot, black.players[0].coins) == (2, 5 + 6 - 4)
    assert domain.prompt_of(black) == {"kind": "take_die", "seat": 1}  # no Courtier action offered
    coral = take_and_place(state, "coral", "right", "diplomat_1")
    assert coral.players[0].pot == 0
    assert answers_of(coral, "choose") == [{"kind": "choose", "seat": 0, "option": "top"}]
    with pytest.raises(domain.IllegalMove) as error:  # the block facing the black tile is not the coral die's
        domain.apply(coral, {"kind": "choose", "seat": 0, "option": "middle+bottom"})
    assert error.value.rule == "R-C03" and error.value.details == {"options": ["top"]}
    coral = play(coral, {"kind": "choose", "seat": 0, "option": "top"})
    assert domain.prompt_of(coral)["kind"] == "courtier"
    assert coral.players[0].seals == state.players[0].seals  # a diplomat's dark block costs no seal (R-C04)


def test_R_C03_R_C02_the_other_diplomat_room_faces_white_top_and_coral_below() -> None:
    # diplomat_2 = D7 with tiles white (top: PoT +2) and coral (middle+bottom: Gardener action, dark)
    state = with_player(standard(), 0, lantern=(), food=7)
    white = take_and_place(state, "white", "right", "diplomat_2")
    assert white.players[0].pot == 2 and answers_of(white, "gardener") == []
    coral = take_and_place(state, "coral", "right", "diplomat_2")
    coral = play(coral, {"kind": "choose", "seat": 0, "option": "middle+bottom"})
    assert coral.players[0].pot == 0 and answers_of(coral, "gardener") != []
    held = play(state, {"kind": "take_die", "seat": 0, "bridge": "black", "end": "right"})
    assert {"kind": "place_die", "seat": 0, "space": "diplomat_2"} not in domain.legal_moves(held)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(held, {"kind": "place_die", "seat": 0, "space": "diplomat_2"})
    assert error.value.rule == "R-C02"


# --- R-D02: a diplomat Action card faces the Domain rows with its one-row and two-row blocks -


@pytest.mark.parametrize(
    ("bridge", "row_gives"), [("coral", "pot"), ("black", "gardener"), ("white", "gardener")]
)
def test_R_D02_a_diplomat_action_card_faces_one_row_and_two_rows(bridge: str, row_gives: str) -> None:
    """D7 as Action card: top (courtiers row) = PoT +2; middle+bottom (gardeners, warriors rows) = Gardener."""
    state = with_player(standard(), 0, lantern=(), action_card="D7", food=7)
    state = take_and_place(state, bridge, "right", "domain")
    if row_gives == "pot":
        assert state.players[0].pot == 2
        assert "gardener" not in kinds(state)
    else:
        assert state.players[0].pot == 0
        assert [m["option"] for m in answers_of(state, "choose")] == ["middle+bottom"]
        state = play(state, {"kind": "choose", "seat": 0, "option": "middle+bottom"})
        assert answers_of(state, "gardener") != []


# --- R-E02, R-PT03: influence gained on the round's last turn decides the new order -


def test_R_E02_R_PT03_influence_gained_on_the_last_turn_puts_the_marker_on_top_for_the_new_order() -> None:
    """Seat 2 moves from 1 onto seat 0's space 2 on the round's last turn (S7's white top block, PoT +1): it
    lies on top there, so it plays before seat 0 next round; without that move seat 0 stays ahead."""
    state = at_turn(standard(), 2, 8)
    state = with_bridge(state, "coral", [3, 5, 6])
    state = with_bridge(state, "black", left=None, middle=(), right=None)
    state = with_bridge(state, "white", [3])
    state = with_player(state, 0, pot=2)
    state = with_player(state, 1, pot=0)
    state = with_player(state, 2, pot=1, lantern=(), coins=0)
    take = {"kind": "take_die", "seat": 2, "bridge": "white", "end": "left"}
    moved = finish_turn(play(state, take, {"kind": "place_die", "seat": 2, "space": "steward_3"}))
    assert moved.phase is Phase.END_OF_ROUND
    assert moved.players[2].pot == 2
    assert moved.turn_order == (2, 0, 1)
    stayed = finish_turn(play(state, take, {"kind": "place_die", "seat": 2, "space": "well"}))
    assert stayed.players[2].pot == 1
    assert stayed.turn_order == (0, 2, 1)


# --- R-CA04, R-F05, R-F06: a courtier at the Daimyo without a favour spot -


def test_R_CA04_R_F05_R_F06_a_daimyo_courtier_without_a_spot_still_scores_ten_and_multiplies_warriors() -> (
    None
):
    state = with_player(standard(), 0, lantern=(), pearl=2, courtiers=4)
    daimyo = replace(state.board.daimyo, spots=(1, 2, 1))
    state = with_room(with_board(state, daimyo=daimyo), "diplomat_1", courtiers=(0,))
    yards = list(state.board.yards)
    yards[1] = replace(yards[1], warriors=(0,))  # value 1
    yards[0] = replace(yards[0], warriors=(0,))  # value 2
    state = with_board(state, yards=tuple(yards))
    before = domain.score(state)[0]
    assert (before.courtiers, before.warriors) == (6, 3 * 1)
    # the Courtier action of outside_1, then the ascent diplomat_1 -> Daimyo for 2 pearl
    state = take_and_place(state, "white", "right", "outside_1")
    state = play(state, {"kind": "choose", "seat": 0, "option": "courtier"})
    assert {"kind": "daimyo_spot", "seat": 0, "spot": 0} not in domain.legal_moves(state)
    state = play(state, {"kind": "ascend", "seat": 0, "from": "diplomat_1", "to": "daimyo"})
    assert state.board.daimyo.spots == (1, 2, 1) and state.board.daimyo.extra == (0,)
    after = domain.score(state)[0]
    assert (after.courtiers, after.warriors) == (10, 3 * 1)


# --- R-P03, R-P05: a shared space at 3 players takes a second die, settled against the first -


def test_R_P03_R_P04_R_P05_outside_the_walls_takes_a_second_die_settled_on_the_first_then_no_third() -> None:
    """At 3 players a 1 placed on a 6 pays 5 (not the printed 5 - 1 = 4); with 4 coins it is refused; a space
    holding two dice takes no third."""
    base = standard()
    one_die = (replace(base.board.outside[0], dice=(die("black", 6, 1),)), base.board.outside[1])
    take_one = {"kind": "take_die", "seat": 0, "bridge": "white", "end": "left"}
    to_outside = {"kind": "place_die", "seat": 0, "space": "outside_1"}
    state = with_board(with_player(base, 0, lantern=(), coins=5), outside=one_die)
    assert play(state, take_one, to_outside).players[0].coins == 0
    poor = play(with_player(state, 0, coins=4), take_one)
    assert to_outside not in domain.legal_moves(poor)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(poor, to_outside)
    assert error.value.rule == "R-P04"
    two_dice = (replace(one_die[0], dice=(die("black", 6, 1), die("coral", 6, 2))), one_die[1])
    full = play(with_board(state, outside=two_dice), take_one)
    assert to_outside not in domain.legal_moves(full)
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(full, to_outside)
    assert error.value.rule == "R-P05"


# --- R-P07 with decision C.3's option milestones="must_pay" -


@pytest.mark.parametrize("milestones", ["may_decline", "must_pay"])
def test_R_P07_C3_an_optional_influence_block_that_would_cost_milestone_seals_can_be_declined(
    milestones: str,
) -> None:
    """A white die on steward_3 (S7) faces PoT +1 (top) and 2 food (bottom), both optional (R-P07). At PoT 5
    with 1 seal, PoT +1 reaches the milestone of space 6. Under ``must_pay`` a move there must pay the seal, so
    the block is no free gain: the player may decline it and keep the seal (the engine used to take it, and
    the seal, by itself). Under ``may_decline`` the milestone itself asks."""
    state = standard()
    state = replace(state, options=replace(state.options, milestones=milestones))
    state = with_player(state, 0, lantern=(), pot=5, seals=1, food=0)
    state = take_and_place(state, "white", "right", "steward_3")
    if milestones == "may_decline":
        assert domain.prompt_of(state)["kind"] == "milestone"
        return
    assert domain.prompt_of(state)["kind"] == "actions"
    assert {m["option"] for m in answers_of(state, "choose")} == {"top", "bottom"}
    kept = play(state, {"kind": "choose", "seat": 0, "option": "bottom"}, {"kind": "done", "seat": 0})
    player = kept.players[0]
    assert (player.pot, player.seals, player.food) == (5, 1, 2)
    assert domain.prompt_of(kept) == {"kind": "take_die", "seat": 1}
    paid = play(state, {"kind": "choose", "seat": 0, "option": "top"})
    assert (paid.players[0].pot, paid.players[0].seals) == (6, 0)
    # without a seal the marker just stops before the milestone (R-PT02): nothing to lose, nothing asked
    free = with_player(standard(), 0, lantern=(), pot=5, seals=0, food=0)
    free = replace(free, options=replace(free.options, milestones="must_pay"))
    free = take_and_place(free, "white", "right", "steward_3")
    assert (free.players[0].pot, free.players[0].food) == (5, 2)
    assert domain.prompt_of(free) == {"kind": "take_die", "seat": 1}


def test_R_P07_C3_two_optional_steps_that_together_reach_a_milestone_under_must_pay_are_asked() -> None:
    """From PoT 4 neither block of a white die on steward_3 reaches space 6 alone; S7's top block is PoT +1,
    and here its bottom block is made PoT +1 too: together they reach the milestone, so the choice is asked."""
    state = standard()
    state = replace(state, options=replace(state.options, milestones="must_pay"))
    cards = dict(state.catalog.cards)
    s7 = cards["S7"]
    cards["S7"] = replace(s7, blocks=(*s7.blocks[:2], replace(s7.blocks[2], icons=s7.blocks[0].icons)))
    state = replace(state, catalog=replace(state.catalog, cards=cards))
    state = with_player(state, 0, lantern=(), pot=4, seals=1)
    state = take_and_place(state, "white", "right", "steward_3")
    assert domain.prompt_of(state)["kind"] == "actions"
    state = play(state, {"kind": "choose", "seat": 0, "option": "top"}, {"kind": "done", "seat": 0})
    assert (state.players[0].pot, state.players[0].seals) == (5, 1)
