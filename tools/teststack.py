"""Provision and run heronlog's whole test suite (`make test`) or its benchmarks (`make bench`).

It starts throwaway redis-servers and a Redis Cluster on loopback, announces them to the tests through
``HERONLOG_TEST_*`` variables, runs every check even after one fails, and stops the servers.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent

# Programs the suite needs, and the Debian package that provides each.
PROGRAMS: dict[str, str] = {
    "redis-server": "redis-server",
    "redis-cli": "redis-tools",
    "chromium": "chromium",
    # the compose deployment's proxy, run with docker/nginx.conf in front of a local server (tests/hostile)
    "nginx": "nginx-light",
    # the README's API example, which tests/tools runs against a live server as a reader would
    "curl": "curl",
    "jq": "jq",
    # the TypeScript client and the OpenAPI linters (clients/typescript, npm packages pinned by its lock file)
    "node": "nodejs",
    "npm": "npm",
}

TYPESCRIPT = ROOT / "clients" / "typescript"

ENVIRONMENT = {
    "HERONLOG_TEST_REDIS_URL": "the standalone redis-server, redis://127.0.0.1:PORT/0",
    "HERONLOG_TEST_CLUSTER_URL": "one node of the 3-master Redis Cluster, redis://127.0.0.1:PORT",
    "HERONLOG_TEST_CLUSTER_NODES": "every cluster node, host:port separated by commas",
    "HERONLOG_TEST_REDIS_SERVER": "the redis-server executable, for tests that start (and kill) their own",
    "HERONLOG_TEST_CHROMIUM": "the Chromium executable for the browser tests",
    "HERONLOG_TEST_NGINX": "the nginx executable, run with docker/nginx.conf by the tests of the compose proxy",
    "HERONLOG_TEST_OUTPUT": "a folder for screenshots and reports written by the tests",
    "HERONLOG_TEST_TYPESCRIPT": "clients/typescript with its npm packages installed (npm ci)",
}


def say(message: str) -> None:
    print(f"[teststack] {message}", flush=True)


def which(name: str) -> str | None:
    """A program's path: on PATH, or in the system folders a user's PATH may lack (Debian puts nginx there)."""
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/sbin")


def provision(programs: dict[str, str]) -> dict[str, str]:
    """Return the path of every program, installing the missing ones with apt-get when that is possible."""
    missing = {name: pkg for name, pkg in programs.items() if which(name) is None}
    if missing:
        packages = sorted(set(missing.values()))
        can_apt = os.geteuid() == 0 and shutil.which("apt-get") is not None
        if not can_apt:
            sys.exit(
                "[teststack] missing programs: "
                + ", ".join(sorted(missing))
                + f"\n  install them with: sudo apt-get install -y {' '.join(packages)}"
                + "\n  (or put them on PATH) and run `make test` again."
            )
        say(f"installing {' '.join(packages)} with apt-get")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", *packages], check=True, env=env)
    paths = {}
    for name in programs:
        path = which(name)
        if path is None:
            sys.exit(f"[teststack] {name} is still missing after installation")
        paths[name] = path
    return paths


def npm_packages(npm: str, folder: Path = TYPESCRIPT) -> Path:
    """``npm ci`` in ``folder`` (exactly the versions of its package-lock.json), unless the packages installed
    there are already those of the lock file (a stamp holds its hash). No install scripts run (one package's
    would only report telemetry), and nothing is audited or asked for funding."""
    lock = (folder / "package-lock.json").read_bytes()
    stamp = folder / "node_modules" / ".heronlog-lock-sha256"
    digest = hashlib.sha256(lock).hexdigest()
    if stamp.is_file() and stamp.read_text() == digest:
        return folder
    say(f"installing the npm packages of {folder.relative_to(ROOT)} (npm ci)")
    env = dict(os.environ, SCARF_ANALYTICS="false")
    command = [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"]
    subprocess.run(command, cwd=folder, check=True, env=env)
    stamp.write_text(digest)
    return folder


def port_is_free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port() -> int:
    """A free loopback port whose cluster bus port (port + 10000) is free and valid too, so any port it
    returns can serve a cluster node."""
    rng = random.Random()
    for _ in range(1000):
        port = rng.randrange(20000, 40000)
        if port_is_free(port) and port_is_free(port + 10000):
            return port
    raise RuntimeError("no free loopback port pair found")


def redis_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


@dataclass
class Stack:
    """The servers started for one run; `stop()` ends every one of them."""

    folder: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start_redis(self, redis_server: str, name: str, *extra: str) -> int:
        port = free_port()
        workdir = self.folder / name
        workdir.mkdir()
        log = (workdir / "redis.log").open("wb")
        args = [
            redis_server,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--dir",
            str(workdir),
            "--save",
            "",
            "--appendonly",
            "no",
            "--protected-mode",
            "yes",
            *extra,
        ]
        self.processes.append(subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT))
        deadline = time.monotonic() + 20
        while not redis_ping(port):
            if time.monotonic() > deadline or self.processes[-1].poll() is not None:
                raise RuntimeError(f"redis-server {name} did not start; see {workdir / 'redis.log'}")
            time.sleep(0.05)
        return port

    def start_cluster(self, redis_server: str, redis_cli: str, masters: int = 3) -> list[int]:
        ports = [
            self.start_redis(
                redis_server,
                f"cluster-{i}",
                "--cluster-enabled",
                "yes",
                "--cluster-config-file",
                "nodes.conf",
                "--cluster-node-timeout",
                "3000",
            )
            for i in range(masters)
        ]
        nodes = [f"127.0.0.1:{port}" for port in ports]
        subprocess.run(
            [redis_cli, "--cluster", "create", *nodes, "--cluster-replicas", "0", "--cluster-yes"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while True:
            states = [
                subprocess.run(
                    [redis_cli, "-p", str(port), "cluster", "info"],
                    check=False,
                    capture_output=True,
                    text=True,
                ).stdout
                for port in ports
            ]
            if all("cluster_state:ok" in state for state in states):
                return ports
            if time.monotonic() > deadline:
                raise RuntimeError("the Redis Cluster did not reach cluster_state:ok")
            time.sleep(0.1)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes.clear()


@contextlib.contextmanager
def running_stack(paths: dict[str, str]) -> Iterator[dict[str, str]]:
    folder = Path(tempfile.mkdtemp(prefix="heronlog-test-"))
    stack = Stack(folder)

    def interrupted(signum: int, _frame: object) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    previous = signal.signal(signal.SIGTERM, interrupted)
    try:
        port = stack.start_redis(paths["redis-server"], "standalone")
        cluster = stack.start_cluster(paths["redis-server"], paths["redis-cli"])
        output = ROOT / "test-output"
        output.mkdir(exist_ok=True)
        env = {
            "HERONLOG_TEST_REDIS_URL": f"redis://127.0.0.1:{port}/0",
            "HERONLOG_TEST_CLUSTER_URL": f"redis://127.0.0.1:{cluster[0]}",
            "HERONLOG_TEST_CLUSTER_NODES": ",".join(f"127.0.0.1:{p}" for p in cluster),
            "HERONLOG_TEST_REDIS_SERVER": paths["redis-server"],
            "HERONLOG_TEST_CHROMIUM": paths["chromium"],
            "HERONLOG_TEST_NGINX": paths["nginx"],
            "HERONLOG_TEST_OUTPUT": str(output),
            "HERONLOG_TEST_TYPESCRIPT": str(npm_packages(paths["npm"])),
        }
        say(f"redis-server on {port}, cluster on {', '.join(map(str, cluster))}, work folder {folder}")
        yield env
    finally:
        stack.stop()
        signal.signal(signal.SIGTERM, previous)
        shutil.rmtree(folder, ignore_errors=True)
        say("servers stopped")


def checks(site: Path) -> list[tuple[str, Sequence[str]]]:
    """The checks of `make test`, in order; the docs site is built into ``site``, a temporary folder."""
    pytest = [str(BIN / "python"), "-m", "pytest", "-p", "no:cacheprovider"]
    return [
        ("ruff lint", [str(BIN / "ruff"), "check", "."]),
        ("ruff format", [str(BIN / "ruff"), "format", "--check", "."]),
        ("mypy strict", [str(BIN / "mypy")]),
        ("unit tests", [*pytest, "tests/unit"]),
        ("integration tests", [*pytest, "tests/integration"]),
        ("e2e tests", [*pytest, "tests/e2e"]),
        # a client that means harm (costly imports, fork floods, bad text, forged logs, chunked bodies)
        ("hostile tests", [*pytest, "tests/hostile"]),
        ("tools and docs tests", [*pytest, "tests/tools"]),
        ("docs site", [str(BIN / "mkdocs"), "build", "--strict", "--site-dir", str(site)]),
    ]


HINTS = {
    "docs site": "mkdocs build --strict refused the docs site: the WARNING lines above name each broken link or "
    "anchor, or each page of docs/ missing from the nav in mkdocs.yml",
}
"""What to look at when a check fails, printed under its line of the summary."""


def benches() -> list[tuple[str, Sequence[str]]]:
    return [("benchmarks", [str(BIN / "python"), "bench/report.py"])]


def faults() -> list[tuple[str, Sequence[str]]]:
    """`make faults`: the long fault scenarios (tests/faults), on servers each one starts for itself; their
    figures are written to test-output/faults.md."""
    pytest = [str(BIN / "python"), "-m", "pytest", "-p", "no:cacheprovider"]
    return [("fault scenarios", [*pytest, "tests/faults"])]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", action="store_true", help="run the benchmarks instead of the tests")
    parser.add_argument(
        "--faults", action="store_true", help="run the long fault scenarios instead of the tests"
    )
    parser.add_argument("--only", help="run only the checks whose name contains this text")
    parser.add_argument("pytest_args", nargs="*", help="extra arguments for every pytest step")
    args = parser.parse_args(argv)

    paths = provision(PROGRAMS)
    results: list[tuple[str, int, float]] = []
    with running_stack(paths) as env, tempfile.TemporaryDirectory(prefix="heronlog-site-") as site:
        steps = benches() if args.bench else faults() if args.faults else checks(Path(site))
        if args.only:
            steps = [step for step in steps if args.only in step[0]]
        # NO_MKDOCS_2_WARNING: Material prints a banner about its successor on every build; it is no failure.
        run_env = dict(os.environ, **env, PYTHONPATH=str(ROOT), NO_MKDOCS_2_WARNING="1")
        for name, command in steps:
            extra = list(args.pytest_args) if "pytest" in command else []
            say(f"--- {name}: {' '.join(command[-2:])}")
            started = time.monotonic()
            code = subprocess.run([*command, *extra], check=False, cwd=ROOT, env=run_env).returncode
            results.append((name, code, time.monotonic() - started))
    say("summary")
    for name, code, seconds in results:
        say(f"  {'ok  ' if code == 0 else 'FAIL'} {name} ({seconds:.0f} s)")
        if code != 0 and name in HINTS:
            say(f"       {HINTS[name]}")
    failed = [name for name, code, _ in results if code != 0]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
