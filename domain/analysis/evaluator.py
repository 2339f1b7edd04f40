"""The evaluator: for a position and each legal move, the expected final margin and the win probability of the
seat to move, estimated by playouts to the end of the game, with the standard error of each.

`evaluate` plays every legal move, then plays the game on from it with the playout policy (`policy`), drawing
chance itself, and scores the end (`estimates`). Playout number j of every move uses the same seed (common
random numbers), so two moves are compared on the same dice; the difference between a move and the best is
measured on their common playouts, with its own error and the probability that the best is really better.
Budgets: `playouts` in all (spread by successive halving, `pruning`), and `seconds` of the caller's `clock`
(the domain reads no clock of its own). With a playout budget alone the result is a function of the position
and the seed; a time budget stops at a count that depends on the machine, and the count is reported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.analysis import estimates, policy, pruning
from domain.engine import legal, play
from domain.errors import DomainError
from domain.prompts import seat_of
from domain.state import GameState

Move = dict[str, Any]
EVALUATOR_VERSION = "1"
"""Changes when the policy, the estimates or the pruning change: stored results name the version they came from."""


class NothingToEvaluate(DomainError):
    """The position has no decision for a seat: the game is over, or chance is to be drawn."""

    code = "nothing_to_evaluate"


@dataclass(frozen=True, slots=True)
class MoveValue:
    """What the playouts say of one legal move, for the seat to move (margins in clan points)."""

    move: Move
    playouts: int
    margin: float
    """Expected final margin: the seat's total minus the best other total, after this move."""
    margin_se: float
    win: float
    """Share of playouts the seat won."""
    win_se: float
    rounds: int
    """Rounds of successive halving the move stayed in play (the best moves stay in every one)."""
    cost: float
    """The best move's margin minus this one's, over the playouts both have (0 for the best)."""
    cost_se: float
    confidence: float | None
    """Probability that the best move is really better than this one (None for the best itself)."""
    seats: tuple[float, ...]
    """Every seat's expected final margin after this move (the evaluated seat's is `margin`)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move,
            "playouts": self.playouts,
            "margin": round(self.margin, 3),
            "margin_se": round(self.margin_se, 3),
            "win": round(self.win, 4),
            "win_se": round(self.win_se, 4),
            "rounds": self.rounds,
            "cost": round(self.cost, 3),
            "cost_se": round(self.cost_se, 3),
            "confidence": None if self.confidence is None else round(self.confidence, 4),
            "seats": [round(value, 3) for value in self.seats],
        }


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every legal move of a position, best first (moves that stayed longer in the halving, then by margin)."""

    seat: int
    moves: tuple[MoveValue, ...]
    playouts: int
    seed: int
    rounds: int
    version: str = EVALUATOR_VERSION

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    def of(self, move: Move) -> MoveValue | None:
        """The value of `move` (as listed by the rules engine), or None when it is not a legal move here."""
        key = _key(move)
        return next((value for value in self.moves if _key(value.move) == key), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "playouts": self.playouts,
            "seed": self.seed,
            "rounds": self.rounds,
            "evaluator": self.version,
            "moves": [value.to_dict() for value in self.moves],
        }


def _key(move: Move) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((name, repr(value)) for name, value in move.items()))


@dataclass
class _Samples:
    """The playouts of one move so far: the evaluated seat's margins (in playout order), its wins, and every
    seat's margin summed."""

    after: GameState
    margins: list[int] = field(default_factory=list)
    wins: int = 0
    sums: list[int] = field(default_factory=list)
    rounds: int = 0


