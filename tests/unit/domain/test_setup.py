"""Setup (R-S01..R-S12): the deals, the chance prompts of table mode, the seeded draws, starting pairs."""

from __future__ import annotations

import functools
import random

import pytest

import domain
from domain.areas import castle
from domain.vocabulary import Colour, Phase

from .helpers import advance_to, answers_of, default_answer, play, table_game

DIAMOND_STEWARDS = {"S1", "S3", "S6", "S8", "S11", "S14"}
DIAMOND_DIPLOMATS = {"D1", "D9", "D12"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R_S01_two_to_four_players_set_up(players: int) -> None:
    state = domain.new_game(players, seed=5)
    assert len(state.players) == players
    assert state.phase is Phase.SETUP
    assert domain.prompt_of(state)["kind"] == "choose_start"


@pytest.mark.parametrize("players", [0, 5, ["a"] * 6, 2.5, None, True])
def test_R_S01_other_player_counts_are_refused(players: object) -> None:
    with pytest.raises(domain.InvalidSetup) as error:
        domain.new_game(players)  # type: ignore[arg-type]
    assert error.value.rule == "R-S01"


def test_R_S01_solo_is_refused_until_the_rival_exists() -> None:
    with pytest.raises(domain.InvalidSetup, match="rival") as error:
        domain.new_game(1, seed=1)
    assert error.value.rule == "R-S01"


def test_R_S01_player_names_are_labels() -> None:
    state = domain.new_game(["Ana", "Bo"], seed=1)
    assert [p.name for p in state.players] == ["Ana", "Bo"]


def test_R_S02_two_players_remove_the_diamond_cards() -> None:
    state = domain.new_game(2, seed=3)
    in_play = set(state.board.decks.steward) | set(state.board.decks.diplomat)
    in_play |= {room.card for room in state.board.rooms if room.card}
    assert not in_play & (DIAMOND_STEWARDS | DIAMOND_DIPLOMATS)
    assert len(in_play) == 9 + 9


def test_R_S02_three_players_keep_the_diamond_cards() -> None:
    state = domain.new_game(3, seed=3)
    in_play = set(state.board.decks.steward) | set(state.board.decks.diplomat)
    in_play |= {room.card for room in state.board.rooms if room.card}
    assert len(in_play) == 15 + 12


def test_R_S03_one_card_per_room_and_the_rest_in_decks() -> None:
    state = domain.new_game(3, seed=9)
    stewards = [room.card for room in state.board.rooms if room.id.startswith("steward")]
    diplomats = [room.card for room in state.board.rooms if room.id.startswith("diplomat")]
    assert all(card and card.startswith("S") for card in stewards) and len(stewards) == 3
    assert all(card and card.startswith("D") for card in diplomats) and len(diplomats) == 2
    assert len(state.board.decks.steward) == 12 and len(state.board.decks.diplomat) == 10


def test_R_S03_same_dark_action_everywhere_reshuffles_and_redeals() -> None:
    state = domain.new_game(3, mode="table")
    for room, card in [("steward_1", "S1"), ("steward_2", "S2"), ("steward_3", "S3"), ("diplomat_1", "D1")]:
        assert domain.prompt_of(state)["target"] == room
        state = domain.apply(
            state, {"kind": "reveal", "seat": None, "pool": room.split("_")[0], "card": card}
        )
    state = domain.apply(state, {"kind": "reveal", "seat": None, "pool": "diplomat", "card": "D2"})
    # every card showed a dark Courtier action: all five go back and the deal starts again
    assert domain.prompt_of(state) == {
        "kind": "reveal",
        "seat": None,
        "pool": "steward",
        "target": "steward_1",
    }
    assert all(room.card is None for room in state.board.rooms)
    assert {"S1", "S2", "S3"} <= set(state.board.decks.steward)


def test_R_S03_a_redeal_is_said_in_the_log_and_under_the_prompt() -> None:
    """Dealt again, the castle asks for steward room 1 once more with its rooms empty: the move that caused it
    and the prompts of the new deal say so, and why, else the page seems to go round in a loop."""
    state = domain.new_game(3, mode="table")
    deals = [("steward", "S1"), ("steward", "S2"), ("steward", "S3"), ("diplomat", "D1")]
    for pool, card in deals:
        move = {"kind": "reveal", "seat": None, "pool": pool, "card": card}
        assert "dealt again" not in domain.describe(state, move)
        assert domain.prompt_help(state) == ""
        state = domain.apply(state, move)
    last = {"kind": "reveal", "seat": None, "pool": "diplomat", "card": "D2"}
    assert domain.describe(state, last) == (
        "Chance: diplomat card D2 is revealed for diplomat room 2; all 5 castle cards show the same "
        "dark-background action (a Courtier action): they go back into their decks, shuffled, and the castle "
        "is dealt again (R-S03)"
    )
    state = domain.apply(state, last)
    assert domain.prompt_text(state) == "Chance: which steward card was revealed for steward room 1?"
    help_ = domain.prompt_help(state)
    assert help_.startswith("The castle is dealt again (R-S03): every castle card revealed showed the same ")
    assert "shuffled" in help_
    # said through the whole new deal, not after it (the Daimyo card is no castle card)
    for pool, card in [("steward", "S4"), ("steward", "S5"), ("steward", "S6"), ("diplomat", "D3")]:
        state = domain.apply(state, {"kind": "reveal", "seat": None, "pool": pool, "card": card})
        assert domain.prompt_help(state) == help_
    state = domain.apply(state, {"kind": "reveal", "seat": None, "pool": "diplomat", "card": "D4"})
    assert domain.prompt_of(state)["pool"] == "daimyo"
    assert domain.prompt_help(state) == ""


def test_R_S03_a_deal_kept_says_nothing_of_a_redeal() -> None:
    state = domain.new_game(3, mode="table")
    for pool, card in [("steward", "S1"), ("steward", "S2"), ("steward", "S4"), ("diplomat", "D1")]:
        state = domain.apply(state, {"kind": "reveal", "seat": None, "pool": pool, "card": card})
    last = {"kind": "reveal", "seat": None, "pool": "diplomat", "card": "D2"}
    assert domain.describe(state, last) == "Chance: diplomat card D2 is revealed for diplomat room 2"
    assert domain.prompt_help(domain.apply(state, last)) == ""


def test_R_S03_a_card_outside_the_catalog_never_counts_as_a_redeal() -> None:
    # describe words reveal moves with this: an unknown card id must be a plain "no", not a crash
    state = domain.new_game(3, mode="table")
    assert castle.dealt_again_by(state, "S99") is False


def test_R_S03_different_dark_actions_keep_the_deal() -> None:
    state = table_game(3, answers={"steward_1": "S1", "steward_2": "S2", "steward_3": "S4"})
    assert [room.card for room in state.board.rooms][:3] == ["S1", "S2", "S4"]


def test_R_S03_table_mode_refuses_a_card_no_longer_in_the_deck() -> None:
    state = domain.new_game(3, mode="table")
    state = domain.apply(state, {"kind": "reveal", "seat": None, "pool": "steward", "card": "S5"})
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "reveal", "seat": None, "pool": "steward", "card": "S5"})
    assert error.value.rule == "R-S03"
    with pytest.raises(domain.IllegalMove):
        domain.apply(state, {"kind": "reveal", "seat": None, "pool": "diplomat", "card": "D4"})


