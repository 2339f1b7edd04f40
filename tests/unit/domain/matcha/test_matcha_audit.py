"""Scenario tests from an audit of the Matcha engine against its rules (docs/rules/matcha.md) and R-F08:
situations the area tests did not drive (each found by breaking the implementing line and seeing every test
still pass), played through `legal_moves` and `apply`, checking both what is offered and what is refused."""

from __future__ import annotations

from dataclasses import replace

import pytest

import domain
from domain.state import GameState

from ..helpers import answers_of, at_turn, finish_turn, kinds, play, with_bridge, with_player
from .helpers import board, matcha_standard, menu_ids, prompt, resolve, with_green, with_matcha


def bare(state: GameState) -> GameState:
    """Every clan with nothing that scores but what a test puts on the board."""
    for seat in range(len(state.players)):
        state = with_player(state, seat, cp=0, coins=0, seals=0, food=0, iron=0, pearl=0, whisks=0)
    return state


def room_scoring(state: GameState, member: str) -> str:
    """The Tea House room whose geishas score `member`s (the catalog's, docs/rules/components.md §1.12 item 5)."""
    spec = state.catalog.matcha
    assert spec is not None
    return next(room for room, scores in spec.tea_house if scores == member)


def with_geishas_in(state: GameState, room_id: str, seats: tuple[int, ...]) -> GameState:
    rooms = tuple(
        replace(room, geishas=seats) if room.id == room_id else room for room in board(state).tea_house
    )
    return with_matcha(state, tea_house=rooms)


# --- R-F08: the Tea House counts every member of the room's kind placed on the board -


def test_R_F08_a_courtier_at_the_daimyo_without_a_favour_spot_counts_for_the_courtier_room() -> None:
    """A courtier that reached the Daimyo with every favour spot taken stays there without a bonus (R-CA04) but
    is placed on the board: a geisha in the courtiers' room scores 2 for it, as for one on a spot."""
    state = with_geishas_in(bare(matcha_standard()), room_scoring(matcha_standard(), "courtier"), (0,))
    full = replace(state.board.daimyo, spots=(1, 2, 1), extra=(0,))
    state = replace(state, board=replace(state.board, daimyo=full))
    sheet = domain.score(state)[0]
    assert sheet.courtiers == 10  # R-F05: it is at the Daimyo
    assert sheet.geishas == 2 * 1  # type: ignore[attr-defined]
    gone = replace(state, board=replace(state.board, daimyo=replace(full, extra=())))
    assert domain.score(gone)[0].geishas == 0  # type: ignore[attr-defined]


def test_R_F08_the_warriors_room_counts_the_seats_warriors_in_every_yard_and_no_one_elses() -> None:
    state = bare(matcha_standard())
    yards = list(state.board.yards)
    yards[0] = replace(yards[0], warriors=(0, 0))  # the 5-iron yard
    yards[1] = replace(yards[1], warriors=(1,))
    yards[2] = replace(yards[2], warriors=(0, 2))  # the 1-iron yard
    state = replace(state, board=replace(state.board, yards=tuple(yards)))
    state = with_geishas_in(state, room_scoring(state, "warrior"), (0, 0, 1))
    sheets = domain.score(state)
    # 2 points per warrior placed, whatever the yard's value: seat 0 has 3, seat 1 has 1
    assert sheets[0].geishas == 2 * (2 * 3)  # type: ignore[attr-defined]
    assert sheets[1].geishas == 1 * (2 * 1)  # type: ignore[attr-defined]
    assert sheets[2].geishas == 0  # type: ignore[attr-defined]


# --- R-M18 CT13: the free step is an advance only -


def test_R_M18_CT13_the_free_step_never_sends_a_geisha_from_the_clan_board() -> None:
    """CT13 advances a geisha already at the entrance or on the path 1 step without whisks: it is not a Geisha
    action, so Part A (2 coins, the clan board's leftmost geisha to the entrance) is never offered with it."""
    state = with_matcha(matcha_standard(), entrance=(0,))
    state = resolve(with_player(state, 0, coins=9, whisks=0, seals=0, geishas=4), 0, "advance")
    assert prompt(state)["kind"] == "geisha" and "send_geisha" not in kinds(state)
    assert {(m["from"], m["to"]) for m in answers_of(state, "advance_geisha")} == {
        ("entrance", "viewing_platform"),
        ("entrance", "path_1"),
    }
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "send_geisha", "seat": 0})
    assert error.value.rule == "R-M18"
    state = play(state, {"kind": "advance_geisha", "seat": 0, "from": "entrance", "to": "path_1"})
    assert (state.players[0].coins, state.players[0].whisks, state.players[0].geishas) == (9, 0, 4)
    # no geisha out of the clan board: nothing to advance, and the coins buy no Part A either
    nobody = resolve(with_player(matcha_standard(), 0, coins=9, whisks=0, seals=0), 0, "advance")
    assert prompt(nobody) == {"kind": "take_die", "seat": 0}
    assert nobody.players[0].geishas == 5 and board(nobody).entrance == ()


# --- R-M17: the two-card symbol gives both curtains of the one card chosen -


