"""Matcha setup (R-M01, with R-S07, R-S09, R-S10, R-S12): the expansion board, the green bridge, the
ceremony tokens under the starting pairs, and base games left exactly as they were."""

from __future__ import annotations

import pytest

import domain
from domain.catalog import catalog_from_dict, load_catalog
from domain.matcha.expansion import initial_board
from domain.vocabulary import MatchaColour

from ..helpers import table_game
from .helpers import MATCHA_STANDARD, advance_setup, board, matcha_standard, setup_answer


def test_R_M01_the_expansion_board_is_set_up_from_the_table() -> None:
    state = matcha_standard()
    matcha = board(state)
    assert matcha.pond == ("LP1", "LP2", "LP3")
    assert [(deck.id, deck.top) for deck in matcha.decks] == [("ikebana", "IK1"), ("calligraphy", "CA1")]
    assert [(room.id, room.token) for room in matcha.tea_house] == [
        ("tea_house_upper", "CT6"),
        ("tea_house_middle", "CT12"),
        ("tea_house_lower", "CT16"),
    ]
    assert matcha.platform_token == "CT13"
    assert matcha.entrance == matcha.platform == () and matcha.path == ((), ())
    # 10 tokens: 3 in the Tea House, 1 at the Viewing Platform, 4 under the starting pairs, 2 left in the box
    assert sorted(matcha.tokens) == ["CM10", "CM4"]
    assert len(matcha.lily_pads) == 5 and all(len(deck.rest) == 7 for deck in matcha.decks)


def test_R_M01_tea_house_tokens_show_their_yellow_face_and_the_others_their_blue_face() -> None:
    state = advance_setup(new_table(), lambda p: p.get("pool") == "ceremony")
    assert domain.prompt_of(state)["target"] == "tea_house_upper"
    faces = [move["card"] for move in domain.legal_moves(state)]
    assert faces == [f"CT{2 * k}" for k in range(1, 11)]  # yellow: the right-hand faces
    for _ in range(3):
        state = domain.apply(state, domain.legal_moves(state)[0])
    assert domain.prompt_of(state)["target"] == "viewing_platform"
    faces = [move["card"] for move in domain.legal_moves(state)]
    assert faces == [f"CT{2 * k - 1}" for k in range(4, 11)]  # blue faces of the 7 tokens left


def test_R_M01_a_face_of_a_token_already_on_the_board_is_refused() -> None:
    state = advance_setup(new_table(), lambda p: p.get("target") == "tea_house_upper")
    state = domain.apply(state, {"kind": "reveal", "seat": None, "pool": "ceremony", "card": "CT6"})
    state = advance_setup(state, lambda p: p.get("target") == "viewing_platform")
    with pytest.raises(domain.IllegalMove) as error:  # CT5 is the other face of CT6's token
        domain.apply(state, {"kind": "reveal", "seat": None, "pool": "ceremony", "card": "CT5"})
    assert error.value.rule == "R-M01"
    assert "CT5" not in error.value.details["left"]


def test_R_M01_two_players_remove_the_diamond_ikebana_and_calligraphy_cards() -> None:
    two = domain.new_game(2, seed=3, expansions=["matcha"])
    three = domain.new_game(3, seed=3, expansions=["matcha"])
    cards = {deck.id: {deck.top, *deck.rest} for deck in board(two).decks}
    assert cards == {
        "ikebana": {f"IK{i}" for i in range(1, 7)},
        "calligraphy": {f"CA{i}" for i in range(1, 7)},
    }
    assert sum(len(deck.rest) + 1 for deck in board(three).decks) == 16


def test_R_M01_first_game_puts_the_rulebooks_tile_on_the_lower_yard() -> None:
    state = domain.new_game(3, seed=4, options={"first_game": True}, expansions=["matcha"])
    yard_3 = next(yard for yard in state.board.yards if yard.id == "yard_3")
    assert yard_3.yellow == "Y9"
    assert "Y9" not in state.board.decks.yard_tiles


def test_R_M01_geishas_on_the_clan_board_and_the_whisk_cube_at_zero_R_S10() -> None:
    state = matcha_standard()
    for player in state.players:
        assert (player.geishas, player.whisks, player.courtiers, player.gardeners, player.warriors) == (
            5,
            0,
            5,
            5,
            5,
        )
        assert len(player.domain) == 4  # the clan board's fourth row is the green one


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R_S07_n_plus_one_green_dice_on_the_green_bridge_ascending_from_the_lantern_end(players: int) -> None:
    state = domain.new_game(players, seed=players, expansions=["matcha"])
    green = state.board.bridges[-1]
    assert green.colour is MatchaColour.GREEN and green.count() == players + 1
    values = [green.left, *green.middle, green.right]
    assert values == sorted(values)  # type: ignore[type-var]
    assert [slot.bridge for slot in state.board.gardens].count("green") == 0  # the Viewing Platform instead


def test_R_S09_the_four_matcha_yard_tiles_are_shuffled_with_the_eight_base_ones() -> None:
    state = advance_setup(new_table(), lambda p: p.get("pool") == "yard_tiles")
    assert [move["card"] for move in domain.legal_moves(state)] == [f"Y{i}" for i in range(1, 13)]