def test_R_S03_two_player_table_mode_refuses_a_diamond_card() -> None:
    state = domain.new_game(2, mode="table")
    with pytest.raises(domain.IllegalMove):
        domain.apply(state, {"kind": "reveal", "seat": None, "pool": "steward", "card": "S1"})


def test_R_S04_one_random_daimyo_card_with_free_spots() -> None:
    state = domain.new_game(4, seed=2)
    assert state.board.daimyo.card in state.catalog.daimyo
    assert state.board.daimyo.spots == (None, None, None)


def test_R_S05_diamond_spaces_hold_one_tile_of_each_colour_and_rooms_two_colours() -> None:
    for seed in range(40):
        state = domain.new_game(3, seed=seed)
        rooms = {room.id: room for room in state.board.rooms}
        diamonds = {rooms[r].tiles[p] for r, p in state.catalog.diamond_spaces}
        assert diamonds == set(Colour)
        for room in state.board.rooms:
            assert None not in room.tiles and len(set(room.tiles)) >= 2, (seed, room)
        assert len(state.board.well.tiles) == 2
        castle = [t for room in state.board.rooms for t in room.tiles]
        well = [state.catalog.die_tiles[t].colour for t in state.board.well.tiles]
        for colour in Colour:
            assert castle.count(colour) + well.count(colour) == 5


