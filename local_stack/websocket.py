"""WebSockets on the stack's HTTP ports, read and written by wsproto.

A server (local_stack.httpd) whose `websocket` gives a handler hands the connection to
`serve`; the handler gets the request and a `WebSocket`, text messages each way until
either side closes. An API Gateway WebSocket API's routes are to be served here.
"""

from __future__ import annotations

import socket
import threading
from collections import deque
from collections.abc import Callable

from wsproto import ConnectionType, WSConnection, events
from wsproto.connection import ConnectionState
from wsproto.utilities import RemoteProtocolError

from local_stack.wire import Request, encoded

MAX_MESSAGE = 128 * 1024  # characters of a message: API Gateway's limit is 128 KB
_CHUNK = 1 << 16  # bytes asked of the socket at a time
_CLOSABLE = (ConnectionState.OPEN, ConnectionState.REMOTE_CLOSING)


class WebSocket:
    """An accepted WebSocket: text messages each way, then a close. `send` and `close`
    may be called from any thread (another client's, say); `receive` from one only."""

    def __init__(self, sock: socket.socket, connection: WSConnection) -> None:
        self._sock = sock
        self._connection = connection
        self._lock = threading.Lock()  # wsproto's state, and whole frames on the socket
        self._messages: deque[str] = deque()
        self._parts: list[str] = []  # of a text message still arriving

    def send(self, text: str) -> None:
        """The text as one message to the client; nothing once the WebSocket is closing."""
        with self._lock:
            if self._connection.state is ConnectionState.OPEN:
                self._sock.sendall(self._connection.send(events.TextMessage(data=text)))

    def receive(self) -> str | None:
        """The client's next text message, whole; None once the WebSocket is closing."""
        while True:
            with self._lock:
                for event in self._connection.events():
                    self._take(event)
            if self._messages:
                return self._messages.popleft()
            if self._connection.state not in (ConnectionState.OPEN, ConnectionState.LOCAL_CLOSING):
                return None
            data = self._sock.recv(_CHUNK)
            with self._lock:
                self._connection.receive_data(data or None)  # None: the connection ended

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Say the server closes (RFC 6455 5.5.1); the client's close then ends it."""
        with self._lock:
            if self._connection.state is ConnectionState.OPEN:
                self._sock.sendall(self._connection.send(events.CloseConnection(code, reason)))

    def _take(self, event: events.Event) -> None:
        """One of wsproto's events, the lock held: a message kept, a control frame answered."""
        state = self._connection.state
        if isinstance(event, events.CloseConnection) and state in _CLOSABLE:
            self._sock.sendall(self._connection.send(event.response()))
        elif state is not ConnectionState.OPEN:
            return  # what comes after the server's close is dropped
        elif isinstance(event, events.Ping):
            self._sock.sendall(self._connection.send(event.response()))
        elif isinstance(event, events.BytesMessage):
            self._sock.sendall(self._connection.send(events.CloseConnection(1003, "text only")))
        elif isinstance(event, events.TextMessage):
            self._parts.append(event.data)
            if sum(map(len, self._parts)) > MAX_MESSAGE:
                self._sock.sendall(self._connection.send(events.CloseConnection(1009, "too long")))
            elif event.message_finished:
                self._messages.append("".join(self._parts))
                self._parts = []


Handler = Callable[[Request, WebSocket], None]


def serve(
    sock: socket.socket, request: Request, received: bytes, handler: Handler, idle_s: float
) -> str | None:
    """Accept the request's handshake and run the handler on the WebSocket, then close
    it; `received` is what came after the request. Why the request is no handshake, if
    it is not one (the connection is left as it was then)."""
    connection = WSConnection(ConnectionType.SERVER)
    try:
        connection.initiate_upgrade_connection(encoded(request.headers), request.target)
    except (RemoteProtocolError, ValueError) as error:  # ValueError: a Host IDNA refuses
        return str(error)
    sock.settimeout(idle_s)  # a client silent for this long is gone
    sock.sendall(connection.send(events.AcceptConnection()))
    connection.receive_data(received)
    websocket = WebSocket(sock, connection)
    try:
        handler(request, websocket)
    finally:
        websocket.close()
        while websocket.receive() is not None:  # to the client's close
            pass
    return None
