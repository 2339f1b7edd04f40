"""The errors the rules engine raises, by kind (docs/api/errors.md lists their codes).

Each carries a stable ``code``, the broken rule's number, a human ``message`` and JSON-ready ``details``; the
codes are a contract, so never rename one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar


class DomainError(Exception):
    """Base class of every error raised by `domain`."""

    code: ClassVar[str] = "domain_error"
    """The stable code of the kind of error, a constant of each class (ClassVar: so a compiled build keeps it one)."""

    def __init__(self, message: str, *, rule: str | None = None, details: Mapping[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.rule = rule
        self.details: dict[str, Any] = dict(details or {})

    def to_dict(self) -> dict[str, Any]:
        """The error as JSON: code, rule, message and details."""
        return {"code": self.code, "rule": self.rule, "message": self.message, "details": self.details}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, rule={self.rule!r}, message={self.message!r})"


class InvalidMove(DomainError):
    """The move is malformed: unknown kind, missing or unexpected field, wrong type or unknown name."""

    code = "invalid_move"


class IllegalMove(DomainError):
    """The move is well formed but the rules forbid it now; ``rule`` names the rule it breaks."""

    code = "illegal_move"


class NotYourTurn(DomainError):
    """The move is for a seat the engine is not waiting on."""

    code = "not_your_turn"


class GameOver(DomainError):
    """The game has ended: no move applies any more."""

    code = "game_over"


class InvalidSetup(DomainError):
    """An impossible setup: player count, names, mode, unknown option or value, bad catalog override. Raised by
    `new_game` and by the game log's checks of a setup alike; ``details`` may also be given as keywords."""

    code = "invalid_setup"

    def __init__(
        self,
        message: str,
        *,
        rule: str | None = None,
        details: Mapping[str, Any] | None = None,
        **more: Any,
    ) -> None:
        super().__init__(message, rule=rule, details={**(details or {}), **more})


class InvalidTallies(DomainError):
    """`score_sheet` was given tallies that no game can produce (negative counts, unknown fields...)."""

    code = "invalid_tallies"


class InvalidLayout(DomainError):
    """A setup layout (`domain.layout.lay_out`) that the rules refuse or that does not fit the game: every
    problem is in ``details.errors``, each with its ``field`` (``castle.steward_2``), ``rule`` and ``message``;
    ``details.field`` and ``rule`` are the first one's."""

    code = "invalid_layout"
