"""How failures of Redis and of redis-py become the eventsourcing library's persistence errors.

A write whose reply was lost is never sent again blindly: what was stored is read first.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import redis
import redis.exceptions as rex
from eventsourcing.persistence import (
    DatabaseError,
    DataError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    PersistenceError,
    ProgrammingError,
)

INTEGRITY_CODES = frozenset({"HLCONFLICT", "HLGAP", "HLTRACKING"})
OPERATIONAL_CODES = frozenset(
    {"OOM", "MISCONF", "BUSY", "LOADING", "MASTERDOWN", "READONLY", "CLUSTERDOWN", "TRYAGAIN", "NOREPLICAS"}
)
PROGRAMMING_CODES = frozenset({"WRONGTYPE", "CROSSSLOT", "NOPERM", "NOSCRIPT", "UNKILLABLE"})


class OutcomeUnknownError(OperationalError):
    """A write was sent but its reply was lost (connection dropped or timed out): it may have been applied."""


class HeldStaleError(DatabaseError):
    """A one-trip append refused before writing (``HLSTALE``): the store does not hold what the write was decided
    on as the process does, or its count or key use would refuse it (replay.one_trip)."""


class NotReplicatedError(OperationalError):
    """A write was applied on the master but fewer replicas than asked confirmed it within the timeout
    (``REDIS_WAIT_REPLICAS``): it is not acknowledged, and may be lost if the master fails now."""


class RecordMissingError(DataError):
    """A stream's index names a notification that the log does not hold: the stored data is damaged.
    ``version`` is the version of the stream whose record is missing, when it is known."""

    def __init__(self, message: str, *, version: int | None = None) -> None:
        super().__init__(message)
        self.version = version


PIPELINE_ERROR = " of pipeline caused error: "


def error_code(error: rex.ResponseError) -> str:
    """The first word of an error reply, which Redis uses as the error's code (``WRONGTYPE``, ``OOM``...).
    redis-py puts ``Command # 1 (...) of pipeline caused error:`` before the reply of a command of a pipeline."""
    text = str(error)
    if text.startswith("Command # ") and PIPELINE_ERROR in text:
        text = text.split(PIPELINE_ERROR, 1)[1]
    return text.split(" ", 1)[0] if text else ""


def translate(error: Exception, *, write: bool = False) -> PersistenceError:
    """The library's error class for a redis-py error; ``write`` marks calls that change data."""
    if isinstance(error, rex.AuthenticationError | rex.BusyLoadingError):
        # Both subclass ConnectionError but are refused before any command runs: never ambiguous.
        return OperationalError(str(error))
    if isinstance(error, redis.ConnectionError | redis.TimeoutError | TimeoutError | ConnectionError):
        if write:
            return OutcomeUnknownError(f"no reply to a write, it may or may not have been applied: {error}")
        return OperationalError(str(error))
    if isinstance(error, rex.ClusterDownError | rex.TryAgainError | rex.SlotNotCoveredError):
        return OperationalError(str(error))
    if isinstance(error, rex.NoPermissionError):
        return ProgrammingError(str(error))
    if isinstance(error, rex.ResponseError):
        code = error_code(error)
        if code in INTEGRITY_CODES:
            return IntegrityError(str(error))
        if code == "HLSTALE":
            return HeldStaleError(str(error))
        if code in OPERATIONAL_CODES or isinstance(error, rex.ReadOnlyError | rex.OutOfMemoryError):
            return OperationalError(str(error))
        if code in PROGRAMMING_CODES:
            return ProgrammingError(str(error))
        return DatabaseError(str(error))
    if isinstance(error, rex.DataError):
        return InterfaceError(str(error))
    if isinstance(error, rex.RedisClusterException):
        # Raised by the cluster client when it cannot map a slot to a reachable node.
        return OperationalError(str(error))
    return DatabaseError(str(error))


@contextmanager
def translated(*, write: bool = False) -> Iterator[None]:
    """Run a block of redis-py calls, raising the library's error classes instead of redis-py's."""
    try:
        yield
    except PersistenceError:
        raise
    except (redis.RedisError, rex.RedisClusterException, OSError) as error:
        # RedisClusterException is not a RedisError: the cluster client raises it when no reachable node
        # serves a slot (a master down and not replaced), which is the store being unavailable.
        raise translate(error, write=write) from error
