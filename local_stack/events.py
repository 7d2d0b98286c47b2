"""The messages API Gateway exchanges with Lambda, as a REST API (payload format 1.0)
sends them: proxy events, TOKEN authorizer events, and proxy responses back into HTTP.
"""

from __future__ import annotations

import base64
import time
import traceback
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qsl

from local_stack.template import ACCOUNT_ID, REGION


@dataclass
class HttpRequest:
    """An HTTP request as the server received it."""

    method: str
    raw_path: str  # path as sent, without the query string, still percent-encoded
    query: str
    headers: list[tuple[str, str]]
    body: bytes
    source_ip: str = "127.0.0.1"
    request_id: str = field(default_factory=lambda: str(uuid.uuid4()))
    time_epoch_ms: int = field(default_factory=lambda: int(time.time() * 1000))

    def header(self, name: str) -> str | None:
        """The last value of a header, matched ignoring case (as API Gateway's headers)."""
        return next((v for k, v in reversed(self.headers) if k.lower() == name.lower()), None)


def printable(text: str) -> str:
    """A client's text as it may go into the operator's log: printable ASCII as it is, any
    other character (ESC, CR, LF, NUL, a C1 control, a backslash) as a Python escape, so
    that no byte of a request moves the terminal's cursor, colours it or forges a line."""
    return text.encode("unicode_escape").decode("ascii")


def printable_traceback() -> str:
    """The traceback of the exception being handled (it may quote a request), escaped line
    by line, its line breaks kept."""
    return "\n".join(printable(line) for line in traceback.format_exc().split("\n"))


@dataclass
class HttpResponse:
    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)


@dataclass
class ApiContext:
    """The facts about the API a request came through."""

    api_id: str
    stage: str
    domain_name: str = "localhost"


class MalformedProxyResponse(Exception):
    """The function returned something API Gateway rejects (it answers 502)."""


def _multi(
    pairs: list[tuple[str, str]],
) -> tuple[dict[str, str] | None, dict[str, list[str]] | None]:
    if not pairs:
        return None, None
    single: dict[str, str] = {}
    multi: dict[str, list[str]] = {}
    for key, value in pairs:
        single[key] = value  # the last value wins, as in API Gateway
        multi.setdefault(key, []).append(value)
    return single, multi


def request_time(epoch_ms: int) -> str:
    return datetime.fromtimestamp(epoch_ms / 1000, UTC).strftime("%d/%b/%Y:%H:%M:%S +0000")


def proxy_event(
    request: HttpRequest,
    *,
    resource: str,
    path_parameters: dict[str, str] | None,
    api: ApiContext,
    authorizer: dict[str, Any] | None,
    binary: bool,
) -> dict[str, Any]:
    """The Lambda proxy integration event (REST API, payload format 1.0)."""
    path = request.raw_path
    headers, multi_headers = _multi(request.headers)
    query_pairs = parse_qsl(request.query, keep_blank_values=True)
    query, multi_query = _multi(query_pairs)
    body = None
    if request.body and binary:
        body = base64.b64encode(request.body).decode()
    elif request.body:
        body = request.body.decode(errors="replace")
    return {
        "resource": resource,
        "path": path,
        "httpMethod": request.method,
        "headers": headers,
        "multiValueHeaders": multi_headers,
        "queryStringParameters": query,
        "multiValueQueryStringParameters": multi_query,
        "pathParameters": path_parameters or None,
        "stageVariables": None,
        "requestContext": {
            "resourceId": "local",
            "resourcePath": resource,
            "httpMethod": request.method,
            "extendedRequestId": request.request_id,
            "requestTime": request_time(request.time_epoch_ms),
            "path": path,
            "accountId": ACCOUNT_ID,
            "protocol": "HTTP/1.1",
            "stage": api.stage,
            "domainPrefix": api.domain_name.split(".")[0],
            "requestTimeEpoch": request.time_epoch_ms,
            "requestId": request.request_id,
            "identity": {
                "cognitoIdentityPoolId": None,
                "accountId": None,
                "cognitoIdentityId": None,
                "caller": None,
                "apiKey": None,
                "apiKeyId": None,
                "accessKey": None,
                "sourceIp": request.source_ip,
                "principalOrgId": None,
                "cognitoAuthenticationType": None,
                "cognitoAuthenticationProvider": None,
                "userArn": None,
                "userAgent": request.header("User-Agent"),
                "user": None,
                "clientCert": None,
            },
            "domainName": api.domain_name,
            "apiId": api.api_id,
            **({"authorizer": authorizer} if authorizer is not None else {}),
        },
        "body": body,
        "isBase64Encoded": bool(body is not None and binary),
    }


def method_arn(api: ApiContext, method: str, path: str) -> str:
    """arn:aws:execute-api:region:account:apiId/stage/METHOD/path-without-leading-slash."""
    return f"arn:aws:execute-api:{REGION}:{ACCOUNT_ID}:{api.api_id}/{api.stage}/{method}{path}"


def token_authorizer_event(token: str, arn: str) -> dict[str, Any]:
    return {"type": "TOKEN", "authorizationToken": token, "methodArn": arn}


def proxy_response(result: Any) -> HttpResponse:
    """The HTTP response for a function's proxy result; MalformedProxyResponse if invalid."""
    if not isinstance(result, dict):
        raise MalformedProxyResponse(
            f"the function returned {type(result).__name__}, not an object"
        )
    # REST APIs reject any other key (`cookies` is an HTTP API field)
    allowed = {"statusCode", "headers", "multiValueHeaders", "body", "isBase64Encoded"}
    unknown = set(result) - allowed
    if unknown:
        raise MalformedProxyResponse(f"unknown fields {sorted(unknown)}")
    return HttpResponse(status=_status(result), headers=_headers(result), body=_body(result))


def _status(result: dict[str, Any]) -> int:
    status = result.get("statusCode", 200)
    if isinstance(status, str) and status.isdigit():
        status = int(status)
    if not isinstance(status, int) or isinstance(status, bool) or not 100 <= status <= 599:
        raise MalformedProxyResponse(f"statusCode {status!r} is not an HTTP status")
    return status


def _body(result: dict[str, Any]) -> bytes:
    body = result.get("body")
    if body is not None and not isinstance(body, str):
        raise MalformedProxyResponse("body is not a string")
    if not (result.get("isBase64Encoded") and body):
        return (body or "").encode()
    try:
        return base64.b64decode(body, validate=True)
    except ValueError as exc:
        raise MalformedProxyResponse("body is not valid base64") from exc


def _headers(result: dict[str, Any]) -> list[tuple[str, str]]:
    headers: list[tuple[str, str]] = []
    multi = result.get("multiValueHeaders")
    multi = {} if multi is None else multi
    single = result.get("headers")
    single = {} if single is None else single
    if not isinstance(multi, dict) or not isinstance(single, dict):
        raise MalformedProxyResponse("headers must be objects")
    for key, values in multi.items():
        if not isinstance(values, list):
            raise MalformedProxyResponse(f"multiValueHeaders[{key!r}] is not a list")
        headers.extend((str(key), _header_value(v)) for v in values)
    for key, value in single.items():
        # API Gateway merges both maps; a pair present in both appears once
        pair = (str(key), _header_value(value))
        if not any(k.lower() == pair[0].lower() and v == pair[1] for k, v in headers):
            headers.append(pair)
    if not any(k.lower() == "content-type" for k, _ in headers):
        headers.append(("Content-Type", "application/json"))  # API Gateway's default
    return headers


def _header_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(value)
