"""The DynamoDB endpoint the functions get: a loopback port that forwards signed requests.

DynamoDB Local checks no credentials, so this is where they are checked: a request not
signed with the stack's credentials (local_stack.sigv4) gets a 403 and never reaches the
JVM; nor does a browser's preflight, which no page can sign, and no CORS header is ever
sent. A signed request goes to the JVM unchanged over a pooled keep-alive connection
(in its network namespace: a socket from the broker there) and its answer comes back
unchanged. While the JVM is down or restarting, the answer is at once a 503
`ServiceUnavailable`, which botocore takes for a retryable server error, so that the
functions fail fast rather than wait on a dead port.

The port stays the same through the JVM's restarts: the functions' environment holds it.
"""

from __future__ import annotations

import http.client
import threading

from local_stack.dynamodb_local import DynamoDBLocal
from local_stack.events import HttpResponse
from local_stack.sigv4 import Credentials, Refusal, SignedServer
from local_stack.wire import (
    MAX_LINE,
    Request,
    WireError,
    first_values,
    http_message,
    read_chunked,
    read_exactly,
    read_fields,
)

MAX_BODY = 16 << 20  # BatchWriteItem's limit, the largest request DynamoDB takes
IDLE_POOL = 32  # idle connections kept to the JVM (botocore keeps 10 per client)
UPSTREAM_TIMEOUT_S = 60  # a Scan or a transaction of a loaded 2-core machine
# Far over any answer DynamoDB gives (a BatchGetItem's is 16 MB at most).
UPSTREAM_MAX_BODY = 1 << 30
# Not forwarded: they describe one hop (RFC 9110 7.6.1), and http.client sets the length.
HOP_BY_HOP = frozenset(
    ("connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding",
     "upgrade", "content-length")
)  # fmt: skip
UNAVAILABLE = Refusal("ServiceUnavailable", "DynamoDB Local is restarting", status=503)


class Unavailable(Exception):
    """The JVM did not answer: it is down, or restarting."""


class _Upstream:
    """One keep-alive HTTP/1.1 connection to the JVM now running, read through one
    buffer for its life (http.client's HTTPResponse makes one per answer)."""

    def __init__(self, dynamodb: DynamoDBLocal) -> None:
        self.generation = dynamodb.generation
        self.sock = dynamodb.connect(UPSTREAM_TIMEOUT_S)
        self.reader = self.sock.makefile("rb")

    def exchange(
        self, method: str, target: str, headers: list[tuple[str, str]], body: bytes
    ) -> tuple[int, list[tuple[str, str]], bytes, bool]:
        """The JVM's status, headers and body, and whether it closes the connection."""
        self.sock.sendall(http_message(f"{method} {target} HTTP/1.1", headers, body))
        line = self.reader.readline(MAX_LINE + 1)
        if not line:  # as http.client says it: the JVM closed the idle connection
            raise http.client.RemoteDisconnected("DynamoDB Local closed the connection")
        version, _, rest = line.decode("iso-8859-1").rstrip("\r\n").partition(" ")
        code = rest[:3]
        if version not in ("HTTP/1.0", "HTTP/1.1") or not (code.isdigit() and len(code) == 3):
            raise http.client.BadStatusLine(line.decode("iso-8859-1"))
        try:
            headers = read_fields(self.reader)
            return (int(code), headers, *self._body(method, int(code), version, headers))
        except WireError as error:
            raise http.client.HTTPException(f"DynamoDB Local's answer: {error!r}") from error

    def _body(
        self, method: str, status: int, version: str, headers: list[tuple[str, str]]
    ) -> tuple[bytes, bool]:
        """The answer's body, and whether the JVM closes the connection after it."""
        first = first_values(headers)
        connection = first.get("connection", "")
        closes = connection == "close" or (version == "HTTP/1.0" and connection != "keep-alive")
        length = first.get("content-length")
        if method == "HEAD" or status in (204, 304) or status < 200:
            return b"", closes
        if first.get("transfer-encoding") == "chunked":
            data = read_chunked(self.reader, UPSTREAM_MAX_BODY)
            if data is None:
                raise http.client.HTTPException("DynamoDB Local's answer is too long")
            return data, closes
        if length is None:  # the body ends with the connection
            return self.reader.read(), True
        if not length.strip().isdigit():
            raise http.client.HTTPException(f"Content-Length {length!r}")
        return read_exactly(self.reader, int(length)), closes

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


class Forwarder:
    """Signed requests on a loopback port to DynamoDB Local, over a pool of connections."""

    def __init__(self, dynamodb: DynamoDBLocal, credentials: Credentials) -> None:
        self.dynamodb = dynamodb
        self.credentials = credentials
        self._idle: list[_Upstream] = []
        self._lock = threading.Lock()
        self._server: _ForwarderServer | None = None

    @property
    def endpoint(self) -> str:
        assert self._server is not None
        return self._server.url

    def start(self) -> None:
        self._server = _ForwarderServer(self, self.credentials, "dynamodb-forwarder")
        self._server.start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None
        with self._lock:
            idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()

    def exchange(
        self, method: str, target: str, headers: list[tuple[str, str]], body: bytes
    ) -> tuple[int, list[tuple[str, str]], bytes]:
        """The JVM's answer (status, headers, body) to a request; Unavailable if none."""
        if not self.dynamodb.available:
            raise Unavailable
        connection = self._take_idle()
        if connection is not None:
            try:
                return self._send(connection, method, target, headers, body)
            except (ConnectionResetError, BrokenPipeError, ConnectionAbortedError):
                # The JVM closed this idle connection before reading the request (its idle
                # timeout): the request did not run, and may go again on a fresh one.
                pass
            except (OSError, http.client.HTTPException) as exc:
                raise Unavailable from exc  # it may have run (a timeout): not sent twice
        try:
            return self._send(_Upstream(self.dynamodb), method, target, headers, body)
        except (OSError, http.client.HTTPException) as exc:
            raise Unavailable from exc

    def _send(
        self,
        connection: _Upstream,
        method: str,
        target: str,
        headers: list[tuple[str, str]],
        body: bytes,
    ) -> tuple[int, list[tuple[str, str]], bytes]:
        try:
            status, answer, data, closes = connection.exchange(method, target, headers, body)
        except BaseException:
            connection.close()
            raise
        if closes:
            connection.close()
        else:
            self._put_idle(connection)
        return status, [(k, v) for k, v in answer if k.lower() not in HOP_BY_HOP], data

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


class _ForwarderServer(SignedServer[Forwarder]):
    service = "dynamodb"
    max_body = MAX_BODY

    def signed(self, request: Request) -> HttpResponse:
        forwarded = [(k, v) for k, v in request.headers if k.lower() not in HOP_BY_HOP]
        try:
            answer = self.owner.exchange(request.method, request.target, forwarded, request.body)
        except Unavailable:
            return self.aws_answer(UNAVAILABLE)
        return HttpResponse(*answer)
