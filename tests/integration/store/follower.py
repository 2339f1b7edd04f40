"""A projection process for the cross-process test: follows an application's log in Redis and counts events
into a Redis view, until its standard input closes.

Usage: python -m tests.integration.store.follower REDIS_URL KEY_PREFIX
"""

from __future__ import annotations

import sys
from uuid import UUID

from eventsourcing.application import Application
from eventsourcing.projection import ProjectionRunner
from eventsourcing.tests.projection import AggregateEventCountersProjection

from tests.integration.store.support import RedisEventCountersView


class Games(Application[UUID]):
    """The application whose log is followed (this process only reads it)."""


def main(url: str, prefix: str) -> None:
    env = {"PERSISTENCE_MODULE": "replay.store", "REDIS_URL": url, "REDIS_KEY_PREFIX": prefix}
    with ProjectionRunner(
        application_class=Games,
        projection_class=AggregateEventCountersProjection,
        view_class=RedisEventCountersView,
        env=env,
    ):
        print("following", flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main(*sys.argv[1:3])
