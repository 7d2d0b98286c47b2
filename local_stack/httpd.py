"""The local stack's one HTTP server: the API's port (local_stack.server), and the
DynamoDB forwarder's and the secrets endpoint's (local_stack.sigv4's SignedServer).

A Server serves each connection in a thread of its own, HTTP/1.1 with keep-alive as h11
reads and writes it (local_stack.wire). A request runs only once it has arrived whole,
within REQUEST_S of its first byte (else 408), its body within what the server holds at
once across its connections, BODIES_HELD (else 503). A server says what it will to a
request it does not run (`error_answer`), and may take a WebSocket (`websocket`).
"""

from __future__ import annotations

import logging
import socket
import socketserver
import sys
import threading
import time
from http import HTTPStatus
from typing import Any

import h11

from local_stack import websocket
from local_stack.events import HttpResponse, printable, printable_traceback
from local_stack.wire import Request, encoded, message, refusal, unversioned

log = logging.getLogger("local_stack")

IDLE_S = 120  # seconds an idle keep-alive connection is kept
# Seconds from a request's first byte to its last: on loopback or a LAN a client sends
# its request at once (API Gateway's largest body is 10 MB), so a request still arriving
# after this long comes from a client that stalled, which would hold a thread meanwhile.
REQUEST_S = 10
BODIES_HELD = 32 << 20  # bytes of request bodies a server holds at once (three of 10 MB)
MAX_HEAD = 1 << 16  # bytes of a request line and header section (the stdlib's line limit)
_CHUNK = 1 << 16  # bytes asked of the socket at a time
_PHRASES = {status.value: status.phrase for status in HTTPStatus}
# Headers the server writes itself, from the body and the connection's fate.
_FRAMING = ("content-length", "connection", "transfer-encoding")


class Refused(Exception):
    """A request answered `status` without being run, its connection closed after."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status


class Cut(Exception):
    """The connection ended before the request did: it is dropped, never run."""


class Server(socketserver.ThreadingTCPServer):
    """A port answered by `answer`, one thread per connection; `start` serves it."""

    # Stopping waits for no connection a client keeps open (a browser keeps some): a write
    # is on disk before its answer anyway, and the stack waits for its invocations.
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128  # the default 5 resets connections opened at once
    max_body = 1 << 16  # bytes of body a request may have; a longer one gets `too_large`
    request_s: float = REQUEST_S
    access_log = False  # whether each answered request is a line in the log
    websocket_idle_s: float = IDLE_S  # seconds a WebSocket may stay silent

    def __init__(self, address: tuple[str, int], name: str) -> None:
        # Bound when started, not when made: the stack makes its endpoints with it
        # (local_stack.data_dir) and starts them with it.
        super().__init__(address, _Connection, bind_and_activate=False)
        self.thread = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.1}, name=name, daemon=True
        )
        self.bodies_free = BODIES_HELD
        self.bodies_lock = threading.Lock()

    def start(self) -> None:
        try:
            self.server_bind()
            self.server_activate()
        except BaseException:
            self.server_close()
            raise
        self.thread.start()

    def stop(self) -> None:
        if self.thread.is_alive():
            self.shutdown()
            self.thread.join(timeout=10)
        self.server_close()

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"

    def hold(self, size: int) -> bool:
        """Whether `size` more bytes of body may be held, counted then (or, negative,
        given back)."""
        with self.bodies_lock:
            if size > self.bodies_free:
                return False
            self.bodies_free -= size
            return True

    def answer(self, request: Request) -> HttpResponse:
        """The answer to a request read whole."""
        raise NotImplementedError

    def error_answer(self, status: int, detail: str) -> HttpResponse:
        """The answer to a request not run: 400 (not read one way only), 408 (not whole
        in time), 500 (its answer failed), 503 (bodies held to the limit); `detail` says why."""
        raise NotImplementedError

    def too_large(self, request: Request) -> HttpResponse:
        """The answer to a request whose body is over max_body (it is not read)."""
        raise NotImplementedError

    def outgoing(self, request: Request, response: HttpResponse) -> HttpResponse:
        """The answer to a request that was read, as it goes out: as it is, by default."""
        return response

    def own_headers(self) -> list[tuple[str, str]]:
        """The headers that come first in each of this server's answers."""
        return []

    def websocket(self, request: Request) -> websocket.Handler | HttpResponse | None:
        """The handler of a request to become a WebSocket; an answer refuses it; None
        answers it as HTTP."""
        return None

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away is no error; anything else is one line and a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            return
        log.error("HTTP error with %s\n%s", client_address[0], printable_traceback())


