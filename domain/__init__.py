"""The White Castle rules engine: pure, immutable, standard library only.

heronlog's innermost layer (docs/engine/index.md): the rules (docs/rules/, numbered R-xx) and nothing about
storage, HTTP or time. This module only re-exports the public face; no module of the package imports it.

    >>> import domain
    >>> state = domain.new_game(["Ana", "Bo"], seed=7)
    >>> domain.prompt_of(state)["kind"]
    'choose_start'
    >>> while not domain.is_over(state):
    ...     state = domain.apply(state, domain.legal_moves(state)[0])
    >>> [sheet.rank for sheet in domain.score(state)] in ([1, 2], [2, 1])
    True
"""

from __future__ import annotations

# ruff: noqa: E402  # the modules below are imported once the switch has chosen their build

__distribution__ = "heronlog"  # api.own_packages checks that this package is heronlog's

from domain import compiled as _compiled

ENGINE = _compiled.choose(__path__)
"""The build the modules below come from: ``pure`` (the source) or ``compiled`` (``domain.compiled``)."""


from domain.catalog import Catalog
from domain.catalog_schema import check_catalog
from domain.describe import describe, payment_text
from domain.engine import Step, apply, is_over, legal, legal_moves, resolve_chance, step
from domain.errors import (
    DomainError,
    GameOver,
    IllegalMove,
    InvalidLayout,
    InvalidMove,
    InvalidSetup,
    InvalidTallies,
    NotYourTurn,
)
from domain.game import (
    RULES_VERSION,
    RULES_VERSIONS,
    Coordinates,
    catalog_of,
    coordinates,
    expansions_of,
    new_game,
    score_sheet,
)
from domain.kinds.base import Move, reseated
from domain.layout import first_game_layout, lay_out, layout_of, setup_dealt
from domain.matcha.expansion import EXPANSIONS
from domain.names import seat_text
from domain.scoring import ScoreSheet, score
from domain.serial import prompt_of, state_from_dict, state_to_dict
from domain.setup_choices import setup_choices
from domain.setup_form import setup_form
from domain.solo.game import RIVAL_NAME, is_automatic
from domain.state import GameState
from domain.table import choice
from domain.words import board_parts, part_text, prompt_help, prompt_text

__all__ = [
    "EXPANSIONS",
    "RIVAL_NAME",
    "RULES_VERSION",
    "RULES_VERSIONS",
    "Catalog",
    "Coordinates",
    "DomainError",
    "GameOver",
    "GameState",
    "IllegalMove",
    "InvalidLayout",
    "InvalidMove",
    "InvalidSetup",
    "InvalidTallies",
    "Move",
    "NotYourTurn",
    "ScoreSheet",
    "Step",
    "apply",
    "board_parts",
    "catalog_of",
    "check_catalog",
    "choice",
    "coordinates",
    "describe",
    "expansions_of",
    "first_game_layout",
    "is_automatic",
    "is_over",
    "lay_out",
    "layout_of",
    "legal",
    "legal_moves",
    "new_game",
    "part_text",
    "payment_text",
    "prompt_help",
    "prompt_of",
    "prompt_text",
    "reseated",
    "resolve_chance",
    "score",
    "score_sheet",
    "seat_text",
    "setup_choices",
    "setup_dealt",
    "setup_form",
    "state_from_dict",
    "state_to_dict",
    "step",
]
