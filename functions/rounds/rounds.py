"""POST /v1/tables/{table_id}/rounds (bet), POST .../round/actions, GET .../round/hint."""

from typing import Annotated, Literal

from aws_lambda_powertools.event_handler import Response
from aws_lambda_powertools.event_handler.openapi.params import Body, Query

from blackjack_service import factories, responses
from blackjack_service.api import (
    create_app,
    current_identity,
    etag,
    expected_version,
    json_response,
    lambda_handler,
    request_key,
)
from blackjack_service.models import ActionRequest, StartRoundRequest
from blackjack_service.observability import record_outcome

app = create_app()


@app.post("/v1/tables/<table_id>/rounds")
def start_round(table_id: str, request: Annotated[StartRoundRequest, Body()]) -> Response[str]:
    identity, key = current_identity(app), request_key(app)
    outcome = factories.game().start_round(identity, table_id, request, key)
    record_outcome(outcome.started, outcome.house_net)
    return json_response(
        responses.RoundView, outcome.view, status=201, headers=etag(outcome.version)
    )


@app.post("/v1/tables/<table_id>/round/actions")
def act(table_id: str, request: Annotated[ActionRequest, Body()]) -> Response[str]:
    identity, key = current_identity(app), request_key(app)
    version = expected_version(app.current_event.headers.get("if-match"))
    outcome = factories.game().act(identity, table_id, request, version, key)
    record_outcome(outcome.started, outcome.house_net)
    return json_response(responses.RoundView, outcome.view, headers=etag(outcome.version))


@app.get("/v1/tables/<table_id>/round/hint")
def hint(
    table_id: str, level: Annotated[Literal["medium", "hard"], Query()] = "hard"
) -> Response[str]:
    return json_response(
        responses.Hint, factories.game().hint(current_identity(app), table_id, level)
    )


handler = lambda_handler(app)
