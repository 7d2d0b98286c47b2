"""The HTTP edge shared by every function: the resolver, its answers to errors (problem
documents, `problems`), the checks every request body passes before validation, the
`Idempotency-Key` a retried request sends (`request_key`), and the Lambda entry point.

A function module builds `app = create_app()`, declares its routes, and exposes
`handler = lambda_handler(app)`; errors raised anywhere become problem documents here.
"""

from __future__ import annotations

import base64
import binascii
import functools
import json
import re
import time
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Annotated, Any

from aws_lambda_powertools.event_handler import (
    APIGatewayRestResolver,
    CORSConfig,
    Response,
)
from aws_lambda_powertools.event_handler.exceptions import NotFoundError
from aws_lambda_powertools.event_handler.openapi.exceptions import RequestValidationError
from aws_lambda_powertools.event_handler.openapi.params import Header, Path
from aws_lambda_powertools.logging import correlation_paths
from aws_lambda_powertools.utilities.typing import LambdaContext
from pydantic import BaseModel

from blackjack.errors import GameError
from blackjack.rules import TABLES

from .errors import (
    MalformedRequest,
    PayloadTooLarge,
    ServiceError,
    Unauthorized,
    UnsupportedMediaType,
    ValidationFailed,
)
from .identity import Identity, caller
from .models import IDEMPOTENCY_KEY_PATTERN, IF_MATCH_PATTERN
from .observability import logger, metrics, tracer
from .problems import LambdaEvent, LambdaResponse, problem, problem_of, proxy_response
from .settings import settings

if TYPE_CHECKING:
    from .idempotency import RequestKey

MAX_BODY_BYTES = 16 * 1024
CACHE_CONTROL_HEADER = {"Cache-Control": ["no-store"]}
_GAME_ERROR_STATUS = {"illegal_action": 409, "bet_out_of_limits": 422, "validation_error": 422}
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
_IF_MATCH = re.compile(IF_MATCH_PATTERN)
_VERSION_DIGITS = 18  # longer: no version, so stale
_NO_VERSION = 0  # seats start at version 1
# Python's guard against quadratic int parsing (sys.get_int_max_str_digits), as it words it.
_TOO_MANY_DIGITS = "Exceeds the limit"
# DynamoDB's answers when the table is over its limits: the client may retry shortly.
_THROTTLING = frozenset(
    {"ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded"}
)
# The table could not be reached, after the store's retries: DynamoDB's own failures, and
# botocore's bases of the errors of a connection that failed, closed or timed out
# (EndpointConnectionError, ConnectTimeoutError, ConnectionClosedError, ReadTimeoutError).
_UNAVAILABLE = frozenset({"InternalServerError", "ServiceUnavailable"})
_UNREACHABLE = frozenset({"ConnectionError", "HTTPClientError"})
UNAVAILABLE_RETRY_S = 2  # the store has retried once already; a restarted table needs a moment


# The parameters handlers declare, with the syntax the document publishes. An unknown table
# is not invalid but absent: 404, as a route's own check says.
TableId = Annotated[str, Path(json_schema_extra={"enum": list(TABLES)})]
IdempotencyKey = Annotated[
    str | None, Header(alias="Idempotency-Key", pattern=IDEMPOTENCY_KEY_PATTERN)
]
IfMatch = Annotated[str | None, Header(alias="If-Match", pattern=IF_MATCH_PATTERN)]


def json_response(
    model: type[BaseModel],
    body: Mapping[str, Any],
    status: int = 200,
    headers: Mapping[str, str] | None = None,
) -> Response[str]:
    """A JSON response, checked against its model of API.md first (strictly: the body is
    sent as built, so it must already be exactly what the contract says)."""
    model.model_validate(body, strict=True)
    return Response(
        status_code=status,
        content_type="application/json",
        body=json.dumps(body),
        headers=dict(headers or {}),
    )


def etag(version: int) -> dict[str, str]:
    return {"ETag": f'"{version}"'}


def expected_version(if_match: str | None) -> int | None:
    """The seat version an `If-Match` header asks for; None when any will do (no header,
    or `*`: RFC 9110). The header has the document's syntax (IF_MATCH_PATTERN), or the
    request is invalid; a version of more digits than any seat reaches is stale."""
    if if_match is None:
        return None
    match = _IF_MATCH.fullmatch(if_match)
    if match is None:
        raise ValidationFailed('If-Match is * or a round\'s ETag, "<version>"')
    digits = match.group(2) or match.group(3)
    if digits is None:  # `*`
        return None
    return int(digits) if len(digits) <= _VERSION_DIGITS else _NO_VERSION


