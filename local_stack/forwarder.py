"""The DynamoDB endpoint the functions get: a loopback port that forwards signed requests.

DynamoDB Local checks no credentials, so this is where they are checked (local_stack.sigv4):
nothing else reaches the JVM, not even a browser's preflight. A signed request goes to the
JVM unchanged over a pooled keep-alive connection (a socket from the broker in its network
namespace) and its answer comes back unchanged. While the JVM is down or restarting, the
answer is at once a 503 `ServiceUnavailable`, which botocore retries, so that the functions
fail fast rather than wait on a dead port. The port stays the same through the JVM's
restarts: the functions' environment holds it.
"""

from __future__ import annotations

import http.client
import threading

import h11

from local_stack.dynamodb_local import DynamoDBLocal
from local_stack.events import HttpResponse
from local_stack.sigv4 import Credentials, Refusal, SignedServer
from local_stack.wire import Request, encoded, fields, message

MAX_BODY = 16 << 20  # BatchWriteItem's limit, the largest request DynamoDB takes
IDLE_POOL = 32  # idle connections kept to the JVM (botocore keeps 10 per client)
UPSTREAM_TIMEOUT_S = 60  # a Scan or a transaction of a loaded 2-core machine
# Not forwarded: they describe one hop (RFC 9110 7.6.1); the length is the forwarder's own.
HOP_BY_HOP = frozenset(
    ("connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding",
     "upgrade", "content-length")
)  # fmt: skip
UNAVAILABLE = Refusal("ServiceUnavailable", "DynamoDB Local is restarting", status=503)


def _end_to_end(headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(name, value) for name, value in headers if name.lower() not in HOP_BY_HOP]


class Unavailable(Exception):
    """The JVM did not answer: it is down, or restarting."""


class _Upstream:
    """One keep-alive HTTP/1.1 connection to the JVM now running, spoken by h11."""

    def __init__(self, dynamodb: DynamoDBLocal) -> None:
        self.generation = dynamodb.generation
        self.sock = dynamodb.connect(UPSTREAM_TIMEOUT_S)
        self.http = h11.Connection(h11.CLIENT)

    def exchange(self, request: Request) -> tuple[HttpResponse, bool]:
        """The JVM's answer, and whether it closes the connection."""
        try:
            headers = [*_end_to_end(request.headers), ("Content-Length", str(len(request.body)))]
            head = h11.Request(
                method=request.method, target=request.target, headers=encoded(headers)
            )
            self.sock.sendall(message(self.http, head, request.body))
            answer: h11.Response | None = None
            data: list[bytes] = []
            while not isinstance(event := self.http.next_event(), h11.EndOfMessage):
                if event is h11.NEED_DATA:
                    received = self.sock.recv(1 << 16)
                    if not received and answer is None:  # it closed the idle connection
                        raise http.client.RemoteDisconnected("DynamoDB Local closed the connection")
                    self.http.receive_data(received)
                elif isinstance(event, h11.Response):
                    answer = event
                elif isinstance(event, h11.Data):
                    data.append(event.data)
        except h11.ProtocolError as error:
            raise http.client.HTTPException(f"DynamoDB Local's answer: {error!r}") from error
        assert answer is not None
        closes = self.http.our_state is not h11.DONE or self.http.their_state is not h11.DONE
        if not closes:
            self.http.start_next_cycle()
        return HttpResponse(answer.status_code, _end_to_end(fields(answer)), b"".join(data)), closes

    def close(self) -> None:
        self.sock.close()


class Forwarder(SignedServer):
    """Signed requests on a loopback port to DynamoDB Local, over a pool of connections."""

    service = "dynamodb"
    max_body = MAX_BODY

    def __init__(self, dynamodb: DynamoDBLocal, credentials: Credentials) -> None:
        super().__init__(credentials, "dynamodb-forwarder")
        self.dynamodb = dynamodb
        self._idle: list[_Upstream] = []
        self._lock = threading.Lock()

    def signed(self, request: Request) -> HttpResponse:
        try:
            return self.exchange(request)
        except Unavailable:
            return self.aws_answer(UNAVAILABLE)

    def stop(self) -> None:
        super().stop()
        with self._lock:
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()

    def exchange(self, request: Request) -> HttpResponse:
        """The JVM's answer to a request; Unavailable if none."""
        if not self.dynamodb.available:
            raise Unavailable
        connection = self._take_idle()
        if connection is not None:
            try:
                return self._send(connection, request)
            except (ConnectionResetError, BrokenPipeError, ConnectionAbortedError):
                # The JVM closed this idle connection before reading the request (its idle
                # timeout): the request did not run, and may go again on a fresh one.
                pass
            except (OSError, http.client.HTTPException) as exc:
                raise Unavailable from exc  # it may have run (a timeout): not sent twice
        try:
            return self._send(_Upstream(self.dynamodb), request)
        except (OSError, http.client.HTTPException) as exc:
            raise Unavailable from exc

    def _send(self, connection: _Upstream, request: Request) -> HttpResponse:
        try:
            answer, closes = connection.exchange(request)
        except BaseException:
            connection.close()
            raise
        if closes:
            connection.close()
        else:
            self._put_idle(connection)
        return answer

    def _take_idle(self) -> _Upstream | None:
        """The most recently used connection to the JVM now running, if one is idle."""
        with self._lock:
            while self._idle:
                connection = self._idle.pop()
                if connection.generation == self.dynamodb.generation:
                    return connection
                connection.close()  # to a JVM that has died since
        return None

    def _put_idle(self, connection: _Upstream) -> None:
        with self._lock:
            if len(self._idle) < IDLE_POOL:
                self._idle.append(connection)
                return
        connection.close()
