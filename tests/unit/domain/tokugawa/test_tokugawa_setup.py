"""The Tokugawa setup (R-TK01): 2 starting cards of each kind and 2 ceremony tokens to choose 1 of each from,
the 3 Tokugawa cards in the solo deck, the deck check over the green bridge; what the setup refuses."""

from __future__ import annotations

from typing import Any

import pytest

import domain
from domain.catalog import load_catalog
from domain.vocabulary import Phase

from ..matcha.helpers import setup_answer
from ..solo_helpers import cards
from .helpers import HUMAN, RIVAL, answers_of, tokugawa_game


def test_R_TK01_the_player_chooses_one_of_two_starting_resources_actions_and_tokens() -> None:
    state = domain.new_game(["Ana"], solo="medium", seed=10, expansions=["matcha"])
    prompt = domain.prompt_of(state)
    assert prompt == {"kind": "choose_start_cards", "seat": HUMAN}
    offer = state.board.offer
    assert len(offer) == 2 and all(p.resource and p.action and p.token for p in offer)
    moves = answers_of(state, "choose_start_cards")
    resources = {pair.resource for pair in offer if pair.resource}
    actions = {pair.action for pair in offer if pair.action}
    tokens = {pair.token for pair in offer if pair.token}
    assert len(moves) == len(resources) * len(actions) * len(tokens) and len(resources) == len(tokens) == 2
    # the cards are chosen one of each kind, not as the pairs they were dealt in
    resource, action, token = sorted(resources)[0], sorted(actions)[-1], sorted(tokens)[-1]
    move = {
        "kind": "choose_start_cards",
        "seat": HUMAN,
        "resource": resource,
        "action": action,
        "token": token,
    }
    assert move in moves
    after = domain.apply(state, move)
    player = after.players[HUMAN]
    assert (player.lantern[0], player.action_card, player.ceremony) == (resource, action, token)
    assert after.phase is Phase.TURNS and after.board.offer == ()


def test_R_TK01_the_resource_card_chosen_gives_its_items_and_decree() -> None:
    state = tokugawa_game("easy", choice={"resource": "SR9", "action": "A4", "token": "CT3"})
    player = state.players[HUMAN]
    assert (player.food, player.iron, player.coins, player.seals) == (4, 2, 3, 2)  # SR9
    assert player.lantern == ("SR9",) and player.action_card == "A4" and player.ceremony == "CT3"
    rival = state.players[RIVAL]
    assert rival.ceremony is None and rival.action_card is None and rival.geishas == 5 and rival.whisks == 0


def test_R_TK01_R_S12_a_resource_card_with_a_decree_brings_its_decree_to_the_lantern_area() -> None:
    state = tokugawa_game(
        "easy",
        answers={"offer_1:resource": "SR1"},
        choice={"resource": "SR1", "action": "A4", "token": "CT3"},
    )
    assert state.players[HUMAN].lantern == ("SR1", "DC1")  # SR1 carries Decree DC1


def test_R_TK01_a_choice_outside_what_was_dealt_is_refused_with_its_rule() -> None:
    state = domain.new_game(["Ana"], solo="easy", seed=5, expansions=["matcha"])
    legal = answers_of(state, "choose_start_cards")[0]
    for field, wrong in (("resource", "SR99"), ("action", "A9"), ("token", "CT99")):
        with pytest.raises(domain.IllegalMove) as error:
            domain.apply(state, {**legal, field: wrong})
        assert error.value.rule == "R-TK01" and error.value.details[field] == wrong


def test_R_TK01_in_table_mode_the_recorder_enters_the_six_deals() -> None:
    state = domain.new_game(["Ana"], solo="easy", mode="table", expansions=["matcha"])
    targets = []
    while domain.prompt_of(state)["kind"] != "choose_start_cards":
        prompt = domain.prompt_of(state)
        assert prompt["kind"] not in ("stack_order", "choose_start", "solo_start")
        if prompt["kind"] == "reveal" and prompt["target"].startswith("offer_"):
            targets.append(prompt["target"])
        state = domain.apply(state, setup_answer(state))
    assert targets == [f"offer_{i}:{side}" for i in (0, 1) for side in ("resource", "action", "token")]