def test_R_S05_a_last_tile_that_would_make_its_room_one_colour_moves_to_the_next_space() -> None:
    state = domain.new_game(3, mode="table")
    state = advance_to(state, "die_tile")
    # diamond spaces (first tile of each steward room): coral, black, then white with no other choice left
    for colour in ("coral", "black"):
        state = domain.apply(state, {"kind": "die_tile", "seat": None, "colour": colour})
    assert [room.tiles[0] for room in state.board.rooms[:3]] == [Colour.CORAL, Colour.BLACK, Colour.WHITE]
    # spaces 1-5: the second tile of each steward room, the first of each diplomat room
    for colour in ("coral", "black", "white", "coral", "black"):
        state = domain.apply(state, {"kind": "die_tile", "seat": None, "colour": colour})
    # space 6 closes steward_1 (coral, coral): a coral tile would leave it one colour, so it goes on
    state = domain.apply(state, {"kind": "die_tile", "seat": None, "colour": "coral"})
    rooms = {room.id: room.tiles for room in state.board.rooms}
    assert rooms["steward_1"][2] is None
    assert rooms["steward_2"] == (Colour.BLACK, Colour.BLACK, Colour.CORAL)
    state = domain.apply(state, {"kind": "die_tile", "seat": None, "colour": "white"})
    assert {room.id: room.tiles for room in state.board.rooms}["steward_1"][2] is Colour.WHITE


def castle_tiles(state: domain.GameState) -> dict[str, tuple[str, ...]]:
    return {
        room.id: tuple(tile.value for tile in room.tiles if tile is not None) for room in state.board.rooms
    }


def die_tiles_drawn(players: int, seed: int, rules_version: str) -> list[dict]:
    """The castle tiles a seeded game draws, in order (the setup's die_tile chance moves)."""
    fresh = domain.new_game(players, seed=seed, draw=False, rules_version=rules_version)
    return [move for move in domain.resolve_chance(fresh).chance if move["kind"] == "die_tile"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R_S05_every_room_of_the_seeded_deal_of_seed_94_holds_two_colours(players: int) -> None:
    """Seed 94 is the first whose deal, looking one tile ahead only (rules 0.1.0), closed diplomat room 2 with
    two white tiles; decision C.9 draws again the tile that left no way out, and a game recorded under 0.1.0
    keeps the deal it had."""
    rooms = castle_tiles(domain.new_game(players, seed=94))
    assert all(len(set(tiles)) >= 2 for tiles in rooms.values()), rooms
    assert castle_tiles(domain.new_game(players, seed=94, rules_version="0.1.0"))["diplomat_2"] == (
        "white",
        "white",
    )


def test_R_S05_decision_C9_changes_a_seeded_deal_only_where_it_left_a_room_one_colour() -> None:
    """The first draw is the one rules 0.1.0 made, and it is drawn again only when it left no way to two
    colours in every room: every other seed deals its castle, and the rest of its setup, as before. (Under
    0.3.0, the last rules drawing from 0.1.0's generator: 0.4.0 deals every seed otherwise.)"""
    for seed in range(120):
        before = domain.new_game(2, seed=seed, draw=False, rules_version="0.1.0")
        now = domain.new_game(2, seed=seed, draw=False, rules_version="0.3.0")
        old, new = domain.resolve_chance(before), domain.resolve_chance(now)
        if all(len(set(tiles)) >= 2 for tiles in castle_tiles(old.state).values()):
            assert new.chance == old.chance, seed
        else:
            assert seed in (94,) and new.chance != old.chance


def test_R_S05_table_mode_refuses_a_tile_that_leaves_no_way_to_two_colours_in_every_room() -> None:
    """The tiles rules 0.1.0 drew for seed 94, entered at a table: the coral tile for space 9 would leave the bag 3
    white tiles for diplomat room 2's last space, which holds a white one already: refused, and only white
    answers (decision C.9)."""
    tiles = [move["colour"] for move in die_tiles_drawn(2, 94, "0.1.0")]
    state = advance_to(domain.new_game(2, mode="table"), "die_tile")
    for colour in tiles:
        if domain.prompt_of(state)["kind"] != "die_tile":
            break
        move = {"kind": "die_tile", "seat": None, "colour": colour}
        if move not in domain.legal_moves(state):
            break
        state = domain.apply(state, move)
    assert [move["colour"] for move in domain.legal_moves(state)] == ["white"]
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "die_tile", "seat": None, "colour": "coral"})
    assert error.value.rule == "R-S05"
    assert error.value.message == (
        "a coral die tile now would leave no way to finish the castle with two colours in every room (the bag "
        "would then hold 3 white for the 1 castle space left): put it back into the bag and draw another "
        "(decision C.9)"
    )
    state = domain.apply(state, {"kind": "die_tile", "seat": None, "colour": "white"})
    state = advance_to(state, "well_tile")
    assert all(len(set(tiles)) >= 2 for tiles in castle_tiles(state).values())


