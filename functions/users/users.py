"""POST /v1/users: registration (public)."""

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body

from blackjack_service import factories, responses
from blackjack_service.api import create_app, json_response, lambda_handler
from blackjack_service.models import RegisterRequest
from blackjack_service.openapi import operation

app = create_app()


@app.post("/v1/users", **operation("Register", responses.User, status=201, errors=(409, 503)))
def register(request: Annotated[RegisterRequest, Body()]) -> Response[str]:
    return json_response(responses.User, factories.accounts().register(request), status=201)


handler = lambda_handler(app)
