"""/readyz tells the truth about a SQLite store that cannot take writes: a full disk and a read-only file system,
made for real on a small RAM disk (a tmpfs mounted for the test, which needs root, as `make test` in CI has).
Every write then answers 503 and nothing is lost; reads answer; /readyz says `read-only` with 503, and `ok`
again once there is room."""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from api.app import create_app
from api.resources.context import EXTENSION
from replay.config import StoreConfig
from tests.api_helpers import ApiClient, flask_transport


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 6 MB file system of its own (tmpfs), unmounted afterwards."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small disk needs root")
    disk = tmp_path / "disk"
    disk.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(disk)], check=True)
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def fill(disk: Path) -> Path:
    """Fill the disk to its last byte with one file; the file."""
    filler = disk / "filler"
    with contextlib.suppress(OSError), filler.open("wb") as handle:
        while True:
            handle.write(b"\0" * 65536)
            handle.flush()
    with contextlib.suppress(OSError), filler.open("ab") as handle:
        while True:
            handle.write(b"\0")
            handle.flush()
    return filler


def test_a_full_disk_and_a_read_only_file_system_make_readyz_say_read_only(small_disk: Path) -> None:
    store = StoreConfig(kind="sqlite", sqlite_path=small_disk / "heronlog.sqlite")
    app = create_app({"STORE": store})
    api = ApiClient(flask_transport(app.test_client()))
    try:
        game_id, token, _ = api.create(2, seed=3)
        ready = api.get("/readyz")
        assert (ready.status, ready.body["status"]) == (200, "ok")

        filler = fill(small_disk)
        legal = api.get(f"/api/games/{game_id}/legal-moves")
        assert api.play(game_id, legal.body["moves"][0], token, legal.etag).error() == (
            503,
            "store_unavailable",
        )
        ready = api.get("/readyz")
        assert (ready.status, ready.body["status"]) == (503, "read-only"), ready.body
        assert (
            ready.body["shards"][0]["status"] == "read-only" and "full" in ready.body["shards"][0]["detail"]
        )
        assert api.get(f"/api/games/{game_id}").body["version"] == legal.body["version"]  # reads answer

        filler.unlink()
        assert (api.get("/readyz").status, api.get("/readyz").body["status"]) == (200, "ok")
        legal = api.get(f"/api/games/{game_id}/legal-moves")
        assert api.play(game_id, legal.body["moves"][0], token, legal.etag).status == 201

    finally:
        app.extensions[EXTENSION].get().log.close()

    # The same store seen through a read-only mount (a volume mounted so by mistake), served afresh: SQLite
    # cannot open its write-ahead log there, so nothing reads either: 503, never a 500.
    view = small_disk.parent / "read-only"
    view.mkdir()
    subprocess.run(["mount", "--bind", str(small_disk), str(view)], check=True)
    try:
        subprocess.run(["mount", "-o", "remount,bind,ro", str(view)], check=True)
        app = create_app({"STORE": StoreConfig(kind="sqlite", sqlite_path=view / "heronlog.sqlite")})
        api = ApiClient(flask_transport(app.test_client()))
        ready = api.get("/readyz")
        assert (ready.status, ready.body["status"]) == (503, "unavailable"), ready.body
        assert api.get(f"/api/games/{game_id}/legal-moves").error() == (503, "store_unavailable")
        assert api.get("/api/games").error() == (503, "store_unavailable")
        assert app.extensions[EXTENSION].built is None  # never opened: nothing to close
    finally:
        subprocess.run(["umount", "-l", str(view)], check=False)