def test_R_M17_the_two_card_symbol_performs_both_curtains_of_the_chosen_card_and_nothing_of_the_other() -> (
    None
):
    state = resolve(with_player(matcha_standard(), 0, seals=1, coins=0, iron=0), 0, "curtain:both")
    state = play(state, {"kind": "himeji_card", "seat": 0, "deck": "ikebana"})
    state = play(state, {"kind": "choose", "seat": 0, "option": "ikebana:yellow"})  # IK1: 4 coins
    assert state.players[0].coins == 4
    # the other curtain of the same card is still to come, and only it
    assert [m["option"] for m in answers_of(state, "choose")] == ["ikebana:blue"]
    for other in ("calligraphy:yellow", "calligraphy:blue", "ikebana:yellow"):
        with pytest.raises(domain.DomainError):
            domain.apply(state, {"kind": "choose", "seat": 0, "option": other})
    state = play(state, {"kind": "choose", "seat": 0, "option": "ikebana:blue"})  # 1 seal -> Courtier
    assert state.players[0].seals == 0 and prompt(state)["kind"] == "courtier"
    assert state.players[0].iron == 0  # CA1's yellow curtain (2 iron) was never given


# --- R-D01, R-M14: the clan board's green row takes one green die a round, and only green -


def test_R_D01_R_M14_a_green_die_goes_to_the_geisha_row_once_a_round_and_a_coral_die_never_does() -> None:
    state = with_player(matcha_standard(), 0, coins=20, seals=0, lantern=())
    rows = [row.id for row in state.catalog.rows]
    coral = play(state, {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "right"})
    coral = play(coral, {"kind": "place_die", "seat": 0, "space": "domain"})
    assert [i for i, die in enumerate(coral.players[0].domain) if die] == [rows.index("courtiers")]
    green = play(state, {"kind": "take_die", "seat": 0, "bridge": "green", "end": "right"})
    green = finish_turn(play(green, {"kind": "place_die", "seat": 0, "space": "domain"}))
    assert [i for i, die in enumerate(green.players[0].domain) if die] == [rows.index("geishas")]
    again = at_turn(green, 0, 3)
    again = play(again, {"kind": "take_die", "seat": 0, "bridge": "green", "end": "right"})
    assert "domain" not in {move["space"] for move in answers_of(again, "place_die")}
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(again, {"kind": "place_die", "seat": 0, "space": "domain"})
    assert error.value.rule == "R-D01"


def test_R_M14_the_own_token_costs_one_seal_and_without_it_is_not_performed() -> None:
    """Seat 0's token is CT9 (Gardener action + 1 CP); with 5 geishas home the row shows no reward."""
    state = with_player(matcha_standard(), 0, coins=20, seals=1, cp=0, food=7, lantern=())
    state = play(state, {"kind": "take_die", "seat": 0, "bridge": "green", "end": "right"})
    paid = play(state, {"kind": "place_die", "seat": 0, "space": "domain"})
    assert menu_ids(paid) == ["ceremony"] and prompt(paid)["options"][0]["cost"] == {"seal": 1}
    paid = play(paid, {"kind": "choose", "seat": 0, "option": "ceremony"})
    assert (paid.players[0].seals, prompt(paid)["kind"]) == (0, "gardener")
    paid = play(paid, {"kind": "gardener", "seat": 0, "garden": "coral_stone"})
    assert (paid.players[0].cp, paid.players[0].gardeners) == (1, 4)
    broke = play(with_player(state, 0, seals=0), {"kind": "place_die", "seat": 0, "space": "domain"})
    assert prompt(broke) == {"kind": "take_die", "seat": 1}  # nothing payable: not asked
    assert (broke.players[0].cp, broke.players[0].gardeners) == (0, 5)
    with pytest.raises(domain.DomainError):
        domain.apply(broke, {"kind": "choose", "seat": 0, "option": "ceremony"})


# --- R-M16, R-E05: no Viewing Platform after the last round -


def test_R_M16_R_E05_after_round_3_the_viewing_platform_gives_no_pond_action() -> None:
    """The Viewing Platform is one more garden, and gardens are not activated after the last round: a geisha
    there with a green die left gets nothing, and the game goes straight to its end (rounds 1-2: asked)."""

    def last_turn(round_: int) -> GameState:
        state = at_turn(matcha_standard(), 2, 11, round_=round_)
        state = with_bridge(state, "coral", [3, 5, 6])
        state = with_bridge(state, "black", [2])
        state = with_bridge(state, "white", left=None, middle=(), right=None)
        state = with_matcha(with_green(state, [4]), platform=(0,))
        state = with_player(state, 0, coins=3, whisks=0, food=0)
        take = {"kind": "take_die", "seat": 2, "bridge": "black", "end": "left"}
        return finish_turn(play(state, take, {"kind": "place_die", "seat": 2, "space": "well"}))

    second = last_turn(2)
    assert prompt(second)["title"] == "gardens" and menu_ids(second) == ["viewing_platform"]
    last = last_turn(3)
    assert domain.is_over(last) and domain.legal_moves(last) == []
    player = last.players[0]
    assert (player.coins, player.whisks, player.food) == (3, 0, 0)


def test_R_M09_R_M18_CT13_the_free_step_keeps_the_places_limits() -> None:
    """CT13 waives the whisks, not MA's limits: with a geisha of its clan on the Viewing Platform already, the
    free step cannot take another there."""
    state = with_matcha(matcha_standard(), entrance=(0,), platform=(0,))
    state = resolve(with_player(state, 0, whisks=0, seals=0), 0, "advance")
    assert {(m["from"], m["to"]) for m in answers_of(state, "advance_geisha")} == {("entrance", "path_1")}
