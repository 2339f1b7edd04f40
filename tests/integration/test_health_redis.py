"""/healthz and /readyz against the real redis-server and Redis Cluster started by `make test`."""

from __future__ import annotations

import shutil
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import redis
from flask.testing import FlaskClient

from api import create_app
from api.resources.context import EXTENSION
from replay.config import StoreConfig
from tests.redis_process import RedisProcess


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


def test_readyz_says_read_only_when_redis_refuses_writes_after_a_failed_snapshot(tmp_path: Path) -> None:
    """``MISCONF``: a Redis whose last background save failed (its folder gone, here) refuses every write
    (``stop-writes-on-bgsave-error``, on by default) while reads answer."""
    folder = tmp_path / "redis"
    folder.mkdir()
    server = RedisProcess(folder, "--save", "3600 1")  # MISCONF needs a save point
    server.start()
    try:
        store = StoreConfig(
            kind="redis", redis_url=server.url, redis_prefix=f"misconf-{uuid.uuid4().hex[:8]}"
        )
        with client_of(store) as client:
            created = client.post("/api/games", json={"players": 2, "seed": 4})
            assert created.status_code == 201 and created.json is not None
            game_id = created.json["game"]["game_id"]
            shutil.rmtree(folder)
            admin = redis.Redis.from_url(server.url)
            admin.bgsave()
            deadline = time.monotonic() + 20
            while admin.info("persistence").get("rdb_last_bgsave_status") != "err":
                assert time.monotonic() < deadline, "the save did not fail"
                time.sleep(0.05)
            admin.close()
            ready = client.get("/readyz")
            assert ready.status_code == 503 and ready.json is not None, ready.json
            assert ready.json["status"] == "read-only" and "MISCONF" in ready.json["shards"][0]["detail"]
            assert client.get(f"/api/games/{game_id}").status_code == 200
            refused = client.post("/api/games", json={"players": 2, "seed": 5})
            assert refused.status_code == 503 and refused.json is not None
            assert refused.json["error_code"] == "store_unavailable"
    finally:
        server.kill()  # a SIGTERM would wait on its last save, which cannot be written
