"""Clients that never read, never speak, or speak a byte a second cost a socket, never the server's ability to
answer: over real sockets, against the default `heronlog serve` alone and against the compose deployment's nginx
(docker/nginx.conf as shipped, Debian's nginx) in front of `heronlog serve` with the compose file's settings.

Beside 20 clients that never read an 8.9 MB export (a public game of 2,040 annotations of 4,000 characters), 20
open event streams and 2,000 silent connections (each opened again when the server closes it), `/healthz` answers
each probe within a second; slowloris heads and bodies end (a head closed, a body refused 408); a client that
never reads gives its connection back. A probe's client timeout of one second is the guarantee itself: a frozen
server never answers it, a serving one answers in milliseconds."""

from __future__ import annotations

import contextlib
import json
import resource
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from api.server.runtime import KEEPALIVE_SECONDS
from api.server.slow_clients import BODY_SECONDS, PIECE_SECONDS
from tests.conftest import required_env
from tests.docker_files import compose
from tests.e2e.conftest import Served, serve
from tests.nginx_process import running_nginx
from tests.tools.benches import load_bench

LARGE_BODIES = str(16 * 1024 * 1024)
"""The servers here take a 9 MB import, so that one request makes the game whose export is 8.9 MB."""
BYTES_PER_WRITE = str(512 * 1024)
"""And weigh a body by eight times the default's bytes, so that the 9 MB import fits its address's rate limit
beside the writes that make its game."""

PROBES = 10


@pytest.fixture(scope="module")
def hostile() -> ModuleType:
    return load_bench("hostile_clients")


class Target:
    """Where the clients connect (host, port), and the large public game there."""

    def __init__(self, port: int, game_id: str, served: Served, *, proxied: bool) -> None:
        self.host = "127.0.0.1"
        self.port = port
        self.game_id = game_id
        self.served = served
        self.proxied = proxied

    @property
    def export(self) -> str:
        return f"/api/games/{self.game_id}/export"

    @property
    def stream(self) -> str:
        return f"/api/games/{self.game_id}/stream?timeout=300"


def port_of(served: Served) -> int:
    return int(served.url.rsplit(":", 1)[1])


@pytest.fixture(scope="module")
def alone(tmp_path_factory: pytest.TempPathFactory, hostile: ModuleType) -> Iterator[Target]:
    """The default `heronlog serve` (one worker, SQLite), alone, started with Debian's usual soft limit of 1,024
    open files (its hard limit as this process has it): serve raises it for its connections."""
    folder = tmp_path_factory.mktemp("alone")
    env = {
        "HERONLOG_DATA": str(folder / "data"),
        "REDIS_URL": "",
        "HERONLOG_STORE": "",
        "HERONLOG_MAX_CONTENT_LENGTH": LARGE_BODIES,
        "HERONLOG_IMPORT_MAX_EVENTS": "0",  # the large game is one import of 2,040 annotations
        "HERONLOG_BODY_BYTES_PER_WRITE": BYTES_PER_WRITE,
    }
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    limit = "unlimited" if hard == resource.RLIM_INFINITY else str(hard)
    command = [
        "prlimit",
        f"--nofile=1024:{limit}",
        sys.executable,
        "-m",
        "api.server",
        "serve",
        "--port",
        "{port}",
    ]
    for served in serve(folder, env, command=command):
        game_id = hostile.large_public_game("127.0.0.1", port_of(served))
        yield Target(port_of(served), game_id, served, proxied=False)


