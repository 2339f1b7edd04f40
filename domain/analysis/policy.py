"""The playout policy: how the evaluator plays a game on from a position to its end.

Every seat, the evaluated one included, plays the same cheap policy: it answers from the prompt's own answers
(it never spends seals on conversions, a free move that random play wastes turns on), it takes the actions
it is offered rather than declining them (``done`` only when nothing else is legal), and one answer in
`EPSILON` is drawn among all of them, so a line where declining is right is still played. No answer is tried
ahead: a one-ply look at the score costs about ten times as much per move, and the budget of a whole game's
analysis is counted in playouts (docs/analysis.md gives the head-to-head figures against uniform random play).

Chance inside a playout is drawn by the engine's own seeded draw (`domain.chance`) from a seed of the
playout's own: the evaluator never knows the rolls and cards the game really drew after the position.
"""

from __future__ import annotations

from hashlib import blake2b
from typing import Any

from domain.chance import SplitMix
from domain.engine import HANDLERS, legal, play, resolve_chance, waiting_for_chance
from domain.kinds import Move
from domain.state import GameState, replace
from domain.vocabulary import Mode

EPSILON = 20
"""One answer in this many is drawn uniformly among all the prompt's own answers (declining included)."""

MAX_STEPS = 20_000
"""A playout longer than this is a bug in the rules engine (a 4-player Matcha game has about 160 moves)."""


def playout_seed(seed: int, index: int) -> int:
    """The seed of playout `index` of an evaluation seeded with `seed`: the same for every candidate move, so
    candidates are compared on the same chance draws (common random numbers) and differences are sharper."""
    digest = blake2b(f"analysis:{seed}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") >> 11  # 53 bits, as the service's own seeds


def own_answers(state: GameState) -> list[Move]:
    """The pending prompt's own answers, without the seal conversions listed beside them (all legal moves when
    the prompt has none of its own, which happens only where a conversion is the way on)."""
    frame = state.stack[-1]
    moves = HANDLERS[type(frame)].moves(state, frame)  # type: ignore[misc]
    return list(moves) or legal(state)


def choose(state: GameState, rng: SplitMix) -> Move:
    """The policy's answer to the pending prompt."""
    moves = own_answers(state)
    if len(moves) == 1:
        return moves[0]
    if rng.randint(1, EPSILON) == 1:
        return rng.choice(moves)
    taken = [move for move in moves if move.acting]  # declining is not acting
    return rng.choice(taken or moves)


def uniform(state: GameState, rng: SplitMix) -> Move:
    """Uniform random play over every legal move: the baseline the policy is measured against."""
    return rng.choice(legal(state))


def drawn_from(state: GameState, seed: int) -> GameState:
    """The position as a seeded game of `seed` with its pending chance drawn: a table game's future is drawn
    too, and a seeded game's own seed (which knows the future) is never used."""
    state = replace(state, mode=Mode.SEEDED, seed=seed)
    return resolve_chance(state).state


def play_out(state: GameState, seed: int, policy: Any = choose) -> GameState:
    """The final state of a playout from `state` (a position after a move, its chance not yet drawn)."""
    state = drawn_from(state, seed)
    rng = SplitMix(f"{seed}:policy".encode())
    for _ in range(MAX_STEPS):
        if not state.stack:
            return state
        state = play(state, policy(state, rng))
        if waiting_for_chance(state):
            state = resolve_chance(state).state
    raise RuntimeError(f"a playout ran past {MAX_STEPS} moves")
