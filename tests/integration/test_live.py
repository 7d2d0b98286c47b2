"""A room's live updates and deadlines, in process on moto: the ticket route, the
WebSocket API's $connect and $disconnect, the stream's broadcast (a gone connection
forgotten) and the deadline queue's function.

The rooms are the rooms service's, made through the REST API."""

from __future__ import annotations

import functools
import json
import os
import time
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import parse_qs, urlsplit

import boto3
import pytest
from botocore.stub import Stubber

from blackjack_service import factories
from blackjack_service.deadlines import delay_seconds
from blackjack_service.identity import Identity
from blackjack_service.live import CONNECTION_S, HANDSHAKE_S
from blackjack_service.rooms import RoomService
from blackjack_service.settings import SettingsError
from local_stack.streams import as_sent

from .harness import Gateway, LambdaContext
from .helpers import Player

LIVE_URL = "wss://live0000.execute-api.us-east-1.amazonaws.com/prod"
MANAGEMENT_URL = "https://live0000.execute-api.us-east-1.amazonaws.com/prod"


@pytest.fixture
def live_env(aws: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The rooms' settings as the template's Globals give them, on a moto queue."""
    queue_url = boto3.client("sqs").create_queue(QueueName="deadlines")["QueueUrl"]
    monkeypatch.setenv("LIVE_URL", LIVE_URL)
    monkeypatch.setenv("LIVE_MANAGEMENT_URL", MANAGEMENT_URL)
    monkeypatch.setenv("DEADLINE_QUEUE_URL", queue_url)
    factories.reset()
    yield queue_url
    factories.reset()


def make_room(player: Player, **body: Any) -> str:
    reply = player.post("/v1/rooms", {"table": "casino", **body})
    assert reply.status == 201, reply.text
    return str(reply.body["room_id"])


def ticket_of(player: Player, room_id: str) -> str:
    reply = player.post(f"/v1/rooms/{room_id}/live", {})
    assert reply.status == 200, reply.text
    assert reply.body["expires_in"] == 60
    url = urlsplit(reply.body["url"])
    assert reply.body["url"].startswith(LIVE_URL + "?ticket=")
    (ticket,) = parse_qs(url.query)["ticket"]
    return str(ticket)


def ws_event(api: Gateway, event_type: str, connection_id: str, ticket: str | None = None) -> Any:
    """What API Gateway's WebSocket API sends $connect or $disconnect."""
    route = {"CONNECT": "$connect", "DISCONNECT": "$disconnect"}[event_type]
    event = {
        "requestContext": {
            "routeKey": route,
            "eventType": event_type,
            "connectionId": connection_id,
            "domainName": "live0000.execute-api.us-east-1.amazonaws.com",
            "stage": "prod",
            "apiId": "live0000",
        },
        "queryStringParameters": None if ticket is None else {"ticket": ticket},
        "isBase64Encoded": False,
    }
    return api.modules["connections"].handler(event, LambdaContext())


def items(pk: str) -> list[dict[str, Any]]:
    table = boto3.resource("dynamodb").Table(os.environ["TABLE_NAME"])
    found: list[dict[str, Any]] = table.query(
        KeyConditionExpression="pk = :pk", ExpressionAttributeValues={":pk": pk}
    )["Items"]
    return found


def test_a_ticket_connects_once_and_the_connection_is_forgotten_when_it_closes(
    api: Gateway, alice: Player, live_env: str
) -> None:
    room_id = make_room(alice)
    ticket = ticket_of(alice, room_id)
    assert items(f"TICKET#{ticket}")[0]["account_id"] == "alice1"

    assert ws_event(api, "CONNECT", "conn1=", ticket) == {"statusCode": 200}
    assert ws_event(api, "CONNECT", "conn2=", ticket) == {"statusCode": 401}  # used
    assert ws_event(api, "CONNECT", "conn3=") == {"statusCode": 401}  # none
    assert ws_event(api, "CONNECT", "conn4=", "0" * 32) == {"statusCode": 401}  # unknown
    assert items(f"TICKET#{ticket}") == []
    (room_connection,) = [item for item in items(f"ROOM#{room_id}") if item["sk"] != "ROOM"]
    assert room_connection["sk"] == "CONN#conn1="
    assert items("CONN#conn1=")[0]["room_id"] == room_id
    lasts = int(room_connection["expires_at"]) - time.time()
    assert 2 * 3600 - 60 < lasts <= 2 * 3600

    assert ws_event(api, "DISCONNECT", "conn1=") == {"statusCode": 200}
    assert [item["sk"] for item in items(f"ROOM#{room_id}")] == ["ROOM"]
    assert items("CONN#conn1=") == []
    assert ws_event(api, "DISCONNECT", "conn1=") == {"statusCode": 200}  # again: nothing


def test_an_expired_ticket_connects_nothing(
    api: Gateway, alice: Player, live_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id = make_room(alice)
    ticket = ticket_of(alice, room_id)
    later = time.time() + 61
    monkeypatch.setattr(time, "time", lambda: later)
    assert ws_event(api, "CONNECT", "conn1=", ticket) == {"statusCode": 401}
    assert [item["sk"] for item in items(f"ROOM#{room_id}")] == ["ROOM"]


def test_a_ticket_to_a_room_that_does_not_exist_is_404(alice: Player, live_env: str) -> None:
    for room_id in ("0" * 32, "room1"):
        reply = alice.post(f"/v1/rooms/{room_id}/live", {})
        assert reply.status == 404 and reply.body["code"] == "not_found", reply.text


def test_the_ticket_route_needs_a_token(api: Gateway, live_env: str) -> None:
    assert api.request("POST", "/v1/rooms/room1/live", {}).status == 401


def test_a_function_without_the_live_url_says_so(
    alice: Player, live_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id = make_room(alice)
    monkeypatch.delenv("LIVE_URL")
    factories.reset()
    with pytest.raises(SettingsError, match="LIVE_URL is not set"):
        factories.live().open_ticket(Identity("alice1", "alice"), room_id)


def stream_event(*changes: tuple[dict[str, Any] | None, dict[str, Any]]) -> dict[str, Any]:
    """The stream's records of room items changed, old and new images as DynamoDB JSON."""
    records = []
    for number, (old, new) in enumerate(changes, 1):
        change: dict[str, Any] = {
            "Keys": {"pk": new["pk"], "sk": new["sk"]},
            "NewImage": new,
            "SequenceNumber": str(number),
            "SizeBytes": 100,
            "StreamViewType": "NEW_AND_OLD_IMAGES",
        }
        if old is not None:
            change["OldImage"] = old
        records.append(
            {
                "eventID": str(number),
                "eventName": "INSERT" if old is None else "MODIFY",
                "eventVersion": "1.1",
                "eventSource": "aws:dynamodb",
                "awsRegion": "us-east-1",
                "dynamodb": change,
            }
        )
    return {"Records": records}


def stored_room(room_id: str) -> dict[str, Any]:
    """The room item as the stream carries it (DynamoDB JSON, its binary in base64)."""
    key = {"pk": {"S": f"ROOM#{room_id}"}, "sk": {"S": "ROOM"}}
    item: dict[str, Any] = boto3.client("dynamodb").get_item(
        TableName=os.environ["TABLE_NAME"], Key=key
    )["Item"]
    return {name: as_sent(value) for name, value in item.items()}


def connect(api: Gateway, player: Player, room_id: str, connection_id: str) -> None:
    assert ws_event(api, "CONNECT", connection_id, ticket_of(player, room_id))["statusCode"] == 200


def posted(connection_id: str) -> list[Any]:
    """The messages moto's @connections holds for the connection, one after the other."""
    from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends

    backend = apigatewaymanagementapi_backends["123456789012"]["us-east-1"]
    text, messages, at = backend.connections[connection_id].data.decode(), [], 0
    while at < len(text):
        message, at = json.JSONDecoder().raw_decode(text, at)
        messages.append(message)
    return messages


@pytest.fixture
def watched(api: Gateway, alice: Player, bob: Player, live_env: str) -> str:
    """A room of alice's, watched by alice (`connA`) and bob (`connB`)."""
    room_id = make_room(alice, boxes=[0])
    connect(api, alice, room_id, "connA")
    connect(api, bob, room_id, "connB")
    return room_id


def test_each_change_of_a_room_is_posted_to_its_connections_in_order(
    api: Gateway, bob: Player, watched: str
) -> None:
    room_id = watched
    connect(api, bob, make_room(bob), "connC")  # another room's watcher
    made = stored_room(room_id)
    assert bob.post(f"/v1/rooms/{room_id}/seats", {"boxes": [2]}).status == 200
    seated = stored_room(room_id)
    api.modules["broadcast"].handler(stream_event((None, made), (made, seated)), LambdaContext())

    for connection_id in ("connA", "connB"):
        messages = posted(connection_id)
        assert [m["type"] for m in messages] == ["room", "room"]
        rooms = [m["room"] for m in messages]
        assert [r["room_id"] for r in rooms] == [room_id, room_id]
        assert [r["version"] for r in rooms] == [1, 2]
        assert [len(r["seats"]) for r in rooms] == [1, 2]
        for room in rooms:  # the same for every watcher: nobody's own
            assert not any(seat["you"] for seat in room["seats"]) and room["legal_actions"] == []
    assert posted("connC") == []


def test_a_change_not_posted_stops_the_batch_which_is_tried_again_from_it(
    api: Gateway, alice: Player, live_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id = make_room(alice, boxes=[0])
    connect(api, alice, room_id, "connA")
    changes = [stored_room(room_id)]
    for box in (1, 2):
        assert alice.post(f"/v1/rooms/{room_id}/seats", {"boxes": [box]}).status == 200
        changes.append(stored_room(room_id))
    rooms = factories.rooms()
    view = rooms.watcher_view

    def failing_at_2(old: Mapping[str, Any] | None, new: Mapping[str, Any]) -> dict[str, Any]:
        if int(new["version"]) == 2:
            raise RuntimeError("a view that could not be made")
        return view(old, new)

    monkeypatch.setattr(rooms, "watcher_view", failing_at_2)
    event = stream_event(*((None, change) for change in changes))
    answer = api.modules["broadcast"].handler(event, LambdaContext())
    assert answer == {"batchItemFailures": [{"itemIdentifier": "2"}]}  # its SequenceNumber
    assert [m["room"]["version"] for m in posted("connA")] == [1]


def test_a_connection_gone_is_forgotten_once_its_handshake_had_time(
    api: Gateway, watched: str
) -> None:
    """connA connected a while ago, connB a moment ago: API Gateway answers 410 for both
    (a closed socket; a handshake not yet done), and only connA is forgotten."""
    room_id = watched
    live = factories.live()
    connected_a_while_ago = int(time.time()) + CONNECTION_S - HANDSHAKE_S - 1
    boto3.client("dynamodb").update_item(
        TableName=os.environ["TABLE_NAME"],
        Key={"pk": {"S": f"ROOM#{room_id}"}, "sk": {"S": "CONN#connA"}},
        UpdateExpression="SET expires_at = :at",
        ExpressionAttributeValues={":at": {"N": str(connected_a_while_ago)}},
    )
    item = stored_room(room_id)
    with Stubber(live.connections) as stubber:
        for _ in ("connA", "connB"):
            stubber.add_client_error("post_to_connection", "GoneException", http_status_code=410)
        api.modules["broadcast"].handler(stream_event((None, item)), LambdaContext())
        stubber.assert_no_pending_responses()
    assert [item["sk"] for item in items(f"ROOM#{room_id}")] == ["CONN#connB", "ROOM"]
    assert items("CONN#connA") == []
    assert [item["sk"] for item in items("CONN#connB")] == ["CONN"]


def test_a_due_deadline_is_answered_by_the_rooms_service(
    api: Gateway, alice: Player, bob: Player, live_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id = make_room(alice, boxes=[0], betting_seconds=5)
    assert bob.post(f"/v1/rooms/{room_id}/seats", {"boxes": [1]}).status == 200
    assert (
        alice.post(f"/v1/rooms/{room_id}/bets", {"bets": [{"box": 0, "amount": 10}]}).status == 200
    )
    # The rooms service sent the betting window's deadline to the queue, delayed.
    sqs = boto3.client("sqs")
    attributes = sqs.get_queue_attributes(QueueUrl=live_env, AttributeNames=["All"])["Attributes"]
    assert attributes["ApproximateNumberOfMessagesDelayed"] == "1"
    from moto.sqs.models import sqs_backends

    (message,) = sqs_backends["123456789012"]["us-east-1"].queues["deadlines"]._messages
    assert json.loads(message.body) == {"room_id": room_id, "version": 3}
    assert alice.get(f"/v1/rooms/{room_id}").body["round"] is None  # the window is open

    # Once due (a minute on, as the deadline function's clock sees it), it is delivered.
    later = RoomService(factories.store(), factories.deadlines(), clock=lambda: time.time() + 61)
    monkeypatch.setattr(factories, "rooms", functools.cache(lambda: later))
    record = {
        "messageId": message.id,
        "receiptHandle": "r1",
        "body": message.body,
        "attributes": {"ApproximateReceiveCount": "1"},
        "messageAttributes": {},
        "md5OfBody": message.body_md5,
        "eventSource": "aws:sqs",
        "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:deadlines",
        "awsRegion": "us-east-1",
    }
    api.modules["deadlines"].handler({"Records": [record]}, LambdaContext())
    room = alice.get(f"/v1/rooms/{room_id}").body
    assert room["round"] is not None and room["version"] == 4  # the window closed: dealt


@pytest.mark.parametrize(
    ("due_in_ms", "delay"), [(2500, 3), (2000, 2), (1, 1), (-5000, 0), (20 * 60 * 1000, 900)]
)
def test_a_deadline_is_delayed_by_whole_seconds_rounded_up(due_in_ms: int, delay: int) -> None:
    now = 1_800_000_000.0
    assert delay_seconds(int(now * 1000) + due_in_ms, now) == delay