class _Connection(socketserver.BaseRequestHandler):
    """One client's connection: its requests one after the other, each answered."""

    server: Server
    request: socket.socket

    def handle(self) -> None:
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.http = h11.Connection(h11.SERVER, max_incomplete_event_size=MAX_HEAD)
        self.held = 0  # bytes of body counted against the server's BODIES_HELD
        try:
            while self._exchange():
                self.http.start_next_cycle()
        finally:
            self._hold(-self.held)

    def _exchange(self) -> bool:
        """One request read and answered; whether the connection carries another."""
        line = ""
        try:
            event = self._head()
            if event is None:
                return False
            request = Request.of(event, self.client_address)
            line = printable(f"{request.method} {request.target}")
            fault = refusal(event, self.pending)
            if fault is not None:
                raise Refused(400, fault)
            request.body = self._body(event)
        except Cut:
            log.info("%s dropped: the connection ended within the request", line)
            return False
        except Refused as refused:
            status, detail = refused.status, str(refused)
            answer = self.server.error_answer(status, detail)
            if status == 413:
                answer = self.server.too_large(request)
            self._send(answer, closes=True, head_only=line.startswith("HEAD "))
            line = line or printable(self.pending.split(b"\n")[0].rstrip(b"\r").decode("latin-1"))
            log.info("%s %d refused: %s", line, answer.status, printable(detail))
            return False
        # A state h11 documents, missing from its __all__.
        if self.http.their_state is h11.MIGHT_SWITCH_PROTOCOL:  # type: ignore[attr-defined]
            handler = self.server.websocket(request)
            if isinstance(handler, HttpResponse):  # the upgrade refused
                self._send(handler, closes=True)
                return False
            if handler is not None:
                received = self.http.trailing_data[0]
                idle_s = self.server.websocket_idle_s
                fault = websocket.serve(self.request, request, received, handler, idle_s)
                if fault is not None:
                    self._send(self.server.error_answer(400, fault), closes=True)
                return False
        return self._answer(request, line)

    def _answer(self, request: Request, line: str) -> bool:
        """Run the request and send its answer; whether the connection stays open."""
        started = time.perf_counter()
        closes = False
        try:
            response = self.server.answer(request)
        except Exception:
            log.error("local stack error on %s\n%s", line, printable_traceback())
            response = self.server.error_answer(500, "the local stack failed; see its log")
            closes = True
        response = self.server.outgoing(request, response)
        self._hold(-self.held)  # the body is read into the answer by now
        sent = self._send(response, closes=closes, head_only=request.method == "HEAD")
        if self.server.access_log:
            elapsed = (time.perf_counter() - started) * 1000
            log.info("%s %d %.1fms", line, response.status, elapsed)
        return sent and self.http.our_state is h11.DONE  # not MUST_CLOSE

    def _head(self) -> h11.Request | None:
        """The next request as h11 read it, None where the connection ends or idles out
        first; `pending` keeps the bytes received from its first on, and its time starts
        with that byte."""
        self.deadline: float | None = None
        while True:
            self.pending = self.http.trailing_data[0]
            if self.pending and self.deadline is None:
                self.deadline = time.monotonic() + self.server.request_s
            event = self._next_event()
            if isinstance(event, h11.Request):
                return event
            if event is not h11.NEED_DATA:
                return None  # the connection ended between requests
            if unversioned(self.pending):
                raise Refused(400, "the request line is not `METHOD target HTTP/x.y`")
            if not self._receive():
                return None

    def _body(self, event: h11.Request) -> bytes:
        """The request's body, whole, counted against the bodies the server holds: by its
        length before it is read, by what has come of a chunked one."""
        headers = event.headers.raw_items()
        length = next((int(v) for k, v in headers if k.lower() == b"content-length"), 0)
        self._hold(length)
        if self.http.they_are_waiting_for_100_continue:
            go_on = h11.InformationalResponse(status_code=100, headers=[], reason="Continue")
            self.request.sendall(self.http.send(go_on) or b"")
        chunks: list[bytes] = []
        size = 0
        while not isinstance(event := self._next_event(), h11.EndOfMessage):
            if event is h11.NEED_DATA:
                self._receive()
                continue
            chunks.append(event.data)
            size += len(event.data)
            self._hold(size - self.held)
        return b"".join(chunks)

    def _hold(self, size: int) -> None:
        """`size` more bytes of body held (negative: given back); Refused if the request's
        body is over max_body (413) or the server holds as much as it takes (503)."""
        if self.held + size > self.server.max_body:
            raise Refused(413, "the body is over the limit")
        if not self.server.hold(size):
            raise Refused(503, "the server holds as many request bodies as it takes; try again")
        self.held += size

    def _next_event(self) -> Any:
        """h11's next event; Cut if the connection ended within a request, Refused (400)
        if h11 cannot read it."""
        try:
            return self.http.next_event()
        except h11.RemoteProtocolError as error:
            if self.http.trailing_data[1]:  # the client's end came first
                raise Cut(printable(str(error))) from error
            raise Refused(400, str(error)) from error

    def _receive(self) -> bool:
        """More bytes for h11 (or the connection's end); False when the connection idled
        out between requests, Refused (408) when the request's time is up."""
        wait = IDLE_S if self.deadline is None else self.deadline - time.monotonic()
        try:
            if wait <= 0:
                raise TimeoutError
            self.request.settimeout(wait)
            self.http.receive_data(self.request.recv(_CHUNK))
        except TimeoutError:
            if self.deadline is None:
                return False
            detail = f"the request did not arrive whole within {self.server.request_s} s"
            raise Refused(408, detail) from None
        return True

    def _send(self, response: HttpResponse, *, closes: bool, head_only: bool = False) -> bool:
        """The answer, its headers after the server's own, in one write (a HEAD's without
        its body, with its Content-Length); whether the client was still there for it."""
        headers = self.server.own_headers()
        headers += [pair for pair in response.headers if pair[0].lower() not in _FRAMING]
        headers.append(("Content-Length", str(len(response.body))))
        if closes:
            headers.append(("Connection", "close"))
        phrase = _PHRASES.get(response.status, "")
        head = h11.Response(status_code=response.status, headers=encoded(headers), reason=phrase)
        body = b"" if head_only or response.status in (204, 304) else response.body
        try:
            self.request.sendall(message(self.http, head, body))
        except (BrokenPipeError, ConnectionResetError):
            return False
        return True
