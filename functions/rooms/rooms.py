"""Shared tables: POST/GET /v1/rooms, GET /v1/rooms/{room_id}, its seats, bets, actions
and hint."""

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Path, Query

from blackjack_service import factories, responses
from blackjack_service.api import (
    IdempotencyKey,
    IfMatch,
    create_app,
    current_identity,
    etag,
    expected_version,
    json_response,
    lambda_handler,
    request_key,
)
from blackjack_service.models import (
    ROOM_TABLE_PATTERN,
    ActionRequest,
    CreateRoomRequest,
    HintLevel,
    RoomBetRequest,
    SeatsRequest,
)
from blackjack_service.openapi import operation
from blackjack_service.rooms import RoomAnswer

app = create_app()
RoomId = Annotated[str, Path()]


def _room(answer: RoomAnswer, status: int = 200) -> Response[str]:
    return json_response(responses.Room, answer.view, status=status, headers=etag(answer.version))


@app.post("/v1/rooms", **operation("Make a room", responses.Room, status=201, errors=(409, 503)))
def make_room(
    request: Annotated[CreateRoomRequest, Body()], idempotency_key: IdempotencyKey = None
) -> Response[str]:
    identity, key = current_identity(app), request_key(app, idempotency_key)
    return _room(factories.rooms().create(identity, request, key), status=201)


@app.get("/v1/rooms", **operation("Rooms with a free box", responses.Rooms, errors=(422, 503)))
def list_rooms(
    table: Annotated[str | None, Query(pattern=ROOM_TABLE_PATTERN)] = None,
) -> Response[str]:
    current_identity(app)
    return json_response(responses.Rooms, {"rooms": factories.rooms().rooms(table)})


@app.get("/v1/rooms/<room_id>", **operation("A room", responses.Room, errors=(404, 503)))
def room(room_id: RoomId) -> Response[str]:
    return _room(factories.rooms().view(current_identity(app), room_id))


@app.post(
    "/v1/rooms/<room_id>/seats",
    **operation("Take boxes", responses.Room, errors=(404, 409, 422, 503)),
)
def take_boxes(
    room_id: RoomId,
    request: Annotated[SeatsRequest, Body()],
    idempotency_key: IdempotencyKey = None,
) -> Response[str]:
    identity, key = current_identity(app), request_key(app, idempotency_key)
    return _room(factories.rooms().take(identity, room_id, request.boxes, key))


@app.delete(
    "/v1/rooms/<room_id>/seats",
    **operation("Leave the room", responses.Room, errors=(404, 409, 503)),
)
def leave(room_id: RoomId) -> Response[str]:
    return _room(factories.rooms().leave(current_identity(app), room_id))


@app.post(
    "/v1/rooms/<room_id>/bets",
    **operation("Bet or pass the next round", responses.Room, errors=(404, 409, 422, 503)),
)
def room_bet(
    room_id: RoomId,
    request: Annotated[RoomBetRequest, Body()],
    idempotency_key: IdempotencyKey = None,
) -> Response[str]:
    identity, key = current_identity(app), request_key(app, idempotency_key)
    return _room(factories.rooms().bet(identity, room_id, request, key))


@app.post(
    "/v1/rooms/<room_id>/actions",
    **operation("Act on your decision", responses.Room, errors=(404, 409, 412, 503)),
)
def room_act(
    room_id: RoomId,
    request: Annotated[ActionRequest, Body()],
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> Response[str]:
    identity, key = current_identity(app), request_key(app, idempotency_key)
    answer = factories.rooms().act(
        identity, room_id, request.action, request.amount, expected_version(if_match), key
    )
    return _room(answer)


@app.get(
    "/v1/rooms/<room_id>/hint",
    **operation("What an AI level would do now", responses.Hint, errors=(404, 409, 422, 503)),
)
def room_hint(room_id: RoomId, level: Annotated[HintLevel, Query()] = "hard") -> Response[str]:
    return json_response(
        responses.Hint, factories.rooms().hint(current_identity(app), room_id, level)
    )


handler = lambda_handler(app)