def test_R_S05_a_table_game_of_rules_0_1_0_keeps_the_layout_it_recorded() -> None:
    """A game recorded under rules 0.1.0 is rebuilt under them (its first event stores them): the layout it
    was allowed then is allowed still."""
    state = advance_to(domain.new_game(2, mode="table", rules_version="0.1.0"), "die_tile")
    for move in die_tiles_drawn(2, 94, "0.1.0"):
        state = domain.apply(state, move)
    assert castle_tiles(state)["diplomat_2"] == ("white", "white")


def test_R_S05_a_die_tile_is_accepted_exactly_when_it_is_listed() -> None:
    """Applying a die tile asks about its own colour (`castle.die_tile_valid`), listing asks about every colour:
    over random table deals, the deal of seed 94 under rules 0.1.0 (and entered unchecked under the current
    rules), and a deal entered unchecked into a castle that can no longer be finished with two colours in every
    room (where R-S05 alone decides, two colours fitting), both agree on every colour."""
    rng = random.Random(8)
    old = [move["colour"] for move in die_tiles_drawn(2, 94, "0.1.0")]
    stuck = [
        "coral",
        "white",
        "black",
        "coral",
        "coral",
        "black",
        "black",
        "white",
        "coral",
        "white",
        "black",
    ]
    deals = [(version, None) for version in ("0.1.0", domain.RULES_VERSION) for _ in range(15)]
    deals += [(domain.RULES_VERSION, old), ("0.1.0", old), (domain.RULES_VERSION, stuck)]
    for version, script in deals:
        state = advance_to(domain.new_game(2, mode="table", rules_version=version), "die_tile")
        tiles = list(script or [])
        while domain.prompt_of(state)["kind"] == "die_tile":
            listed = domain.legal_moves(state)
            for colour in ("coral", "black", "white", "green"):
                move = {"kind": "die_tile", "seat": None, "colour": colour}
                try:
                    domain.apply(state, move)
                except domain.DomainError:
                    assert move not in listed, (version, colour)
                else:
                    assert move in listed, (version, colour)
            move = {"kind": "die_tile", "seat": None, "colour": tiles.pop(0)} if tiles else rng.choice(listed)
            state = domain.apply(state, move, check=False)


@pytest.mark.parametrize(
    ("colour", "words"),
    [
        ("green", "die tiles are coral, black, white, not 'green'"),
        ("coral", "the 3 ♦ spaces hold one die tile of each colour, and a coral one lies on one already"),
    ],
)
def test_R_S05_a_refused_die_tile_says_why(colour: str, words: str) -> None:
    state = advance_to(domain.new_game(3, mode="table"), "die_tile")
    state = domain.apply(state, {"kind": "die_tile", "seat": None, "colour": "coral"})
    with pytest.raises(domain.DomainError) as error:
        domain.apply(state, {"kind": "die_tile", "seat": None, "colour": colour})
    assert error.value.message == words


