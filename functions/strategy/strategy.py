"""GET /v1/tables/{table_id}/strategy and …/indices (public): the table's strategy card and
its index plays."""

from aws_lambda_powertools.event_handler import Response

from blackjack.rules import TABLES
from blackjack_service import responses
from blackjack_service.api import TableId, create_app, json_response, lambda_handler
from blackjack_service.errors import NotFound
from blackjack_service.openapi import operation

app = create_app()


def _known(table_id: str) -> None:
    if table_id not in TABLES:
        raise NotFound(f"no table {table_id!r}")


@app.get(
    "/v1/tables/<table_id>/strategy",
    **operation("The table's strategy card", responses.StrategyCard, errors=(404,)),
)
def strategy(table_id: TableId) -> Response[str]:
    _known(table_id)
    from blackjack.strategy import strategy_card  # the analysis, imported when first asked
    from blackjack.variance import variance

    card = strategy_card(table_id)
    # API.md's order: the variance follows the EV (until the generator ships it in the card)
    head = {"table": card["table"], "player_ev": card["player_ev"]}
    answer = {**head, "variance": float(variance(table_id)), **card}
    return json_response(responses.StrategyCard, answer)


@app.get(
    "/v1/tables/<table_id>/indices",
    **operation("The table's index plays and edge by true count", responses.Indices, errors=(404,)),
)
def indices(table_id: TableId) -> Response[str]:
    _known(table_id)
    from blackjack.strategy.indices import indices_document  # shipped data, read when asked

    return json_response(responses.Indices, indices_document(table_id))


handler = lambda_handler(app)
