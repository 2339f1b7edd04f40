"""The White Castle rules engine: pure, immutable, standard library only.

This package is heronlog's innermost layer (DESIGN §2). It knows the rules of The White Castle
(../shared/rules/RULES.md, numbered R-xx) and nothing about storage, HTTP or time: every function takes a
state and returns a new one. The other layers (`replay`, `api`) import it; it imports none of them.
"""

RULES_VERSION = "0.1.0"
"""The version of the rules this engine enforces; stored in every game's first event (DESIGN §2)."""

__all__ = ["RULES_VERSION"]