def test_R_S05_an_empty_colour_is_refused_with_what_the_bag_holds() -> None:
    state = advance_to(domain.new_game(3, mode="table"), "die_tile")
    # the diamond spaces take coral, black and (the only colour left for them) white; then the 4 other corals
    for colour in ("coral", "black", "coral", "coral", "coral", "coral"):
        state = domain.apply(state, {"kind": "die_tile", "seat": None, "colour": colour})
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "die_tile", "seat": None, "colour": "coral"})
    assert (error.value.rule, error.value.message) == (
        "R-S05",
        "no coral die tile is left in the bag (it holds 4 black, 4 white)",
    )


@functools.cache
def finishes_by_drawing(layout: tuple, order: tuple, bag: tuple[str, ...]) -> bool:
    """The reference for decision C.9: some order of drawing the bag's tiles (sorted), each laid by R-S05's
    procedure (`castle._target`: the next ♦ space, else the first free space it fits), fills the castle with
    two colours in every room. A plain search over the draws, the ♦ spaces taking colours not on them yet."""
    if all(None not in tiles for tiles in layout):
        return all(len(set(tiles)) > 1 for tiles in layout)
    on_diamonds = {layout[r][p] for r, p, diamond in order if diamond}
    diamond_next = next(diamond for r, p, diamond in order if layout[r][p] is None)
    for colour in sorted(set(bag)):
        if diamond_next and colour in on_diamonds:
            continue
        target = castle._target(layout, order, Colour(colour))
        if target is None:
            continue
        r, p = target
        tiles = (*layout[r][:p], Colour(colour), *layout[r][p + 1 :])
        rest = list(bag)
        rest.remove(colour)
        if finishes_by_drawing((*layout[:r], tiles, *layout[r + 1 :]), order, tuple(rest)):
            return True
    return False


def test_R_S05_the_castle_can_be_finished_exactly_when_some_order_of_draws_finishes_it() -> None:
    """Decision C.9's check counts what each room still needs (`castle._can_finish`) instead of trying every
    order of draws: on random castles and bags, of every kind (one-colour rooms, short bags), both agree."""
    state = advance_to(domain.new_game(3, mode="table"), "die_tile")
    order = castle._order(state)
    sizes = [len(room.tiles) for room in state.board.rooms]
    rng = random.Random(5)
    outcomes = set()
    for _ in range(1500):
        layout = [[None] * size for size in sizes]
        for r, p, _ in order[: rng.randrange(len(order) + 1)]:
            layout[r][p] = rng.choice(list(Colour))
        castle_now = tuple(tuple(tiles) for tiles in layout)
        bag = tuple(colour.value for colour in Colour for _ in range(rng.randrange(5)))
        expected = finishes_by_drawing(castle_now, order, tuple(sorted(bag)))
        assert castle._can_finish(castle_now, order, bag) is expected, (castle_now, bag)
        outcomes.add(expected)
    assert outcomes == {True, False}


def test_a_rules_version_this_engine_does_not_play_is_refused() -> None:
    assert domain.RULES_VERSIONS[-1] == domain.RULES_VERSION
    with pytest.raises(domain.InvalidSetup, match=r"rules versions 0\.1\.0, 0\.2\.0"):
        domain.new_game(2, seed=1, rules_version="9.9.9")


def test_R_S05_the_well_tiles_lie_reward_side_up_from_what_the_bag_still_holds() -> None:
    state = domain.new_game(3, mode="table")
    state = advance_to(state, "well_tile")
    offered = {move["tile"] for move in domain.legal_moves(state)}
    bag = set(state.board.decks.die_tiles)
    assert offered == {t.id for t in state.catalog.die_tiles.values() if t.colour in bag}
    tile = sorted(offered)[0]
    state = domain.apply(state, {"kind": "well_tile", "seat": None, "tile": tile})
    assert state.board.well.tiles == (tile,)


def test_R_S05_the_last_two_tiles_go_to_the_well_and_no_third_is_asked() -> None:
    state = advance_to(domain.new_game(3, mode="table"), "well_tile")
    for _ in range(2):
        assert domain.prompt_of(state)["kind"] == "well_tile"
        state = domain.apply(state, domain.legal_moves(state)[0])
    assert len(state.board.well.tiles) == 2
    assert state.board.decks.die_tiles == ()  # they were the bag's last two
    assert domain.prompt_of(state)["kind"] != "well_tile"


