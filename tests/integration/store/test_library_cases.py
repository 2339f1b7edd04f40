"""The eventsourcing library's own test cases, run against the Redis persistence module.

Every case runs twice: against the standalone redis-server and against the 3-master Redis Cluster that
`make test` starts. Each test gets a key prefix of its own and deletes its keys afterwards.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    ProcessRecorder,
    TrackingRecorder,
)
from eventsourcing.tests import application as library_application
from eventsourcing.tests import persistence as library_persistence
from eventsourcing.tests import projection as library_projection
from eventsourcing.tests.projection import EventCountersView
from eventsourcing.utils import Environment

from replay.store import (
    RedisAggregateRecorder,
    RedisApplicationRecorder,
    RedisDatastore,
    RedisFactory,
    RedisProcessRecorder,
    RedisTrackingRecorder,
)
from tests.integration.store.support import RedisEventCountersView, fresh_prefix, purge


class OnStandalone:
    """Runs a library test case against the standalone redis-server, under a fresh key prefix."""

    __test__ = True  # the case classes below are not collected on their own (they set it to False)

    url_fixture: ClassVar[str] = "redis_url"
    redis_url: str
    prefix: str

    @pytest.fixture(autouse=True)
    def _redis(self, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
        self.redis_url = request.getfixturevalue(self.url_fixture)
        self.prefix = fresh_prefix()
        self._datastores: list[RedisDatastore] = []
        # Applications built by the library's cases read their persistence settings from os.environ.
        monkeypatch.setenv("PERSISTENCE_MODULE", "replay.store")
        monkeypatch.setenv("REDIS_URL", self.redis_url)
        monkeypatch.setenv("REDIS_KEY_PREFIX", self.prefix)
        yield
        for datastore in self._datastores:
            datastore.close()
        purge(self.redis_url, self.prefix)

    def datastore(self) -> RedisDatastore:
        datastore = RedisDatastore(self.redis_url, prefix=self.prefix)
        self._datastores.append(datastore)
        return datastore


class OnCluster(OnStandalone):
    """Runs a library test case against the 3-master Redis Cluster."""

    url_fixture: ClassVar[str] = "cluster_url"


# --- recorders -------------------------------------------------------------------------------------------


class SnapshotRecorderCases(library_persistence.AggregateRecorderTestCase):
    __test__ = False

    def create_recorder(self) -> AggregateRecorder:
        return RedisAggregateRecorder(self.datastore(), name="app", purpose="snapshots")  # type: ignore[attr-defined]


class ApplicationRecorderCases(library_persistence.ApplicationRecorderTestCase[RedisApplicationRecorder]):
    __test__ = False

    def create_recorder(self) -> RedisApplicationRecorder:
        return RedisApplicationRecorder(self.datastore(), name="app")  # type: ignore[attr-defined]

    def test_insert_subscribe(self) -> None:
        self.optional_test_insert_subscribe()


class TrackingRecorderCases(library_persistence.TrackingRecorderTestCase):
    __test__ = False

    def create_recorder(self) -> TrackingRecorder:
        return RedisTrackingRecorder(self.datastore(), name="view")  # type: ignore[attr-defined]


class ProcessRecorderCases(library_persistence.ProcessRecorderTestCase):
    __test__ = False

    def create_recorder(self) -> ProcessRecorder:
        return RedisProcessRecorder(self.datastore(), name="process")  # type: ignore[attr-defined]


class NonInterleavingCases(library_persistence.NonInterleavingNotificationIDsBaseCase):
    __test__ = False

    def create_recorder(self) -> ApplicationRecorder:
        return RedisApplicationRecorder(self.datastore(), name="app")  # type: ignore[attr-defined]


class TestSnapshotRecorder(OnStandalone, SnapshotRecorderCases):
    pass


class TestApplicationRecorder(OnStandalone, ApplicationRecorderCases):
    pass


class TestTrackingRecorder(OnStandalone, TrackingRecorderCases):
    pass


class TestProcessRecorder(OnStandalone, ProcessRecorderCases):
    pass


class TestNonInterleavingNotificationIDs(OnStandalone, NonInterleavingCases):
    pass


class TestClusterSnapshotRecorder(OnCluster, SnapshotRecorderCases):
    pass


class TestClusterApplicationRecorder(OnCluster, ApplicationRecorderCases):
    pass


class TestClusterTrackingRecorder(OnCluster, TrackingRecorderCases):
    pass


class TestClusterProcessRecorder(OnCluster, ProcessRecorderCases):
    pass


class TestClusterNonInterleavingNotificationIDs(OnCluster, NonInterleavingCases):
    pass


# --- factory and applications ----------------------------------------------------------------------------


class RedisTrackingRecorderSubclass(RedisTrackingRecorder):
    pass


class FactoryCases(library_persistence.InfrastructureFactoryTestCase[RedisFactory]):
    __test__ = False

    redis_url: str
    prefix: str

    def setUp(self) -> None:
        self.env = Environment(
            "TestCase",
            {
                "PERSISTENCE_MODULE": "replay.store",
                "REDIS_URL": self.redis_url,
                "REDIS_KEY_PREFIX": self.prefix,
            },
        )
        super().setUp()

    def expected_factory_class(self) -> type[RedisFactory]:
        return RedisFactory

    def expected_aggregate_recorder_class(self) -> type[AggregateRecorder]:
        return RedisAggregateRecorder

    def expected_application_recorder_class(self) -> type[ApplicationRecorder]:
        return RedisApplicationRecorder

    def expected_tracking_recorder_class(self) -> type[TrackingRecorder]:
        return RedisTrackingRecorder

    def tracking_recorder_subclass(self) -> type[TrackingRecorder]:
        return RedisTrackingRecorderSubclass

    def expected_process_recorder_class(self) -> type[ProcessRecorder]:
        return RedisProcessRecorder


class ExampleApplicationCases(library_application.ExampleApplicationTestCase):
    __test__ = False

    expected_factory_topic = "replay.store.factory:RedisFactory"


class EventCountersViewCases(library_projection.EventCountersViewTestCase):
    __test__ = False

    def construct_event_counters_view(self) -> EventCountersView:
        return RedisEventCountersView(self.datastore(), name="eventcounters")  # type: ignore[attr-defined]


class AggregateProjectionCases(library_projection.AggregateEventCountersProjectionTestCase):
    __test__ = False

    view_class = RedisEventCountersView


class TaggedDecisionProjectionCases(library_projection.TaggedDecisionCountersProjectionTestCase):
    __test__ = False

    # The DCB application needs a DCB recorder, which this module does not provide: the application runs on
    # the library's in-memory DCB module and the projection's view (the part under test) on Redis.
    view_class = RedisEventCountersView
    env: ClassVar[dict[str, str]] = {
        "DCBAPPLICATION_PERSISTENCE_MODULE": "eventsourcing.dcb.popo",
        "MAPPER_TOPIC": "eventsourcing.dcb.msgpack:MessagePackMapper",
    }


class EventSourcedProjectionCases(library_projection.EventSourcedProjectionTestCase):
    __test__ = False

    pass


class TestFactory(OnStandalone, FactoryCases):
    pass


class TestExampleApplication(OnStandalone, ExampleApplicationCases):
    pass


class TestEventCountersView(OnStandalone, EventCountersViewCases):
    pass


class TestAggregateProjection(OnStandalone, AggregateProjectionCases):
    pass


class TestTaggedDecisionProjection(OnStandalone, TaggedDecisionProjectionCases):
    pass


class TestEventSourcedProjection(OnStandalone, EventSourcedProjectionCases):
    pass


class TestClusterFactory(OnCluster, FactoryCases):
    pass


class TestClusterExampleApplication(OnCluster, ExampleApplicationCases):
    pass


class TestClusterAggregateProjection(OnCluster, AggregateProjectionCases):
    pass


class TestClusterEventSourcedProjection(OnCluster, EventSourcedProjectionCases):
    pass


def test_the_library_finds_the_factory_from_the_module_topic(redis_url: str) -> None:
    """`PERSISTENCE_MODULE=replay.store` resolves to exactly one factory class: RedisFactory."""
    from eventsourcing.persistence import InfrastructureFactory

    env: dict[str, Any] = {"PERSISTENCE_MODULE": "replay.store", "REDIS_URL": redis_url}
    factory = InfrastructureFactory.construct(Environment("x", env))
    try:
        assert type(factory) is RedisFactory
    finally:
        factory.close()
    assert os.environ.get("PERSISTENCE_MODULE") != "replay.store"  # the fixtures above never leak
