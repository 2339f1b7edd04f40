"""docker/cluster-init.sh, the cluster compose file's init job, run for real on three fresh loopback nodes
started from docker/redis.conf: it makes one cluster of three masters covering every slot, and running it
again (every `docker compose up` does) changes nothing."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.redis_cluster import node_port
from tests.redis_process import RedisProcess

SCRIPT = Path(__file__).resolve().parents[2] / "docker" / "cluster-init.sh"


@pytest.fixture
def fresh_nodes(tmp_path: Path) -> Iterator[list[RedisProcess]]:
    nodes = []
    try:
        for index in range(3):
            folder = tmp_path / f"node-{index}"
            folder.mkdir()
            node = RedisProcess(
                folder, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf", port=node_port()
            )
            node.start()
            nodes.append(node)
        yield nodes
    finally:
        for node in nodes:
            node.stop()


def run_init(nodes: list[RedisProcess]) -> subprocess.CompletedProcess[str]:
    redis_cli = shutil.which("redis-cli")
    if redis_cli is None:
        pytest.fail("redis-cli is not on PATH (make test provisions it)")
    env = {**os.environ, "NODES": " ".join(f"127.0.0.1:{node.port}" for node in nodes)}
    return subprocess.run(
        ["sh", str(SCRIPT)], env=env, capture_output=True, text=True, timeout=90, check=False
    )


def cluster_nodes(node: RedisProcess) -> list[str]:
    listing = subprocess.run(
        ["redis-cli", "-p", str(node.port), "cluster", "nodes"], capture_output=True, text=True, check=True
    ).stdout
    return sorted(line for line in listing.splitlines() if line)


def test_the_init_job_creates_a_three_master_cluster_once(fresh_nodes: list[RedisProcess]) -> None:
    first = run_init(fresh_nodes)
    assert first.returncode == 0, first.stderr
    assert "cluster ok" in first.stdout
    layout = cluster_nodes(fresh_nodes[0])
    assert len(layout) == 3 and all("master" in line for line in layout)
    info = subprocess.run(
        ["redis-cli", "-p", str(fresh_nodes[1].port), "cluster", "info"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "cluster_state:ok" in info and "cluster_slots_assigned:16384" in info

    again = run_init(fresh_nodes)
    assert again.returncode == 0, again.stderr
    assert "--cluster create" not in again.stdout and "Performing hash slots allocation" not in again.stdout
    assert [line.split()[:3] for line in cluster_nodes(fresh_nodes[0])] == [
        line.split()[:3] for line in layout
    ]
