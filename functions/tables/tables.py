"""GET /v1/tables (public), GET /v1/tables/{table_id}: the user's seat, and
GET /v1/tables/{table_id}/edge: the player's edge before the next bet there."""

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


@app.get(
    "/v1/tables/<table_id>/edge",
    **operation(
        "The player's edge for the next round, and the Kelly bet",
        responses.Edge,
        errors=(404, 409, 503),
        links={"Bet": link("bet", table_id="$request.path.table_id")},
    ),
)
def edge(table_id: TableId) -> Response[str]:
    answer = factories.edge().edge(current_identity(app), table_id)
    return json_response(responses.Edge, answer)


handler = lambda_handler(app)
