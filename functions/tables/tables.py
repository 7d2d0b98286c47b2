"""GET /v1/tables (public) and GET /v1/tables/{table_id}: the user's seat."""

from aws_lambda_powertools.event_handler import Response

from blackjack.rules import TABLES
from blackjack_service import factories, responses
from blackjack_service.api import (
    TableId,
    create_app,
    current_identity,
    etag,
    json_response,
    lambda_handler,
)
from blackjack_service.openapi import link, operation

app = create_app()


@app.get("/v1/tables", **operation("The tables and their rules", responses.Tables))
def list_tables() -> Response[str]:
    return json_response(
        responses.Tables, {"tables": [table.as_dict() for table in TABLES.values()]}
    )


@app.get(
    "/v1/tables/<table_id>",
    **operation(
        "The user's seat at a table",
        responses.Seat,
        errors=(404, 409, 503),
        links={
            "Bet": link("bet", table_id="$request.path.table_id"),
            "Shoe": link("shoe", shoe_id="$response.body#/shoe/shoe_id"),
        },
    ),
)
def seat(table_id: TableId) -> Response[str]:
    seat, version = factories.game().seat(current_identity(app), table_id)
    return json_response(responses.Seat, seat, headers=etag(version))


handler = lambda_handler(app)
