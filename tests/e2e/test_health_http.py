"""The thin slice over real HTTP: `heronlog serve` answers /healthz from gunicorn with the SQLite store."""

from __future__ import annotations

from pathlib import Path

from api.app import package_version
from tests.e2e.conftest import Served, serve


def test_serve_answers_healthz_on_the_embedded_store(sqlite_server: Served, tmp_path: Path) -> None:
    status, body = sqlite_server.get_json("/healthz")
    assert status == 200
    assert body["store"] == "sqlite"
    assert body["version"] == package_version()
    # The banner names the SQLite file, inside HERONLOG_DATA.
    assert str(tmp_path / "data" / "heronlog.sqlite") in sqlite_server.output()
    assert "gunicorn" in sqlite_server.output().lower()


def test_serve_with_redis_url_uses_redis(redis_url: str, tmp_path: Path) -> None:
    for served in serve(tmp_path, {"REDIS_URL": redis_url, "HERONLOG_STORE": ""}):
        status, body = served.get_json("/healthz")
        assert (status, body["store"]) == (200, "redis")
