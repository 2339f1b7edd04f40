"""The rival's icons (R-SO05, with R-SO02): gardener, warrior, courtier to the Gate, courtier ascent, CP,
influence and coins; the player's choices made for the rival (a tie between gardens, the room reached)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import domain
from domain.state import GameState

from .helpers import with_board, with_decks, with_player, with_room
from .solo_helpers import HUMAN, RIVAL, cards, reveal, solo_game

# solo_game(...): plant gardens PG2 coral (7 CP), PG1 black (5 CP), PG4 white (7 CP); stone gardens SG1 coral
# (1 CP), SG3 black (3 CP), SG5 white (5 CP). SO9 (white right -> steward 2) is given the icons under test and
# revealed first, so it resolves alone.


def played(*icons: str, change: Any = None, difficulty: str = "medium") -> GameState:
    state = solo_game(difficulty, catalog=cards(SO9={"icons": list(icons)}))
    if change is not None:
        state = change(state)
    return reveal(state, "SO9")


def gardens_with(state: GameState, **by_id: tuple[int, ...]) -> GameState:
    slots = tuple(replace(slot, gardeners=by_id.get(slot.id, slot.gardeners)) for slot in state.board.gardens)
    return with_board(state, gardens=slots)


def holders(state: GameState) -> dict[str, tuple[int, ...]]:
    return {slot.id: slot.gardeners for slot in state.board.gardens if slot.gardeners}


def test_R_SO05_a_gardener_goes_to_the_cheapest_scoring_garden_of_the_type_for_free() -> None:
    state = played("gardener:plant")
    assert holders(state) == {"black_plant": (RIVAL,)}  # PG1, 5 CP, costs 3 food and 4 coins for its action
    rival = state.players[RIVAL]
    assert (rival.gardeners, rival.food, rival.coins) == (4, 0, 3)  # coins: the white 6 on steward room 2
    assert domain.prompt_of(state)["seat"] == HUMAN and domain.prompt_of(state)["kind"] == "take_die"
    assert holders(played("gardener:stone")) == {"coral_stone": (RIVAL,)}  # SG1, 1 CP


def test_R_SO05_a_tie_between_gardens_is_the_players_choice() -> None:
    state = played("gardener:plant", change=lambda s: gardens_with(s, black_plant=(RIVAL,)))
    prompt = domain.prompt_of(state)
    assert (prompt["kind"], prompt["seat"], prompt["automatic"]) == ("rival_garden", HUMAN, True)
    assert domain.legal_moves(state) == [
        {"kind": "rival_garden", "seat": HUMAN, "garden": "coral_plant"},
        {"kind": "rival_garden", "seat": HUMAN, "garden": "white_plant"},
    ]
    state = domain.apply(state, {"kind": "rival_garden", "seat": HUMAN, "garden": "white_plant"})
    assert holders(state) == {"black_plant": (RIVAL,), "white_plant": (RIVAL,)}
    with pytest.raises(domain.NotYourTurn):
        domain.apply(
            played("gardener:plant", change=lambda s: gardens_with(s, black_plant=(RIVAL,))),
            {"kind": "rival_garden", "seat": RIVAL, "garden": "white_plant"},
        )


def test_R_SO05_gardens_of_the_player_still_count_for_the_rival() -> None:
    state = played("gardener:plant", change=lambda s: gardens_with(s, black_plant=(HUMAN,)))
    assert holders(state) == {"black_plant": (HUMAN, RIVAL)}


def test_R_SO05_R_SO03_no_garden_of_the_type_left_is_an_impossible_action() -> None:
    full = {"coral_plant": (RIVAL,), "black_plant": (RIVAL,), "white_plant": (RIVAL,)}
    state = played("gardener:plant", change=lambda s: gardens_with(s, **full))
    assert state.players[RIVAL].cp == 3 + 1
    none_left = played("gardener:stone", change=lambda s: with_player(s, RIVAL, gardeners=0))
    assert none_left.players[RIVAL].cp == 3 + 1 and not holders(none_left)


@pytest.mark.parametrize(("iron", "yard"), [(5, 0), (3, 1), (1, 2)])
def test_R_SO05_a_warrior_goes_to_the_yard_matching_the_cost_shown(iron: int, yard: int) -> None:
    state = played(f"warrior:{iron}")
    assert state.board.yards[yard].warriors == (RIVAL,)
    rival = state.players[RIVAL]
    # no iron paid, and the yard's tiles (Y1 courtier + Y2 influence on yard 1...) are not resolved (R-SO02)
    assert (rival.warriors, rival.iron, rival.pot, rival.food) == (4, 0, 1, 0)
    assert domain.prompt_of(state)["kind"] == "take_die"


def test_R_SO05_a_courtier_goes_to_the_gate() -> None:
    state = played("gate", "gate")
    assert state.board.gate[RIVAL] == 2 and state.players[RIVAL].courtiers == 3
    assert state.players[RIVAL].coins == 3  # no Audience paid


def test_R_SO05_R_SO03_an_ascent_with_no_courtier_out_is_impossible() -> None:
    state = played("ascent:1")
    assert state.players[RIVAL].cp == 3 + 1


def test_R_SO05_the_lowest_courtier_climbs_and_the_player_chooses_the_room() -> None:
    state = played("gate", "ascent:1")
    prompt = domain.prompt_of(state)
    assert (prompt["kind"], prompt["seat"], prompt["floor"], prompt["origin"]) == (
        "rival_room",
        HUMAN,
        "steward",
        "gate",
    )
    assert [m["room"] for m in domain.legal_moves(state) if m["kind"] == "rival_room"] == [
        "steward_1",
        "steward_2",
        "steward_3",
    ]
    state = domain.apply(state, {"kind": "rival_room", "seat": HUMAN, "room": "steward_3"})
    room = state.board.rooms[2]
    assert room.courtiers == (RIVAL,) and room.card is None and state.board.gate[RIVAL] == 0
    # the card S7 is discarded (out of the game) and the room refilled: a chance prompt in table mode
    prompt = domain.prompt_of(state)
    assert (prompt["kind"], prompt["target"], prompt["automatic"]) == ("reveal", "steward_3", True)
    assert "S7" not in state.board.decks.steward
    state = domain.apply(state, {"kind": "reveal", "seat": None, "pool": "steward", "card": "S9"})
    assert state.board.rooms[2].card == "S9"
    rival = state.players[RIVAL]
    assert (rival.action_card, rival.lantern, rival.pearl, rival.coins) == (None, (), 0, 3)


def test_R_SO05_with_the_floors_deck_empty_the_card_stays_and_no_card_is_dealt() -> None:
    """Nothing can replace the card: it stays in the room (the decision `rival.arrive` states), nothing is
    dealt, and the player's turn goes on."""
    state = played("gate", "ascent:1", change=lambda s: with_decks(s, steward=()))
    room = state.board.rooms[0]
    assert (room.id, room.card, room.courtiers) == ("steward_1", "S2", (RIVAL,))
    assert domain.prompt_of(state) == {"kind": "take_die", "seat": HUMAN}
    assert state.solo is not None and not any("discarded" in text for text in state.solo.notes)