def test_R_S12_a_ceremony_token_lies_under_each_starting_pair_and_goes_with_it_to_the_clan_board() -> None:
    state = _at_choice()
    assert [pair.token for pair in state.board.offer] == ["CT9", "CT1", "CT3", "CT17"]
    move = {"kind": "choose_start", "seat": 2, "resource": "SR8"}
    assert domain.describe(state, move).endswith(
        "SR8 + A1 with ceremony token CT17; gains 4 coins, 1 seal, 2 food, 2 iron and 1 pearl"
    )
    state = domain.apply(state, move)
    assert state.players[2].ceremony == "CT17"
    assert state.board.offer[3].token is None
    state = matcha_standard()
    assert [player.ceremony for player in state.players] == ["CT9", "CT1", "CT3"]


def _at_choice() -> domain.GameState:
    state = new_table()
    while domain.prompt_of(state)["kind"] != "choose_start":
        prompt = domain.prompt_of(state)
        move = setup_answer(state)
        if prompt["kind"] == "reveal" and prompt["target"] in MATCHA_STANDARD:
            move = {**move, "card": MATCHA_STANDARD[prompt["target"]]}
        state = domain.apply(state, move)
    return state


def new_table(players: int = 3) -> domain.GameState:
    return domain.new_game(players, mode="table", expansions=["matcha"])


def test_R_M01_the_expansions_are_checked() -> None:
    for wrong in (["tokugawa"], ["matcha", "matcha"], "matcha", [3]):
        with pytest.raises(domain.InvalidSetup):
            domain.new_game(2, seed=1, expansions=wrong)  # type: ignore[arg-type]
    assert domain.expansions_of(domain.new_game(2, seed=1)) == ()
    assert domain.expansions_of(domain.new_game(2, seed=1, expansions=["matcha"])) == ("matcha",)


def test_a_base_game_has_no_matcha_in_its_state_catalog_or_bridges() -> None:
    state = table_game(3)
    data = domain.state_to_dict(state)
    assert "matcha" not in data["board"] and "expansions" not in data["rules"]
    assert not {"whisks", "geishas", "ceremony"} & set(data["players"][0])
    assert "matcha" not in data["catalog"] and len(data["catalog"]["yard_tiles"]) == 8
    assert [bridge["colour"] for bridge in data["board"]["bridges"]] == ["coral", "black", "white"]
    assert all(
        "token" not in pair
        for pair in domain.state_to_dict(domain.new_game(2, mode="table"))["board"]["offer"]
    )


def test_a_base_game_refuses_matcha_symbols_and_a_matcha_catalog_needs_the_expansion() -> None:
    with pytest.raises(domain.InvalidSetup):
        domain.new_game(2, seed=1, catalog={"gardens": [{"id": "SG1", "effects": ["geisha"]}]})
    with pytest.raises(domain.InvalidSetup):
        domain.new_game(2, seed=1, catalog={"yard_tiles": [{"id": "Y1", "yellow": ["whisk:2"]}]})
    matcha_catalog = domain.catalog_of(domain.new_game(2, seed=1, expansions=["matcha"]))
    with pytest.raises(domain.InvalidSetup):
        domain.new_game(2, seed=1, catalog=matcha_catalog)
    assert (
        domain.new_game(2, seed=1, catalog=matcha_catalog, expansions=["matcha"]).catalog.matcha is not None
    )


def test_the_demo_plays_matcha() -> None:
    from domain.demo import demo

    text = demo(3, seed=2, expansions=("matcha",))
    assert text.startswith("The White Castle: Matcha: a seeded demo game, 3 players")
    assert "Geishas" in text and "[4]" in text


def test_the_solo_game_with_matcha_is_played_against_the_tokugawa_clan() -> None:
    """R-TK01: a solo game with Matcha sets up the Tokugawa rival (tests/unit/domain/tokugawa/ for the rest)."""
    state = domain.new_game(["Ana"], solo="easy", seed=1, expansions=["matcha"])
    assert state.solo is not None and state.board.matcha is not None
    assert domain.prompt_of(state) == {"kind": "choose_start_cards", "seat": 0}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R_M01_the_ceremony_tokens_needed_are_three_for_the_tea_house_one_for_the_platform_one_per_pair(
    players: int,
) -> None:
    """R-M01 (with R-S12: one starting pair more than the players): a catalog with exactly enough ceremony tokens
    is set up, one token fewer is refused."""
    full = load_catalog(expansions=("matcha",)).to_dict()
    needed = 3 + 1 + (players + 1)
    for count in (needed, needed - 1):
        data = {**full, "ceremony_tokens": full["ceremony_tokens"][:count]}
        catalog = catalog_from_dict(data)
        if count == needed:
            assert len(initial_board(catalog, players).tokens) == needed
        else:
            with pytest.raises(domain.InvalidSetup, match="ceremony tokens") as error:
                initial_board(catalog, players)
            assert error.value.rule == "R-M01"


def test_R_M01_the_token_of_the_pair_nobody_took_goes_back_to_the_box() -> None:
    """MA has each player take a pair and its token, and says nothing of the last pair's: it leaves the game with
    the pair (R-S12), on no clan board and nowhere on the board."""
    state = _at_choice()
    assert [pair.token for pair in state.board.offer][3] == "CT17"
    state = matcha_standard()  # seats 2, 1 and 0 took the pairs of CT3, CT1 and CT9
    matcha = state.board.matcha
    assert matcha is not None and state.board.offer == ()
    assert "CT17" not in {player.ceremony for player in state.players}
    assert "CT17" not in {room.token for room in matcha.tea_house} | {matcha.platform_token}
    assert "CM9" not in matcha.tokens  # CT17's token is not among those still to deal either
