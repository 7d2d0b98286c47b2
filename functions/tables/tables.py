"""GET /v1/tables (public) and GET /v1/tables/{table_id}: the user's seat."""

from aws_lambda_powertools.event_handler import Response

from blackjack.rules import TABLES
from blackjack_service import factories, responses
from blackjack_service.api import (
    create_app,
    current_identity,
    etag,
    json_response,
    lambda_handler,
)

app = create_app()


@app.get("/v1/tables")
def list_tables() -> Response[str]:
    return json_response(
        responses.Tables, {"tables": [table.as_dict() for table in TABLES.values()]}
    )


@app.get("/v1/tables/<table_id>")
def seat(table_id: str) -> Response[str]:
    view, version = factories.game().table_view(current_identity(app), table_id)
    return json_response(responses.SeatView, view, headers=etag(version))


handler = lambda_handler(app)
