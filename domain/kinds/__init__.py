"""Every move kind, each defined once: its shape, its words and its place on the board.

A move kind is one frozen record class in one module of this package, the module named as the rulebook names
the part of the game the move belongs to (`bridges`, `action_spaces`, `actions`, `courtier`, `warrior`,
`gardener`, `personal_domain`, `resources`, `passage_of_time`, `setup`, `matcha`, `solo`, `tokugawa`). The class
holds everything said about the kind anywhere:

- its **shape**: the typed fields of its record and of its JSON form (``@kind`` compiles the two ways between
  them; `parse` reads any move's JSON form, raising `InvalidMove` for a malformed one);
- its **words**: the log's sentence (`Move.said`, `domain.describe`), what that sentence says it changed
  (`Move.stated`), its button (`Move.words`), the heading it goes under (`Move.group`) and its icons;
- its **board target**, the part of the board the move acts on (`Move.target`);
- its **costs**, read from the game's catalog, never typed again.

The engine (`domain.engine`) parses a move once and its handlers read the typed fields; the API's schemas and
OpenAPI document are generated from `KINDS`. What the words need to know of the rules (a die space's value, an
ascent's price), the kinds ask the `Table` (`domain.table`): the kinds sit low in the engine, below the board's
areas that build and read their records.

To add a move kind: define its class in the module of its part of the game (a new module is imported below),
give it the engine handler of the prompt it answers (`domain.engine.HANDLERS`), and test it.
"""

from __future__ import annotations

# Each module registers its kinds as it is imported: all of them, so that `KINDS` holds every kind.
from domain.kinds import (
    action_spaces,
    actions,
    bridges,
    courtier,
    gardener,
    matcha,
    passage_of_time,
    personal_domain,
    resources,
    setup,
    solo,
    tokugawa,
    warrior,
)
from domain.kinds.base import BOOL, CONVERT, INT, INTS, KINDS, STR, ChanceMove, Move, PlayerMove, Table, parse

__all__ = [
    "BOOL",
    "CONVERT",
    "INT",
    "INTS",
    "KINDS",
    "STR",
    "ChanceMove",
    "Move",
    "PlayerMove",
    "Table",
    "action_spaces",
    "actions",
    "bridges",
    "courtier",
    "gardener",
    "matcha",
    "parse",
    "passage_of_time",
    "personal_domain",
    "resources",
    "setup",
    "solo",
    "tokugawa",
    "warrior",
]
