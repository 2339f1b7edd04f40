"""A Redis persistence module for the eventsourcing library (docs/operations/redis.md).

Selected with ``PERSISTENCE_MODULE=replay.store`` and ``REDIS_URL``; the library finds :class:`RedisFactory`
here. ``factory.py`` lists the environment keys, ``recorders.py`` the key layout, ``scripts.py`` the Lua
scripts, ``subscription.py`` how subscriptions follow the log, ``shards.py`` how to spread games over several
applications, and ``errors.py`` how Redis errors become the library's.
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
