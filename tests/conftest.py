"""Fixtures shared by every tier: the servers that `make test` (tools/teststack.py) started for us."""

from __future__ import annotations

import os
import socket

import pytest


def free_port() -> int:
    """A TCP port free on loopback now (the caller binds it soon after)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def required_env(name: str) -> str:
    """The value of a variable set by tools/teststack.py. A missing one fails the test instead of skipping
    it: a test that needs Redis must never pass because Redis was not there."""
    value = os.environ.get(name)
    if not value:
        pytest.fail(
            f"{name} is not set: run the suite with `make test` (tools/teststack.py starts the servers)"
        )
    return value


@pytest.fixture(scope="session")
def redis_url() -> str:
    """URL of the throwaway standalone redis-server (database 0)."""
    return required_env("HERONLOG_TEST_REDIS_URL")


@pytest.fixture(scope="session")
def cluster_url() -> str:
    """URL of one node of the throwaway 3-master Redis Cluster."""
    return required_env("HERONLOG_TEST_CLUSTER_URL")


@pytest.fixture(scope="session")
def test_output() -> str:
    """Folder for artefacts written by tests (screenshots, reports)."""
    folder = os.environ.get("HERONLOG_TEST_OUTPUT") or os.path.join(os.getcwd(), "test-output")
    os.makedirs(folder, exist_ok=True)
    return folder
