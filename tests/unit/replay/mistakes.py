"""Mistakes a table makes, and a client that corrects each by following the first suggestion at every misfit.

The true game is played with varied legal moves (random, acting more often than declining). It is recorded as a
table records it (a table game entered move by move, a table game laid out at creation, or a seeded game), with
one entry made wrong (:data:`FAMILIES`). After the mistake the recorder keeps entering what the table does: the
true move where the record takes it; where it does not (the record went another way), the same move for the
player the record asks (their names swapped), else the legal move most like it; a question the record asks and
the table never had is answered with the legal move most like the next true one.

The correction says what really happened at the mistake, and the client answers each misfit with the report's
first suggestion, until every later move has a place or no suggestion is left; then it writes the whole
correction once. What it keeps: the later recorded moves that stay on the line (said anew or not), out of those
the correction plays again.

``python -m tests.unit.replay.mistakes [-v]`` prints the figures for each family of mistakes.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from uuid import UUID

import domain
from domain.engine import draw_chance, waiting_for_chance
from replay.application import GameLog
from replay.config import StoreConfig, open_log
from replay.corrections import Correction
from replay.suggestions import likeness

Move = dict[str, Any]

NAMES = ["Ann", "Ben", "Cy", "Dee"]
FAMILIES = (
    "wrong die",
    "neighbouring space",
    "wrong card",
    "swapped players",
    "forgotten move",
    "wrong turn order",
)
HOWS = ("table", "laid out", "seeded")
MOST_ANSWERS = 150
"""The client stops after this many answers (no correction needs as many)."""
MOST_EXTRA = 40
"""How many questions in a row the recorder answers that the table never had, before passing a true entry over."""
LOOK_AHEAD = 12
"""How far the recorder looks for the next true entry the record takes, where the record asks another kind of
question than the table's next entry."""
"""How many questions in a row the recorder answers that the table never had, before giving up a true move."""


@dataclass
class Truth:
    """The true game: its entries in order (a table game's chance among them; a seeded game's are drawn), and
    the state before each (``before[i]``). A golden game is played under its own rules and catalog."""

    how: str
    players: int
    seed: int
    start: Any
    entries: list[Move] = field(default_factory=list)
    before: list[Any] = field(default_factory=list)
    rules_version: str | None = None
    catalog: dict[str, Any] | None = None
    names: list[str] = field(default_factory=list)

    def create(self, log: GameLog, **more: Any) -> UUID:
        """A game of this truth's setup in ``log`` (``more``: the mode, a layout)."""
        setup = {"players": self.names or NAMES[: self.players], "seed": self.seed, "mode": "table", **more}
        if self.rules_version is None:
            return (
                log.create_game(setup).game_id
                if "layout" not in setup
                else log.create_game(
                    {k: v for k, v in setup.items() if k != "layout"}, layout=setup["layout"]
                ).game_id
            )
        return log.create_game(setup, catalog=self.catalog, rules_version=self.rules_version).game_id


def _after(state: Any, move: Move, how: str) -> Any:
    return domain.step(state, move).state if how == "seeded" else domain.apply(state, move, draw=False)


def start_state(players: int, seed: int, how: str) -> Any:
    """The state a game of ``how`` starts from, as the log builds it: a table game's before any chance, a
    seeded game's after its setup's draws."""
    log = open_log(StoreConfig(kind="memory"))
    try:
        mode = "seeded" if how == "seeded" else "table"
        game = log.get(log.create_game({"players": NAMES[:players], "mode": mode, "seed": seed}).game_id)
        return game.states[0]
    finally:
        log.close()


GOLDEN = Path(__file__).resolve().parents[1] / "domain" / "golden"


def golden_truth(name: str) -> Truth:
    """A golden game (tests/unit/domain/golden: a whole game with its known outcome), as a table game entered
    move by move under its rules and catalog."""
    golden = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    log = open_log(StoreConfig(kind="memory"))
    try:
        game_id = log.create_game(
            {"players": golden["players"], "mode": "table", "seed": golden["seed"]},
            catalog=golden["catalog"],
            rules_version=golden["rules_version"],
        ).game_id
        state = log.get(game_id).states[0]
    finally:
        log.close()
    truth = Truth(
        "table",
        len(golden["players"]),
        golden["seed"],
        state,
        rules_version=golden["rules_version"],
        catalog=golden["catalog"],
        names=list(golden["players"]),
    )
    for move in golden["moves"]:
        truth.before.append(state)
        truth.entries.append(move)
        state = domain.apply(state, move, draw=False)
    return truth


