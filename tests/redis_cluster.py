"""A Redis Cluster of a test's own (masters, optionally a replica each), started from docker/redis.conf on
loopback, whose nodes a fault test may kill, pause and resume: for the tests of a dead shard and of a failover
(the cluster that `make test` starts is shared by every test, and must stay whole)."""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

import redis

from tests.redis_process import RedisProcess


def node_port() -> int:
    """A free loopback port whose cluster bus port (+10000) is free too."""

    def free(port: int) -> bool:
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                return False
            return True

    rng = random.Random()
    for _ in range(1000):
        port = rng.randrange(20000, 40000)
        if free(port) and free(port + 10000):
            return port
    raise RuntimeError("no free port pair for a cluster node")


class Cluster:
    """``masters`` masters and ``replicas`` replicas of each, in ``folder``; ``node_timeout`` ms before a node
    that does not answer is marked failed (and a replica takes over its master's slots)."""

    def __init__(
        self, folder: Path, *, masters: int = 3, replicas: int = 0, node_timeout: int = 1000
    ) -> None:
        self.nodes: list[RedisProcess] = []
        for index in range(masters * (1 + replicas)):
            where = folder / f"node-{index}"
            where.mkdir()
            self.nodes.append(
                RedisProcess(
                    where,
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    "nodes.conf",
                    "--cluster-node-timeout",
                    str(node_timeout),
                    "--cluster-require-full-coverage",
                    "no",
                    # a replica syncs at once rather than after the default 5 s
                    "--repl-diskless-sync-delay",
                    "0",
                    port=node_port(),
                )
            )
        self.replicas = replicas
        self._clients: dict[int, redis.Redis] = {}

    def start(self) -> None:
        for node in self.nodes:
            node.start()
        redis_cli = shutil.which("redis-cli")
        if redis_cli is None:
            raise RuntimeError("redis-cli is not on PATH (make test provisions it)")
        addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
        subprocess.run(
            [
                redis_cli,
                "--cluster",
                "create",
                *addresses,
                "--cluster-replicas",
                str(self.replicas),
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        self.wait_until(lambda: all(self.state(node) == "ok" for node in self.nodes), "the cluster to be ok")
        self.wait_until(self.replicas_linked, "every replica to hold its master's data")

    def replicas_linked(self) -> bool:
        """Whether every replica's link to its master is up (its first sync done)."""
        for node in self.nodes:
            info = self.client(node).info("replication")
            if info.get("role") == "slave" and info.get("master_link_status") != "up":
                return False
        return sum(self.client(node).info("replication").get("role") == "slave" for node in self.nodes) == (
            len(self.nodes) // (1 + self.replicas) * self.replicas
        )

    @property
    def url(self) -> str:
        """Every node, as heronlog's REDIS_URL may name them."""
        return "redis://" + ",".join(f"127.0.0.1:{node.port}" for node in self.nodes)

    def client(self, node: RedisProcess) -> redis.Redis:
        """A client of one node (one per node, closed by :meth:`stop`)."""
        made = self._clients.get(node.port)
        if made is None:
            made = self._clients[node.port] = redis.Redis(host="127.0.0.1", port=node.port, socket_timeout=2)
        return made

    def state(self, node: RedisProcess) -> str:
        try:
            info = self.client(node).execute_command("CLUSTER", "INFO")
        except (redis.RedisError, OSError):
            return "down"
        text = info.decode() if isinstance(info, bytes) else str(info)
        return "ok" if "cluster_state:ok" in text else "fail"

    def master_of(self, key: str) -> RedisProcess:
        """The node that serves ``key``'s slot now (from CLUSTER NODES of a node that answers)."""
        for node in self.nodes:
            try:
                slot = int(self.client(node).execute_command("CLUSTER", "KEYSLOT", key))
                listing = self.client(node).execute_command("CLUSTER", "NODES")
            except (redis.RedisError, OSError):
                continue
            text = listing.decode() if isinstance(listing, bytes) else str(listing)
            for line in text.splitlines():
                fields = line.split()
                flags = fields[2].split(",")
                if "master" not in flags or "fail" in flags:
                    continue
                for taken in fields[8:]:
                    if taken.startswith("["):  # a slot being migrated
                        continue
                    low, _, high = taken.partition("-")
                    if int(low) <= slot <= int(high or low):
                        port = int(fields[1].split("@")[0].rsplit(":", 1)[1])
                        return next(n for n in self.nodes if n.port == port)
        raise RuntimeError(f"no online master serves {key}")

    def replica_of(self, master: RedisProcess) -> RedisProcess:
        """A replica of ``master``."""
        for node in self.nodes:
            if node is master:
                continue
            info = self.client(node).info("replication")
            if info.get("role") == "slave" and int(info.get("master_port", 0)) == master.port:
                return node
        raise RuntimeError(f"no replica of {master.port}")

    def pause(self, node: RedisProcess) -> None:
        """SIGSTOP: the node stops answering, as behind a cut link (its connections stay open)."""
        assert node.process is not None
        os.kill(node.process.pid, signal.SIGSTOP)

    def resume(self, node: RedisProcess) -> None:
        assert node.process is not None
        os.kill(node.process.pid, signal.SIGCONT)

    @staticmethod
    def wait_until(check: object, what: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not check():  # type: ignore[operator]
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            time.sleep(0.1)

    def stop(self) -> None:
        for client in self._clients.values():
            client.close()
        self._clients.clear()
        for node in self.nodes:
            if node.process is not None and node.process.poll() is None:
                self.resume(node)
            node.stop()