def test_R_SO05_an_ascent_of_two_floors_from_the_gate_reaches_a_diplomat_room() -> None:
    state = played("gate", "ascent:2")
    assert [m["room"] for m in domain.legal_moves(state) if m["kind"] == "rival_room"] == [
        "diplomat_1",
        "diplomat_2",
    ]
    state = domain.apply(state, {"kind": "rival_room", "seat": HUMAN, "room": "diplomat_2"})
    assert state.board.rooms[4].courtiers == (RIVAL,) and state.board.rooms[4].card is None


def test_R_SO05_the_lowest_courtier_is_the_one_that_climbs() -> None:
    def setup(state: GameState) -> GameState:
        state = with_room(state, "diplomat_1", courtiers=(RIVAL,))
        state = with_room(state, "steward_2", courtiers=(RIVAL,))
        return with_player(state, RIVAL, courtiers=3)

    state = played("ascent:1", change=setup)
    assert domain.prompt_of(state)["origin"] == "steward_2"
    state = domain.apply(state, {"kind": "rival_room", "seat": HUMAN, "room": "diplomat_2"})
    assert state.board.rooms[1].courtiers == () and state.board.rooms[4].courtiers == (RIVAL,)


def test_R_SO05_at_the_daimyo_the_courtier_takes_the_leftmost_free_spot_and_gains_nothing() -> None:
    def setup(state: GameState) -> GameState:
        state = with_room(state, "diplomat_1", courtiers=(RIVAL,))
        daimyo = state.board.daimyo
        return with_board(
            with_player(state, RIVAL, courtiers=4), daimyo=replace(daimyo, spots=(HUMAN, None, None))
        )

    state = played("ascent:2", change=setup)  # two floors asked, one to go: it stops at the Daimyo
    assert state.board.daimyo.spots == (HUMAN, RIVAL, None)
    assert state.board.rooms[3].courtiers == ()
    rival = state.players[RIVAL]
    assert (rival.food, rival.pot, rival.seals) == (0, 1, 0)  # Dm1's spot 2 gives 2 food: not to the rival
    assert rival.cp == 3  # the floor it could not climb is no action left undone (R-SO03)