def play_truth(players: int, seed: int, how: str) -> Truth:
    """A finished true game of ``players``, played with varied legal moves from ``seed``."""
    rng = random.Random(seed)
    state = start_state(players, seed, how)
    truth = Truth(how, players, seed, state)
    while not domain.is_over(state):
        if waiting_for_chance(state):
            move = draw_chance(state).as_json()  # a table game's dice and cards, as they fell (from its seed)
        else:
            legal = domain.legal_moves(state)
            acting = [m for m in legal if m["kind"] not in ("done", "convert")]
            move = rng.choice(acting if acting and rng.random() < 0.8 else legal)
        truth.before.append(state)
        truth.entries.append(move)
        state = _after(state, move, how)
    return truth


@dataclass(frozen=True)
class Mistake:
    """One entry made wrong at the truth's entry ``at``: recorded as ``wrong`` (None: not recorded at all)."""

    family: str
    at: int
    wrong: Move | None
    words: str


@dataclass
class Record:
    """The game as the table recorded it: its entries, and where the mistake's entry stands among them."""

    entries: list[Move]
    mistake_at: int
    setup: int = 0
    """How many of the first entries are the setup's chance (laid out at creation, not moves of the line)."""
    played: list[bool] = field(default_factory=list)
    """For each entry, whether it is a move the table really played (as it played it, or by the seat the record
    asked): not an entry the recorder made up where the record went another way."""


def record(truth: Truth, mistake: Mistake) -> Record:
    """The truth as the table recorded it, with the mistake (see the module docstring)."""
    state = truth.start
    entries: list[Move] = []
    played: list[bool] = []
    mistake_at = -1
    index = 0
    extra = 0
    while index < len(truth.entries) and not domain.is_over(state):
        if index == mistake.at and mistake_at < 0:
            mistake_at = len(entries)
            if mistake.wrong is None:
                index += 1
                continue
            entry = mistake.wrong
            index += 1
            played.append(False)
        else:
            true = truth.entries[index]
            entry, consumed = _entered(state, truth.entries, index, extra >= MOST_EXTRA)
            if entry is None:
                index += 1
                continue
            extra = 0 if consumed else extra + 1
            index += consumed
            played.append(entry in (true, {**true, "seat": entry.get("seat")}) or consumed > 1)
        entries.append(entry)
        state = _after(state, entry, truth.how)
    setup = 0
    if truth.how == "laid out":
        state = truth.start
        while setup < len(entries) and not domain.setup_dealt(state):
            state = _after(state, entries[setup], truth.how)
            setup += 1
    return Record(entries, mistake_at, setup, played)


def _entered(state: Any, entries: list[Move], index: int, give_up: bool) -> tuple[Move | None, int]:
    """What the recorder enters for the true entry at ``index`` on the recorded ``state``, and how many true
    entries it stands for (0: a question the table never had; None entered: the true entry is passed over).

    The true entry as it is, or by the seat the record asks; else, of the kind asked, the move most like it;
    else the next true entry that the record takes (those before it the record never asked for); else an
    answer made up for a question the table never had."""
    true = entries[index]
    legal = domain.legal_moves(state)
    if true in legal or _fits(state, true):
        return true, 1
    seat = domain.prompt_of(state).get("seat")
    if isinstance(true.get("seat"), int) and isinstance(seat, int):
        theirs = {**true, "seat": seat}
        if _fits(state, theirs):
            return theirs, 1
    same = [move for move in legal if move["kind"] == true["kind"]]
    if same:
        return max(same, key=lambda move: likeness(move, true)), 1
    for ahead in range(index + 1, min(index + LOOK_AHEAD, len(entries))):
        if _fits(state, entries[ahead]):
            return entries[ahead], ahead - index + 1
    if give_up or not legal:
        return None, 1
    return max(legal, key=lambda move: likeness(move, true)), 0


