"""Clients that cost a server without asking much of it, for the slow-client tests and the servers' benchmark.

Each kind holds its connections open from one thread of its own (:class:`Crowd`) until it is stopped:

* ``silent``: connects and sends nothing; opened again whenever the server closes it;
* ``reader``-less (``nonreading``): sends ``GET path`` with a 2 KiB receive buffer and never reads the answer;
* ``stream``: opens an event stream and reads what comes (a spectator's tab);
* ``slow_head``: sends a request head a header line a second; opened again when closed;
* ``slow_body``: sends a whole head announcing a body, then the body a byte a second; opened again when closed.

:func:`probe` times one ``GET /healthz`` on a new connection: the figure the guarantees are about. Nothing here
asserts or judges; the tests and the benchmark do.
"""

from __future__ import annotations

import contextlib
import resource
import selectors
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

KINDS = ("silent", "nonreading", "stream", "slow_head", "slow_body")

NON_READER_BUFFER = 2048
"""The receive buffer of a client that never reads (the kernel's floor is about this)."""


def room_for(sockets: int) -> None:
    """Raise this process's open-file soft limit to its hard limit when ``sockets`` would not fit under it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < sockets + 256:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


@dataclass
class Crowd:
    """``count`` connections of one ``kind`` to ``host:port`` (``path`` for the kinds that ask for one)."""

    host: str
    port: int
    kind: str
    count: int
    path: str = "/healthz"
    opened: int = 0
    """Connections opened, first ones and reopened ones."""
    closed_by_server: int = 0
    """Connections the server closed (each then opened again, except a non-reading one)."""
    answered: int = 0
    """Non-reading connections whose answer began to arrive, or streams that began (``retry:`` received)."""
    refused: int = 0
    """Connection attempts that failed (the server's queue full, or no more files here)."""
    sockets: list[socket.socket | None] = field(default_factory=list)
    """The connections open now (None where one could not be opened again)."""
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"kind is one of {KINDS}, not {self.kind!r}")

    def _request(self) -> bytes:
        if self.kind == "slow_body":
            return (
                f"POST /api/games HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
                "Content-Length: 2000\r\n\r\n{"
            ).encode()
        if self.kind == "slow_head":
            return f"GET /healthz HTTP/1.1\r\nHost: {self.host}\r\n".encode()
        if self.kind in ("nonreading", "stream"):
            return f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode()
        return b""

    def _open(self) -> socket.socket | None:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            if self.kind == "nonreading":
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, NON_READER_BUFFER)
            sock.settimeout(5)
            sock.connect((self.host, self.port))
            request = self._request()
            if request:
                sock.sendall(request)
            sock.setblocking(False)
        except OSError:
            sock.close()
            self.refused += 1
            return None
        self.opened += 1
        return sock

    def start(self) -> Crowd:
        """Open every connection (in this thread, so that they are all open when it returns), then keep them
        open from a thread of their own."""
        room_for(self.count)
        self.sockets = sockets = [self._open() for _ in range(self.count)]
        self._thread = threading.Thread(target=self._hold, args=(sockets,), daemon=True)
        self._thread.start()
        return self

    def _hold(self, sockets: list[socket.socket | None]) -> None:
        watcher = selectors.DefaultSelector()
        watched: dict[int, int] = {}  # fileno -> index

        def watch(index: int) -> None:
            sock = sockets[index]
            if sock is not None and self.kind != "nonreading":
                watcher.register(sock, selectors.EVENT_READ, index)
                watched[sock.fileno()] = index

        def reopen(index: int) -> None:
            old = sockets[index]
            if old is not None:
                if old.fileno() in watched:
                    watcher.unregister(old)
                    del watched[old.fileno()]
                old.close()
            sockets[index] = self._open()
            watch(index)

        for index in range(len(sockets)):
            watch(index)
        began: set[int] = set()
        next_drip = time.monotonic() + 1.0
        while not self._stop.is_set():
            for key, _ in watcher.select(timeout=0.1) if watched else []:
                index = key.data
                sock = sockets[index]
                if sock is None:
                    continue
                try:
                    data = sock.recv(65536)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                if not data:
                    self.closed_by_server += 1
                    reopen(index)
                elif self.kind == "stream" and b"retry:" in data and index not in began:
                    began.add(index)
                    self.answered += 1
            if not watched:
                time.sleep(0.1)
            now = time.monotonic()
            if now >= next_drip:
                next_drip = now + 1.0
                for index, sock in enumerate(sockets):
                    if sock is None:
                        if self.kind != "nonreading":
                            reopen(index)
                        continue
                    if self.kind == "nonreading" and index not in began:
                        with contextlib.suppress(OSError):
                            if sock.recv(16, socket.MSG_PEEK).startswith(b"HTTP/1.1 "):
                                began.add(index)
                                self.answered += 1
                    elif self.kind in ("slow_head", "slow_body"):
                        try:
                            sock.send(b" " if self.kind == "slow_body" else f"X-Slow-{index}: x\r\n".encode())
                        except (BlockingIOError, InterruptedError):
                            pass
                        except OSError:
                            self.closed_by_server += 1
                            reopen(index)
        for sock in sockets:
            if sock is not None:
                sock.close()
        watcher.close()

    def local_ports(self) -> list[int]:
        """The client-side ports of the connections open now."""
        ports = []
        for sock in list(self.sockets):
            with contextlib.suppress(OSError):
                if sock is not None:
                    ports.append(int(sock.getsockname()[1]))
        return ports

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)


