"""GET /v1/tables/{table_id}/strategy (public): the table's strategy card."""

import importlib
from collections.abc import Callable
from typing import Any

from aws_lambda_powertools.event_handler import Response

from blackjack.rules import TABLES
from blackjack_service import responses
from blackjack_service.errors import NotFound, NotImplementedYet
from blackjack_service.http import create_app, json_response, lambda_handler

app = create_app()


@app.get("/v1/tables/<table_id>/strategy")
def strategy(table_id: str) -> Response[str]:
    if table_id not in TABLES:
        raise NotFound(f"no table {table_id!r}")
    return json_response(responses.StrategyCard, _strategy_card()(table_id))


def _strategy_card() -> Callable[[str], dict[str, Any]]:
    """The engine's `strategy_card`, imported when first asked for (the analysis is heavy)."""
    try:
        module = importlib.import_module("blackjack.strategy")
    except ModuleNotFoundError as error:
        if error.name != "blackjack.strategy":
            raise
        module = None
    card: Callable[[str], dict[str, Any]] | None = getattr(module, "strategy_card", None)
    if card is None:
        raise NotImplementedYet("the strategy analysis is not available yet")
    return card


handler = lambda_handler(app)
