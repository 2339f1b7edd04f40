"""The replay layer's errors: one hierarchy with the rules engine's (``domain.errors.DomainError``).

Each has a stable machine ``code``, a human ``message`` and ``details``; ``rule`` is None here, since these errors
are about the log, not about the rules. ``InvalidSetup`` is the engine's own, re-exported: the log's checks of a
setup and the engine's refuse a setup with one class. The API turns every ``DomainError`` into its one error
envelope.
"""

from __future__ import annotations

from typing import Any

from domain.errors import DomainError
from domain.errors import InvalidSetup as InvalidSetup  # noqa: PLC0414 (re-exported, as mypy strict asks)


class ReplayError(DomainError):
    """Base of the replay layer's errors."""

    code = "replay_error"

    def __init__(self, message: str, **details: Any) -> None:
        super().__init__(message, details=details)


class GameNotFound(ReplayError):
    """No game has this id in this store."""

    code = "game_not_found"


class StaleVersion(ReplayError):
    """A write named a version that is no longer the game's current one: nothing was written."""

    code = "stale_version"

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            f"the game is at version {current}, not {expected}: reload it and try again",
            expected_version=expected,
            current_version=current,
        )
        self.current_version = current


class UnknownVersion(ReplayError):
    """A version that this game does not have, or that does not hold what the request needs."""

    code = "unknown_version"


class NothingToUndo(ReplayError):
    """Undo was asked for, but no effective move lies after the requested version."""

    code = "nothing_to_undo"


class NothingToRedo(ReplayError):
    """Redo was asked for, but nothing undone can be redone (a new move was played since, or nothing was
    undone)."""

    code = "nothing_to_redo"


class AmendUnchanged(ReplayError):
    """An amendment named the very move already recorded at that version: it would change nothing, so it is
    refused rather than written as an event that corrects nothing."""

    code = "amend_unchanged"


class InvalidResolution(ReplayError):
    """A resolution of an amendment (a move really played in place of a later move that no longer fits) that
    cannot be read: not an object, no line ``index``, neither or both of ``move`` and ``moves``."""

    code = "invalid_resolution"


class ResolutionNotLater(InvalidResolution):
    """A resolution names a line index that is not a move after the amended one on the line of play."""

    code = "resolution_not_later"


class ResolutionRepeated(InvalidResolution):
    """Two resolutions name the same line index."""

    code = "resolution_repeated"


class ResolutionNotNeeded(InvalidResolution):
    """A resolution names a recorded move that still fits where it stands after the correction: it is kept as
    recorded, and a resolution there would rewrite a move that was right."""

    code = "resolution_not_needed"


class ResolutionUnused(InvalidResolution):
    """A resolution is never reached: an earlier later move no longer fits and has none, so the moves from it on
    leave the line of play, the resolved one among them."""

    code = "resolution_unused"


class InvalidCorrection(ReplayError):
    """A correction that cannot be made as asked: a setup correction of a game whose setup was not laid out at
    creation, a seat the game does not have, a replacement or insertion without its moves."""

    code = "invalid_correction"


class GameClosed(ReplayError):
    """The game was abandoned: it can be read, forked and exported, not played on."""

    code = "game_closed"


class AnnotationNotFound(ReplayError):
    """No annotation has this id in this game."""

    code = "annotation_not_found"


class InvalidAnnotation(ReplayError):
    """An annotation's text, glyph, target or version is not acceptable."""

    code = "invalid_annotation"


class InvalidLog(ReplayError):
    """An imported log does not refold: ``details['problems']`` lists every problem with its position."""

    code = "invalid_log"

    def __init__(self, problems: list[dict[str, Any]]) -> None:
        first = problems[0]["message"] if problems else "empty log"
        super().__init__(f"the log has {len(problems)} problem(s); the first: {first}", problems=problems)
        self.problems = problems


class ImportTooLarge(ReplayError):
    """An import holds more events than this installation takes in one import (its ``IMPORT_MAX_EVENTS``)."""

    code = "import_too_large"


class KeyReused(ReplayError):
    """A move sent with an ``Idempotency-Key`` that the log holds for other moves: not a retry of them."""

    code = "idempotency_key_reused"


class AnalysisUnavailable(ReplayError):
    """The analyses cannot run on this deployment: their job queue is not configured (a Redis Cluster store
    names no ``HERONLOG_QUEUE_URL``). Recording, replays and streams go on without them."""

    code = "analysis_unavailable"


class GameCorrupt(ReplayError):
    """A game's stored events (or those of its annotations or grants) are damaged: a record fails its integrity
    check, cannot be read, is missing from an unbroken run of versions, or does not fold. Nothing is written to
    the game; the other games of the store are not affected (``heronlog verify`` lists every damaged record).
    """

    code = "game_corrupt"

    @classmethod
    def of(cls, stream_id: object, version: int | None, detail: str, *, part: str = "game") -> GameCorrupt:
        """The error for a damaged stream, naming it (a game's own stream: the game) and the version."""
        where = "" if version is None else f" at version {version}"
        what = f"game {stream_id}" if part == "game" else f"the {part} of game {stream_id}"
        error = cls(
            f"the stored events of {what} are damaged{where}: {detail}. Nothing was changed; the other games "
            "are not affected",
            game_id=str(stream_id),
            version=version,
            part=part,
            detail=detail,
        )
        return error

    def within(self, game_id: object, part: str) -> GameCorrupt:
        """This error, said of the ``part`` (annotations, grants) of game ``game_id`` rather than of the stream."""
        return GameCorrupt.of(
            game_id, self.details.get("version"), str(self.details.get("detail")), part=part
        )


class RulesVersionUnsupported(ReplayError):
    """A game was recorded under rules this build cannot replay."""

    code = "rules_version_unsupported"


def store_unavailable(error: BaseException) -> bool:
    """Whether ``error`` says the event store did not answer (or cannot take writes now): unreachable, timed
    out, full (Redis ``noeviction``), read-only, or without its cluster. Such a request may be tried again."""
    import sqlite3

    from eventsourcing.persistence import OperationalError

    # sqlite3's own: the library lets it through unwrapped where it opens a connection (a file on a volume
    # mounted read-only, a folder gone, a disk full while the write-ahead log is made).
    if isinstance(error, OperationalError | ConnectionError | TimeoutError | sqlite3.OperationalError):
        return True
    import redis
    from redis.exceptions import RedisClusterException

    from replay.store.errors import translate

    # A redis-py error that reached here without the store's own translation (a read made outside a
    # recorder) is judged by the same mapping the store uses. RedisClusterException (no reachable node serves
    # a slot) is not a RedisError.
    return isinstance(error, redis.RedisError | RedisClusterException) and isinstance(
        translate(error), OperationalError
    )


class AnalysisRunning(ReplayError):
    """An analysis of the game is under way for another version of it: one analysis runs at a time per game."""

    code = "analysis_running"


class NothingToAnalyse(ReplayError):
    """An analysis was asked for a game with no decision yet: no move of its line was chosen by a player."""

    code = "nothing_to_analyse"
