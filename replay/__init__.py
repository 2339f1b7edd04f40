"""The event-sourced game log: games, history, undo, branches, annotations and exports
(docs/architecture/game-log.md).
"""

__distribution__ = "heronlog"  # api.own_packages checks that this package is heronlog's

from replay.config import STORE_KINDS, ConfigError, StoreConfig, StoreKind
from replay.errors import (
    AmendUnchanged,
    AnnotationNotFound,
    GameClosed,
    GameCorrupt,
    GameNotFound,
    InvalidAnnotation,
    InvalidLog,
    InvalidResolution,
    InvalidSetup,
    NothingToRedo,
    NothingToUndo,
    ReplayError,
    ResolutionNotLater,
    ResolutionNotNeeded,
    ResolutionRepeated,
    ResolutionUnused,
    RulesVersionUnsupported,
    StaleVersion,
    UnknownVersion,
)

__all__ = [
    "STORE_KINDS",
    "AmendUnchanged",
    "AnnotationNotFound",
    "ConfigError",
    "GameClosed",
    "GameCorrupt",
    "GameLog",
    "GameNotFound",
    "InvalidAnnotation",
    "InvalidLog",
    "InvalidResolution",
    "InvalidSetup",
    "NothingToRedo",
    "NothingToUndo",
    "ReplayError",
    "ResolutionNotLater",
    "ResolutionNotNeeded",
    "ResolutionRepeated",
    "ResolutionUnused",
    "RulesVersionUnsupported",
    "StaleVersion",
    "StoreConfig",
    "StoreKind",
    "UnknownVersion",
]


def __getattr__(name: str) -> object:
    # GameLog pulls in the eventsourcing library and the rules engine: import it on first use only, so that
    # reading the configuration (e.g. for /healthz or the command line's --help) stays cheap.
    if name == "GameLog":
        from replay.application import GameLog

        return GameLog
    raise AttributeError(name)