def test_R_SO05_with_no_free_favour_spot_the_courtier_still_reaches_the_daimyo() -> None:
    def setup(state: GameState) -> GameState:
        state = with_room(with_player(state, RIVAL, courtiers=4), "diplomat_2", courtiers=(RIVAL,))
        return with_board(state, daimyo=replace(state.board.daimyo, spots=(HUMAN, HUMAN, HUMAN)))

    state = played("ascent:1", change=setup)
    assert state.board.daimyo.extra == (RIVAL,)
    sheet = domain.score(state)[RIVAL]
    assert sheet.courtiers == 10


def test_R_SO05_with_an_empty_deck_the_room_keeps_its_card_and_asks_nothing() -> None:
    state = played("gate", "ascent:1", change=lambda s: with_decks(s, steward=()))
    assert state.board.rooms[0].courtiers == (RIVAL,) and state.board.rooms[0].card == "S2"
    assert domain.prompt_of(state)["kind"] == "take_die"


def test_R_SO05_cp_influence_and_coins_apply_directly() -> None:
    state = played("cp:2", "coin:3", "pot:2")
    rival = state.players[RIVAL]
    assert (rival.cp, rival.coins, rival.pot) == (5, 3 + 3, 3)


def test_R_SO05_R_SO02_the_rivals_influence_crosses_milestones_without_seals() -> None:
    state = played("pot:3", change=lambda s: with_player(s, HUMAN, pot=6))
    assert state.players[RIVAL].pot == 4
    state = played("pot:3", change=lambda s: with_player(s, RIVAL, pot=4))
    assert state.players[RIVAL].pot == 7 and state.players[RIVAL].seals == 0


def at_pot(pot: int, version: str) -> Any:
    return lambda state: replace(with_player(state, RIVAL, pot=pot), rules_version=version)


@pytest.mark.parametrize(("pot", "lost"), [(19, 2), (20, 3)])
def test_R_SO03_influence_lost_at_the_tracks_end_is_an_action_not_carried_out(pot: int, lost: int) -> None:
    """Rules 0.5.0: from 19 (or 20) with +3 the marker goes as far as space 20, and the icon, not carried out in
    full, gives CP equal to the round's number, once (docs/rules/decisions.md)."""
    state = played("pot:3", change=at_pot(pot, "0.5.0"))
    rival = state.players[RIVAL]
    assert (rival.pot, rival.cp) == (20, 3 + 1)
    assert state.solo is not None
    assert state.solo.notes[-1] == f"cannot take {lost} steps of influence +3 past the track's end: +1 CP"


@pytest.mark.parametrize("pot", [19, 20])
def test_R_SO03_influence_lost_at_the_tracks_end_gives_nothing_under_rules_0_4_0(pot: int) -> None:
    """Games recorded under rules 0.4.0 or earlier keep them: the lost steps give nothing."""
    state = played("pot:3", change=at_pot(pot, "0.4.0"))
    rival = state.players[RIVAL]
    assert (rival.pot, rival.cp) == (20, 3)


def test_R_SO05_R_PT03_the_rivals_marker_lands_on_top_of_the_players() -> None:
    state = played("pot:2", change=lambda s: with_board(with_player(s, HUMAN, pot=3, pot_stamp=7), stamp=7))
    assert state.players[RIVAL].pot == 3
    assert state.players[RIVAL].pot_stamp > state.players[HUMAN].pot_stamp
