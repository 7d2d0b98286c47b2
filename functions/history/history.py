"""GET /v1/rounds (the user's settled rounds, last first) and GET /v1/rounds/{round_id}."""

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query

from blackjack_service import factories, responses
from blackjack_service.api import (
    create_app,
    current_identity,
    decode_cursor,
    encode_cursor,
    etag,
    json_response,
    lambda_handler,
)
from blackjack_service.models import CURSOR_PATTERN, TABLE_PATTERN

app = create_app()


@app.get("/v1/rounds")
def history(
    table: Annotated[str | None, Query(pattern=TABLE_PATTERN)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    cursor: Annotated[str | None, Query(pattern=CURSOR_PATTERN)] = None,
) -> Response[str]:
    page = factories.game().history(current_identity(app), table, limit, decode_cursor(cursor))
    body = {"rounds": page.rounds, "next_cursor": encode_cursor(page.next_position)}
    return json_response(responses.History, body)


@app.get("/v1/rounds/<round_id>")
def one_round(round_id: str) -> Response[str]:
    view = factories.game().round(current_identity(app), round_id)
    return json_response(responses.RoundView, view, headers=etag(view["version"]))


handler = lambda_handler(app)