def create_app() -> APIGatewayRestResolver:
    cors = CORSConfig(
        allow_origin=settings().cors_origin,
        allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "If-Match"],
        expose_headers=["ETag", "Retry-After"],
        max_age=600,
    )
    app = APIGatewayRestResolver(cors=cors, enable_validation=True)
    app.exception_handler(ServiceError)(problem_of)
    app.exception_handler(GameError)(_game_error)
    app.exception_handler(RequestValidationError)(_validation_error)
    app.not_found(_not_found)
    app.exception_handler(Exception)(_unexpected)
    return app


def current_identity(app: APIGatewayRestResolver) -> Identity:
    """The user the authorizer let in, while the token holds: API Gateway keeps the
    authorizer's answer for a while, which may be past the token's `exp`."""
    identity = caller(app.current_event.raw_event)
    if identity is None:
        raise Unauthorized("no authenticated user")
    authorizer = app.current_event.request_context.authorizer.raw_event or {}
    expires_at = str(authorizer.get("exp"))  # API Gateway may pass context values as strings
    if not expires_at.isdigit() or len(expires_at) > 12 or time.time() >= int(expires_at):
        raise Unauthorized("the token has expired")
    logger.append_keys(user=identity.account_id)
    return identity


def lambda_handler(
    app: APIGatewayRestResolver,
) -> Callable[[LambdaEvent, LambdaContext], LambdaResponse]:
    """The function's entry point: logging with the request id as correlation id, tracing,
    metrics, the body checks, then the route."""

    @logger.inject_lambda_context(
        correlation_id_path=correlation_paths.API_GATEWAY_REST, clear_state=True
    )
    @metrics.log_metrics
    def logged(event: LambdaEvent, context: LambdaContext) -> LambdaResponse:
        return traced()(event, context)

    def handler(event: LambdaEvent, context: LambdaContext) -> LambdaResponse:
        try:
            response: LambdaResponse = logged(event, context)
            return _uncacheable(response)
        finally:
            # With metrics disabled (local runs) Powertools keeps them instead of flushing,
            # and prints the pile once it holds 100 values.
            metrics.clear_metrics()

    @functools.cache
    def traced() -> Callable[[LambdaEvent, LambdaContext], LambdaResponse]:
        # Made on the first invocation, with the tracer (see `observability.tracer`).
        return tracer().capture_lambda_handler(route, capture_response=False)

    def route(event: LambdaEvent, context: LambdaContext) -> LambdaResponse:
        refused = _check_body(event)
        if refused is not None:
            return proxy_response(refused)
        return app.resolve(event, context)

    return handler


# ---- body checks ------------------------------------------------------------------------


def _check_body(event: LambdaEvent) -> Response[str] | None:
    """413, 415 and 400 before any validation: the body must be a JSON object sent as JSON."""
    if event.get("httpMethod") not in _BODY_METHODS:
        return None
    raw = event.get("body")
    body = raw or ""
    size = len(body) * 3 // 4 if event.get("isBase64Encoded") else len(body.encode())
    if size > MAX_BODY_BYTES:
        return problem_of(PayloadTooLarge(f"the body is over {MAX_BODY_BYTES} bytes"))
    content_type = _header(event, "content-type")
    if raw and not _is_json(content_type):
        return problem_of(UnsupportedMediaType("send the body as application/json, in UTF-8"))
    if content_type is not None:  # media types are case-insensitive; the resolver's check is not
        _set_header(event, "content-type", content_type.lower())
    if event.get("isBase64Encoded"):
        try:
            body = base64.b64decode(body).decode()
        except (binascii.Error, UnicodeDecodeError):
            return problem_of(MalformedRequest("the body is not UTF-8 JSON"))
        event["body"], event["isBase64Encoded"] = body, False
    try:
        parsed = json.loads(body, parse_constant=_refuse_constant, object_pairs_hook=_object)
    except RecursionError:
        return problem_of(MalformedRequest("the body is nested too deeply"))
    except _DuplicateName as error:
        return problem_of(MalformedRequest(str(error)))
    except ValueError as error:
        if _TOO_MANY_DIGITS in str(error):  # valid JSON, but no field takes such a number
            return problem_of(ValidationFailed("a number has too many digits"))
        return problem_of(MalformedRequest("the body is not valid JSON"))
    if not isinstance(parsed, dict):
        return problem_of(MalformedRequest("the body must be a JSON object"))
    return None


