"""api.server.runtime: stock gunicorn with its gevent worker chosen by name, and the open-file limit raised when
a worker's connections need it."""

from __future__ import annotations

import resource
from typing import Any

import pytest

from api.server import runtime


def test_the_worker_is_gunicorns_stock_gevent_worker_chosen_by_its_name() -> None:
    chosen = runtime.options(
        bind="127.0.0.1:8000",
        workers=2,
        connections=4096,
        reuse_port=False,
        post_worker_init=lambda worker: None,
    )
    assert chosen["worker_class"] == "gevent"
    assert chosen["worker_connections"] == 4096 and chosen["keepalive"] == runtime.KEEPALIVE_SECONDS
    from gunicorn.config import Config

    config = Config()
    for key, value in chosen.items():
        config.set(key, value)  # every option is one of gunicorn's documented settings
    assert config.worker_class_str == "gevent"


class Limits:
    """resource.getrlimit/setrlimit for RLIMIT_NOFILE, in memory."""

    def __init__(self, soft: int, hard: int) -> None:
        self.soft, self.hard = soft, hard

    def get(self, which: int) -> tuple[int, int]:
        assert which == resource.RLIMIT_NOFILE
        return self.soft, self.hard

    def set(self, which: int, limits: tuple[int, int]) -> None:
        assert which == resource.RLIMIT_NOFILE and limits[1] == self.hard and limits[0] <= self.hard
        self.soft = limits[0]


@pytest.fixture
def limits(monkeypatch: pytest.MonkeyPatch) -> Any:
    def make(soft: int, hard: int) -> Limits:
        found = Limits(soft, hard)
        monkeypatch.setattr(resource, "getrlimit", found.get)
        monkeypatch.setattr(resource, "setrlimit", found.set)
        return found

    return make


def test_a_soft_limit_below_the_connections_is_raised_to_the_hard_limit(limits: Any) -> None:
    found = limits(1024, 524288)
    assert runtime.raise_open_files(4096) == (1024, 524288)
    assert found.soft == 524288


def test_a_soft_limit_that_is_enough_is_left_alone(limits: Any) -> None:
    found = limits(65536, 524288)
    assert runtime.raise_open_files(4096) is None
    assert found.soft == 65536


def test_a_hard_limit_below_the_connections_is_still_taken_whole(limits: Any) -> None:
    found = limits(1024, 2048)
    assert runtime.raise_open_files(4096) == (1024, 2048)
    assert found.soft == 2048 and runtime.open_files_limit() == 2048
