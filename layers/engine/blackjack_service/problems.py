"""The problem documents of API.md (RFC 9457), as the resolver's responses and in the
Lambda proxy shape, and the proxy event and response types: what the HTTP edge (`api`)
and the replay of retries (`idempotency`) both answer with."""

import json
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

from aws_lambda_powertools.event_handler import Response

from .errors import ServiceError
from .settings import settings

PROBLEM_JSON = "application/problem+json"

LambdaEvent = dict[str, Any]
LambdaResponse = dict[str, Any]


def problem(
    status: int, code: str, detail: str, headers: Mapping[str, str] | None = None, **extra: Any
) -> Response[str]:
    """An RFC 9457 problem document."""
    document = {
        "type": "about:blank",  # as API Gateway's own problems: `code` says which
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    return Response(
        status_code=status,
        content_type=PROBLEM_JSON,
        body=json.dumps(document),
        headers=dict(headers or {}),
    )


def problem_of(error: ServiceError) -> Response[str]:
    return problem(error.status, error.code, error.detail, error.headers)


def proxy_response(response: Response[str]) -> LambdaResponse:
    """A response made before routing, in the proxy shape, with the CORS origin."""
    return {
        "statusCode": response.status_code,
        "headers": {
            **response.headers,
            "Access-Control-Allow-Origin": settings().cors_origin,
        },
        "multiValueHeaders": {},
        "body": response.body,
        "isBase64Encoded": False,
    }
