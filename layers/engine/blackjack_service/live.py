"""A shared table's live updates (API.md, "Shared tables (rooms)"): the WebSocket
connections of its watchers, and what is posted to them.

A watcher asks for a ticket (`open_ticket`, on the REST API, with its token), then
connects to `LIVE_URL?ticket=…` on API Gateway's WebSocket API, whose `$connect` takes
the ticket once (`connect`): the WebSocket API has no bearer token to check. Every change
of a room is posted to its connections through API Gateway's `@connections` management
API (`LIVE_MANAGEMENT_URL`); a connection gone meanwhile (410) is forgotten.
"""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

from .errors import NotFound, Unauthorized
from .identity import Identity
from .models import ROOM_ID_PATTERN
from .settings import settings
from .store import Store, aws_client

_ROOM_ID = re.compile(ROOM_ID_PATTERN)
TICKET_S = 60  # how long a ticket may wait for its connection (API.md: at most 60)
# API Gateway ends a WebSocket connection after 2 hours: its items expire then.
CONNECTION_S = 2 * 60 * 60
# A connection is kept from its `$connect` on, but API Gateway takes posts to it only once
# its handshake is done: a 410 within this many seconds of `$connect` is not a connection
# gone (the watcher reads the room once its socket opens, so it misses nothing).
HANDSHAKE_S = 30


class LiveService:
    """The tickets and connections, in `store`; the posts, by an `apigatewaymanagementapi`
    client on `LIVE_MANAGEMENT_URL`, made on first use."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._connections: Any = None

    def open_ticket(self, identity: Identity, room_id: str) -> dict[str, Any]:
        """A single-use ticket to watch the room: the WebSocket address that holds it,
        and how many seconds it may wait."""
        if not _ROOM_ID.fullmatch(room_id) or self.store.get_room(room_id) is None:
            raise NotFound(f"no room {room_id}")
        ticket = secrets.token_hex(16)
        expires_at = int(time.time()) + TICKET_S
        self.store.put_ticket(ticket, identity.account_id, room_id, expires_at)
        url = settings().required("live_url")
        return {"url": f"{url}?ticket={ticket}", "expires_in": TICKET_S}

    def connect(self, connection_id: str, ticket: str | None) -> None:
        """Let the connection watch its ticket's room, using the ticket up; `Unauthorized`
        when there is no such ticket, or it is used or expired."""
        taken = None if not ticket else self.store.take_ticket(ticket, int(time.time()))
        if taken is None:
            raise Unauthorized("no such ticket, or it is used or expired")
        _, room_id = taken
        self.store.put_connection(room_id, connection_id, int(time.time()) + CONNECTION_S)

    def disconnect(self, connection_id: str) -> None:
        self.store.delete_connection(connection_id)

    def post(self, room_id: str, message: str) -> None:
        """The message to every connection of the room; the connections gone are forgotten."""
        handshaken_before = int(time.time()) + CONNECTION_S - HANDSHAKE_S
        for connection_id, expires_at in self.store.room_connections(room_id).items():
            try:
                self.connections.post_to_connection(ConnectionId=connection_id, Data=message)
            except self.connections.exceptions.GoneException:
                if expires_at <= handshaken_before:
                    self.store.delete_connection(connection_id)

    @property
    def connections(self) -> Any:
        if self._connections is None:
            endpoint = settings().required("live_management_url")
            self._connections = aws_client("apigatewaymanagementapi", endpoint)
        return self._connections
