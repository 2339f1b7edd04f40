"""The solo setup (R-SO01, R-SO06): the 2-player setup, random starting cards with no choice, the rival's
difficulty, its empty board, the solo deck; and what a solo setup refuses."""

from __future__ import annotations

from typing import Any

import pytest

import domain
from domain.catalog import load_catalog
from domain.vocabulary import Phase

from .solo_helpers import HUMAN, RIVAL, cards, solo_game

DIAMOND_CARDS = {"S1", "S3", "S6", "S8", "S11", "S14", "D1", "D9", "D12"}


@pytest.mark.parametrize(
    ("difficulty", "cp", "order", "pot"),
    [("easy", 0, (HUMAN, RIVAL), 0), ("medium", 3, (RIVAL, HUMAN), 1), ("hard", 8, (RIVAL, HUMAN), 3)],
)
def test_R_SO01_the_difficulty_sets_the_rivals_cp_turn_order_and_passage_of_time(
    difficulty: str, cp: int, order: tuple[int, int], pot: int
) -> None:
    # seed 3: where the rival goes first (medium, hard), its first turn, played inside new_game, gains no CP
    state = domain.new_game(["Ana"], solo=difficulty, seed=3)
    rival = state.players[RIVAL]
    assert (rival.cp, rival.pot, state.turn_order) == (cp, pot, order)
    assert state.players[HUMAN].cp == 0 and state.players[HUMAN].pot == 0
    assert state.solo is not None and state.solo.difficulty == difficulty and state.solo.rival == RIVAL
    # the first player's marker lies on top of a shared space (R-S11, R-PT03)
    first, second = (state.players[seat] for seat in order)
    assert (first.pot, first.pot_stamp) > (second.pot, second.pot_stamp)


def test_R_SO01_R_S01_one_player_and_the_rival_use_the_two_player_setup() -> None:
    state = domain.new_game(1, solo="medium", seed=8)
    assert [p.name for p in state.players] == ["Player 1", domain.RIVAL_NAME]
    assert [p.automatic for p in state.players] == [False, True]
    in_play = set(state.board.decks.steward) | set(state.board.decks.diplomat)
    in_play |= {room.card for room in state.board.rooms if room.card}
    assert not in_play & DIAMOND_CARDS  # R-S02: the ♦ cards leave at 2 players
    board = state.board
    placed = sum(len(room.dice) for room in board.rooms) + sum(len(space.dice) for space in board.outside)
    assert sum(bridge.count() for bridge in board.bridges) + placed + len(board.well.dice) == 9  # R-S07


def test_R_SO01_the_player_draws_a_random_starting_pair_and_chooses_nothing() -> None:
    seen = set()
    for seed in range(12):
        state = domain.new_game(["Ana"], solo="easy", seed=seed)
        assert domain.prompt_of(state)["kind"] != "choose_start"
        player = state.players[HUMAN]
        assert player.action_card in {"A1", "A2", "A3"} and len(player.lantern) in (1, 2)
        seen.add((player.lantern[0], player.action_card))
    assert len(seen) > 3


def test_R_SO01_in_table_mode_the_recorder_enters_the_one_pair_dealt() -> None:
    state = domain.new_game(["Ana"], solo="easy", mode="table")
    targets = []
    while state.phase is Phase.SETUP:
        prompt = domain.prompt_of(state)
        assert prompt["kind"] not in ("stack_order", "choose_start")
        if prompt["kind"] == "reveal" and prompt["target"].startswith("offer_"):
            targets.append(prompt["target"])
        move = domain.legal_moves(state)[-1] if prompt["kind"] == "reveal" else domain.legal_moves(state)[0]
        state = domain.apply(state, move)
    assert targets == ["offer_0:resource", "offer_0:action"]
    assert state.players[HUMAN].lantern[0] == "SR9" and state.players[HUMAN].action_card == "A3"
    assert state.players[HUMAN].food == 4  # SR9: 4 food, 2 iron, 3 coins, 2 seals
    assert domain.prompt_of(state) == {"kind": "take_die", "seat": HUMAN}


def test_R_SO01_R_SO02_the_rival_has_no_board_no_resources_no_cards() -> None:
    state = solo_game("hard")
    rival = state.players[RIVAL]
    assert (rival.coins, rival.seals, rival.food, rival.iron, rival.pearl) == (0, 0, 0, 0, 0)
    assert (rival.courtiers, rival.gardeners, rival.warriors) == (5, 5, 5)
    assert rival.action_card is None and rival.lantern == () and rival.domain == (None, None, None)


def test_R_SO01_the_solo_deck_is_shuffled_bridge_side_up() -> None:
    state = solo_game("medium")
    assert state.solo is not None
    assert state.solo.deck == tuple(f"SO{i}" for i in range(1, 10)) and state.solo.line == ()
    prompt = domain.prompt_of(state)
    assert (prompt["kind"], prompt["seat"], prompt["automatic"]) == ("solo_card", None, True)
    assert sorted(move["card"] for move in domain.legal_moves(state)) == sorted(state.solo.deck)


