"""A TCP proxy on loopback that loses a request or a reply on purpose, to prove what the recorders do when a
connection to Redis drops mid-command. Real sockets, a real redis-server behind it: no mocks."""

from __future__ import annotations

import contextlib
import select
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass
class Faults:
    """One-shot faults; each is disarmed once it has fired."""

    drop_request_with: bytes | None = None  # close the connection instead of forwarding this request
    drop_reply_to: bytes | None = None  # forward this request, then close before its reply reaches the client
    refuse_connections: int = 0  # close this many new connections at once
    fired: list[str] = field(default_factory=list)


class FaultyProxy:
    """Forwards 127.0.0.1:<port> to a Redis server, applying :class:`Faults`."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.faults = Faults()
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._stopping = threading.Event()
        self._threads: list[threading.Thread] = []
        self._sockets: list[socket.socket] = []
        self._accept_thread = threading.Thread(target=self._accept, daemon=True)
        self._accept_thread.start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _accept(self) -> None:
        self._listener.settimeout(0.1)
        while not self._stopping.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with self._lock:
                if self.faults.refuse_connections > 0:
                    self.faults.refuse_connections -= 1
                    self.faults.fired.append("refused")
                    client.close()
                    continue
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            self._sockets += [client, upstream]
            thread = threading.Thread(target=self._pump, args=(client, upstream), daemon=True)
            thread.start()
            self._threads.append(thread)

    def _pump(self, client: socket.socket, upstream: socket.socket) -> None:
        awaiting_reply_to_drop = False
        with contextlib.suppress(OSError), client, upstream:
            while not self._stopping.is_set():
                ready, _, _ = select.select([client, upstream], [], [], 0.1)
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if sock is client:
                        with self._lock:
                            marker = self.faults.drop_request_with
                            if marker and marker in data:
                                self.faults.drop_request_with = None
                                self.faults.fired.append("request dropped")
                                return
                            marker = self.faults.drop_reply_to
                            if marker and marker in data:
                                self.faults.drop_reply_to = None
                                awaiting_reply_to_drop = True
                        upstream.sendall(data)
                    else:
                        if awaiting_reply_to_drop:
                            with self._lock:
                                self.faults.fired.append("reply dropped")
                            return
                        client.sendall(data)

    def close(self) -> None:
        self._stopping.set()
        self._listener.close()
        self._accept_thread.join()
        for thread in self._threads:
            thread.join()
        for sock in self._sockets:
            sock.close()


@contextlib.contextmanager
def faulty_proxy(redis_url: str) -> Iterator[FaultyProxy]:
    """A proxy in front of the server of ``redis_url`` (a standalone server on loopback)."""
    port = int(redis_url.rsplit(":", 1)[1].split("/", 1)[0])
    proxy = FaultyProxy(port)
    try:
        yield proxy
    finally:
        proxy.close()
