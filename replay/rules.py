"""The replay layer's one door into the rules engine: building opening states and re-applying recorded moves.

Everything the log does with the rules goes through here, so that pinning a game to the rules version it was
recorded under happens in one place. New games are recorded under ``domain.RULES_VERSION``; a game recorded
under another version is replayed under its own (the engine plays every version of ``domain.RULES_VERSIONS``:
``COMPATIBLE``). A game of any other version is never replayed under different rules: it is read as recorded
(its moves, words, undo and amendments), without engine states, so that it is still listed, exported and backed
up, and what needs its states is refused with :class:`RulesVersionUnsupported`. ``revalidate`` (dry-run) tells
which stored games the current rules would reject (:func:`first_refusal`); ``heronlog upgrade`` moves the games
that pass to the current rules with a ``RulesUpgraded`` event.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import domain
from replay.errors import RulesVersionUnsupported

Move = dict[str, Any]
GameState = Any  # domain.GameState: the engine's immutable state (kept opaque here on purpose)

COMPATIBLE: frozenset[str] = frozenset(domain.RULES_VERSIONS)
"""Rules versions this build replays exactly as they were recorded: each game's state is built under the
version its ``GameCreated`` stores (``rules_version`` below), so that what is checked or drawn again for it (an
import's opening, its seed) is what it was."""


def is_supported(rules_version: str) -> bool:
    """Whether this build replays games of ``rules_version`` (read at each call: a test may narrow it to
    stand for a future build that dropped a version)."""
    return rules_version in COMPATIBLE


def unsupported(rules_version: str, *, game_id: object = None) -> RulesVersionUnsupported:
    """The error for a game of rules this build does not replay: it can still be exported, backed up and
    listed, and ``heronlog upgrade`` may move it to the current rules."""
    which = "this game was" if game_id is None else f"game {game_id} was"
    details: dict[str, Any] = {"rules_version": rules_version, "supported": sorted(COMPATIBLE)}
    if game_id is not None:
        details["game_id"] = str(game_id)
    return RulesVersionUnsupported(
        f"{which} recorded under rules {rules_version}; this build replays {', '.join(sorted(COMPATIBLE))}. "
        "It can still be exported and backed up; heronlog upgrade checks whether it can move to the current "
        "rules",
        **details,
    )


def ensure_supported(rules_version: str) -> None:
    if not is_supported(rules_version):
        raise unsupported(rules_version)


def fresh_state(
    setup: Mapping[str, Any], catalog: Mapping[str, Any] | None, rules_version: str = domain.RULES_VERSION
) -> GameState:
    """The state before any chance outcome of the setup (what ``opening`` moves are applied to), under the
    game's rules version. A solo game's seats list the rival too (``automatic``): the engine adds it itself
    from ``solo``."""
    return domain.new_game(
        [seat["name"] for seat in setup["players"] if not seat.get("automatic")],
        mode=setup["mode"],
        seed=setup.get("seed"),
        options=setup.get("options") or None,
        catalog=catalog,
        draw=False,
        expansions=setup.get("expansions") or None,
        solo=setup.get("solo"),
        rules_version=rules_version,
    )


def opening_state(
    setup: Mapping[str, Any],
    catalog: Mapping[str, Any],
    opening: Iterable[Move],
    *,
    check: bool = False,
    rules_version: str = domain.RULES_VERSION,
) -> GameState:
    """Rebuild the state a game starts from: the fresh state plus the recorded setup chance outcomes
    (``check``: each validated, for outcomes that were not decided here, as an imported log's)."""
    state = fresh_state(setup, catalog, rules_version)
    for move in opening:
        state = domain.apply(state, move, check=check, draw=False)
    return state


def reapply(state: GameState, move: Move, chance: Sequence[Move]) -> GameState:
    """Re-apply a recorded move and its recorded chance outcomes, without validation (decide once, apply many:
    they were validated when they were recorded)."""
    state = domain.apply(state, move, check=False, draw=False)
    for outcome in chance:
        state = domain.apply(state, outcome, check=False, draw=False)
    return state


def decide(state: GameState, move: Move) -> tuple[GameState, list[Move]]:
    """Validate and apply one move; in seeded mode the engine draws the chance outcomes that follow it.
    Raises the engine's errors (``domain.DomainError``) for anything illegal."""
    step = domain.step(state, move, check=True)
    return step.state, [dict(outcome) for outcome in step.chance]


def recheck(state: GameState, move: Move, chance: Sequence[Move]) -> GameState:
    """Re-apply a recorded move and its chance outcomes WITH validation (amend, import, revalidate)."""
    state = domain.apply(state, move, check=True, draw=False)
    for outcome in chance:
        state = domain.apply(state, outcome, check=True, draw=False)
    return state


def draw_opening(state: GameState) -> tuple[GameState, list[Move]]:
    """In seeded mode, draw every chance outcome of the setup (nothing in table mode)."""
    step = domain.resolve_chance(state)
    return step.state, [dict(outcome) for outcome in step.chance]


def first_refusal(
    setup: Mapping[str, Any],
    catalog: Mapping[str, Any],
    opening: Sequence[Move],
    line: Sequence[tuple[int, Move, Sequence[Move]]],
    rules_version: str = domain.RULES_VERSION,
) -> tuple[int, Move | None, domain.DomainError] | None:
    """Check a recorded game again under ``rules_version``, with every check: its setup and opening chance
    outcomes, then each move of its line of play ``(version, move, chance outcomes)``. The first refusal: the
    version (1 for the opening), the move (None for the opening) and the engine's error; None when all pass.
    What ``revalidate`` reports and what ``heronlog upgrade`` requires before it moves a game."""
    try:
        state = fresh_state(setup, catalog, rules_version)
        for move in opening:
            state = domain.apply(state, move, check=True, draw=False)
    except domain.DomainError as error:
        return 1, None, error
    for version, move, chance in line:
        try:
            state = recheck(state, move, chance)
        except domain.DomainError as error:
            return version, move, error
    return None
