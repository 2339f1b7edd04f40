"""The replay layer's one door into the rules engine: building opening states and re-applying recorded moves.

So pinning a game to the rules version it was recorded under happens in one place (docs/engine/rules-versions.md).
"""

from __future__ import annotations

import functools
import json
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import domain
from domain import GameState
from domain.catalog import load_catalog
from domain.chance import draw_of
from replay.errors import RulesVersionUnsupported
from replay.events import Move

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
        catalog=_override(setup, catalog),
        draw=False,
        expansions=setup.get("expansions") or None,
        solo=setup.get("solo"),
        rules_version=rules_version,
    )


_PACKAGED: dict[tuple[tuple[str, ...], bool, str], str] = {}
_PACKAGED_LOCK = threading.Lock()


def packaged_catalog(setup: Mapping[str, Any], rules_version: str = domain.RULES_VERSION) -> Any:
    """The catalog this build packages for a game of this setup (its expansions, solo or not), as JSON data:
    what a game created here without an override of its own is played with. Built once per kind of game
    (kept as text: each caller gets a copy of its own)."""
    key = (tuple(setup.get("expansions") or ()), bool(setup.get("solo")), rules_version)
    text = _PACKAGED.get(key)
    if text is None:
        text = json.dumps(domain.catalog_of(fresh_state(setup, None, rules_version)), sort_keys=True)
        with _PACKAGED_LOCK:
            _PACKAGED[key] = text
    return json.loads(text)


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


def draw_change(setup: Mapping[str, Any], recorded: str, target: str) -> str | None:
    """How moving a game from rules ``recorded`` to ``target`` would change what its seed draws, in words; None
    when it would not: a table game (its chance is entered, never drawn), rules that draw alike, or a version
    this build does not know (it cannot tell how that one drew)."""
    known = domain.RULES_VERSIONS
    if setup.get("mode") != "seeded" or recorded not in known or target not in known:
        return None
    now, then = draw_of(target), draw_of(recorded)
    if now == then:
        return None
    return f"rules {target} draw a seeded game's chance from {now}, rules {recorded} from {then}"


def draw_kept(setup: Mapping[str, Any], recorded: str, target: str) -> str | None:
    """Why ``heronlog upgrade`` leaves a seeded game under the rules it was recorded with rather than move it
    to ``target``, or None when it may move. Moved, it would draw its later chance, and the chance drawn again
    after a correction of a recorded move, from another generator than the one its seed was recorded with:
    its deal would no longer be its seed's. While this build replays its own rules the game loses nothing by
    staying; once a build drops them, moving is the only way to play it on, and it moves (the report says how
    its draw changed)."""
    change = draw_change(setup, recorded, target)
    if change is None or not is_supported(recorded):
        return None
    alike = [v for v in domain.RULES_VERSIONS if is_supported(v) and draw_of(v) == draw_of(recorded)]
    latest = f" (--to {alike[-1]}: the latest rules that draw as it did)" if alike[-1] != recorded else ""
    return (
        f"a seeded game keeps the draw it was recorded with: {change}, so what it draws from here on, and again "
        f"after a correction, would not be what its seed draws under rules {recorded}{latest}"
    )


@functools.lru_cache(maxsize=16)
def _packaged(expansions: tuple[str, ...], solo: bool) -> dict[str, Any]:
    return load_catalog(None, expansions, solo=solo).to_dict()


def _override(setup: Mapping[str, Any], catalog: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """The catalog to hand the engine for a setup: None when it is the packaged one for that setup (every game
    stores its full catalog, and nearly every one is the packaged catalog). The engine merges a catalog it is
    given over the packaged one and parses the result: for a stored game's 23 KB catalog that was four fifths
    of reading the game from its first event, to arrive at the catalog it holds parsed already. The same
    catalog either way: the packaged one merged over itself is itself."""
    if not catalog:
        return catalog
    try:
        packaged = _packaged(tuple(setup.get("expansions") or ()), setup.get("solo") is not None)
    except domain.DomainError:  # an expansion the engine does not know: it says so itself
        return catalog
    return None if catalog is packaged or catalog == packaged else catalog


_SHARED_CATALOGS: dict[int, tuple[Any, dict[str, Any]]] = {}
"""id(engine catalog) -> (that catalog, its JSON): one dictionary per catalog the engine has parsed."""
_SHARED_LOCK = threading.Lock()
SHARED_CATALOGS_MAX = 64
"""The engine keeps a few dozen parsed catalogs at most (``domain.catalog``): past this many the table is
forgotten and filled again (a catalog's JSON is parsed once more), so it can never grow without bound."""


def shared_catalog(state: GameState, catalog: Mapping[str, Any]) -> Mapping[str, Any]:
    """The game's catalog (its first event's, as read back) as one object shared by every game played with the
    same catalog, when it is the one the engine plays ``state`` with (it is, for every game this code
    records); else ``catalog`` itself.

    Each game read from the store decodes its own copy of the catalog (about 120 KB of dictionaries for 23 KB
    of JSON), and a worker keeps hundreds of games: sharing one copy per catalog is what keeps a worker's
    memory bounded by the games it keeps, not by their catalogs. The copy is never changed (a game's catalog
    is read only), and comparing two equal catalogs takes a tenth of a millisecond."""
    engine = state.catalog
    held = _SHARED_CATALOGS.get(id(engine))
    if held is None or held[0] is not engine:
        with _SHARED_LOCK:
            if len(_SHARED_CATALOGS) >= SHARED_CATALOGS_MAX:
                _SHARED_CATALOGS.clear()
            held = (engine, domain.catalog_of(state))
            _SHARED_CATALOGS[id(engine)] = held  # the engine catalog is kept alive, so the id stays its own
    shared = held[1]
    if catalog is shared or catalog == shared:
        return shared
    return catalog
