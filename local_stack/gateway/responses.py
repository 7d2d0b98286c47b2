"""Gateway responses: API Gateway's own answers (a route not found, throttled, refused by
the authorizer, a failed integration...), as the Api's GatewayResponses customise them."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from local_stack.events import ApiContext, HttpRequest, HttpResponse, request_time
from local_stack.template import ACCOUNT_ID

# API Gateway's own defaults: (status, message) for each gateway response type.
DEFAULT_RESPONSES: dict[str, tuple[int, str | None]] = {
    "ACCESS_DENIED": (403, "User is not authorized to access this resource"),
    "API_CONFIGURATION_ERROR": (500, "Internal server error"),
    "AUTHORIZER_CONFIGURATION_ERROR": (500, None),
    "AUTHORIZER_FAILURE": (500, None),
    "BAD_REQUEST_BODY": (400, "Invalid request body"),
    "BAD_REQUEST_PARAMETERS": (400, "Invalid request parameters"),
    "EXPIRED_TOKEN": (403, "Token expired"),
    "INTEGRATION_FAILURE": (504, "Internal server error"),
    "INTEGRATION_TIMEOUT": (504, "Endpoint request timed out"),
    "INVALID_API_KEY": (403, "Forbidden"),
    "INVALID_SIGNATURE": (403, "Invalid signature"),
    "MISSING_AUTHENTICATION_TOKEN": (403, "Missing Authentication Token"),
    "QUOTA_EXCEEDED": (429, "Limit Exceeded"),
    "REQUEST_TOO_LARGE": (413, "Request Too Long"),
    "RESOURCE_NOT_FOUND": (404, "Not Found"),
    "THROTTLED": (429, "Too Many Requests"),
    "UNAUTHORIZED": (401, "Unauthorized"),
    "UNSUPPORTED_MEDIA_TYPE": (415, "Unsupported Media Type"),
    "WAF_FILTERED": (403, "Forbidden"),
}
ERROR_TYPES = {
    "ACCESS_DENIED": "AccessDeniedException",
    "MISSING_AUTHENTICATION_TOKEN": "MissingAuthenticationTokenException",
    "THROTTLED": "TooManyRequestsException",
    "UNAUTHORIZED": "UnauthorizedException",
    "REQUEST_TOO_LARGE": "RequestTooLargeException",
    "AUTHORIZER_FAILURE": "AuthorizerFailureException",
    "AUTHORIZER_CONFIGURATION_ERROR": "AuthorizerConfigurationException",
    "WAF_FILTERED": "ForbiddenException",
}
DEFAULT_TEMPLATE = '{"message":$context.error.messageString}'


@dataclass
class GatewayResponse:
    status: int | None = None
    templates: dict[str, str] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)  # name -> mapping expression


def parse_gateway_responses(config: dict[str, Any]) -> dict[str, GatewayResponse]:
    """SAM's Api GatewayResponses property into GatewayResponse values."""
    parsed: dict[str, GatewayResponse] = {}
    for kind, spec in (config or {}).items():
        spec = spec or {}
        status = spec.get("StatusCode")
        parsed[str(kind)] = GatewayResponse(
            status=int(status) if status is not None else None,
            templates={str(k): str(v) for k, v in (spec.get("ResponseTemplates") or {}).items()},
            headers={
                str(k): str(v)
                for k, v in ((spec.get("ResponseParameters") or {}).get("Headers") or {}).items()
            },
        )
    return parsed


# $context.a.b, $!context.a.b or ${context.a.b}, as VTL writes references
_CONTEXT_VARIABLE = re.compile(
    r"\$!?(?:\{context\.([A-Za-z0-9_.]+)\}|context\.([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*))"
)


class GatewayResponses:
    def __init__(self, responses: dict[str, GatewayResponse], api: ApiContext) -> None:
        self.responses = responses
        self.api = api

    def render(
        self,
        kind: str,
        request: HttpRequest,
        *,
        message: str | None = None,
        status: int | None = None,
        resource: str | None = None,
    ) -> HttpResponse:
        """API Gateway's own answer of the given type, as the template customises it."""
        default_status, default_message = DEFAULT_RESPONSES.get(kind, (500, None))
        default_status = status or default_status
        message = default_message if message is None else message
        fallback = "DEFAULT_4XX" if default_status < 500 else "DEFAULT_5XX"
        fallback_spec = self.responses.get(fallback) or GatewayResponse()
        spec = self.responses.get(kind) or fallback_spec
        # A status on DEFAULT_4XX/5XX changes every response of its class that sets none.
        final_status = spec.status or fallback_spec.status or default_status
        content_type, template = next(
            iter(spec.templates.items()), ("application/json", DEFAULT_TEMPLATE)
        )
        if "application/json" in spec.templates:
            content_type, template = "application/json", spec.templates["application/json"]
        variables = self._variables(kind, request, message, resource)
        body = _CONTEXT_VARIABLE.sub(
            lambda m: variables.get(m.group(1) or m.group(2), ""), template
        )
        headers: list[tuple[str, str]] = [("Content-Type", content_type)]
        for name, expression in spec.headers.items():
            value = self._header_value(expression, request, variables)
            if value is None:
                continue
            headers = [(k, v) for k, v in headers if k.lower() != name.lower()]
            headers.append((name, value))
        headers.append(("x-amzn-ErrorType", ERROR_TYPES.get(kind, "InternalServerErrorException")))
        return HttpResponse(status=final_status, headers=headers, body=body.encode())

    def _variables(
        self,
        kind: str,
        request: HttpRequest,
        message: str | None,
        resource: str | None,
    ) -> dict[str, str]:
        return {
            "error.message": message or "",
            "error.messageString": json.dumps(message),
            "error.responseType": kind,
            "error.validationErrorString": "",
            "requestId": request.request_id,
            "extendedRequestId": request.request_id,
            "path": request.raw_path,
            "resourcePath": resource or "",
            "httpMethod": request.method,
            "stage": self.api.stage,
            "apiId": self.api.api_id,
            "accountId": ACCOUNT_ID,
            "domainName": self.api.domain_name,
            "identity.sourceIp": request.source_ip,
            "identity.userAgent": request.header("User-Agent") or "",
            "requestTime": request_time(request.time_epoch_ms),
            "requestTimeEpoch": str(request.time_epoch_ms),
            "protocol": "HTTP/1.1",
        }

    @staticmethod
    def _header_value(
        expression: str, request: HttpRequest, variables: dict[str, str]
    ) -> str | None:
        """A ResponseParameters value: a 'static' string or a request/context mapping."""
        if len(expression) >= 2 and expression.startswith("'") and expression.endswith("'"):
            return unquoted(expression)
        if expression.startswith("method.request.header."):
            return request.header(expression.removeprefix("method.request.header."))
        if expression.startswith("context."):
            return variables.get(expression.removeprefix("context."))
        return None


def unquoted(value: str) -> str:
    """A static value without its quotes: API Gateway's are written in single quotes, "'*'"
    (in the Api's Cors too)."""
    if len(value) >= 2 and value.startswith("'") and value.endswith("'"):
        return value[1:-1]
    return value
