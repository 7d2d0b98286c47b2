"""POST /v1/sessions: login (public)."""

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body

from blackjack_service import factories, responses
from blackjack_service.api import create_app, json_response, lambda_handler
from blackjack_service.models import SessionRequest
from blackjack_service.openapi import operation

app = create_app()


@app.post("/v1/sessions", **operation("Log in", responses.Session, errors=(401, 429, 503)))
def login(request: Annotated[SessionRequest, Body()]) -> Response[str]:
    return json_response(responses.Session, factories.accounts().login(request))


handler = lambda_handler(app)
