"""GET /v1/tables/{table_id}/drills/next, POST /v1/tables/{table_id}/drills (an answer)
and GET /v1/tables/{table_id}/drills (the user's progress): no coins, shoes or rounds."""

from typing import Annotated

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from blackjack_service import factories, responses
from blackjack_service.api import (
    IdempotencyKey,
    TableId,
    create_app,
    current_identity,
    json_response,
    lambda_handler,
    request_key,
)
from blackjack_service.models import DrillAnswerRequest, DrillSection
from blackjack_service.openapi import operation

app = create_app()


@app.get(
    "/v1/tables/<table_id>/drills/next",
    **operation("The next drill of the user's schedule", responses.Drill, errors=(404, 422, 503)),
)
def next_drill(
    table_id: TableId, section: Annotated[DrillSection, Query()] = "any"
) -> Response[str]:
    drill = factories.drills().next(current_identity(app), table_id, section)
    return json_response(responses.Drill, drill)


@app.post(
    "/v1/tables/<table_id>/drills",
    **operation("Answer a drill", responses.DrillAnswer, errors=(404, 409, 503)),
)
def answer(
    table_id: TableId,
    request: Annotated[DrillAnswerRequest, Body()],
    idempotency_key: IdempotencyKey = None,
) -> Response[str]:
    identity, key = current_identity(app), request_key(app, idempotency_key)
    graded = factories.drills().answer(
        identity, table_id, request.cards, request.up_card, request.action, key, request.true_count
    )
    return json_response(responses.DrillAnswer, graded)


@app.get(
    "/v1/tables/<table_id>/drills",
    **operation("The user's drills at a table", responses.Drills, errors=(404, 503)),
)
def progress(table_id: TableId) -> Response[str]:
    return json_response(
        responses.Drills, factories.drills().progress(current_identity(app), table_id)
    )


handler = lambda_handler(app)
