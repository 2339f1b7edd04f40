"""Spreading games over several applications ("shards"), each with its own hash tag and notification log.

One application's log lives on one Redis node, so shards are how a cluster spreads the games
(docs/operations/scale-out.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar
from uuid import UUID

A = TypeVar("A")


def shard_index(originator_id: UUID | str, shards: int) -> int:
    """The shard (0 .. shards-1) of an aggregate: stable across processes and Python versions."""
    if shards < 1:
        raise ValueError(f"shards must be at least 1, not {shards}")
    if isinstance(originator_id, UUID):
        number = originator_id.int
    else:
        number = int.from_bytes(hashlib.blake2b(originator_id.encode(), digest_size=8).digest(), "big")
    return number % shards


def shard_names(base: str, shards: int) -> list[str]:
    """The application names of the shards: ``Games0``, ``Games1``, ... for ``base="Games"``."""
    return [f"{base}{index}" for index in range(shards)]


def shard_classes(application_class: type[A], shards: int) -> list[type[A]]:
    """One subclass of ``application_class`` per shard, differing only in ``name`` (which the library uses for
    the keys and for per-application environment variables such as ``GAMES1_REDIS_URL``)."""
    base = getattr(application_class, "name", application_class.__name__)
    return [
        type(name, (application_class,), {"name": name, "__module__": application_class.__module__})
        for name in shard_names(base, shards)
    ]


class ShardRouter(Generic[A]):
    """The shards' applications, and which one holds a given aggregate."""

    def __init__(self, applications: Sequence[A]) -> None:
        if not applications:
            raise ValueError("a router needs at least one application")
        self.applications = list(applications)

    @classmethod
    def build(
        cls, application_class: type[A], shards: int, construct: Callable[[type[A]], A]
    ) -> ShardRouter[A]:
        """Construct one application per shard with ``construct(shard_class)``."""
        return cls([construct(shard_class) for shard_class in shard_classes(application_class, shards)])

    def application_for(self, originator_id: UUID | str) -> A:
        """The application that records the aggregate with this id."""
        return self.applications[shard_index(originator_id, len(self.applications))]
