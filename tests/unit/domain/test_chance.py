"""The seeded draw of each rules version (`domain.chance`): a game recorded under 0.1.0 to 0.3.0 draws exactly
what ``random.Random(f"{seed}:{chance}")`` drew when it was recorded (its replay, a redraw after an amendment,
an import's check), and a new game (0.4.0) draws from SplitMix64; the new generator is a function of (seed,
chance) alone and deals evenly. No timing here: bench/bench_domain.py prints the cost of a draw."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import domain
from domain.chance import MERSENNE, SplitMix, rng_for
from domain.layout import lay_out, layout_of
from domain.state import GameState

SEED = 2024
NAMES = ["Ana", "Bo", "Cy", "Dee"]
Drawn = list[tuple[GameState, dict[str, Any]]]


def seeded_game(rules_version: str | None, seed: int = SEED) -> Drawn:
    """A complete 4-player seeded game played by random legal moves: each chance outcome the engine drew, with
    the state it was drawn in (its seed and chance counter, what was left to draw)."""
    rng = random.Random(seed)
    state = domain.new_game(NAMES, seed=seed, draw=False, rules_version=rules_version)
    drawn: Drawn = []
    while True:
        step = domain.resolve_chance(state)
        for move in step.chance:
            drawn.append((state, move))
            state = domain.apply(state, move, check=False, draw=False)
        assert state == step.state
        if domain.is_over(state):
            return drawn
        state = domain.apply(state, rng.choice(domain.legal_moves(state)), draw=False)


def expected(generator: Any, state: GameState, move: dict[str, Any]) -> dict[str, Any] | None:
    """What `generator` draws for the chance prompt `move` answered, written out here rather than taken from
    the engine: a bridge's roll (R-S07, each die 1-6, laid ascending), a base-game card revealed (each card
    left equally likely), the stack of markers (R-S11, shuffled). None for the other prompts."""
    if move["kind"] == "roll":
        return {**move, "dice": sorted(generator.randint(1, 6) for _ in move["dice"])}
    if move["kind"] == "reveal" and hasattr(state.board.decks, move["pool"]):  # Matcha's piles are elsewhere
        return {**move, "card": generator.choice(getattr(state.board.decks, move["pool"]))}
    if move["kind"] == "stack_order":
        order = list(range(len(state.players)))
        generator.shuffle(order)
        return {**move, "order": order}
    return None


def mersenne(state: GameState) -> random.Random:
    """The formula every seeded draw used before rules 0.4.0."""
    return random.Random(f"{state.seed}:{state.chance}")


def splitmix(state: GameState) -> SplitMix:
    return SplitMix(f"{state.seed}:{state.chance}".encode())


def agreeing(drawn: Drawn, generator: Callable[[GameState], Any]) -> tuple[int, int, set[str]]:
    """How many of the checkable outcomes `generator` would have drawn as the game did, of how many, and
    which kinds were checked."""
    same = checked = 0
    kinds = set()
    for state, move in drawn:
        want = expected(generator(state), state, move)
        if want is not None:
            checked, same = checked + 1, same + (want == move)
            kinds.add(move["kind"])
    return same, checked, kinds


@pytest.mark.parametrize("rules_version", ["0.1.0", "0.2.0", "0.3.0"])
def test_a_recorded_seeded_game_draws_what_the_mersenne_twister_of_seed_and_chance_drew(
    rules_version: str,
) -> None:
    drawn = seeded_game(rules_version)
    same, checked, kinds = agreeing(drawn, mersenne)
    assert kinds == {"roll", "reveal", "stack_order"} and checked >= 30
    assert same == checked


def test_a_new_game_draws_from_splitmix64_not_the_mersenne_twister() -> None:
    """Would fail if 0.4.0 on drew as 0.3.0 did: every outcome is SplitMix64's, hardly any the Twister's."""
    drawn = seeded_game(None)
    assert drawn[0][0].rules_version == domain.RULES_VERSION == "0.5.0"
    same, checked, kinds = agreeing(drawn, splitmix)
    assert kinds == {"roll", "reveal", "stack_order"} and checked >= 30
    assert same == checked
    as_before, _, _ = agreeing(drawn, mersenne)
    assert as_before < checked / 2  # a few agree by chance (a 2-card deck, a common roll)


def test_the_same_seed_deals_another_game_under_0_4_0_than_under_0_3_0() -> None:
    old = domain.new_game(NAMES, seed=SEED, rules_version="0.3.0")
    new = domain.new_game(NAMES, seed=SEED)
    assert layout_of(old) != layout_of(new)
    assert domain.new_game(NAMES, seed=SEED) == new  # and the same one each time


def test_the_versions_before_0_4_0_draw_with_random_random_of_the_text() -> None:
    assert frozenset({"0.1.0", "0.2.0", "0.3.0"}) == MERSENNE
    assert MERSENNE | {"0.4.0", "0.5.0"} == set(domain.RULES_VERSIONS)
    for version, (seed, chance) in itertools.product(sorted(MERSENNE), [(0, 0), (7, 12), (2**53, 401)]):
        for salt, text in (("", f"{seed}:{chance}"), ("tiles", f"{seed}:{chance}:tiles")):
            mine, theirs = rng_for(version, seed, chance, salt), random.Random(text)
            assert isinstance(mine, random.Random)
            assert [mine.randint(1, 6) for _ in range(20)] == [theirs.randint(1, 6) for _ in range(20)]
            cards, again = list(range(12)), list(range(12))
            mine.shuffle(cards)
            theirs.shuffle(again)
            assert cards == again and mine.choice("abcdefg") == theirs.choice("abcdefg")


def sequence(generator: Any, count: int = 8) -> list[int]:
    return [generator.randint(0, 2**32 - 1) for _ in range(count)]


def test_the_new_generator_is_a_function_of_seed_and_chance_alone() -> None:
    assert isinstance(rng_for("0.4.0", SEED, 5), SplitMix)
    assert sequence(rng_for("0.4.0", SEED, 5)) == sequence(rng_for("0.4.0", SEED, 5))
    by_chance = {tuple(sequence(rng_for("0.4.0", SEED, chance))) for chance in range(500)}
    by_seed = {tuple(sequence(rng_for("0.4.0", seed, 5))) for seed in range(500)}
    assert len(by_chance) == len(by_seed) == 500
    assert sequence(rng_for("0.4.0", SEED, 5, "tiles")) != sequence(rng_for("0.4.0", SEED, 5))
    assert sequence(rng_for("0.4.0", SEED, 5, "tiles")) == sequence(SplitMix(f"{SEED}:5:tiles".encode()))
    # any whole number is a seed, exactly: no folding to 64 bits
    assert sequence(rng_for("0.4.0", 2**64 + 3, 5)) != sequence(rng_for("0.4.0", 3, 5))
    assert sequence(rng_for("0.4.0", -3, 5)) != sequence(rng_for("0.4.0", 3, 5))


def test_the_new_generator_is_splitmix64() -> None:
    """From state 0, the first outputs of the reference splitmix64.c (Vigna)."""
    generator = SplitMix(b"")
    generator._state = 0  # the published vector starts from state 0; a game's starts from its key's digest
    outputs = [generator.randint(0, 2**64 - 1) for _ in range(3)]
    assert outputs == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]


def test_the_new_generator_deals_evenly() -> None:
    """Loose bounds (6,000 draws, about 29 draws of standard deviation a face): a broken bound or shuffle is
    far outside them, a sound generator all but never."""
    first_rolls = Counter(rng_for("0.4.0", SEED, chance).randint(1, 6) for chance in range(6000))
    one_stream = rng_for("0.4.0", SEED, 0)
    stream_rolls = Counter(one_stream.randint(1, 6) for _ in range(6000))
    for rolls in (first_rolls, stream_rolls):
        assert sorted(rolls) == [1, 2, 3, 4, 5, 6]
        assert all(850 <= count <= 1150 for count in rolls.values()), rolls
    cards = Counter(rng_for("0.4.0", 7, chance).choice("ABCDEFGHIJ") for chance in range(6000))
    assert len(cards) == 10 and all(480 <= count <= 720 for count in cards.values()), cards
    orders: Counter[tuple[int, ...]] = Counter()
    for chance in range(6000):
        order = [0, 1, 2]
        rng_for("0.4.0", 7, chance).shuffle(order)
        orders[tuple(order)] += 1
    assert len(orders) == 6 and all(850 <= count <= 1150 for count in orders.values()), orders


def test_the_new_generator_refuses_what_random_refuses() -> None:
    generator = rng_for("0.4.0", 1, 1)
    assert generator.randint(4, 4) == 4
    with pytest.raises(IndexError):
        generator.choice([])
    with pytest.raises(ValueError):
        generator.randint(2, 1)


# The die tiles of a castle given in part, finished from the seed of a table game with draw_rest (R-S05): what
# the code before rules 0.4.0 laid (written down from it), which a game of 0.3.0 lays still.
GIVEN = {"steward_2": ["coral", "black", "white"], "diplomat_1": ["white", "black"]}
LAID_BEFORE_0_4_0 = {
    0: {
        "steward_1": ["white", "coral", "black"],
        "steward_2": ["coral", "black", "white"],
        "steward_3": ["black", "coral", "coral"],
        "diplomat_1": ["white", "black"],
        "diplomat_2": ["black", "coral"],
    },
    1: {
        "steward_1": ["black", "coral", "black"],
        "steward_2": ["coral", "black", "white"],
        "steward_3": ["white", "white", "black"],
        "diplomat_1": ["white", "black"],
        "diplomat_2": ["white", "coral"],
    },
}


def finished_castle(seed: int, rules_version: str | None) -> Any:
    state = domain.new_game(NAMES, mode="table", seed=seed, draw=False, rules_version=rules_version)
    return layout_of(lay_out(state, {"die_tiles": GIVEN}, draw_rest=True).state)["die_tiles"]


def test_a_castle_given_in_part_is_finished_from_the_seed_with_the_rules_versions_generator() -> None:
    for seed, laid in LAID_BEFORE_0_4_0.items():
        assert finished_castle(seed, "0.3.0") == laid
    assert [finished_castle(seed, None) for seed in LAID_BEFORE_0_4_0] != list(LAID_BEFORE_0_4_0.values())
