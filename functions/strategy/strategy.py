"""GET /v1/tables/{table_id}/strategy (public): the table's strategy card."""

from aws_lambda_powertools.event_handler import Response

from blackjack.rules import TABLES
from blackjack_service import responses
from blackjack_service.api import TableId, create_app, json_response, lambda_handler
from blackjack_service.errors import NotFound
from blackjack_service.openapi import operation

app = create_app()


@app.get(
    "/v1/tables/<table_id>/strategy",
    **operation("The table's strategy card", responses.StrategyCard, errors=(404,)),
)
def strategy(table_id: TableId) -> Response[str]:
    if table_id not in TABLES:
        raise NotFound(f"no table {table_id!r}")
    from blackjack.strategy import strategy_card  # the analysis, imported when first asked

    return json_response(responses.StrategyCard, strategy_card(table_id))


handler = lambda_handler(app)