def _fits(state: Any, move: Move) -> bool:
    try:
        domain.apply(state, move, draw=False)
    except domain.DomainError:
        return False
    return True


# --- the families of mistakes ------------------------------------------------------------------------------


def _in_setup(truth: Truth, at: int) -> bool:
    return not domain.setup_dealt(truth.before[at])


def _positions(truth: Truth, rng: random.Random, kinds: tuple[str, ...]) -> list[int]:
    found = [at for at, move in enumerate(truth.entries) if move["kind"] in kinds]
    rng.shuffle(found)
    return found


def _other(truth: Truth, at: int, keep: Callable[[Move], bool], rng: random.Random) -> Move | None:
    options = [m for m in domain.legal_moves(truth.before[at]) if m != truth.entries[at] and keep(m)]
    return rng.choice(options) if options else None


def _say(truth: Truth, at: int, wrong: Move | None) -> str:
    true = domain.describe(truth.before[at], truth.entries[at])
    said = domain.describe(truth.before[at], wrong) if wrong is not None else "nothing"
    return f"entry {at + 1}: {true}; recorded: {said}"


def _wrong_die(truth: Truth, rng: random.Random) -> Mistake | None:
    """A die taken recorded as another, or (a table game) a roll with one die read wrong."""
    for at in _positions(truth, rng, ("take_die", "roll")):
        true = truth.entries[at]
        if true["kind"] == "take_die":
            held = _after(truth.before[at], true, truth.how).held.value

            def other_die(move: Move, held: int = held, at: int = at) -> bool:
                if move["kind"] != "take_die" or "convert" in move:
                    return False
                return bool(_after(truth.before[at], move, truth.how).held.value != held)

            wrong = _other(truth, at, other_die, rng)
        elif truth.how == "seeded" or (truth.how == "laid out" and _in_setup(truth, at)):
            continue
        else:
            dice = list(true["dice"])
            which = rng.randrange(len(dice))
            dice[which] = rng.choice([value for value in range(1, 7) if value != dice[which]])
            wrong = {**true, "dice": sorted(dice)}
            if not _fits(truth.before[at], wrong):
                continue
        if wrong is not None:
            return Mistake("wrong die", at, wrong, _say(truth, at, wrong))
    return None


NEIGHBOURS = {
    "steward_1": ("steward_2",),
    "steward_2": ("steward_1", "steward_3"),
    "steward_3": ("steward_2",),
    "diplomat_1": ("diplomat_2",),
    "diplomat_2": ("diplomat_1",),
    "outside_1": ("outside_2",),
    "outside_2": ("outside_1",),
    "well": ("domain",),
    "domain": ("well",),
}


def _neighbouring_space(truth: Truth, rng: random.Random) -> Mistake | None:
    for at in _positions(truth, rng, ("place_die",)):
        near = NEIGHBOURS.get(truth.entries[at]["space"], ())
        wrong = _other(
            truth,
            at,
            lambda m, near=near: m["kind"] == "place_die" and m["space"] in near and "convert" not in m,
            rng,
        )
        if wrong is not None:
            return Mistake("neighbouring space", at, wrong, _say(truth, at, wrong))
    return None


def _wrong_card(truth: Truth, rng: random.Random) -> Mistake | None:
    """A card dealt recorded as another (in a laid-out game, a castle card of its setup)."""
    if truth.how == "seeded":
        return None
    for at in _positions(truth, rng, ("reveal",)):
        if truth.how == "laid out" and not (
            _in_setup(truth, at) and truth.entries[at]["pool"] in ("steward", "diplomat", "daimyo")
        ):
            continue
        wrong = _other(truth, at, lambda m: m["kind"] == "reveal", rng)
        if wrong is not None:
            return Mistake("wrong card", at, wrong, _say(truth, at, wrong))
    return None


def _turn_order(truth: Truth, rng: random.Random, family: str) -> Mistake | None:
    """The starting turn order entered with two players the wrong way round (R-S11)."""
    if truth.how == "seeded":
        return None
    at = next(at for at, move in enumerate(truth.entries) if move["kind"] == "stack_order")
    order = list(truth.entries[at]["order"])
    one, other = rng.sample(range(len(order)), 2)
    order[one], order[other] = order[other], order[one]
    wrong = {**truth.entries[at], "order": order}
    return Mistake(family, at, wrong, _say(truth, at, wrong))


