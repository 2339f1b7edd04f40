"""A Redis persistence module for the eventsourcing library (docs/operations/redis.md).

``PERSISTENCE_MODULE=replay.store`` and ``REDIS_URL``: a factory, four recorders and the Lua scripts they run.
"""

from replay.store.datastore import RedisDatastore, RedisEvictionWarning
from replay.store.errors import OutcomeUnknownError
from replay.store.factory import RedisFactory
from replay.store.recorders import (
    RedisAggregateRecorder,
    RedisApplicationRecorder,
    RedisProcessRecorder,
    RedisTrackingRecorder,
    ViewCommand,
)
from replay.store.subscription import RedisSubscription

__all__ = [
    "OutcomeUnknownError",
    "RedisAggregateRecorder",
    "RedisApplicationRecorder",
    "RedisDatastore",
    "RedisEvictionWarning",
    "RedisFactory",
    "RedisProcessRecorder",
    "RedisSubscription",
    "RedisTrackingRecorder",
    "ViewCommand",
]
