"""GET /healthz (liveness) names the store kind and the package version; GET /readyz says whether the store
serves."""

from __future__ import annotations

from pathlib import Path

import pytest

from api import create_app
from api.app import package_version
from replay.config import ConfigError, StoreConfig


def test_healthz_names_the_memory_store() -> None:
    client = create_app({"STORE": StoreConfig(kind="memory"), "TESTING": True}).test_client()
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json == {
        "status": "ok",
        "store": "memory",
        "version": package_version(),
        "detail": "the process answers; GET /readyz says whether the store serves",
    }
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json["status"] == "ok" and ready.json["shards"] == [
        {"name": "GameLog", "status": "ok", "detail": "in memory", "node": None}
    ]


def test_health_does_not_tell_anyone_where_the_data_lives(tmp_path: Path) -> None:
    client = create_app({"STORE": StoreConfig.from_environ({"HERONLOG_DATA": str(tmp_path)})}).test_client()
    for route in ("/healthz", "/readyz"):
        answer = client.get(route)
        assert answer.status_code == 200 and answer.json["store"] == "sqlite"
        assert str(tmp_path) not in answer.get_data(as_text=True)
    assert client.get("/readyz").json["shards"][0]["detail"] == "the SQLite file reads and writes"


def test_sqlite_is_the_default_store_in_the_data_folder(tmp_path: Path) -> None:
    config = StoreConfig.from_environ({"HERONLOG_DATA": str(tmp_path)})
    assert config.kind == "sqlite"
    assert config.sqlite_path == tmp_path / "heronlog.sqlite"
    assert config.eventsourcing_env() == {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(tmp_path / "heronlog.sqlite"),
    }


def test_redis_url_switches_the_default_to_redis() -> None:
    config = StoreConfig.from_environ({"REDIS_URL": "redis://127.0.0.1:1/0"})
    assert config.kind == "redis"
    assert config.eventsourcing_env()["PERSISTENCE_MODULE"] == "replay.store"


def test_explicit_store_wins_over_redis_url() -> None:
    assert StoreConfig.from_environ({"REDIS_URL": "redis://x"}, kind="memory").kind == "memory"


@pytest.mark.parametrize("environ", [{"HERONLOG_STORE": "redis"}, {"HERONLOG_STORE": "mongo"}])
def test_unusable_store_is_a_clear_error(environ: dict[str, str]) -> None:
    with pytest.raises(ConfigError):
        StoreConfig.from_environ(environ)


def test_readyz_answers_503_when_redis_is_unreachable_and_healthz_still_200() -> None:
    # Port 1 on loopback refuses connections: the check must say so, not crash.
    store = StoreConfig(kind="redis", redis_url="redis://127.0.0.1:1/0")
    client = create_app({"STORE": store}).test_client()
    response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json["store"] == "redis"
    assert response.json["status"] == "unavailable"
    assert response.headers["Retry-After"]
    assert client.get("/healthz").status_code == 200