def _forgotten_move(truth: Truth, rng: random.Random) -> Mistake | None:
    """A conversion a player made and nobody recorded."""
    for at in _positions(truth, rng, ("convert",)):
        return Mistake("forgotten move", at, None, _say(truth, at, None))
    return None


FINDERS: dict[str, Callable[[Truth, random.Random], Mistake | None]] = {
    "wrong die": _wrong_die,
    "neighbouring space": _neighbouring_space,
    "wrong card": _wrong_card,
    "swapped players": lambda truth, rng: _turn_order(truth, rng, "swapped players"),
    "forgotten move": _forgotten_move,
    "wrong turn order": lambda truth, rng: _turn_order(truth, rng, "wrong turn order"),
}


# --- the game recorded, and its correction -----------------------------------------------------------------


@dataclass(frozen=True)
class Recorded:
    """The recorded game in a log, and the correction the table asks for."""

    log: GameLog
    game_id: UUID
    correction: Correction
    later: int
    """How many recorded moves the correction plays again."""
    played: int = 0
    """How many of them the table really played (the others the recorder made up after the mistake)."""


def recorded(truth: Truth, mistake: Mistake, log: GameLog | None = None) -> Recorded:
    """The game as recorded (:func:`record`) in a log, and the correction that says what the mistake was."""
    log = log or open_log(StoreConfig(kind="memory"))
    made = record(truth, mistake)
    entries = made.entries
    if truth.how == "laid out":
        state = truth.start
        for entry in entries[: made.setup]:
            state = _after(state, entry, truth.how)
        game_id = truth.create(log, layout=domain.layout_of(state))
        entries = entries[made.setup :]
    else:
        game_id = truth.create(log, mode="seeded" if truth.how == "seeded" else "table")
    log.play(game_id, entries, expected_version=1, actor="owner")
    game = log.get(game_id)
    at = made.mistake_at - made.setup  # the mistake's place on the line (negative: in the setup laid out)
    correction = _correction(truth, mistake, game.line[at] if at >= 0 else 1, log.layout(game_id).layout)
    first = 0 if at < 0 else at if correction.kind in ("insert", "swap_seats") else at + 1
    played = sum(made.played[made.setup + first :])
    return Recorded(log, game_id, correction, len(game.line) - first, played)


def _correction(truth: Truth, mistake: Mistake, version: int, layout: dict[str, Any]) -> Correction:
    """What the table says the mistake was: at the move recorded at ``version`` (1: the setup laid out)."""
    true = truth.entries[mistake.at]
    if mistake.family == "swapped players":
        assert mistake.wrong is not None
        one, other = _swapped(true["order"], mistake.wrong["order"])
        return Correction(version, "swap_seats", seats=(one, other))
    if version == 1:
        return Correction(1, "setup", layout=_layout_differences(layout, domain.layout_of(_dealt(truth))))
    if mistake.wrong is None:
        return Correction(version, "insert", (true,))
    return Correction.replacing(version, true)


def _dealt(truth: Truth) -> Any:
    state = truth.start
    for entry in truth.entries:
        if domain.setup_dealt(state):
            break
        state = _after(state, entry, truth.how)
    return state


def _layout_differences(recorded: dict[str, Any], truly: dict[str, Any]) -> dict[str, Any]:
    given: dict[str, Any] = {}
    for section, value in truly.items():
        mine = recorded.get(section)
        if isinstance(value, dict) and isinstance(mine, dict):
            changed = {key: item for key, item in value.items() if mine.get(key) != item}
            if changed:
                given[section] = changed
        elif value != mine:
            given[section] = value
    return given


def _swapped(true: list[int], wrong: list[int]) -> tuple[int, int]:
    one, other = (wrong[i] for i in range(len(true)) if true[i] != wrong[i])
    return one, other


@dataclass(frozen=True)
class Followed:
    """What the client that follows the first suggestion kept: the later moves kept, of how many, with how many
    answers, and whether the correction was written."""

    kept: int
    later: int
    answers: int
    written: bool
    played: int = 0
    """How many of the later moves the table really played."""

    @property
    def share(self) -> float:
        return self.kept / self.later if self.later else 1.0


