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
    from blackjack.variance import variance

    card = strategy_card(table_id)
    # API.md's order: the variance follows the EV (until the generator ships it in the card)
    head = {"table": card["table"], "player_ev": card["player_ev"]}
    answer = {**head, "variance": float(variance(table_id)), **card}
    return json_response(responses.StrategyCard, answer)


handler = lambda_handler(app)