def test_R_TK01_the_three_tokugawa_cards_join_the_solo_deck_flagged_unverified() -> None:
    state = tokugawa_game("medium")
    assert state.solo is not None
    assert state.solo.deck == (*(f"SO{i}" for i in range(1, 10)), "TK1", "TK2", "TK3")
    assert sorted(move["card"] for move in domain.legal_moves(state)) == sorted(state.solo.deck)
    catalog = domain.catalog_of(state)
    tokugawa = [card for card in catalog["solo_cards"] if card["id"].startswith("TK")]
    assert len(tokugawa) == 3 and catalog["tokugawa_cards_verified"] is False
    for card in tokugawa:
        assert card["verified"] is False and "invented stand-in" in card["source"]
        assert card["bridge"] == "green"
    # nowhere else: not in a base solo game, not in a multiplayer Matcha game
    assert len(load_catalog(solo=True).solo_cards) == 9
    assert not load_catalog(expansions=("matcha",)).solo_cards


def test_R_TK01_the_deck_must_want_both_ends_of_the_green_bridge() -> None:
    """R-SO03's deck check covers the green bridge: TK1 is the only card wanting the green die at the left."""
    with pytest.raises(domain.InvalidSetup) as error:
        domain.new_game(
            ["Ana"], solo="easy", seed=1, expansions=["matcha"], catalog=cards(TK1={"end": "right"})
        )
    assert error.value.rule == "R-SO03" and error.value.details["unwanted"] == ["green left"]


def test_R_TK01_a_setup_overrides_a_tokugawa_card() -> None:
    override = cards(
        TK2={"space": "himeji_lower", "icons": ["geisha:path_1", "lose_pot:1"], "verified": True}
    )
    state = domain.new_game(["Ana"], solo="hard", seed=1, expansions=["matcha"], catalog=override)
    card = state.catalog.solo_cards["TK2"]
    assert (card.space, [str(icon) for icon in card.icons]) == (
        "himeji_lower",
        ["geisha:path_1", "lose_pot:1"],
    )


@pytest.mark.parametrize(
    "icons", [["geisha:entrance"], ["lose_cp:2"], ["lose_coin:all"], ["lose_pot:1"], ["discard"], ["advance"]]
)
def test_R_TK01_a_base_solo_game_refuses_the_tokugawa_icons(icons: list[str]) -> None:
    with pytest.raises(domain.InvalidSetup):
        domain.new_game(["Ana"], solo="easy", seed=1, catalog=cards(SO1={"icons": icons}))


@pytest.mark.parametrize(
    "override",
    [
        cards(SO1={"space": "tea_room"}),
        cards(SO1={"space": "tea_room_left"}),
        cards(SO1={"bridge": "green"}),
    ],
)
def test_R_TK04_a_base_solo_game_refuses_the_matcha_spaces_and_dice(override: dict[str, Any]) -> None:
    with pytest.raises(domain.InvalidSetup):
        domain.new_game(["Ana"], solo="easy", seed=1, catalog=override)


@pytest.mark.parametrize(
    "icons",
    [["geisha:platform"], ["geisha"], ["lose_cp:0"], ["lose_coin:most"], ["advance:path_3"], ["discard:2"]],
)
def test_R_TK05_a_malformed_tokugawa_icon_is_refused(icons: list[str]) -> None:
    with pytest.raises(domain.InvalidSetup):
        domain.new_game(
            ["Ana"], solo="easy", seed=1, expansions=["matcha"], catalog=cards(TK1={"icons": icons})
        )


def test_R_TK01_R_SO01_the_difficulty_applies_as_in_the_base_solo_game() -> None:
    for difficulty, cp, first, pot in (("easy", 0, HUMAN, 0), ("medium", 3, RIVAL, 1), ("hard", 8, RIVAL, 3)):
        state = domain.new_game(["Ana"], solo=difficulty, seed=2, expansions=["matcha"])
        rival = state.players[RIVAL]
        assert (rival.cp, rival.pot, state.turn_order[0]) == (cp, pot, first)
        assert state.rules.turns_per_round == 4 and len(state.board.bridges) == 4


def test_R_TK01_R_SO06_dice_never_stack_in_a_tokugawa_game() -> None:
    with pytest.raises(domain.InvalidSetup) as error:
        domain.new_game(
            ["Ana"], solo="easy", seed=1, expansions=["matcha"], options={"stacking": "any_player_count"}
        )
    assert error.value.rule == "R-SO06"
