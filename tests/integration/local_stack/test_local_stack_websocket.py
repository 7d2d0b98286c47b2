"""WebSockets on the local stack's HTTP server (issue 39, item 1): a GET that asks to
become one is handed to the server's handler, which exchanges text messages with the
client until either closes; a server without a handler answers it as HTTP. The client
is wsproto's client side on a plain socket, the server the stack's own."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest
from wsproto.events import (
    AcceptConnection,
    BytesMessage,
    CloseConnection,
    RejectConnection,
    RejectData,
)

from local_stack import websocket, wire
from local_stack.events import HttpResponse
from local_stack.httpd import Server
from tests.integration.local_stack.harness import WebSocketClient

TIMEOUT_S = 10


class Room:
    """A handler that passes each message on to the other clients, from the sender's
    thread (as a route that pushes to others does), then echoes it to the sender."""

    def __init__(self) -> None:
        self.members: list[websocket.WebSocket] = []
        self.targets: list[str] = []
        self.left = threading.Semaphore(0)

    def __call__(self, request: wire.Request, client: websocket.WebSocket) -> None:
        self.targets.append(request.target)
        self.members.append(client)
        while (message := client.receive()) is not None:
            if message == "leave":
                client.send("bye")
                break  # the server closes
            for member in self.members:
                if member is not client:
                    member.send(f"from another: {message}")
            client.send(f"echo: {message}")  # once the others have it
        self.members.remove(client)
        self.left.release()


class RoomServer(Server):
    """Plain answers over HTTP, and the room for a WebSocket at /room."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), "websocket-test")
        self.room = Room()

    def answer(self, request: wire.Request) -> HttpResponse:
        return HttpResponse(200, [("Content-Type", "text/plain")], b"plain HTTP")

    def error_answer(self, status: int, detail: str) -> HttpResponse:
        return HttpResponse(status, [("Content-Type", "text/plain")], detail.encode())

    def websocket(self, request: wire.Request) -> websocket.Handler | None:
        return self.room if request.target.startswith("/room") else None


@pytest.fixture
def server() -> Iterator[RoomServer]:
    server = RoomServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def connect(server: RoomServer, target: str = "/room?name=a") -> WebSocketClient:
    client = WebSocketClient(server.server_address[1], target, [(b"Origin", b"http://127.0.0.1")])
    accepted = client.next_event()
    assert isinstance(accepted, AcceptConnection), accepted
    return client


def test_a_client_exchanges_messages_with_the_handler_and_closes(server: RoomServer) -> None:
    client = connect(server)
    client.send("hello")
    assert client.received() == "echo: hello"
    client.send("é" * 70_000)  # over a frame's 16-bit length and many reads
    assert client.received() == "echo: " + "é" * 70_000
    assert client.close().code == 1000
    assert client.sock.recv(1) == b""  # and the server ends the connection
    assert server.room.left.acquire(timeout=TIMEOUT_S)
    assert server.room.targets == ["/room?name=a"]


def test_the_server_closes_when_the_handler_is_done(server: RoomServer) -> None:
    client = connect(server)
    client.send("leave")
    assert client.received() == "bye"
    closing = client.next_event()
    assert isinstance(closing, CloseConnection) and closing.code == 1000
    client.sock.sendall(client.connection.send(closing.response()))
    assert client.sock.recv(1) == b""


def test_a_handler_sends_to_other_clients_from_its_own_thread(server: RoomServer) -> None:
    first = connect(server)
    first.send("here")  # answered once the handler has the first in the room
    assert first.received() == "echo: here"
    second = connect(server)
    second.send("anyone?")  # each connection is its own thread, its handler's
    assert second.received() == "echo: anyone?"
    assert first.received() == "from another: anyone?"
    first.send("hi")
    assert first.received() == "echo: hi"
    assert second.received() == "from another: hi"
    first.close()
    second.close()


def test_a_binary_message_closes_the_websocket(server: RoomServer) -> None:
    client = connect(server)
    client.send("x")
    assert client.received() == "echo: x"
    client.sock.sendall(client.connection.send(BytesMessage(data=b"\x00")))
    closing = client.next_event()
    assert isinstance(closing, CloseConnection) and closing.code == 1003


def test_an_upgrade_without_a_handler_is_answered_as_http(server: RoomServer) -> None:
    client = WebSocketClient(server.server_address[1], "/elsewhere", [])
    answer = client.next_event()
    assert isinstance(answer, RejectConnection) and answer.status_code == 200
    data = client.next_event()
    assert isinstance(data, RejectData) and data.data == b"plain HTTP"


def test_a_handshake_wsproto_refuses_is_400(server: RoomServer) -> None:
    request = (
        b"GET /room HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"  # and no version
    )
    with socket.create_connection(
        ("127.0.0.1", server.server_address[1]), timeout=TIMEOUT_S
    ) as raw:
        raw.sendall(request)
        answer = b"".join(iter(lambda: raw.recv(65536), b""))
    assert answer.startswith(b"HTTP/1.1 400 "), answer
    assert answer.endswith(b"Missing header, 'Sec-WebSocket-Version'")
