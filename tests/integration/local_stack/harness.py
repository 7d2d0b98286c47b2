"""A real local stack on a free loopback port, and a tiny HTTP client for it."""

from __future__ import annotations

import http.client
import json
import socket
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wsproto import ConnectionType, WSConnection
from wsproto.events import CloseConnection, Event, Request, TextMessage

from local_stack.server import LocalServer, start_server, stop_server
from local_stack.stack import LocalStack

FIXTURES = Path(__file__).parent / "fixtures"
TEMPLATE = FIXTURES / "template.yaml"
WEB_DIR = FIXTURES / "web"
TIMEOUT_S = 20


@dataclass
class Reply:
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)

    def header_values(self, name: str) -> list[str]:
        return [v for k, v in self.headers if k.lower() == name.lower()]

    def json(self) -> Any:
        return json.loads(self.body)


class Client:
    """One connection per request, so that threads can share a Client."""

    def __init__(self, port: int) -> None:
        self.port = port

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | list[tuple[str, str]] | None = None,
        token: str | None = None,
    ) -> Reply:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT_S)
        try:
            data = body if body is None or isinstance(body, bytes) else json.dumps(body).encode()
            connection.putrequest(method, path, skip_accept_encoding=True)
            pairs = list(headers.items()) if isinstance(headers, dict) else list(headers or [])
            if token is not None:
                pairs.append(("Authorization", f"Bearer {token}"))
            if data is not None:
                pairs.append(("Content-Type", "application/json"))
                pairs.append(("Content-Length", str(len(data))))
            for name, value in pairs:
                connection.putheader(name, value)
            connection.endheaders(data)
            response = connection.getresponse()
            return Reply(response.status, response.getheaders(), response.read())
        finally:
            connection.close()


class WebSocketClient:
    """A WebSocket client: wsproto's client side on a socket of its own."""

    def __init__(self, port: int, target: str, headers: list[tuple[bytes, bytes]]) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT_S)
        self.connection = WSConnection(ConnectionType.CLIENT)
        self.events: deque[Event] = deque()
        request = Request(host="127.0.0.1", target=target, extra_headers=headers)
        self.sock.sendall(self.connection.send(request))

    def next_event(self) -> Event:
        while not self.events:
            data = self.sock.recv(65536)
            self.connection.receive_data(data or None)
            self.events.extend(self.connection.events())
        return self.events.popleft()

    def send(self, text: str) -> None:
        self.sock.sendall(self.connection.send(TextMessage(data=text)))

    def received(self) -> str:
        """The next text message, whole (wsproto gives it as it arrives)."""
        parts: list[str] = []
        finished = False
        while not finished:
            event = self.next_event()
            assert isinstance(event, TextMessage), event
            parts.append(event.data)
            finished = event.message_finished
        return "".join(parts)

    def close(self) -> CloseConnection:
        """Close, and the server's answering close."""
        self.sock.sendall(self.connection.send(CloseConnection(code=1000)))
        answer = self.next_event()
        assert isinstance(answer, CloseConnection), answer
        return answer


def stack_workers(stack_id: str) -> list[int]:
    """The pids of the execution environments of stack `stack_id` that are running, found
    as `ps` shows them among the machine's processes: by the stack's id on their command
    lines (a stack of another test on another worker has an id of its own)."""
    found: list[int] = []
    for process in Path("/proc").glob("[0-9]*"):
        try:
            command = (process / "cmdline").read_bytes().split(b"\0")  # a zombie's is empty
        except OSError:  # it has just ended
            continue
        if b"local_stack.worker" in b" ".join(command) and stack_id.encode() in command:
            found.append(int(process.name))
    return found


@dataclass
class Running:
    stack: LocalStack
    server: LocalServer
    client: Client
    data_dir: Path


@contextmanager
def running_stack(data_dir: Path, template: Path = TEMPLATE) -> Iterator[Running]:
    stack = LocalStack(template, data_dir)
    stack.start()
    try:
        server, thread = start_server(stack, "127.0.0.1", 0, WEB_DIR)
        try:
            yield Running(stack, server, Client(server.server_address[1]), data_dir)
        finally:
            stop_server(server, thread)
    finally:
        stack.stop()