def follow_first(game: Recorded, *, write: bool = True) -> Followed:
    """Dry-run the correction, answer each misfit with its first suggestion, then write it once."""
    log, game_id = game.log, game.game_id
    version = log.get(game_id).version
    answers: dict[int, dict[str, Any]] = {}
    for _ in range(MOST_ANSWERS):
        _, report = log.history.correct(
            game_id,
            game.correction,
            expected_version=version,
            dry_run=True,
            resolutions=list(answers.values()),
        )
        misfit = report.first_misfit
        if misfit is None or not misfit["suggestions"]:
            break
        answers[misfit["index"]] = misfit["suggestions"][0]["resolution"]
    written = False
    if write:
        played, report = log.history.correct(
            game_id, game.correction, expected_version=version, resolutions=list(answers.values())
        )
        written = len(played.versions) > 0
    return Followed(len(report.kept), game.later, len(answers), written, game.played)


GAMES: tuple[tuple[int, int, str], ...] = tuple(
    (players, seed, how)
    for players, seeds in ((2, (11, 12, 13, 14)), (3, (21, 22, 23)), (4, (31, 32)))
    for seed in seeds
    for how in HOWS
)
"""The games played for the measure: (players, seed, how recorded), 27 of them; the first seeds tried, nobody
tuned to. The three golden games of the rules engine are measured too (:data:`GOLDEN_GAMES`)."""
GOLDEN_GAMES = ("two_players", "three_players", "four_players")


@dataclass(frozen=True)
class Measured:
    """One mistake corrected: in which game, the family, the mistake in words, and what was kept."""

    game: str
    family: str
    words: str
    followed: Followed


def truths(games: tuple[tuple[int, int, str], ...], golden: tuple[str, ...]) -> Iterator[tuple[str, Truth]]:
    for players, seed, how in games:
        yield f"{players}p seed {seed} {how}", play_truth(players, seed, how)
    for name in golden:
        yield f"golden {name}", golden_truth(name)


def measure(
    games: tuple[tuple[int, int, str], ...] = GAMES, golden: tuple[str, ...] = GOLDEN_GAMES
) -> list[Measured]:
    """What following the first suggestion kept, for one mistake of each family in each game that has one."""
    found: list[Measured] = []
    for name, truth in truths(games, golden):
        for family in FAMILIES:
            mistake = FINDERS[family](truth, random.Random(f"{truth.seed}:{family}"))
            if mistake is None:
                continue
            game = recorded(truth, mistake)
            found.append(Measured(name, family, mistake.words, follow_first(game)))
            game.log.close()
    return found


def share(results: Iterable[Followed]) -> float:
    results = list(results)
    later = sum(result.later for result in results)
    return sum(result.kept for result in results) / later if later else 1.0


def by_family(found: list[Measured]) -> dict[str, list[Followed]]:
    return {family: [m.followed for m in found if m.family == family] for family in FAMILIES}


def by_game(found: list[Measured]) -> dict[str, list[Followed]]:
    games: dict[str, list[Followed]] = {}
    for one in found:
        games.setdefault(one.game, []).append(one.followed)
    return games


def main() -> None:
    found = measure()
    for family, followed in by_family(found).items():
        worst = min(followed, key=lambda result: result.share)
        print(
            f"{family:20} {share(followed):6.1%}  kept {sum(r.kept for r in followed):5} of "
            f"{sum(r.later for r in followed):5}  answers {sum(r.answers for r in followed):4}  "
            f"worst mistake {worst.kept}/{worst.later}  ({len(followed)} mistakes)"
        )
    games = by_game(found)
    worst_game = min(games, key=lambda name: share(games[name]))
    print(
        f"worst game: {worst_game} {share(games[worst_game]):.1%}; all: {share(m.followed for m in found):.1%}"
    )
    if "-v" in sys.argv:
        for one in found:
            result = one.followed
            print(
                f"  {result.kept:4}/{result.later:<4} {result.answers:3} answers  {one.game} {one.family}: {one.words}"
            )


if __name__ == "__main__":
    main()