@contextlib.contextmanager
def crowds(*started: Crowd) -> Iterator[tuple[Crowd, ...]]:
    """Start each crowd, and stop them all when the block ends, whatever happens in it."""
    running: list[Crowd] = []
    try:
        for crowd in started:
            running.append(crowd.start())
        yield tuple(running)
    finally:
        for crowd in running:
            crowd.stop()


def wait_until(check: object, timeout: float) -> bool:
    """Whether ``check()`` became true within ``timeout`` seconds (looked at every tenth of a second)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


def probe(host: str, port: int, path: str = "/healthz", timeout: float = 1.0) -> float | None:
    """Seconds a ``GET path`` took on a new connection, from the connection's start to the end of its answer;
    None when it was not answered 200 within ``timeout``."""
    started = time.perf_counter()
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n".encode())
            received = b""
            while True:
                sock.settimeout(max(0.001, timeout - (time.perf_counter() - started)))
                data = sock.recv(65536)
                if not data:
                    break
                received += data
    except OSError:
        return None
    elapsed = time.perf_counter() - started
    if not received.startswith(b"HTTP/1.1 200") or elapsed > timeout:
        return None
    return elapsed


def probes(host: str, port: int, count: int, every: float, timeout: float = 1.0) -> list[float | None]:
    """``count`` probes, one every ``every`` seconds (each on a new connection)."""
    results = []
    for _ in range(count):
        began = time.monotonic()
        results.append(probe(host, port, timeout=timeout))
        time.sleep(max(0.0, every - (time.monotonic() - began)))
    return results


def large_public_game(host: str, port: int, annotations: int = 2040, text: int = 4000) -> str:
    """A public game whose export is large (``annotations`` notes of ``text`` characters: 8.9 MB by default),
    made with one import (the server must take a body that large and that many events:
    ``HERONLOG_MAX_CONTENT_LENGTH``, ``HERONLOG_IMPORT_MAX_EVENTS``); its id."""
    import http.client
    import json
    import uuid

    connection = http.client.HTTPConnection(host, port, timeout=300)

    def call(method: str, path: str, body: object = None, token: str | None = None) -> object:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        answer = connection.getresponse()
        data = answer.read()
        if answer.status >= 300:
            raise RuntimeError(f"{method} {path}: {answer.status} {data[:300]!r}")
        return json.loads(data)

    try:
        created: dict = call("POST", "/api/games", {"players": ["Aiko", "Ben"], "seed": 7})  # type: ignore[assignment]
        game_id, token = created["game"]["game_id"], created["owner_token"]
        call("POST", f"/api/games/{game_id}/annotations", {"version": 1, "text": "x" * text}, token)
        export: dict = call("GET", f"/api/games/{game_id}/export")  # type: ignore[assignment]
        note = export["annotations"][0]
        notes = []
        for index in range(annotations):
            copy = json.loads(json.dumps(note))
            copy["version"] = index + 1
            copy["data"]["annotation_id"] = str(uuid.uuid4())
            notes.append(copy)
        export["annotations"] = notes
        imported: dict = call("POST", "/api/games/import", export)  # type: ignore[assignment]
        return str(imported["game"]["game_id"])
    finally:
        connection.close()