def test_R_S06_the_round_marker_starts_on_one() -> None:
    assert domain.new_game(2, seed=1).round == 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R_S07_n_plus_one_dice_per_colour_ascending_from_the_lantern(players: int) -> None:
    state = domain.new_game(players, seed=players)
    for bridge in state.board.bridges:
        dice = [bridge.left, *bridge.middle, bridge.right]
        assert len(dice) == players + 1
        assert dice == sorted(d for d in dice if d is not None)


def test_R_S07_a_roll_prompt_offers_every_sorted_multiset() -> None:
    state = advance_to(domain.new_game(4, mode="table"), "roll")
    assert domain.prompt_of(state)["dice"] == 5
    assert len(domain.legal_moves(state)) == 252
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "roll", "seat": None, "bridge": "coral", "dice": [6, 1, 2, 3, 4]})
    assert error.value.rule == "R-S07"


@pytest.mark.parametrize("dice", [[0, 1, 2, 3, 4], [1, 2, 3, 4, 7]])
def test_R_S07_a_rolled_die_shows_one_to_six(dice: list[int]) -> None:
    state = advance_to(domain.new_game(4, mode="table"), "roll")
    with pytest.raises(domain.IllegalMove) as error:
        domain.apply(state, {"kind": "roll", "seat": None, "bridge": "coral", "dice": dice})
    assert error.value.rule == "R-S07"


def test_R_S08_each_bridge_has_a_plant_and_a_stone_garden() -> None:
    state = domain.new_game(3, seed=4)
    for slot in state.board.gardens:
        assert slot.card is not None
        assert state.catalog.gardens[slot.card].type == slot.type
    assert len({slot.card for slot in state.board.gardens}) == 6


def test_R_S09_four_yard_tiles_face_as_printed_on_their_yard() -> None:
    state = domain.new_game(3, seed=4)
    yards = {yard.id: yard for yard in state.board.yards}
    assert yards["yard_1"].blue and yards["yard_1"].yellow
    assert yards["yard_2"].blue and yards["yard_2"].yellow is None
    assert yards["yard_3"].yellow and yards["yard_3"].blue is None
    tiles = [yards["yard_1"].blue, yards["yard_1"].yellow, yards["yard_2"].blue, yards["yard_3"].yellow]
    assert len(set(tiles)) == 4


def test_R_S10_every_clan_starts_at_home_with_empty_tracks() -> None:
    state = domain.new_game(4, seed=6)
    for member in state.players:
        assert (member.courtiers, member.gardeners, member.warriors) == (5, 5, 5)
        assert (member.food, member.iron, member.pearl, member.cp, member.pot) == (0, 0, 0, 0, 0)


def test_R_S11_the_stack_sets_the_first_turn_order_top_first() -> None:
    state = table_game(3, answers={"order": [2, 0, 1]})
    assert state.turn_order == (2, 0, 1)
    assert domain.prompt_of(state) == {"kind": "take_die", "seat": 2}
    stamps = [state.players[s].pot_stamp for s in (2, 0, 1)]
    assert stamps == sorted(stamps, reverse=True)


def test_R_S12_pairs_are_chosen_in_reverse_turn_order_and_give_their_items() -> None:
    state = domain.new_game(3, mode="table")
    while domain.prompt_of(state)["kind"] not in ("choose_start",):
        prompt = domain.prompt_of(state)
        if prompt["kind"] == "stack_order":
            state = domain.apply(state, {"kind": "stack_order", "seat": None, "order": [1, 2, 0]})
        elif prompt["kind"] == "reveal" and prompt["target"] == "offer_0:resource":
            state = domain.apply(
                state, {"kind": "reveal", "seat": None, "pool": prompt["pool"], "card": "SR1"}
            )
        else:
            state = domain.apply(state, default_answer(state))
    assert len([p for p in state.board.offer if p.resource]) == 4
    assert domain.prompt_of(state)["seat"] == 0  # last on the track chooses first
    state = play(state, {"kind": "choose_start", "seat": 0, "resource": "SR1"})
    first = state.players[0]
    assert (first.food, first.iron, first.coins, first.seals) == (2, 1, 2, 1)
    assert first.lantern == ("SR1", "DC1")
    assert first.action_card in ("A1", "A2", "A3")
    assert domain.prompt_of(state)["seat"] == 2
    assert all(p.resource != "SR1" for p in state.board.offer)


