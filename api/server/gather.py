"""Whole requests only: a worker thread is given a request once all of it has arrived, never before.

gunicorn's threaded worker hands a connection to a thread as soon as its first bytes arrive, and the thread
then reads the rest of the request head, and its body, from the socket. A client that sends one header line every
few seconds (slowloris), or a body a byte at a time, holds that thread for as long as it likes: eight such
connections held every thread of the default ``heronlog serve`` (one worker, eight threads), and ``/healthz``
and every move waited behind them.

Here the worker's own loop, which already waits on every idle connection, reads each request itself, without
blocking, into a buffer (:class:`GatheringThreadWorker`), and hands it to a thread only when it is complete
(:func:`examine`): the head up to its blank line, and the body its ``Content-Length`` announces (or every chunk of
a chunked one). The thread's parser then reads from that buffer and never waits for the client. A request that
cannot be whole in time is answered by the loop itself, in the API's error shape, and its connection closed:

* not whole in time: its head within :data:`REQUEST_SECONDS` of its first byte (of the connection, for a new
  one), and its body at :data:`BODY_BYTES_PER_SECOND` on average after that (a slow phone's upload is slow, not
  an attack; it costs no thread while it lasts): ``408 request_timeout``;
* a body larger than the app takes (``MAX_CONTENT_LENGTH``), announced or chunked: ``413 payload_too_large``,
  before it is read (a client that sends ``Expect: 100-continue`` never sends it);
* a head larger than :data:`HEAD_LIMIT` with no end: ``400 invalid_request``.

A slow client then costs a socket and its buffer, never a thread: ``/healthz`` and moves are answered at their
usual latency beside 200 slow connections (the load benchmark, docs/performance/load.md).
"""

from __future__ import annotations

import contextlib
import enum
import errno
import heapq
import itertools
import json
import selectors
import socket
import time
from collections import deque
from dataclasses import dataclass
from functools import partial
from typing import Any

from gunicorn.workers.gthread import TConn, ThreadWorker

REQUEST_SECONDS = 10.0
"""How long a request's head may take to arrive, from its first byte (from the connection, for its first)."""

BODY_BYTES_PER_SECOND = 16 * 1024
"""The slowest average rate a body may arrive at (128 kbit/s, a poor mobile connection): a body of ``n`` bytes has
``n / BODY_BYTES_PER_SECOND`` seconds more than the head (a 2 MiB import: 128 s)."""

HEAD_LIMIT = 64 * 1024
"""The largest request head (request line and header fields) read; gunicorn's own limits are lower."""

BODY_LIMIT = 2 * 1024 * 1024
"""The largest body gathered, unless the app takes larger (:meth:`GatheringThreadWorker.body_limit` is set from
``MAX_CONTENT_LENGTH`` by ``heronlog serve``)."""

CHUNK_LINE_LIMIT = 1024
"""The longest line of a chunked body's framing (a chunk's size and extensions)."""

LINGER_SECONDS = 2.0
"""How long a refused connection is kept, its answer sent, reading what its client still sends."""

RECV_BYTES = 256 * 1024
"""The most one read from a client's socket takes."""


class Gathered(enum.Enum):
    """What a buffer holds, as :func:`examine` sees it."""

    PARTIAL = "partial"
    """Not a whole request yet: wait for more."""
    COMPLETE = "complete"
    """A whole request (and maybe the start of the next): a thread may serve it without waiting."""
    HEAD_TOO_LARGE = "head_too_large"
    """No end of the head within :data:`HEAD_LIMIT` bytes."""
    BODY_TOO_LARGE = "body_too_large"
    """A body larger than the app takes."""
    MALFORMED = "malformed"
    """A chunked body whose framing cannot be read."""


def _framing(head: bytes) -> tuple[int | None, bool]:
    """The ``Content-Length`` of a request head (None when absent or not a number: gunicorn's parser refuses
    such a head at once, without reading a body), and whether its body is chunked."""
    length: int | None = None
    chunked = False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            text = value.strip()
            length = int(text) if text.isdigit() and len(text) < 19 else None
        elif name == b"transfer-encoding":
            chunked = b"chunked" in value.lower()
    return length, chunked


