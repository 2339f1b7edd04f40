"""A game's start and where it stands: `new_game` (the setup checked and dealt as far as the first prompt), the rules
versions this engine plays, and a state's coordinates (round, turn, seat, phase).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.catalog import load_catalog
from domain.engine import resolve_chance, settle
from domain.errors import InvalidSetup
from domain.matcha.expansion import parse_expansions
from domain.scoring import ScoreSheet
from domain.scoring import score_sheet as _score_sheet
from domain.serial import prompt_of
from domain.setup import initial_state, parse_options, parse_players
from domain.solo.game import parse_solo, solo_setup
from domain.state import GameState
from domain.vocabulary import Mode, Phase

RULES_VERSION = "0.5.0"
"""The version of the rules this engine enforces in a new game; stored in every game's first event."""
RULES_VERSIONS = ("0.1.0", "0.2.0", "0.3.0", "0.4.0", RULES_VERSION)
"""Every rules version this engine plays, oldest first; a game keeps the one it was recorded under
(`new_game(rules_version=...)`, `GameState.rules_version`), so that whatever is checked or drawn again (an
imported log, its seed) is as it was recorded.

- 0.1.0: the first release.
- 0.2.0: decision C.9 for R-S05: a die tile that would leave no way to finish the castle with two colours in
  every room goes back into the bag and another is drawn (`domain.areas.castle.die_tile_outcomes`). A seeded
  deal changes only where 0.1.0 dealt a one-colour room (33 seeds of 0-9,999, seed 94 the first); a table
  game refuses such a tile (`IllegalMove`, R-S05).
- 0.3.0: nothing is spent for nothing, and what seal conversions make affordable is offered as itself. An entry
  of an optional menu made only of worker actions that could not be done (a Gardener action with no garden's
  food within reach, a Warrior action with no yard's iron) is not offered, and a menu with nothing doable left
  closes itself (`domain.effects.futile`); a move that needs seals converted first is offered with them
  (``"convert": ["coin"]``: the conversions, then the move, R-R02 and decision C.2), beside the conversions
  themselves (`domain.engine.legal_moves`). Games of 0.1.0 and 0.2.0 are played on as they were.
- 0.4.0: a cheaper seeded draw. A seeded game draws each chance outcome from SplitMix64 started from a BLAKE2b
  digest of (seed, chance counter) instead of a Mersenne Twister seeded with their text (`domain.chance`): the
  same deals, rolls and reveals are possible, each as likely, but a seed deals another game than it did under
  0.3.0. A table game is played exactly as under 0.3.0. Seeded games of earlier versions keep their draw, so
  they replay, and draw again after an amendment, as recorded.
- 0.5.0: two readings decided from the rule texts (docs/rules/decisions.md). Path space 1 may be declined
  (``done``, R-M11, `domain.matcha.himeji`), as every space's actions are optional (R-P07); influence the solo
  rival's marker cannot take at the end of the track is an action not carried out, worth CP equal to the round
  (R-SO03, `domain.solo.rival.influence`). The seeded draw is 0.4.0's."""


def new_game(
    players: int | Sequence[str],
    *,
    mode: str = "seeded",
    seed: int | None = None,
    options: Mapping[str, Any] | None = None,
    catalog: Mapping[str, Any] | None = None,
    draw: bool = True,
    expansions: Sequence[str] | None = None,
    solo: str | None = None,
    rules_version: str | None = None,
) -> GameState:
    """A new game, set up as far as the first prompt a player (or, with draw=False, chance) must answer.

    Deterministic: in seeded mode every draw comes from (seed, chance counter); seed=None picks a seed with
    random.SystemRandom and keeps it in the state. `catalog` is merged over the packaged catalog (with the
    files of the `expansions` in play, ``("matcha",)`` or none), and the state carries the full effective
    catalog (`catalog_of`).

    ``solo="easy" | "medium" | "hard"`` sets up the solo game (R-SO01): one player (``players=1`` or one
    name) against the automated rival, who sits in seat 1 and plays its turns inside `apply`. Its option
    ``rival_scoring`` is ``"sheet"`` (default) or ``"cp_only"``; the catalog then holds the solo deck. With
    ``expansions=["matcha"]`` the rival is the Tokugawa clan (R-TK01..R-TK07, `domain.solo.tokugawa`).

    ``rules_version`` (one of `RULES_VERSIONS`, `RULES_VERSION` by default) is the version of the rules the game
    is played under: a recorded game is rebuilt under the version its first event stores.
    """
    version = RULES_VERSION if rules_version is None else rules_version
    if version not in RULES_VERSIONS:
        raise InvalidSetup(
            f"this engine plays the rules versions {', '.join(RULES_VERSIONS)}, not {rules_version!r}",
            details={"rules_version": repr(rules_version), "known": list(RULES_VERSIONS)},
        )
    chosen = parse_expansions(expansions)
    difficulty = scoring = None
    if solo is None:
        names = parse_players(players)
    else:
        names, difficulty, scoring, options = parse_solo(solo, players, options)
    try:
        game_mode = Mode(mode)
    except ValueError:
        raise InvalidSetup(f"mode is 'seeded' or 'table', not {mode!r}") from None
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise InvalidSetup("seed is a whole number", details={"seed": repr(seed)})
    if game_mode is Mode.SEEDED and seed is None:
        seed = random.SystemRandom().randrange(2**63)
    effective = load_catalog(catalog, chosen, solo=solo is not None)
    if (effective.matcha is not None) != ("matcha" in chosen):
        raise InvalidSetup(
            "a catalog with the Matcha sections goes with expansions=['matcha'], and only then",
            details={"expansions": list(chosen)},
        )
    state = initial_state(
        names,
        mode=game_mode,
        seed=seed,
        options=parse_options(options),
        catalog=effective,
        rules_version=version,
        expansions=chosen,
    )
    if difficulty is not None and scoring is not None:
        state = solo_setup(state, difficulty, scoring)
    state = settle(state)
    if draw:
        state = resolve_chance(state).state
    return state


def catalog_of(state: GameState) -> dict[str, Any]:
    """The full effective catalog a game is played with, as JSON."""
    return state.catalog.to_dict()


def score_sheet(tallies: Mapping[str, Any]) -> tuple[ScoreSheet, ...]:
    """Score sheets from end-of-game tallies typed in by hand (see `domain.scoring.score_sheet`)."""
    return _score_sheet(tallies)


@dataclass(frozen=True, slots=True)
class Coordinates:
    """Where a state is in the game: round 1-3, the active player's turn number in the round (1-3, 1-4 with
    Matcha; 0 during setup), the seat being waited on or playing (None for chance outside a turn), and the
    phase."""

    round: int
    turn: int
    seat: int | None
    phase: Phase

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "turn": self.turn, "seat": self.seat, "phase": self.phase.value}


def coordinates(state: GameState) -> Coordinates:
    """The round, turn, seat and phase of a state."""
    count = len(state.players)
    waited = prompt_of(state)["seat"]
    if state.phase is Phase.SETUP:
        return Coordinates(state.round, 0, waited, state.phase)
    if state.phase is Phase.TURNS:
        return Coordinates(
            state.round,
            state.turn_index // count + 1,
            state.turn_order[state.turn_index % count],
            state.phase,
        )
    return Coordinates(state.round, state.rules.turns_per_round, waited, state.phase)


def expansions_of(state: GameState) -> tuple[str, ...]:
    """The expansions a game is played with (``("matcha",)`` or none)."""
    return state.rules.expansions