def test_R_SO01_the_catalog_of_a_solo_game_holds_the_nine_solo_cards_flagged_unverified() -> None:
    catalog = domain.catalog_of(domain.new_game(["Ana"], solo="easy", seed=1))
    assert len(catalog["solo_cards"]) == 9
    for card in catalog["solo_cards"]:
        assert card["verified"] is False and "not published" in card["source"]
        assert {"bridge", "end", "space", "icons"} <= set(card)
    assert "solo_cards" not in domain.catalog_of(domain.new_game(2, seed=1))
    assert not load_catalog().solo_cards


def test_R_SO01_a_setup_overrides_a_solo_card() -> None:
    override = cards(
        SO2={"bridge": "white", "end": "right", "space": "outside_2", "icons": ["cp:3", "pot:2"]}
    )
    state = domain.new_game(["Ana"], solo="easy", seed=1, catalog=override)
    card = state.catalog.solo_cards["SO2"]
    assert (card.bridge, card.end, card.space, [str(i) for i in card.icons]) == (
        "white",
        "right",
        "outside_2",
        ["cp:3", "pot:2"],
    )
    assert len(state.catalog.solo_cards) == 9


@pytest.mark.parametrize(
    "override",
    [
        cards(SO1={"icons": ["lantern"]}),
        cards(SO1={"icons": ["ascent:3"]}),
        cards(SO1={"icons": ["warrior:4"]}),
        cards(SO1={"icons": ["gardener:rock"]}),
        cards(SO1={"space": "domain"}),
        cards(SO1={"end": "middle"}),
        cards(SO1={"bridge": "purple"}),
    ],
)
def test_R_SO05_a_solo_card_with_an_unknown_icon_or_space_is_refused(override: dict[str, Any]) -> None:
    with pytest.raises(domain.InvalidSetup):
        domain.new_game(["Ana"], solo="easy", seed=1, catalog=override)


def test_R_SO03_a_deck_that_wants_no_die_at_some_bridge_end_is_refused() -> None:
    # SO1 is the only card wanting the coral die at the left end
    with pytest.raises(domain.InvalidSetup) as error:
        domain.new_game(["Ana"], solo="easy", seed=1, catalog=cards(SO1={"end": "right"}))
    assert error.value.rule == "R-SO03" and error.value.details["unwanted"] == ["coral left"]


def test_R_SO06_a_solo_game_refuses_stacking_at_any_player_count() -> None:
    with pytest.raises(domain.InvalidSetup) as error:
        domain.new_game(["Ana"], solo="easy", seed=1, options={"stacking": "any_player_count"})
    assert error.value.rule == "R-SO06"
    state = domain.new_game(["Ana"], solo="easy", seed=1, options={"stacking": "never", "first_game": True})
    assert state.options.stacking == "never" and state.options.first_game


@pytest.mark.parametrize("players", [0, 2, ["Ana", "Bo"], "Ana", True, [""]])
def test_R_SO01_R_S01_a_solo_game_has_exactly_one_player(players: Any) -> None:
    with pytest.raises(domain.InvalidSetup) as error:
        domain.new_game(players, solo="easy", seed=1)
    assert error.value.rule == "R-S01"


@pytest.mark.parametrize("solo", ["", "expert", "Easy", 1])
def test_R_SO01_the_difficulty_is_easy_medium_or_hard(solo: Any) -> None:
    with pytest.raises(domain.InvalidSetup) as error:
        domain.new_game(["Ana"], solo=solo, seed=1)
    assert error.value.rule == "R-SO01"


def test_R_SO01_the_rival_scoring_option_belongs_to_the_solo_game() -> None:
    state = domain.new_game(["Ana"], solo="hard", seed=1, options={"rival_scoring": "cp_only"})
    assert state.solo is not None and state.solo.scoring == "cp_only"
    with pytest.raises(domain.InvalidSetup):
        domain.new_game(["Ana"], solo="hard", seed=1, options={"rival_scoring": "everything"})
    with pytest.raises(domain.InvalidSetup):
        domain.new_game(2, seed=1, options={"rival_scoring": "cp_only"})


def test_R_SO01_a_multiplayer_state_has_no_solo_keys() -> None:
    data = domain.state_to_dict(domain.new_game(2, seed=1))
    assert "solo" not in data and all("automatic" not in player for player in data["players"])
    solo = domain.state_to_dict(domain.new_game(["Ana"], solo="easy", seed=1))
    assert solo["solo"]["difficulty"] == "easy" and solo["players"][RIVAL]["automatic"] is True
    assert "automatic" not in solo["players"][HUMAN]