def _chunked_end(body: bytes | bytearray, limit: int) -> tuple[Gathered, int]:
    """Whether a chunked body is complete (its last, empty chunk and the blank line after its trailers have
    arrived), and the bytes of data its chunks carry so far."""
    position = carried = 0
    while True:
        line_end = body.find(b"\r\n", position)
        if line_end < 0:
            return (
                Gathered.PARTIAL if len(body) - position <= CHUNK_LINE_LIMIT else Gathered.MALFORMED
            ), carried
        size_text = bytes(body[position:line_end]).split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            return Gathered.MALFORMED, carried
        if size == 0:
            # After the last chunk come the trailers, if any, and a blank line: the body is whole once it is.
            whole = body.find(b"\r\n\r\n", line_end) >= 0
            return (Gathered.COMPLETE if whole else Gathered.PARTIAL), carried
        carried += size
        if carried > limit:
            return Gathered.BODY_TOO_LARGE, carried
        position = line_end + 2 + size + 2
        if position > len(body):
            return Gathered.PARTIAL, carried


def examine(data: bytes | bytearray, body_limit: int) -> Gathered:
    """What ``data``, the bytes read so far for a request, holds."""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return Gathered.HEAD_TOO_LARGE if len(data) > HEAD_LIMIT else Gathered.PARTIAL
    if end > HEAD_LIMIT:
        return Gathered.HEAD_TOO_LARGE
    length, chunked = _framing(bytes(data[:end]))
    body_start = end + 4
    if chunked:
        state, _ = _chunked_end(data[body_start:], body_limit)
        return state
    if length is None or length == 0:
        return Gathered.COMPLETE
    if length > body_limit:
        return Gathered.BODY_TOO_LARGE
    return Gathered.COMPLETE if len(data) - body_start >= length else Gathered.PARTIAL


REFUSALS: dict[Gathered | None, tuple[int, str, str, str]] = {
    None: (
        408,
        "Request Timeout",
        "request_timeout",
        "the request did not arrive whole in time (its head within {head:g} s, its body at {rate} KiB/s or more): "
        "send it again",
    ),
    Gathered.HEAD_TOO_LARGE: (
        400,
        "Bad Request",
        "invalid_request",
        f"the request's head (its request line and headers) is larger than {HEAD_LIMIT // 1024} KiB",
    ),
    Gathered.MALFORMED: (
        400,
        "Bad Request",
        "invalid_request",
        "the request's chunked body cannot be read (Transfer-Encoding: chunked, RFC 9112 section 7.1)",
    ),
    Gathered.BODY_TOO_LARGE: (
        413,
        "Content Too Large",
        "payload_too_large",
        "the request body is larger than this server takes ({limit} bytes)",
    ),
}
"""The answers the loop gives itself: a request not whole in time (None), or one too large to gather."""


def refusal(kind: Gathered | None, body_limit: int) -> bytes:
    """The whole HTTP answer that refuses a request the loop will not hand to a thread, in the API's error
    shape (api.resources.errors), closing the connection."""
    status, reason, code, message = REFUSALS[kind]
    details = {"limit": body_limit} if kind is Gathered.BODY_TOO_LARGE else {}
    body = json.dumps(
        {
            "status": status,
            "error_code": code,
            "rule": None,
            "message": message.format(
                limit=body_limit, head=REQUEST_SECONDS, rate=BODY_BYTES_PER_SECOND // 1024
            ),
            "details": details,
        }
    ).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
        "Connection: close\r\nX-Content-Type-Options: nosniff\r\n\r\n"
    )
    return head.encode("latin-1") + body


_refused: Any = None


def count_refusal(code: str) -> None:
    """Count a request the loop refused, by its error code, in ``/metrics``
    (``heronlog_requests_refused_total``): such a request never reaches the app, whose metrics count the rest.
    The counter is made on first use, in the worker: ``prometheus_client`` must first be imported after
    ``heronlog serve`` has set its multi-process folder (api.server.observability.serving)."""
    global _refused  # noqa: PLW0603  # made once per worker process, on first use
    try:
        if _refused is None:
            from prometheus_client import Counter

            _refused = Counter(
                "heronlog_requests_refused",
                "Requests the server refused before they reached the app (408 not whole in time, 413 body too "
                "large, 400 head too large or chunks unreadable), by error code.",
                ["error_code"],
            )
        _refused.labels(code).inc()
    except Exception:  # a metrics failure must never stop the worker's loop
        return


@dataclass(eq=False)
class Pending:
    """A request being read by the loop: what has arrived, when it must be whole, and whether the client was
    told to go on with its body (``Expect: 100-continue``)."""

    buffer: bytearray
    deadline: float
    sized: bool = False
    """Whether its head has arrived and the deadline has been moved for its body."""
    registered: bool = False
    """Whether the socket is in the worker's poller (a kept-alive connection is, for its last callback)."""
    watched: bool = False
    """Whether the poller calls :meth:`GatheringThreadWorker.on_gathering_readable` for it."""
    continued: bool = False


