"""Random seeded Tokugawa playouts: 180 complete solo games with Matcha (60 per difficulty; a third in table mode
with every chance outcome, solo cards and Himeji cards included, picked at random among the legal ones), checked
after every move with the Matcha invariants (resources, geishas conserved, the Viewing Platform's and the Tea
House's capacities, every token and Himeji card in one place, dice never stacked at 2 players) and the rival's:
it holds coins only, its losses never take its CP, coins or influence below zero (R-TK02), it never gets a
prompt, its deck and line always hold the 12 cards; each seat plays 4 turns a round (R-M02), and the player's
choices for the rival (R-TK03, R-TK05, R-TK06) all occur."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import domain
from domain.state import GameState
from domain.vocabulary import Phase

from ..helpers import eager, table_or_seeded
from ..playout_support import MATCHA_PARTS, assert_complete_score, check_matcha_invariants
from ..solo_helpers import HUMAN, RIVAL

DIFFICULTIES = ("easy", "medium", "hard")
GAMES = 180
CHUNKS = 6
PER_CHUNK = GAMES // CHUNKS
RIVAL_PROMPTS = frozenset({"rival_geisha", "rival_discard", "rival_garden", "rival_room", "solo_card"})


def check_rival(state: GameState) -> None:
    rival = state.players[RIVAL]
    assert rival.automatic and not state.players[HUMAN].automatic
    assert (rival.seals, rival.food, rival.iron, rival.pearl, rival.whisks) == (0, 0, 0, 0, 0), rival
    assert rival.cp >= 0 and rival.coins >= 0 and rival.pot >= 0, rival  # R-TK02: losses stop at zero
    assert rival.action_card is None and rival.lantern == () and rival.ceremony is None
    assert all(die is None for die in rival.domain)
    assert state.solo is not None
    assert sorted(state.solo.deck + state.solo.line) == sorted(state.catalog.solo_cards)
    assert len(state.catalog.solo_cards) == 12
    prompt = domain.prompt_of(state)
    assert prompt["seat"] != RIVAL
    if prompt["kind"] in RIVAL_PROMPTS - {"solo_card"}:
        assert prompt["automatic"] is True and prompt["rival"] == RIVAL


def tokugawa_playout(seed: int, seen: Counter[str]) -> GameState:
    rng = random.Random(seed)
    difficulty = DIFFICULTIES[seed % 3]
    table = seed % 3 == (seed // 3) % 3
    state = domain.new_game(["Ana"], solo=difficulty, **table_or_seeded(seed, table), expansions=["matcha"])
    turns: Counter[int] = Counter()
    moves = 0
    while not domain.is_over(state):
        legal = domain.legal_moves(state)
        assert legal, domain.prompt_of(state)
        assert all(move["seat"] != RIVAL for move in legal)
        seen[domain.prompt_of(state)["kind"]] += 1
        move = eager(rng, legal, 0.85 if seed % 2 else 0.3)
        if move["kind"] == "take_die":
            turns[state.round] += 1
        state = domain.apply(state, move)
        check_matcha_invariants(state)
        check_rival(state)
        moves += 1
        assert moves < 4000, "a game that never ends"
    assert state.round == 3 and state.phase is Phase.OVER
    assert turns == {1: 4, 2: 4, 3: 4}
    assert sum(bridge.count() for bridge in state.board.bridges) == 4
    assert_complete_score(state, MATCHA_PARTS)
    return state


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_R_TK02_R_TK03_random_tokugawa_playouts_keep_every_invariant(chunk: int) -> None:
    seen: Counter[str] = Counter()
    for i in range(PER_CHUNK):
        tokugawa_playout(20_000 + chunk * PER_CHUNK + i, seen)
    assert {"choose_start_cards", "rival_geisha", "rival_discard"} <= set(seen), seen


def test_the_tokugawa_playouts_cover_each_difficulty_in_both_modes() -> None:
    kinds = Counter((seed % 3, seed % 3 == (seed // 3) % 3) for seed in range(20_000, 20_000 + GAMES))
    assert len(kinds) == 6 and min(kinds.values()) >= 15
