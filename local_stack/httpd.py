"""The local stack's one HTTP server: the API's port (local_stack.server), and the
DynamoDB forwarder's and the secrets endpoint's (local_stack.sigv4's SignedServer).

A Server serves its port from a thread of its own, each connection in a thread (HTTP/1.1
with keep-alive); requests are read by local_stack.wire's strict parser, and a request runs
only once it has arrived whole: one whose connection ends before its header section or
body does is dropped unanswered, and a body that stalls is answered 408. Every answer goes
out as one write. What a server says to a request it will not run is its own
(`error_answer`): the API's is a problem document, an AWS endpoint's an AWS error.
"""

from __future__ import annotations

import logging
import socketserver
import sys
import threading
import time
import traceback
from http import HTTPStatus
from typing import Any

from local_stack.events import HttpResponse, printable, printable_traceback
from local_stack.wire import (
    Incomplete,
    Malformed,
    Request,
    http_message,
    read_body,
    read_request,
)

log = logging.getLogger("local_stack")

IDLE_S = 120  # seconds an idle keep-alive connection is kept
# Seconds a request's body may go without a byte arriving before it is answered 408: on
# loopback or a LAN a client sends its body at once, so a pause this long means a client
# that stalled, which would otherwise hold its connection's thread.
BODY_STALL_S = 10
_PHRASES = {status.value: status.phrase for status in HTTPStatus}
# Headers the server writes itself, from the body and the connection's fate.
_FRAMING = ("content-length", "connection", "transfer-encoding")


class Server(socketserver.ThreadingTCPServer):
    """A port answered by `answer`, one thread per connection; `start` serves it."""

    # Stopping waits for no connection a client keeps open (a browser keeps some): a write
    # is on disk before its answer anyway, and the stack waits for its invocations.
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128  # the default 5 resets connections opened at once
    max_body = 1 << 16  # bytes of body a request may have; a longer one gets `too_large`
    access_log = False  # whether each answered request is a line in the log

    def __init__(self, address: tuple[str, int], name: str) -> None:
        super().__init__(address, _Connection)
        self.thread = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.1}, name=name, daemon=True
        )

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        self.thread.join(timeout=10)

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"

    def answer(self, request: Request) -> HttpResponse:
        """The answer to a request read whole."""
        raise NotImplementedError

    def error_answer(self, status: int, detail: str) -> HttpResponse:
        """The answer to a request not run: 400 (not read one way only), 408 (its body
        stalled), 500 (its answer failed); `detail` says why."""
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

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away is no error; anything else is one line and a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            return
        log.error(
            "HTTP error with %s\n%s", client_address[0], printable_traceback(traceback.format_exc())
        )


class _Connection(socketserver.StreamRequestHandler):
    """One client's connection: its requests one after the other, each answered."""

    server: Server
    timeout = IDLE_S
    disable_nagle_algorithm = True  # no answer waits for the ACK of the one before

    def handle(self) -> None:
        while self._exchange():
            pass

    def _exchange(self) -> bool:
        """One request read and answered; whether the connection carries another."""
        try:
            request = read_request(self.rfile, self.client_address)
        except TimeoutError:  # idle past IDLE_S
            return False
        except Incomplete as cut:
            log.info("%s dropped: the connection ended within its headers", printable(cut.line))
            return False
        except Malformed as error:
            # A HEAD's answer has no body, even a refusal's (the line is `HEAD ...` then).
            head_only = error.line.startswith("HEAD ")
            self._send(self.server.error_answer(400, str(error)), closes=True, head_only=head_only)
            log.info("%s 400 refused: %s", printable(error.line), printable(str(error)))
            return False
        if request is None:
            return False
        if request.expects_continue:
            self.wfile.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        started = time.perf_counter()
        line = printable(f"{request.method} {request.target}")
        try:
            response, closes = self._answer(request, line)
        except Incomplete:
            log.info("%s dropped: the connection ended within the body", line)
            return False
        closes = closes or not request.keep_alive
        response = self.server.outgoing(request, response)
        sent = self._send(response, closes=closes, head_only=request.method == "HEAD")
        if self.server.access_log:
            elapsed = (time.perf_counter() - started) * 1000
            log.info("%s %d %.1fms", line, response.status, elapsed)
        return sent and not closes

    def _answer(self, request: Request, line: str) -> tuple[HttpResponse, bool]:
        """The answer to the request, once its body is read, and whether the connection
        must close after it (what is left of a body not read would read as a request)."""
        self.connection.settimeout(BODY_STALL_S)  # each read's wait, not the whole body's
        try:
            body = read_body(self.rfile, request, self.server.max_body)
        except Malformed as error:
            return self.server.error_answer(400, str(error)), True
        except TimeoutError:
            stalled = f"no byte of the body came for {BODY_STALL_S} s"
            return self.server.error_answer(408, stalled), True
        finally:
            self.connection.settimeout(IDLE_S)  # the idle wait for the next request
        if body is None:
            return self.server.too_large(request), True
        request.body = body
        try:
            return self.server.answer(request), False
        except Exception:
            log.error(
                "local stack error on %s\n%s", line, printable_traceback(traceback.format_exc())
            )
            return self.server.error_answer(500, "the local stack failed; see its log"), True

    def _send(self, response: HttpResponse, *, closes: bool, head_only: bool) -> bool:
        """The answer, its headers after the server's own, in one write (a HEAD's without
        its body, with its Content-Length); whether the client was still there for it."""
        headers = self.server.own_headers()
        headers += [pair for pair in response.headers if pair[0].lower() not in _FRAMING]
        if closes:
            headers.append(("Connection", "close"))
        status_line = f"HTTP/1.1 {response.status} {_PHRASES.get(response.status, '')}"
        message = http_message(status_line, headers, response.body)
        if head_only:
            message = message[: len(message) - len(response.body)]
        try:
            self.wfile.write(message)
        except (BrokenPipeError, ConnectionResetError):
            return False
        return True
