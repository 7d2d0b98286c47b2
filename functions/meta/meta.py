"""GET /v1/health (the table answers) and GET /v1/openapi.json (public)."""

from aws_lambda_powertools.event_handler import Response

from blackjack_service import factories, responses
from blackjack_service.api import create_app, json_response, lambda_handler
from blackjack_service.openapi import openapi_document, operation

app = create_app()


@app.get("/v1/health", **operation("Health", responses.Health, errors=(503,)))
def health() -> Response[str]:
    factories.store().ping()  # a table that does not answer: 503 unavailable
    return json_response(responses.Health, {"status": "ok"})


@app.get("/v1/openapi.json", **operation("This document", responses.OpenApiDocument))
def openapi() -> Response[str]:
    return json_response(responses.OpenApiDocument, openapi_document())


handler = lambda_handler(app)