@pytest.fixture(scope="module")
def behind_nginx(tmp_path_factory: pytest.TempPathFactory, hostile: ModuleType) -> Iterator[Target]:
    """`heronlog serve` with compose.yaml's settings for its api service, on the test Redis, behind nginx run
    with docker/nginx.conf."""
    folder = tmp_path_factory.mktemp("nginx")
    environment = {
        str(k): str(v) for k, v in compose("compose.yaml")["services"]["api"]["environment"].items()
    }
    env = {
        **environment,
        "REDIS_URL": required_env("HERONLOG_TEST_REDIS_URL"),
        "REDIS_KEY_PREFIX": f"slow-{folder.name}",
        "HERONLOG_HOST": "127.0.0.1",
        "HERONLOG_PORT": "{port}",
        "HERONLOG_MAX_CONTENT_LENGTH": LARGE_BODIES,
        "HERONLOG_IMPORT_MAX_EVENTS": "0",  # the large game is one import of 2,040 annotations
        "HERONLOG_BODY_BYTES_PER_WRITE": BYTES_PER_WRITE,
    }
    for served in serve(folder, env, "--port", "{port}"):
        upstream = port_of(served)
        game_id = hostile.large_public_game("127.0.0.1", upstream)  # straight to the API: nginx takes 2 MiB
        with running_nginx(f"127.0.0.1:{upstream}", folder / "nginx") as port:
            yield Target(port, game_id, served, proxied=True)


@pytest.fixture(params=["alone", "behind_nginx"])
def target(request: pytest.FixtureRequest) -> Target:
    found: Target = request.getfixturevalue(request.param)
    return found


def assert_answers_within_a_second(hostile: ModuleType, target: Target) -> None:
    answered = hostile.probes(target.host, target.port, PROBES, every=0.3, timeout=1.0)
    assert None not in answered, f"{answered.count(None)} of {PROBES} probes not answered within 1 s"


@pytest.mark.timeout(300)
def test_healthz_answers_within_a_second_beside_non_readers_streams_and_silent_connections(
    hostile: ModuleType, target: Target
) -> None:
    crowd = hostile.Crowd
    with hostile.crowds(
        crowd(target.host, target.port, "nonreading", 20, target.export),
        crowd(target.host, target.port, "stream", 20, target.stream),
        crowd(target.host, target.port, "silent", 2000),
    ) as (readers, streams, silent):
        # Every export is being sent (its first bytes are in the client's buffer) and every stream has begun.
        assert hostile.wait_until(lambda: readers.answered == 20 and streams.answered == 20, 120), (
            readers.answered,
            streams.answered,
        )
        assert silent.opened >= 2000
        assert_answers_within_a_second(hostile, target)
        assert readers.closed_by_server == 0 and streams.closed_by_server == 0


def test_serve_raises_its_open_file_limit_for_its_connections_and_says_so(alone: Target) -> None:
    assert "open files: the soft limit raised from 1,024 to its hard limit" in alone.served.output()


@pytest.mark.timeout(300)
def test_slowloris_heads_and_bodies_leave_healthz_answering_and_heads_end(
    hostile: ModuleType, target: Target
) -> None:
    """Ten connections send a head a line a second, ten a body a byte a second. Heads are closed (and opened
    again by the crowd); `heronlog serve` refuses the bodies too. nginx ends a body only when it pauses for
    10 s: one dripping steadily holds one of nginx's connections, and nothing of it reaches the API."""
    crowd = hostile.Crowd
    with hostile.crowds(
        crowd(target.host, target.port, "slow_head", 10), crowd(target.host, target.port, "slow_body", 10)
    ) as (heads, bodies):
        time.sleep(1.5)
        assert_answers_within_a_second(hostile, target)
        assert hostile.wait_until(lambda: heads.closed_by_server >= 10, 60), heads.closed_by_server
        if target.proxied:
            assert bodies.closed_by_server == 0
        else:
            assert hostile.wait_until(lambda: bodies.closed_by_server >= 10, 60), bodies.closed_by_server
        assert_answers_within_a_second(hostile, target)


def answer_to(target: Target, head: bytes, drip: bytes, wait: float) -> bytes:
    """What the server sends down one connection that sends ``head`` and then ``drip`` every second, until the
    server closes it (at most ``wait`` seconds)."""
    received = b""
    with socket.create_connection((target.host, target.port), timeout=5) as sock:
        sock.sendall(head)
        sock.settimeout(1.0)
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                data = sock.recv(65536)
            except TimeoutError:
                with contextlib.suppress(OSError):
                    sock.sendall(drip)
                continue
            except ConnectionResetError:
                return received
            if not data:
                return received
            received += data
    raise AssertionError(f"still open after {wait} s: {received[:200]!r}")