def test_R_S12_any_resource_items_are_a_choice() -> None:
    state2 = domain.new_game(2, mode="table")
    while domain.prompt_of(state2)["kind"] != "choose_start":
        prompt = domain.prompt_of(state2)
        if prompt["kind"] == "reveal" and prompt["target"] == "offer_0:resource":
            state2 = domain.apply(
                state2, {"kind": "reveal", "seat": None, "pool": prompt["pool"], "card": "SR2"}
            )
        else:
            state2 = domain.apply(state2, default_answer(state2))
    seat = domain.prompt_of(state2)["seat"]
    state2 = domain.apply(state2, {"kind": "choose_start", "seat": seat, "resource": "SR2"})
    assert domain.prompt_of(state2)["kind"] == "resources"
    assert len(answers_of(state2, "resources")) == 6
    state2 = domain.apply(state2, {"kind": "resources", "seat": seat, "food": 0, "iron": 1, "pearl": 1})
    assert (state2.players[seat].iron, state2.players[seat].pearl, state2.players[seat].coins) == (1, 1, 4)


def test_R_S12_the_first_player_chooses_between_the_last_two_pairs() -> None:
    state = domain.new_game(4, seed=8)
    choosers = []
    while len(choosers) < 3:
        move = domain.legal_moves(state)[0]
        if move["kind"] == "choose_start":
            choosers.append(move["seat"])
        state = domain.apply(state, move)
    while domain.prompt_of(state)["kind"] != "choose_start":
        state = domain.apply(state, domain.legal_moves(state)[0])
    assert choosers == list(reversed(state.turn_order[1:]))
    assert domain.prompt_of(state)["seat"] == state.turn_order[0]
    assert len(answers_of(state, "choose_start")) == 2


def test_first_game_option_lays_the_fixed_castle_and_the_well_tiles() -> None:
    state = domain.new_game(2, seed=1, options={"first_game": True})
    layout = state.catalog.first_game
    assert {room.id: room.card for room in state.board.rooms} == layout["rooms"]
    assert state.board.well.tiles == ("T1", "T6")
    assert state.board.decks.die_tiles == ()


def test_seeded_setup_is_deterministic_and_drawn_from_the_seed() -> None:
    assert domain.new_game(3, seed=42) == domain.new_game(3, seed=42)
    assert domain.new_game(3, seed=42) != domain.new_game(3, seed=43)


def test_seed_none_picks_and_keeps_a_seed() -> None:
    state = domain.new_game(2)
    assert isinstance(state.seed, int)
    assert domain.new_game(2, seed=state.seed) == state


def test_draw_false_stops_at_the_first_chance_prompt_and_recorded_chance_rebuilds_the_game() -> None:
    undrawn = domain.new_game(3, seed=7, draw=False)
    assert domain.prompt_of(undrawn)["kind"] == "reveal" and domain.prompt_of(undrawn)["seat"] is None
    step = domain.resolve_chance(undrawn)
    assert step.state == domain.new_game(3, seed=7)
    rebuilt = undrawn
    for move in step.chance:
        rebuilt = domain.apply(rebuilt, move, draw=False)
    assert rebuilt == step.state


def test_table_mode_never_draws() -> None:
    state = domain.new_game(3, mode="table")
    assert state.seed is None
    assert domain.resolve_chance(state) == domain.Step(state, ())


def test_setup_options_are_checked() -> None:
    with pytest.raises(domain.InvalidSetup):
        domain.new_game(2, options={"no_such_option": True})
    with pytest.raises(domain.InvalidSetup):
        domain.new_game(2, options={"milestones": "sometimes"})
    with pytest.raises(domain.InvalidSetup):
        domain.new_game(2, mode="online")


def test_the_offer_is_cleared_when_the_first_round_begins() -> None:
    state = table_game(3)
    assert state.phase is Phase.TURNS
    assert state.board.offer == ()
