"""/healthz against the real redis-server started by `make test`."""

from __future__ import annotations

from api import create_app
from replay.config import StoreConfig


def test_healthz_reports_a_live_redis(redis_url: str) -> None:
    store = StoreConfig.from_environ({"REDIS_URL": redis_url})
    response = create_app({"STORE": store}).test_client().get("/healthz")
    assert response.status_code == 200
    assert response.json["store"] == "redis"
    assert response.json["detail"] == "redis answered PING"