def evaluate(
    state: GameState,
    *,
    playouts: int | None = 200,
    seconds: float | None = None,
    clock: Callable[[], float] | None = None,
    seed: int = 0,
    keep: Sequence[Move] = (),
) -> Evaluation:
    """Evaluate every legal move of `state` for the seat to move (see the module docstring). `keep` names moves
    never pruned (the move really played). At least one budget is needed; `seconds` needs `clock`."""
    if playouts is None and seconds is None:
        raise ValueError("an evaluation needs a budget: playouts, seconds, or both")
    if seconds is not None and clock is None:
        raise ValueError("a budget in seconds needs a clock")
    seat = seat_of(state.stack[-1]) if state.stack else None
    if seat is None:
        raise NothingToEvaluate(
            "the game is over: no move is left to evaluate"
            if not state.stack
            else "chance decides now, not a player: there is no decision to evaluate",
        )
    typed = legal(state)
    moves = [move.as_json() for move in typed]
    samples = [_Samples(after=play(state, move), sums=[0] * len(state.players)) for move in typed]
    kept = {i for i, move in enumerate(moves) if _key(move) in {_key(k) for k in keep}}
    total_rounds = pruning.round_count(len(moves))
    started = clock() if clock is not None else 0.0
    # past this, even a pass under way stops (a pass is one playout of every move in play: many moves, or a
    # position whose playouts are long, would otherwise run far beyond the budget)
    hard_stop = None if seconds is None else started + 2 * seconds
    in_play = list(range(len(moves)))
    spent = 0
    for number in range(total_rounds):
        first = number == 0
        target = None
        if playouts is not None:
            target = pruning.share(playouts - spent, total_rounds - number, len(in_play), first)
        deadline = None if seconds is None else started + seconds * (number + 1) / total_rounds
        passes = 0
        while target is None or passes < target:
            enough = passes >= (pruning.FIRST_ROUND_MINIMUM if first else 1)
            if enough and deadline is not None and clock is not None and clock() >= deadline:
                break
            for index in in_play:
                if hard_stop is not None and clock is not None and clock() >= hard_stop:
                    return _result(
                        state,
                        seat,
                        moves=moves,
                        samples=samples,
                        spent=spent,
                        seed=seed,
                        total_rounds=number + 1,
                    )
                _play_one(samples[index], seat, seed)
                spent += 1
            passes += 1
        for index in in_play:
            samples[index].rounds += 1
        if number < total_rounds - 1:
            in_play = pruning.halve(in_play, lambda i: estimates.mean(samples[i].margins), kept)
    return _result(
        state, seat, moves=moves, samples=samples, spent=spent, seed=seed, total_rounds=total_rounds
    )


def _play_one(sample: _Samples, seat: int, seed: int) -> None:
    final = policy.play_out(sample.after, policy.playout_seed(seed, len(sample.margins)))
    end = estimates.outcome(final)
    sample.margins.append(end.margins[seat])
    sample.wins += end.winner == seat
    for i, margin in enumerate(end.margins):
        sample.sums[i] += margin


def _result(
    state: GameState,
    seat: int,
    *,
    moves: list[Move],
    samples: list[_Samples],
    spent: int,
    seed: int,
    total_rounds: int,
) -> Evaluation:
    order = sorted(
        range(len(moves)),
        key=lambda i: (-samples[i].rounds, not samples[i].margins, -estimates.mean(samples[i].margins), i),
    )
    best = samples[order[0]]
    values = []
    for i in order:
        sample = samples[i]
        n = len(sample.margins)  # 0 only when a time budget's hard stop came first
        common = min(n, len(best.margins))
        differences = [b - m for b, m in zip(best.margins[:common], sample.margins[:common], strict=True)]
        cost, cost_se = estimates.mean(differences), estimates.standard_error(differences)
        values.append(
            MoveValue(
                move=moves[i],
                playouts=n,
                margin=estimates.mean(sample.margins),
                margin_se=estimates.standard_error(sample.margins),
                win=sample.wins / n if n else 0.0,
                win_se=estimates.win_error(sample.wins, n),
                rounds=sample.rounds,
                cost=0.0 if sample is best else cost,
                cost_se=0.0 if sample is best else cost_se,
                confidence=None if sample is best or not n else estimates.confidence(cost, cost_se),
                seats=tuple(total / n if n else 0.0 for total in sample.sums),
            )
        )
    return Evaluation(seat=seat, moves=tuple(values), playouts=spent, seed=seed, rounds=total_rounds)