CONTINUE = b"HTTP/1.1 100 Continue\r\n\r\n"


def expects_continue(data: bytes | bytearray) -> bool:
    """Whether a request head asks to be told before it sends its body (``Expect: 100-continue``)."""
    end = data.find(b"\r\n\r\n")
    return end >= 0 and b"100-continue" in bytes(data[:end]).lower()


class GatheringThreadWorker(ThreadWorker):  # type: ignore[misc]  # gunicorn ships no type hints
    """gunicorn's threaded worker, whose loop reads each request whole before a thread serves it (see the
    module's docstring). A new connection, and a kept-alive one whose next request begins, are read by the loop
    until :func:`examine` finds their request complete; a thread then serves it from the buffer."""

    body_limit: int = BODY_LIMIT
    """The largest request body gathered (set on the class by ``heronlog serve`` before the workers fork)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gathering: dict[TConn, Pending] = {}
        # (deadline, a number that breaks ties, connection, its request): a heap, earliest deadline first. An entry
        # whose request has been served, or whose deadline has moved (for its body), is skipped when it comes up.
        self.gathering_deadlines: list[tuple[float, int, TConn, Pending]] = []
        self.gathering_count = itertools.count()
        # Refused connections, closing: (when they are closed at the latest, connection), in that order.
        self.closing: deque[tuple[float, TConn]] = deque()

    # --- where requests begin ---------------------------------------------------------------------------

    def accept(self, listener: socket.socket) -> None:
        try:
            client_sock, client_addr = listener.accept()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        conn = TConn(self.cfg, client_sock, client_addr, listener.getsockname())  # non-blocking
        self.gather(conn, bytearray(), registered=False)

    def on_client_socket_readable(self, conn: TConn, client: socket.socket) -> None:
        """A kept-alive connection's next request begins: read it here, not in a thread."""
        self.keepalived_conns.remove(conn)
        conn.sock.setblocking(False)
        self.gather(conn, bytearray(), registered=True)

    def finish_request(self, conn: TConn, fs: Any) -> None:
        try:
            keep = not fs.cancelled() and fs.result()
        except Exception:
            keep = False
        if keep and conn.parser is not None and self.alive:
            # The client sent its next request behind the last one (pipelining): it is already read, and the
            # socket will not look readable for it; gather it like any other.
            ahead = conn.parser.unreader.take_buffered()
            if ahead:
                conn.sock.setblocking(False)
                self.gather(conn, bytearray(ahead), registered=False)
                return
        super().finish_request(conn, fs)

    # --- gathering ----------------------------------------------------------------------------------------

    def gather(self, conn: TConn, buffer: bytearray, *, registered: bool) -> None:
        """Start reading ``conn``'s request into ``buffer`` (what is already read of it); ``registered``: the
        socket is in the poller already (a kept-alive connection)."""
        pending = Pending(buffer, time.monotonic() + REQUEST_SECONDS, registered=registered)
        self.gathering[conn] = pending
        # Most requests are already there in full (a kept-alive connection is readable; a new one's request
        # follows its handshake at once): read now, and wait on the socket only when more is to come.
        self.on_gathering_readable(conn, conn.sock)

    def on_gathering_readable(self, conn: TConn, _client: socket.socket) -> None:
        pending = self.gathering.get(conn)
        if pending is None:
            return
        buffer = pending.buffer
        try:
            data = conn.sock.recv(RECV_BYTES)
        except (BlockingIOError, InterruptedError):
            data = None
        except OSError:
            self.drop(conn)
            return
        if data is not None:
            if not data:
                self.drop(conn)  # the client closed its connection before its request was whole
                return
            buffer += data
        state = examine(buffer, self.body_limit) if buffer else Gathered.PARTIAL
        if state is Gathered.PARTIAL and not pending.sized and (head_end := buffer.find(b"\r\n\r\n")) >= 0:
            pending.sized = True  # the head is in: the body has time of its own, by its size
            length, chunked = _framing(bytes(buffer[:head_end]))
            size = self.body_limit if chunked or length is None else length
            pending.deadline = time.monotonic() + REQUEST_SECONDS + size / BODY_BYTES_PER_SECOND
            if pending.watched:
                self.keep_deadline(conn, pending)  # else kept below, once
        if state is Gathered.PARTIAL:
            if not pending.continued and expects_continue(buffer):
                pending.continued = True
                self.send_quietly(conn, CONTINUE)  # the client waits for it before it sends its body
            if not pending.watched:
                # Only a request that is not whole at once needs its deadline looked at (most are whole).
                self.keep_deadline(conn, pending)
                self.watch(conn, pending)
            return
        if state is not Gathered.COMPLETE:
            self.refuse(conn, state)
            return
        self.stop_gathering(conn)
        conn.data_ready = True  # gunicorn's thread then never waits for data of its own
        conn.sock.setblocking(True)
        conn.init()
        conn.parser.unreader.unread(bytes(buffer))
        self.enqueue_req(conn)

    def keep_deadline(self, conn: TConn, pending: Pending) -> None:
        heapq.heappush(
            self.gathering_deadlines, (pending.deadline, next(self.gathering_count), conn, pending)
        )

    def watch(self, conn: TConn, pending: Pending) -> None:
        """Wait on ``conn``'s socket for the rest of its request."""
        callback = partial(self.on_gathering_readable, conn)
        if pending.registered:
            self.poller.modify(conn.sock, selectors.EVENT_READ, callback)
        else:
            self.poller.register(conn.sock, selectors.EVENT_READ, callback)
        pending.registered = pending.watched = True

    def stop_gathering(self, conn: TConn) -> None:
        pending = self.gathering.pop(conn)
        if pending.registered:
            with contextlib.suppress(KeyError, ValueError, OSError):  # already gone
                self.poller.unregister(conn.sock)

    def drop(self, conn: TConn) -> None:
        """Close a connection whose request will not be served (the client left, or was refused)."""
        self.stop_gathering(conn)
        self.nr_conns -= 1
        conn.close()

    def refuse(self, conn: TConn, kind: Gathered | None) -> None:
        """Answer a request the loop will not hand to a thread (``kind``; None: it did not arrive in time),
        then close its connection as RFC 9112 (section 9.6) says: the answer sent and the sending side closed
        first, what the client still sends read and dropped for a moment (:data:`LINGER_SECONDS`), so that the
        kernel does not reset the connection, and lose the answer, while a client that sends its whole body
        before it reads (http.client, requests) is still sending."""
        self.send_quietly(conn, refusal(kind, self.body_limit))
        what = "did not arrive whole in time" if kind is None else kind.value.replace("_", " ")
        self.log.info("refused a request from %s: %s", conn.client, what)
        count_refusal(REFUSALS[kind][2])
        self.stop_gathering(conn)
        try:
            conn.sock.shutdown(socket.SHUT_WR)
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self.on_closing_readable, conn))
        except (OSError, ValueError, KeyError):
            self.nr_conns -= 1
            conn.close()
            return
        self.closing.append((time.monotonic() + LINGER_SECONDS, conn))

    def on_closing_readable(self, conn: TConn, _client: socket.socket) -> None:
        """Drop what a refused client still sends; close once it has closed its side."""
        try:
            data = conn.sock.recv(RECV_BYTES)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self.close_refused(conn)

    def close_refused(self, conn: TConn) -> None:
        if conn.sock.fileno() < 0:
            return  # closed already
        with contextlib.suppress(KeyError, ValueError, OSError):
            self.poller.unregister(conn.sock)
        self.nr_conns -= 1
        conn.close()

    @staticmethod
    def send_quietly(conn: TConn, data: bytes) -> None:
        """Send a short answer without waiting (a few hundred bytes: an empty socket buffer takes them all);
        a client that has gone is no error."""
        with contextlib.suppress(OSError):
            conn.sock.send(data)

    def murder_pending(self) -> None:
        """Also refuse the requests that did not arrive whole in time (gunicorn's loop calls this at each turn)."""
        super().murder_pending()
        now = time.monotonic()
        deadlines = self.gathering_deadlines
        while deadlines and deadlines[0][0] <= now:
            deadline, _, conn, pending = heapq.heappop(deadlines)
            if self.gathering.get(conn) is pending and pending.deadline == deadline:
                self.refuse(conn, None)
        while self.closing and self.closing[0][0] <= now:
            self.close_refused(self.closing.popleft()[1])

    def _cap_keepalive(self, deadline: float) -> None:
        """A stopping worker gives the requests still arriving as long as its kept-alive connections."""
        super()._cap_keepalive(deadline)
        for conn, pending in self.gathering.items():
            if pending.deadline > deadline:
                pending.deadline = deadline
                self.keep_deadline(conn, pending)
