"""A toy rules engine with the public contract of ``domain`` (DESIGN §2), for testing the layers above it.

The game: 2 to 4 players, 2 rounds. At each round's start chance rolls one die per player plus one (values 1
to 3; in seeded mode the engine draws them from the seed, in table mode the recorder enters them as a
``roll`` move). Players then take turns, in seat order, each taking one die (``take``) and scoring its
value; taking a 3 earns a seal. A player who is asked to take a die may first convert a seal into 1 point
(``convert``, a free move). Highest total wins.

Small on purpose: it exercises every path of the contract (chance prompts in both modes, free moves, rule
errors with rule numbers, not-your-turn, game over, score sheets, state dicts) without the real rules.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, replace
from typing import Any, NamedTuple

RULES_VERSION = "0.1.0"
ROUNDS = 2


class DomainError(Exception):
    code = "domain_error"
    rule: str | None = None

    def __init__(self, message: str, *, rule: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        if rule is not None:
            self.rule = rule
        self.details = details

    def to_dict(self) -> dict[str, Any]:
        return {"error_code": self.code, "rule": self.rule, "message": self.message, "details": self.details}


class InvalidMove(DomainError):
    code = "invalid_move"


class IllegalMove(DomainError):
    code = "illegal_move"


class NotYourTurn(DomainError):
    code = "not_your_turn"


class GameOver(DomainError):
    code = "game_over"


@dataclass(frozen=True)
class GameState:
    players: tuple[str, ...]
    mode: str
    seed: int | None
    draws: int
    round: int
    turn: int
    seat: int | None
    dice: tuple[int, ...]
    points: tuple[int, ...]
    seals: tuple[int, ...]
    over: bool


class Step(NamedTuple):
    state: GameState
    chance: list[dict[str, Any]]


class Coordinates(NamedTuple):
    round: int
    turn: int
    seat: int | None
    phase: str


@dataclass(frozen=True)
class ScoreSheet:
    lines: tuple[tuple[str, int], ...]
    total: int
    rank: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "lines": [{"label": label, "points": points} for label, points in self.lines],
            "total": self.total,
            "rank": self.rank,
        }


def new_game(
    players: list[str],
    *,
    mode: str = "seeded",
    seed: int | None = None,
    options: dict[str, Any] | None = None,
    catalog: dict[str, Any] | None = None,
    draw: bool = True,
) -> GameState:
    if not 2 <= len(players) <= 4:
        raise InvalidMove("the toy game takes 2 to 4 players", rule="R-S01", players=len(players))
    state = GameState(
        players=tuple(players),
        mode=mode,
        seed=seed,
        draws=0,
        round=1,
        turn=0,
        seat=None,
        dice=(),
        points=(0,) * len(players),
        seals=(0,) * len(players),
        over=False,
    )
    return resolve_chance(state).state if draw else state


def catalog_of(state: GameState) -> dict[str, Any]:
    return {"game": "toy", "dice_faces": 3}


def _chance_pending(state: GameState) -> bool:
    return not state.over and not state.dice


def legal_moves(state: GameState) -> list[dict[str, Any]]:
    if state.over:
        return []
    if _chance_pending(state):
        count = len(state.players) + 1
        # Enumerating every roll would be large: table mode lists a sample (two dice vary, the rest are 1s).
        return [
            {"kind": "roll", "seat": None, "dice": [a, b] + [1] * (count - 2)}
            for a in (1, 2, 3)
            for b in (1, 2, 3)
        ]
    moves = [{"kind": "take", "seat": state.seat, "die": index} for index in range(len(state.dice))]
    if state.seat is not None and state.seals[state.seat] > 0:
        moves.append({"kind": "convert", "seat": state.seat})
    return moves


def _check(state: GameState, move: Any) -> None:
    if not isinstance(move, dict) or not isinstance(move.get("kind"), str) or "seat" not in move:
        raise InvalidMove("a move is an object with kind and seat")
    if state.over:
        raise GameOver("the game is over")
    kind = move["kind"]
    if _chance_pending(state):
        if kind != "roll":
            raise IllegalMove("the dice must be rolled first", rule="R-T01", expected="roll")
        dice = move.get("dice")
        if (
            not isinstance(dice, list)
            or len(dice) != len(state.players) + 1
            or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 3 for d in dice)
        ):
            raise InvalidMove("a roll names one die (1 to 3) per player plus one", dice=dice)
        return
    if kind == "roll":
        raise IllegalMove("the dice were already rolled", rule="R-T01")
    if kind not in ("take", "convert"):
        raise InvalidMove(f"unknown move kind {kind!r}")
    if move.get("seat") != state.seat:
        raise NotYourTurn(f"it is seat {state.seat}'s turn", seat=move.get("seat"), expected=state.seat)
    if kind == "convert":
        if state.seals[state.seat] < 1:
            raise IllegalMove("no seal to convert", rule="R-C02")
        return
    die = move.get("die")
    if not isinstance(die, int) or isinstance(die, bool):
        raise InvalidMove("take names a die by its index")
    if not 0 <= die < len(state.dice):
        raise IllegalMove(f"there is no die {die}", rule="R-T02", die=die)


def _bump(values: tuple[int, ...], seat: int, by: int) -> tuple[int, ...]:
    return tuple(value + by if index == seat else value for index, value in enumerate(values))


def apply(state: GameState, move: dict[str, Any], *, check: bool = True, draw: bool = True) -> GameState:
    if check:
        _check(state, move)
    kind = move["kind"]
    if kind == "roll":
        state = replace(state, dice=tuple(move["dice"]), turn=1, seat=0)
    elif kind == "convert":
        seat = move["seat"]
        state = replace(state, seals=_bump(state.seals, seat, -1), points=_bump(state.points, seat, 1))
    else:
        seat = move["seat"]
        value = state.dice[move["die"]]
        dice = state.dice[: move["die"]] + state.dice[move["die"] + 1 :]
        state = replace(
            state,
            dice=dice,
            points=_bump(state.points, seat, value),
            seals=_bump(state.seals, seat, 1 if value == 3 else 0),
        )
        if seat + 1 < len(state.players):
            state = replace(state, seat=seat + 1, turn=state.turn + 1)
        elif state.round == ROUNDS:
            state = replace(state, over=True, seat=None, dice=())
        else:
            state = replace(state, round=state.round + 1, turn=0, seat=None, dice=())
    return resolve_chance(state).state if draw else state


def resolve_chance(state: GameState) -> Step:
    """Seeded mode: draw every pending chance outcome. Table mode: nothing (the recorder enters them)."""
    drawn: list[dict[str, Any]] = []
    while state.mode == "seeded" and _chance_pending(state):
        rng = random.Random(f"{state.seed}:{state.draws}")
        move = {
            "kind": "roll",
            "seat": None,
            "dice": [rng.randint(1, 3) for _ in range(len(state.players) + 1)],
        }
        state = replace(apply(state, move, check=False, draw=False), draws=state.draws + 1)
        drawn.append(move)
    return Step(state, drawn)


def step(state: GameState, move: dict[str, Any], *, check: bool = True) -> Step:
    after = apply(state, move, check=check, draw=False)
    return resolve_chance(after)


def is_over(state: GameState) -> bool:
    return state.over


def score_sheet(tallies: list[dict[str, Any]]) -> tuple[ScoreSheet, ...]:
    totals = [int(t.get("dice", 0)) + int(t.get("seals", 0)) for t in tallies]
    return tuple(
        ScoreSheet(
            lines=(("dice", int(t.get("dice", 0))), ("seals", int(t.get("seals", 0)))),
            total=total,
            rank=1 + sum(other > total for other in totals),
        )
        for t, total in zip(tallies, totals, strict=True)
    )


def score(state: GameState) -> tuple[ScoreSheet, ...]:
    return score_sheet([{"dice": points, "seals": 0} for points in state.points])


def describe(state: GameState, move: dict[str, Any]) -> str:
    kind = move.get("kind")
    if kind == "roll":
        return f"rolled {' '.join(map(str, move.get('dice', [])))}"
    name = state.players[move["seat"]] if isinstance(move.get("seat"), int) else "?"
    if kind == "convert":
        return f"{name} converted a seal"
    return f"{name} took die {move.get('die')} ({state.dice[move['die']] if state.dice else '?'})"


def state_to_dict(state: GameState) -> dict[str, Any]:
    data = asdict(state)
    return {key: list(value) if isinstance(value, tuple) else value for key, value in data.items()}


def state_from_dict(data: dict[str, Any]) -> GameState:
    return GameState(
        **{key: tuple(value) if isinstance(value, list) else value for key, value in data.items()}
    )


def prompt_of(state: GameState) -> dict[str, Any]:
    if state.over:
        return {"kind": "game_over", "seat": None, "context": {}}
    if _chance_pending(state):
        return {"kind": "roll", "seat": None, "context": {"dice": len(state.players) + 1}}
    return {"kind": "take", "seat": state.seat, "context": {"dice": list(state.dice)}}


def coordinates(state: GameState) -> Coordinates:
    phase = "over" if state.over else "setup" if _chance_pending(state) else "turns"
    return Coordinates(state.round, state.turn, state.seat, phase)


PUBLIC = (
    "RULES_VERSION",
    "DomainError",
    "GameState",
    "new_game",
    "legal_moves",
    "apply",
    "step",
    "resolve_chance",
    "is_over",
    "score",
    "score_sheet",
    "describe",
    "state_to_dict",
    "state_from_dict",
    "prompt_of",
    "coordinates",
    "catalog_of",
)