@pytest.mark.timeout(120)
def test_a_slow_body_ends(target: Target) -> None:
    """`heronlog serve` refuses a body not whole in time, however it drips, with 408 in the API's error shape;
    nginx closes the connection of a body that pauses for 10 s without an answer (its log says 408)."""
    head = b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"
    answer = answer_to(target, head, b"" if target.proxied else b" ", BODY_SECONDS + 40)
    if target.proxied:
        assert answer == b""
        return
    status, _, rest = answer.partition(b"\r\n")
    assert status.startswith(b"HTTP/1.1 408 "), answer[:300]
    body = json.loads(rest.partition(b"\r\n\r\n")[2])
    assert body["error_code"] == "request_timeout" and body["status"] == 408


@pytest.mark.timeout(120)
def test_a_slow_head_is_closed_without_an_answer(target: Target) -> None:
    answer = answer_to(target, b"GET /healthz HTTP/1.1\r\nHost: x\r\n", b"X-Slow: x\r\n", 40)
    assert answer == b""


@pytest.mark.timeout(120)
def test_a_silent_connection_is_closed(target: Target) -> None:
    started = time.monotonic()
    assert answer_to(target, b"", b"", 40) == b""
    assert time.monotonic() - started >= KEEPALIVE_SECONDS - 1  # closed by the server, not at once


def held_by_a_process(server_port: int, client_ports: list[int]) -> int:
    """How many of the server's ends of the connections from ``client_ports`` a process still holds open. A
    socket the server has closed with bytes still unsent is left to the kernel (an orphan, inode 0 in
    /proc/net/tcp), or gone; one the server holds has an inode (Linux)."""
    wanted = {f"{port:04X}" for port in client_ports}
    held = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(FileNotFoundError):
            for line in Path(table).read_text().splitlines()[1:]:
                fields = line.split()
                local_port = fields[1].rsplit(":", 1)[1]
                remote_port = fields[2].rsplit(":", 1)[1]
                if int(local_port, 16) == server_port and remote_port in wanted and fields[9] != "0":
                    held += 1
    return held


@pytest.mark.timeout(240)
def test_a_client_that_never_reads_its_answer_gives_its_connection_back(
    hostile: ModuleType, target: Target
) -> None:
    """An answer whose next piece the client does not take in time is dropped and its connection closed:
    PIECE_SECONDS for `heronlog serve` alone, nginx's send_timeout (30 s) behind it."""
    with hostile.crowds(hostile.Crowd(target.host, target.port, "nonreading", 3, target.export)) as (
        readers,
    ):
        assert hostile.wait_until(lambda: readers.answered == 3, 60)
        ports = readers.local_ports()
        assert held_by_a_process(target.port, ports) == 3
        assert hostile.wait_until(lambda: held_by_a_process(target.port, ports) == 0, PIECE_SECONDS + 60)
    # a client's doing, logged as such: no error, no traceback
    assert '"level":"error"' not in target.served.output()


@pytest.mark.timeout(120)
def test_beyond_its_connections_a_new_client_waits_for_an_idle_one_to_be_closed(
    tmp_path: Path, hostile: ModuleType
) -> None:
    """`heronlog serve` holds at most HERONLOG_CONNECTIONS connections a worker: the next wait in the kernel's
    queue, and are taken as the silent ones are closed (each after KEEPALIVE_SECONDS). 16 silent connections
    fill a worker of 16; a probe then is answered once one of them is closed, not refused and not lost."""
    env = {
        "HERONLOG_DATA": str(tmp_path / "data"),
        "REDIS_URL": "",
        "HERONLOG_STORE": "",
        "HERONLOG_CONNECTIONS": "16",
    }
    for served in serve(tmp_path, env):
        port = port_of(served)
        with hostile.crowds(hostile.Crowd("127.0.0.1", port, "silent", 16)) as (silent,):
            time.sleep(0.5)
            started = time.monotonic()
            waited = hostile.probe("127.0.0.1", port, timeout=KEEPALIVE_SECONDS + 5)
            assert waited is not None
            assert time.monotonic() - started >= 1.0  # it waited for a place: the worker was full
            # The crowd's thread sees the close the probe's place came from a moment after the probe's answer.
            assert hostile.wait_until(lambda: silent.closed_by_server >= 1, 2), silent.closed_by_server
