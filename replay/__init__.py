"""The event-sourced game log: games, history, undo, branches, annotations and exports (DESIGN §3).

This layer sits between the rules engine (``domain``) and the HTTP application (``api``). It imports
``domain`` and the eventsourcing library, never ``api``.
"""

from replay.config import STORE_KINDS, ConfigError, StoreConfig, StoreKind

__all__ = ["STORE_KINDS", "ConfigError", "StoreConfig", "StoreKind"]
