"""POST /v1/rooms/{room_id}/live: a ticket to watch a room's live updates."""

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body

from blackjack_service import factories, responses
from blackjack_service.api import create_app, current_identity, json_response, lambda_handler
from blackjack_service.models import LiveRequest
from blackjack_service.openapi import operation

app = create_app()


@app.post(
    "/v1/rooms/<room_id>/live",
    **operation("A ticket to watch the room's live updates", responses.LiveTicket, errors=(503,)),
)
def live(room_id: str, request: Annotated[LiveRequest, Body()]) -> Response[str]:
    ticket = factories.live().open_ticket(current_identity(app), room_id)
    return json_response(responses.LiveTicket, ticket)


handler = lambda_handler(app)
