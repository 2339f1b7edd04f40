"""Fixtures of the Redis store tests: a fresh key prefix per test, and datastores that are closed after it."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from replay.store import RedisDatastore
from tests.integration.store.support import fresh_prefix, purge


@pytest.fixture(params=["redis_url", "cluster_url"], ids=["standalone", "cluster"])
def any_url(request: pytest.FixtureRequest) -> str:
    """The standalone server, then the cluster: tests using this run on both."""
    return str(request.getfixturevalue(request.param))


@pytest.fixture
def prefix() -> str:
    """A key prefix of this test's own."""
    return fresh_prefix()


@pytest.fixture
def make_datastore(prefix: str) -> Iterator[Callable[[str], RedisDatastore]]:
    """Build datastores on a URL under this test's prefix; closes them and deletes their keys afterwards."""
    made: list[RedisDatastore] = []

    def make(url: str) -> RedisDatastore:
        datastore = RedisDatastore(url, prefix=prefix)
        made.append(datastore)
        return datastore

    yield make
    urls = {datastore.url for datastore in made}
    for datastore in made:
        datastore.close()
    for url in urls:
        purge(url, prefix)
