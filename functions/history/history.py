"""GET /v1/rounds (the user's settled rounds, last first) and GET /v1/rounds/{round_id}."""

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Query

from blackjack_service import factories, responses
from blackjack_service.api import (
    create_app,
    current_identity,
    etag,
    json_response,
    lambda_handler,
)
from blackjack_service.models import CURSOR_PATTERN, TABLE_PATTERN
from blackjack_service.openapi import operation
from blackjack_service.records import history_position

app = create_app()


@app.get(
    "/v1/rounds", **operation("Settled rounds, last first", responses.History, errors=(422, 503))
)
def history(
    table: Annotated[str | None, Query(pattern=TABLE_PATTERN)] = None,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    cursor: Annotated[str | None, Query(pattern=CURSOR_PATTERN)] = None,
) -> Response[str]:
    # A cursor is the history position of a page's last round, without its separator; the
    # query's pattern has checked its shape.
    before = None if cursor is None else history_position(int(cursor[:16]), cursor[16:])
    page = factories.game().history(current_identity(app), table, limit, before)
    next_cursor = None if page.next_position is None else page.next_position.replace("#", "")
    return json_response(responses.History, {"rounds": page.rounds, "next_cursor": next_cursor})


@app.get("/v1/rounds/<round_id>", **operation("One round", responses.Round, errors=(404, 503)))
def one_round(round_id: str) -> Response[str]:
    round_ = factories.game().round(current_identity(app), round_id)
    return json_response(responses.Round, round_, headers=etag(round_["version"]))


handler = lambda_handler(app)
