"""A room's live updates and deadlines, in process on moto: the ticket route, the
WebSocket API's $connect and $disconnect, the stream's broadcast (a gone connection
forgotten) and the deadline queue's function.

The rooms service is not on this branch yet: the broadcast and deadline tests give the
factories a stand-in `rooms()` with the contract's two methods."""

from __future__ import annotations

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
from blackjack_service.settings import SettingsError

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


class Rooms:
    """A stand-in for `RoomService`'s two methods these functions call."""

    def __init__(self) -> None:
        self.answered: list[tuple[str, int]] = []

    def watcher_view(self, old: Mapping[str, Any] | None, new: Mapping[str, Any]) -> dict[str, Any]:
        return {"room_id": new["pk"].removeprefix("ROOM#"), "version": int(new["version"])}

    def answer_deadline(self, room_id: str, version: int) -> None:
        self.answered.append((room_id, version))


@pytest.fixture
def rooms(live_env: str, monkeypatch: pytest.MonkeyPatch) -> Rooms:
    stand_in = Rooms()
    monkeypatch.setattr(factories, "rooms", lambda: stand_in, raising=False)
    return stand_in


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
    ticket = ticket_of(alice, "room1")
    assert items(f"TICKET#{ticket}")[0]["account_id"] == "alice1"

    assert ws_event(api, "CONNECT", "conn1=", ticket) == {"statusCode": 200}
    assert ws_event(api, "CONNECT", "conn2=", ticket) == {"statusCode": 401}  # used
    assert ws_event(api, "CONNECT", "conn3=") == {"statusCode": 401}  # none
    assert ws_event(api, "CONNECT", "conn4=", "0" * 32) == {"statusCode": 401}  # unknown
    assert items(f"TICKET#{ticket}") == []
    (room_connection,) = items("ROOM#room1")
    assert room_connection["sk"] == "CONN#conn1="
    assert items("CONN#conn1=")[0]["room_id"] == "room1"
    lasts = int(room_connection["expires_at"]) - time.time()
    assert 2 * 3600 - 60 < lasts <= 2 * 3600

    assert ws_event(api, "DISCONNECT", "conn1=") == {"statusCode": 200}
    assert items("ROOM#room1") == [] and items("CONN#conn1=") == []
    assert ws_event(api, "DISCONNECT", "conn1=") == {"statusCode": 200}  # again: nothing