def _is_json(content_type: str | None) -> bool:
    """application/json (any case), in UTF-8 if it names a charset: JSON between systems is
    UTF-8 (RFC 8259), and a body read in another charset than its sender's would differ."""
    if content_type is None:
        return False
    media_type, *parameters = content_type.split(";")
    if media_type.strip().lower() != "application/json":
        return False
    for parameter in parameters:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "charset" and value.strip().strip('"').lower() != "utf-8":
            return False
    return True


class _DuplicateName(ValueError):
    pass


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose names are unique: with a name twice, two readers of one body may
    take different values (RFC 8259 4), so it is refused rather than the last one kept."""
    document = dict(pairs)
    if len(document) != len(pairs):
        raise _DuplicateName("a name appears twice in an object of the body")
    return document


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _header(event: LambdaEvent, name: str) -> str | None:
    for key, value in (event.get("headers") or {}).items():
        if key.lower() == name:
            return str(value)
    return None


def _set_header(event: LambdaEvent, name: str, value: str) -> None:
    headers, multi = event.get("headers") or {}, event.get("multiValueHeaders") or {}
    for key in [key for key in headers if key.lower() == name]:
        headers[key] = value
    for key in [key for key in multi if key.lower() == name]:
        multi[key] = [value]


def request_key(app: APIGatewayRestResolver, key: str | None) -> RequestKey | None:
    """The request's `Idempotency-Key` as the service keeps it, scoped to the route (the
    method and the path's template with its parameters, not the path's spelling) and
    checked against the parsed body; None when the request sends none."""
    if key is None:
        return None
    event = app.current_event.raw_event
    from .idempotency import RequestKey  # on a keyed request only: the others never need it

    route = [event.get("httpMethod"), event.get("resource"), event.get("pathParameters")]
    # Its numbers as written, not as floats: 100.0000000000000000001 is not 100.
    return RequestKey.of(route, key, json.loads(event.get("body") or "{}", parse_float=Decimal))


# ---- exception handlers -----------------------------------------------------------------


def _game_error(error: GameError) -> Response[str]:
    return problem(_GAME_ERROR_STATUS.get(error.code, 409), error.code, str(error))


def _validation_error(error: RequestValidationError) -> Response[str]:
    errors = [
        {"loc": [str(part) for part in item.get("loc", ())], "msg": str(item.get("msg", ""))}
        for item in error.errors()
    ]
    detail = "; ".join(f"{'.'.join(e['loc'])}: {e['msg']}" for e in errors) or "invalid request"
    return problem(422, "validation_error", detail, errors=errors)


def _not_found(_: NotFoundError) -> Response[str]:
    return problem(404, "not_found", "no such route")


def _unexpected(error: Exception) -> Response[str]:
    # botocore's errors, recognised by shape: botocore stays unimported until used. A
    # ClientError's `response` is the parsed answer (a timeout's is None).
    response = getattr(error, "response", None)
    aws_code = response.get("Error", {}).get("Code") if isinstance(response, dict) else None
    if aws_code in _THROTTLING:
        logger.warning("throttled by DynamoDB", extra={"aws_code": aws_code})
        return problem(
            429, "throttled", "the service is busy; retry in a second", {"Retry-After": "1"}
        )
    if aws_code in _UNAVAILABLE or _is_unreachable(error):
        # A write may have landed unanswered: a retry with its Idempotency-Key replays it.
        logger.warning("the table is unavailable", extra={"error": aws_code or repr(error)})
        return problem(
            503,
            "unavailable",
            "the service cannot reach its data; retry shortly (a write with the same "
            "Idempotency-Key: it may have been done)",
            {"Retry-After": str(UNAVAILABLE_RETRY_S)},
        )
    logger.exception("unexpected error")
    return problem(500, "internal_error", "something went wrong; the request may be retried")


def _is_unreachable(error: Exception) -> bool:
    return any(
        kind.__module__ == "botocore.exceptions" and kind.__name__ in _UNREACHABLE
        for kind in type(error).__mro__
    )


def _uncacheable(response: LambdaResponse) -> LambdaResponse:
    """Every answer `Cache-Control: no-store` (API.md): some carry a token or a balance."""
    headers = response.get("multiValueHeaders") or {}
    response["multiValueHeaders"] = {**headers, **CACHE_CONTROL_HEADER}
    return response
