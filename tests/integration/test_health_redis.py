"""/healthz and /readyz against the real redis-server and Redis Cluster started by `make test`."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

from flask.testing import FlaskClient

from api import create_app
from api.resources.context import EXTENSION
from replay.config import StoreConfig


@contextmanager
def client_of(store: StoreConfig) -> Iterator[FlaskClient]:
    """A test client of an app on ``store``, whose game log (and its connections) is closed afterwards."""
    app = create_app({"STORE": store})
    try:
        yield app.test_client()
    finally:
        app.extensions[EXTENSION].get().log.close()


def test_readyz_reports_a_live_redis_read_and_written(redis_url: str) -> None:
    store = StoreConfig.from_environ(
        {"REDIS_URL": redis_url, "REDIS_KEY_PREFIX": f"ready-{uuid.uuid4().hex[:8]}"}
    )
    with client_of(store) as client:
        assert client.get("/healthz").status_code == 200
        response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json is not None
    assert response.json["store"] == "redis" and response.json["status"] == "ok"
    [shard] = response.json["shards"]
    assert shard["status"] == "ok" and shard["detail"] == "reads and writes answer"
    assert shard["node"] == redis_url.split("//", 1)[1].split("/", 1)[0]


def test_readyz_reports_each_shard_of_a_cluster_with_its_node(cluster_url: str) -> None:
    store = StoreConfig.from_environ(
        {
            "REDIS_URL": cluster_url,
            "HERONLOG_SHARDS": "3",
            "REDIS_KEY_PREFIX": f"ready-{uuid.uuid4().hex[:8]}",
        }
    )
    with client_of(store) as client:
        response = client.get("/readyz")
    assert response.status_code == 200 and response.json is not None and response.json["status"] == "ok"
    shards = response.json["shards"]
    assert [shard["name"] for shard in shards] == ["GameLog0", "GameLog1", "GameLog2"]
    assert all(shard["status"] == "ok" and shard["node"] for shard in shards)
