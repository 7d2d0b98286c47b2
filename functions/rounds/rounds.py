"""POST /v1/tables/{table_id}/rounds (bet), POST .../round/actions, GET .../round/hint."""

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from blackjack_service import factories, responses
from blackjack_service.api import (
    IdempotencyKey,
    IfMatch,
    TableId,
    create_app,
    current_identity,
    etag,
    expected_version,
    json_response,
    lambda_handler,
    request_key,
)
from blackjack_service.models import ActionRequest, HintLevel, StartRoundRequest
from blackjack_service.observability import measure_outcome
from blackjack_service.openapi import ROUND_LINKS, operation

app = create_app()


@app.post(
    "/v1/tables/<table_id>/rounds",
    **operation(
        "Bet: start a round",
        responses.Round,
        status=201,
        errors=(404, 409, 503),
        links=ROUND_LINKS,
    ),
)
def start_round(
    table_id: TableId,
    request: Annotated[StartRoundRequest, Body()],
    idempotency_key: IdempotencyKey = None,
) -> Response[str]:
    identity, key = current_identity(app), request_key(app, idempotency_key)
    outcome = factories.game().start_round(identity, table_id, request, key)
    measure_outcome(outcome.started, outcome.house_net)
    return json_response(responses.Round, outcome.round, status=201, headers=etag(outcome.version))


@app.post(
    "/v1/tables/<table_id>/round/actions",
    **operation(
        "Act in the round in play",
        responses.Round,
        errors=(404, 409, 412, 503),
        links=ROUND_LINKS,
    ),
)
def act(
    table_id: TableId,
    request: Annotated[ActionRequest, Body()],
    if_match: IfMatch = None,
    idempotency_key: IdempotencyKey = None,
) -> Response[str]:
    identity, key = current_identity(app), request_key(app, idempotency_key)
    outcome = factories.game().act(identity, table_id, request, expected_version(if_match), key)
    measure_outcome(outcome.started, outcome.house_net)
    return json_response(responses.Round, outcome.round, headers=etag(outcome.version))


@app.get(
    "/v1/tables/<table_id>/round/hint",
    **operation("What an AI level would do now", responses.Hint, errors=(404, 409, 422, 503)),
)
def hint(table_id: TableId, level: Annotated[HintLevel, Query()] = "hard") -> Response[str]:
    return json_response(
        responses.Hint, factories.game().hint(current_identity(app), table_id, level)
    )


handler = lambda_handler(app)