def test_an_expired_ticket_connects_nothing(
    api: Gateway, alice: Player, live_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ticket = ticket_of(alice, "room1")
    later = time.time() + 61
    monkeypatch.setattr(time, "time", lambda: later)
    assert ws_event(api, "CONNECT", "conn1=", ticket) == {"statusCode": 401}
    assert items("ROOM#room1") == []


def test_the_ticket_route_needs_a_token(api: Gateway, live_env: str) -> None:
    assert api.request("POST", "/v1/rooms/room1/live", {}).status == 401


def test_a_function_without_the_live_url_says_so(
    alice: Player, live_env: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("LIVE_URL")
    factories.reset()
    with pytest.raises(SettingsError, match="LIVE_URL is not set"):
        factories.live().open_ticket(Identity("alice1", "alice"), "room1")


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


def room_item(room_id: str, version: int) -> dict[str, Any]:
    return {"pk": {"S": f"ROOM#{room_id}"}, "sk": {"S": "ROOM"}, "version": {"N": str(version)}}


def connect(api: Gateway, player: Player, room_id: str, connection_id: str) -> None:
    assert ws_event(api, "CONNECT", connection_id, ticket_of(player, room_id))["statusCode"] == 200


def test_each_change_of_a_room_is_posted_to_its_connections_in_order(
    api: Gateway, alice: Player, bob: Player, rooms: Rooms
) -> None:
    from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends

    connect(api, alice, "room1", "connA")
    connect(api, bob, "room1", "connB")
    connect(api, bob, "room2", "connC")
    changes = stream_event(
        (None, room_item("room1", 1)), (room_item("room1", 1), room_item("room1", 2))
    )
    api.modules["broadcast"].handler(changes, LambdaContext())

    posted = apigatewaymanagementapi_backends["123456789012"]["us-east-1"].connections
    expected = b"".join(
        json.dumps({"type": "room", "room": {"room_id": "room1", "version": v}}).encode()
        for v in (1, 2)
    )
    assert posted["connA"].data == expected and posted["connB"].data == expected
    assert "connC" not in posted  # another room's


def test_a_change_not_posted_stops_the_batch_which_is_tried_again_from_it(
    api: Gateway, alice: Player, rooms: Rooms, monkeypatch: pytest.MonkeyPatch
) -> None:
    from moto.apigatewaymanagementapi.models import apigatewaymanagementapi_backends

    connect(api, alice, "room1", "connA")
    view = rooms.watcher_view

    def failing_at_2(old: Mapping[str, Any] | None, new: Mapping[str, Any]) -> dict[str, Any]:
        if int(new["version"]) == 2:
            raise RuntimeError("a view that could not be made")
        return view(old, new)

    monkeypatch.setattr(rooms, "watcher_view", failing_at_2)
    changes = stream_event(*((None, room_item("room1", version)) for version in (1, 2, 3)))
    answer = api.modules["broadcast"].handler(changes, LambdaContext())
    assert answer == {"batchItemFailures": [{"itemIdentifier": "2"}]}  # its SequenceNumber
    posted = apigatewaymanagementapi_backends["123456789012"]["us-east-1"].connections
    assert (
        posted["connA"].data
        == json.dumps({"type": "room", "room": {"room_id": "room1", "version": 1}}).encode()
    )


def test_a_connection_gone_is_forgotten(
    api: Gateway, alice: Player, bob: Player, rooms: Rooms
) -> None:
    connect(api, alice, "room1", "connA")
    connect(api, bob, "room1", "connB")
    live = factories.live()
    message = json.dumps({"type": "room", "room": {"room_id": "room1", "version": 3}})
    with Stubber(live.connections) as stubber:  # API Gateway's answer for a closed socket
        stubber.add_client_error(
            "post_to_connection",
            "GoneException",
            http_status_code=410,
            expected_params={"ConnectionId": "connA", "Data": message},
        )
        stubber.add_response(
            "post_to_connection", {}, expected_params={"ConnectionId": "connB", "Data": message}
        )
        api.modules["broadcast"].handler(
            stream_event((None, room_item("room1", 3))), LambdaContext()
        )
        stubber.assert_no_pending_responses()
    assert [item["sk"] for item in items("ROOM#room1")] == ["CONN#connB"]
    assert items("CONN#connA") == []


def test_a_due_deadline_is_answered_by_the_rooms_service(api: Gateway, rooms: Rooms) -> None:
    factories.deadlines().schedule("room1", 7, int(time.time() * 1000) + 2500)
    sqs = boto3.client("sqs")
    queue_url = os.environ["DEADLINE_QUEUE_URL"]
    attributes = sqs.get_queue_attributes(QueueUrl=queue_url, AttributeNames=["All"])["Attributes"]
    assert attributes["ApproximateNumberOfMessagesDelayed"] == "1"

    message = {
        "messageId": "m1",
        "receiptHandle": "r1",
        "body": json.dumps({"room_id": "room1", "version": 7}),
        "attributes": {"ApproximateReceiveCount": "1"},
        "messageAttributes": {},
        "md5OfBody": "",
        "eventSource": "aws:sqs",
        "eventSourceARN": "arn:aws:sqs:us-east-1:123456789012:deadlines",
        "awsRegion": "us-east-1",
    }
    api.modules["deadlines"].handler({"Records": [message]}, LambdaContext())
    assert rooms.answered == [("room1", 7)]


@pytest.mark.parametrize(
    ("due_in_ms", "delay"), [(2500, 3), (2000, 2), (1, 1), (-5000, 0), (20 * 60 * 1000, 900)]
)
def test_a_deadline_is_delayed_by_whole_seconds_rounded_up(due_in_ms: int, delay: int) -> None:
    now = 1_800_000_000.0
    assert delay_seconds(int(now * 1000) + due_in_ms, now) == delay
