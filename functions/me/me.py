"""GET /v1/me: the user's profile, balance and stats."""

from aws_lambda_powertools.event_handler import Response

from blackjack_service import factories, responses
from blackjack_service.api import create_app, current_identity, json_response, lambda_handler
from blackjack_service.openapi import operation

app = create_app()


@app.get("/v1/me", **operation("The user's profile and stats", responses.Me, errors=(503,)))
def me() -> Response[str]:
    return json_response(responses.Me, factories.accounts().me(current_identity(app)))


handler = lambda_handler(app)
