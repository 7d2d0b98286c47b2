"""GET /v1/shoes/{shoe_id}: a shoe's commitment, and its seed and cards once retired."""

from aws_lambda_powertools.event_handler import Response

from blackjack_service import factories, responses
from blackjack_service.api import create_app, current_identity, json_response, lambda_handler
from blackjack_service.openapi import operation

app = create_app()


@app.get(
    "/v1/shoes/<shoe_id>",
    **operation(
        "A shoe: commitment, and seeds and cards once retired", responses.Shoe, errors=(404, 503)
    ),
)
def shoe(shoe_id: str) -> Response[str]:
    return json_response(responses.Shoe, factories.shoes().shoe(current_identity(app), shoe_id))


handler = lambda_handler(app)
