"""The rooms' WebSocket API, stream and deadline queue on the real local stack
(template.yaml): a `ws://` connection opens with a good ticket only; every change of a
room reaches every connected socket through the table's stream and the broadcast
function, in order, once (a change whose view failed is tried again from it); a
connection gone is forgotten (410 from `@connections`); and a betting window's deadline,
sent to the queue by the rooms function, is answered by the deadline function once due,
with no request from anyone."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from wsproto.events import AcceptConnection, Event, RejectConnection

from local_stack.worker import EnvironmentSetup
from tests.integration.local_stack.harness import Running, WebSocketClient, running_stack

REPO = Path(__file__).resolve().parents[3]
TIMEOUT_S = 20  # a bound on each wait: cold starts of the functions on a busy machine


def failing_once(room_id: str, version: int) -> None:
    """An environment setup: the watcher view of the room at `version` fails the first
    time it is made in the environment, as a change that could not be posted."""
    from blackjack_service import factories

    rooms, failed = factories.rooms(), list[int]()
    view = rooms.watcher_view

    def once(old: Mapping[str, Any] | None, new: Mapping[str, Any]) -> dict[str, Any]:
        if new["pk"] == f"ROOM#{room_id}" and int(new["version"]) == version and not failed:
            failed.append(version)
            raise RuntimeError("a view that could not be made, this once")
        return view(old, new)

    rooms.watcher_view = once  # type: ignore[method-assign]


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with running_stack(tmp_path_factory.mktemp("live"), REPO / "template.yaml") as running:
        yield running


def watcher(url: str) -> tuple[WebSocketClient, Event]:
    """A WebSocket client of the URL on the stack's port, and the server's answer to it."""
    parts = urlsplit(url)
    assert parts.scheme == "ws" and parts.hostname == "127.0.0.1", url
    client = WebSocketClient(parts.port or 80, f"{parts.path}?{parts.query}", [])
    return client, client.next_event()


def room_views(client: WebSocketClient, count: int, after: int = 0) -> list[Any]:
    """The rooms of the next `count` messages of versions past `after`: a watcher may
    get the changes just before its connection, which the stream brings a moment later."""
    rooms: list[Any] = []
    while len(rooms) < count:
        message = json.loads(client.received())
        assert message["type"] == "room", message
        if message["room"]["version"] > after:
            rooms.append(message["room"])
    return rooms


def login(running: Running, name: str) -> str:
    account = {"login": name, "nick": name, "password": "password1"}
    assert running.client.request("POST", "/v1/users", account).status == 201
    session = running.client.request(
        "POST", "/v1/sessions", {"login": name, "password": "password1"}
    )
    return str(session.json()["token"])


def live_url(running: Running, token: str, room_id: str) -> str:
    reply = running.client.request("POST", f"/v1/rooms/{room_id}/live", {}, token=token)
    assert reply.status == 200, reply.body
    return str(reply.json()["url"])


def table(running: Running) -> tuple[Any, str]:
    return running.stack.data.client("dynamodb"), str(running.stack.template.ref("GameTable"))


def post(running: Running, token: str, path: str, body: Any) -> Any:
    reply = running.client.request("POST", path, body, token=token)
    assert reply.status in (200, 201), (path, reply.status, reply.body)
    return reply.json()


def make_room(running: Running, token: str, **body: Any) -> str:
    return str(post(running, token, "/v1/rooms", {"table": "casino", **body})["room_id"])


def until(condition: Callable[[], bool]) -> bool:
    """Whether the condition holds within TIMEOUT_S (checked every 0.1 s)."""
    deadline = time.monotonic() + TIMEOUT_S
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def keys(running: Running, pk: str) -> list[str]:
    client, name = table(running)
    answer = client.query(
        TableName=name,
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": pk}},
        ConsistentRead=True,
    )
    return [item["sk"]["S"] for item in answer["Items"]]


def test_a_ticket_opens_one_connection_and_no_ticket_none(live: Running) -> None:
    running = live
    token = login(running, "watcher1")
    room0 = make_room(running, token)
    url = live_url(running, token, room0)
    assert url.startswith(f"ws://127.0.0.1:{running.client.port}/")
    first, opened = watcher(url)
    assert isinstance(opened, AcceptConnection), opened
    _, again = watcher(url)  # the ticket is used
    assert isinstance(again, RejectConnection) and again.status_code == 401
    base = url.partition("?")[0]
    for refused in (base, base + "?ticket=" + "0" * 32):
        _, answer = watcher(refused)
        assert isinstance(answer, RejectConnection) and answer.status_code == 401, refused
    client, name = table(running)  # a ticket past its minute, not yet removed by TTL
    expired = {"account_id": {"S": "watcher1"}, "room_id": {"S": room0}}
    expired |= {"expires_at": {"N": str(int(time.time()) - 1)}}
    client.put_item(
        TableName=name, Item={"pk": {"S": "TICKET#ab"}, "sk": {"S": "TICKET"}, **expired}
    )
    _, answer = watcher(base + "?ticket=ab")
    assert isinstance(answer, RejectConnection) and answer.status_code == 401

    assert until(lambda: len([k for k in keys(running, f"ROOM#{room0}") if k != "ROOM"]) == 1)
    first.close()  # $disconnect forgets it
    assert until(lambda: keys(running, f"ROOM#{room0}") == ["ROOM"])


def test_every_change_of_a_room_reaches_its_sockets_in_order(live: Running) -> None:
    alice, bob = login(live, "watcher2"), login(live, "watcher3")
    room_id = make_room(live, alice, boxes=[0])
    opened = [watcher(live_url(live, token, room_id)) for token in (alice, bob)]
    assert all(isinstance(answer, AcceptConnection) for _, answer in opened)
    assert until(lambda: len(keys(live, f"ROOM#{room_id}")) == 3)  # the room, 2 watchers

    post(live, bob, f"/v1/rooms/{room_id}/seats", {"boxes": [2]})
    client, name = table(live)  # not the room item: the stream's filter leaves it out
    client.put_item(TableName=name, Item={"pk": {"S": f"ROOM#{room_id}"}, "sk": {"S": "NOTE"}})
    post(live, bob, f"/v1/rooms/{room_id}/seats", {"boxes": [3]})
    last = post(live, alice, f"/v1/rooms/{room_id}/bets", {"bets": [{"box": 0, "amount": 10}]})
    for socket, _ in opened:
        rooms = room_views(socket, 3, after=1)
        assert [room["version"] for room in rooms] == [2, 3, last["version"]]
        assert [len(room["seats"]) for room in rooms] == [2, 3, 3]
        assert rooms[-1]["bets"] == [{"box": 0, "amount": 10}]
        assert not any(seat["you"] for room in rooms for seat in room["seats"])
        socket.close()


def test_a_change_not_posted_is_tried_again_and_none_posted_twice(live: Running) -> None:
    alice = login(live, "watcher4")
    room_id = make_room(live, alice, boxes=[0])
    stop = live.stack.add_environment_setup(
        EnvironmentSetup(f"{__name__}.{failing_once.__name__}", (room_id, 3))
    )
    try:
        socket, opened = watcher(live_url(live, alice, room_id))
        assert isinstance(opened, AcceptConnection), opened
        assert until(lambda: len(keys(live, f"ROOM#{room_id}")) == 2)
        for box in (1, 2, 3):
            post(live, alice, f"/v1/rooms/{room_id}/seats", {"boxes": [box]})
        assert [room["version"] for room in room_views(socket, 3, after=1)] == [2, 3, 4]
        socket.close()
    finally:
        stop()


def test_a_connection_gone_is_forgotten(live: Running) -> None:
    alice = login(live, "watcher5")
    room_id = make_room(live, alice, boxes=[0])
    client, name = table(live)
    for pk, sk in ((f"ROOM#{room_id}", "CONN#gone="), ("CONN#gone=", "CONN")):
        item = {"pk": {"S": pk}, "sk": {"S": sk}, "room_id": {"S": room_id}}
        client.put_item(TableName=name, Item=item)
    post(live, alice, f"/v1/rooms/{room_id}/seats", {"boxes": [1]})
    assert until(lambda: keys(live, f"ROOM#{room_id}") == ["ROOM"])
    assert keys(live, "CONN#gone=") == []


def test_a_betting_window_closes_by_itself_when_due(live: Running) -> None:
    alice, bob = login(live, "watcher6"), login(live, "watcher7")
    room_id = make_room(live, alice, boxes=[0], betting_seconds=5)
    post(live, bob, f"/v1/rooms/{room_id}/seats", {"boxes": [1]})
    socket, opened = watcher(live_url(live, alice, room_id))
    assert isinstance(opened, AcceptConnection), opened
    assert until(lambda: len(keys(live, f"ROOM#{room_id}")) == 2)
    betting = post(live, alice, f"/v1/rooms/{room_id}/bets", {"bets": [{"box": 0, "amount": 10}]})
    assert betting["phase"] == "betting" and betting["round"] is None  # bob has not bet

    # Nobody sends anything: the deadline queue has the deadline function deal.
    (seen, dealt) = room_views(socket, 2, after=betting["version"] - 1)
    assert seen["version"] == betting["version"]
    arrived_ms = time.time() * 1000
    assert dealt["version"] == betting["version"] + 1 and dealt["round"]["dealt"]
    due = datetime.fromisoformat(betting["deadline"].replace("Z", "+00:00")).timestamp()
    assert arrived_ms >= due * 1000  # never before it is due
    socket.close()


def test_a_table_made_without_its_stream_gets_it(tmp_path: Path) -> None:
    """DATA_DIR from before the template had the stream: the stack turns it on."""
    template = REPO / "template.yaml"
    with running_stack(tmp_path, template) as running:
        client, name = table(running)
        client.update_table(TableName=name, StreamSpecification={"StreamEnabled": False})
    with running_stack(tmp_path, template) as running:
        client, name = table(running)
        described = client.describe_table(TableName=name)["Table"]
        assert described["StreamSpecification"] == {
            "StreamEnabled": True,
            "StreamViewType": "NEW_AND_OLD_IMAGES",
        }
        (mapping,) = running.stack.stream_mappings
        assert mapping.stream_arn == described["LatestStreamArn"]
