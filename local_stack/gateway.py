"""What API Gateway does in front of the functions: the web ACL (WAF) of its stage, route
matching, throttling, the Lambda TOKEN authorizer, its own error answers (gateway
responses), and the proxy integration.
"""

from __future__ import annotations

import base64
import functools
import json
import logging
import re
import threading
import time
import traceback
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol
from urllib.parse import unquote

from typing_extensions import TypeVar

from local_stack.events import (
    ApiContext,
    HttpRequest,
    HttpResponse,
    MalformedProxyResponse,
    decode_path_parameter,
    method_arn,
    printable_traceback,
    proxy_event,
    proxy_response,
    request_time,
    token_authorizer_event,
)
from local_stack.runtime import LambdaFunction, Throttled
from local_stack.template import ACCOUNT_ID

log = logging.getLogger("local_stack")

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
MAX_PAYLOAD_BYTES = 10 * 1024 * 1024  # API Gateway's request payload quota
HTTP_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")  # what ANY stands for
MATCHED_PATHS = 4096  # paths whose resource a route table keeps, each of at most
MATCHED_PATH_LENGTH = 256  # characters


# -- routes -------------------------------------------------------------------------


class Function(Protocol):
    """What the gateways know of a function: its names (an Api's Auth names its authorizer
    by ARN); the gateway's invoker is what runs it."""

    @property
    def logical_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def arn(self) -> str: ...


# The functions a gateway sends to: the local stack's (the default, so that `Route` alone
# is the stack's), or the in-process API's (local_stack.in_process), modules of this
# process. A default needs typing_extensions' TypeVar on Python 3.11.
F = TypeVar("F", bound=Function, default=LambdaFunction)


@dataclass
class Authorizer(Generic[F]):
    """A Lambda TOKEN authorizer, as declared under the Api's Auth.Authorizers."""

    name: str
    function: F
    identity_header: str = "Authorization"
    validation_expression: re.Pattern[str] | None = None
    ttl_s: int = 0


@dataclass
class Route(Generic[F]):
    resource: str  # the template's Path, with {param} and {proxy+}
    method: str  # upper case, or ANY
    function: F
    authorizer: Authorizer[F] | None = None

    @property
    def segments(self) -> list[str]:
        return split_path(self.resource)


def split_path(path: str) -> list[str]:
    return [s for s in path.strip("/").split("/") if s != ""] if path.strip("/") else []


def match_resource(
    template: list[str], segments: list[str]
) -> tuple[tuple[int, ...], dict[str, str]] | None:
    """Whether a resource path matches; with its rank (lower is more specific) and params.

    API Gateway prefers, segment by segment, a literal over a {param} over a {proxy+}.
    """
    rank: list[int] = []
    params: dict[str, str] = {}
    for i, part in enumerate(template):
        if part.startswith("{") and part.endswith("+}"):
            if i >= len(segments):
                return None
            params[part[1:-2]] = decode_path_parameter("/".join(segments[i:]))
            rank.append(2)
            return tuple(rank), params
        if i >= len(segments):
            return None
        if part.startswith("{") and part.endswith("}"):
            params[part[1:-1]] = decode_path_parameter(segments[i])
            rank.append(1)
        elif part == segments[i]:
            rank.append(0)
        else:
            return None
    if len(template) != len(segments):
        return None
    return tuple(rank), params


class RouteTable(Generic[F]):
    def __init__(self, routes: list[Route[F]]) -> None:
        self.by_resource: dict[str, dict[str, Route[F]]] = {}
        for route in routes:
            self.by_resource.setdefault(route.resource, {})[route.method] = route
        self._segments = {resource: split_path(resource) for resource in self.by_resource}
        # Each path's resource, once matched: a request is matched three times (its
        # gateway, a preflight, its route) against every resource, and a player's
        # requests go to a few paths over and over.
        self._found: dict[str, tuple[str, dict[str, str]] | None] = {}

    def resource_for(self, path: str) -> tuple[str, dict[str, str]] | None:
        """The most specific resource whose path matches, with its path parameters."""
        try:
            found = self._found[path]
        except KeyError:
            found = self._match_resource(path)
            if len(path) <= MATCHED_PATH_LENGTH:  # what a client's paths may hold is bounded
                if len(self._found) >= MATCHED_PATHS:
                    self._found.clear()
                self._found[path] = found
        return None if found is None else (found[0], dict(found[1]))

    def _match_resource(self, path: str) -> tuple[str, dict[str, str]] | None:
        segments = split_path(path)
        best: tuple[tuple[int, ...], str, dict[str, str]] | None = None
        for resource, resource_segments in self._segments.items():
            found = match_resource(resource_segments, segments)
            if found and (best is None or found[0] < best[0]):
                best = (found[0], resource, found[1])
        return None if best is None else (best[1], best[2])

    def match(self, method: str, path: str) -> tuple[Route[F], dict[str, str]] | None:
        """The route for a request, or None (API Gateway: missing authentication token).

        Like API Gateway, the resource is chosen by path first, then its method. Methods are
        case-sensitive (RFC 9110 9.1): `get` is not GET but an unknown method, as `FOO` is,
        which only ANY catches.
        """
        found = self.resource_for(path)
        if found is None:
            return None
        methods = self.by_resource[found[0]]
        route = methods.get(method) or methods.get("ANY")
        return (route, found[1]) if route else None


@dataclass
class Cors:
    """The Api's Cors property: SAM answers preflights with a mock integration."""

    allow_origin: str
    allow_headers: str | None = None
    allow_methods: str | None = None
    max_age: str | None = None
    allow_credentials: bool = False

    @classmethod
    def parse(cls, value: Any) -> Cors | None:
        if not value:
            return None
        if isinstance(value, str):
            return cls(allow_origin=_unquote(value))
        return cls(
            allow_origin=_unquote(str(value.get("AllowOrigin", "'*'"))),
            allow_headers=_unquote(str(value["AllowHeaders"])) if "AllowHeaders" in value else None,
            allow_methods=_unquote(str(value["AllowMethods"])) if "AllowMethods" in value else None,
            max_age=_unquote(str(value["MaxAge"])) if "MaxAge" in value else None,
            allow_credentials=bool(value.get("AllowCredentials", False)),
        )

    def preflight(self, methods: list[str]) -> HttpResponse:
        # SAM's AllowMethods when the property has none: the path's methods and OPTIONS, or
        # all of API Gateway's for a path with ANY.
        listed = HTTP_METHODS if "ANY" in methods else {*methods, "OPTIONS"}
        allow_methods = self.allow_methods or ",".join(sorted(listed))
        headers = [
            ("Content-Type", "application/json"),
            ("Access-Control-Allow-Origin", self.allow_origin),
            ("Access-Control-Allow-Methods", allow_methods),
        ]
        if self.allow_headers:
            headers.append(("Access-Control-Allow-Headers", self.allow_headers))
        if self.max_age:
            headers.append(("Access-Control-Max-Age", self.max_age))
        if self.allow_credentials:
            headers.append(("Access-Control-Allow-Credentials", "true"))
        return HttpResponse(status=200, headers=headers, body=b"")


def _unquote(value: str) -> str:
    """API Gateway static values are written in single quotes: "'*'"."""
    if len(value) >= 2 and value.startswith("'") and value.endswith("'"):
        return value[1:-1]
    return value


# -- throttling ---------------------------------------------------------------------


class TokenBucket:
    """The token bucket API Gateway throttles with: burst capacity, refilled at rate/s."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.capacity = float(burst)
        self.tokens = float(burst)
        self.updated = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


def _unescape_resource_path(path: str) -> str:
    """MethodSettings' ResourcePath: "/~1v1~1users" is /v1/users; "/*" is every path."""
    if path == "/*":
        return path
    return path.removeprefix("/").replace("~1", "/").replace("~0", "~")


class Throttle:
    """MethodSettings' ThrottlingRateLimit/BurstLimit, one bucket per method."""

    def __init__(self, method_settings: list[dict[str, Any]]) -> None:
        self.settings = [
            (
                _unescape_resource_path(str(s.get("ResourcePath", "/*"))),
                str(s.get("HttpMethod", "*")).upper(),
                float(s["ThrottlingRateLimit"]),
                int(s.get("ThrottlingBurstLimit", s["ThrottlingRateLimit"])),
            )
            for s in method_settings
            if isinstance(s, dict) and "ThrottlingRateLimit" in s
        ]
        self.buckets: dict[tuple[str, str], TokenBucket | None] = {}
        self.lock = threading.Lock()

    def _limits(self, resource: str, method: str) -> tuple[float, int] | None:
        best: tuple[int, float, int] | None = None
        for path, http_method, rate, burst in self.settings:
            if path not in ("/*", resource) or http_method not in ("*", method):
                continue
            score = (path == resource) * 2 + (http_method == method)
            if best is None or score > best[0]:
                best = (score, rate, burst)
        return None if best is None or best[1] < 0 else (best[1], best[2])

    def allow(self, resource: str, method: str) -> bool:
        with self.lock:
            key = (resource, method)
            if key not in self.buckets:
                limits = self._limits(resource, method)
                self.buckets[key] = TokenBucket(*limits) if limits else None
            bucket = self.buckets[key]
            return bucket is None or bucket.take()


# -- the web ACL (AWS WAF) ------------------------------------------------------------


class UnsupportedWafRule(Exception):
    """A web ACL rule the local stack cannot evaluate (it is left out, with a warning)."""


# WAF's text transformations the local rules may use, by Type.
_TRANSFORMATIONS: dict[str, Callable[[str], str]] = {
    "NONE": lambda text: text,
    "LOWERCASE": str.lower,
    "UPPERCASE": str.upper,
    "URL_DECODE": unquote,
    "TRIM": str.strip,
    # \t \n \v \f \r and non-breaking spaces as spaces, then each run of spaces one
    "COMPRESS_WHITE_SPACE": lambda text: re.sub(r"[ \t\n\v\f\r\xa0]+", " ", text),
    "NORMALIZE_PATH": lambda text: _normalize_path(text),
}
_CONTENT_TYPES = {
    "APPLICATION_JSON": "application/json",
    "TEXT_PLAIN": "text/plain",
    "TEXT_HTML": "text/html",
}
RequestText = Callable[[HttpRequest], str | None]
Matcher = Callable[[HttpRequest], bool]


def _normalize_path(path: str) -> str:
    """WAF's NORMALIZE_PATH: runs of slashes as one, `.` and `..` segments resolved."""
    kept: list[str] = []
    for segment in re.sub(r"/{2,}", "/", path).split("/"):
        if segment == ".":
            continue
        if segment == ".." and len(kept) > 1:  # one at the beginning stays
            kept.pop()
            continue
        kept.append(segment)
    return "/".join(kept)


def _transformed(read: RequestText, transformations: list[dict[str, Any]]) -> RequestText:
    steps = []
    for step in sorted(transformations, key=lambda t: int(t.get("Priority", 0))):
        kind = str(step.get("Type"))
        if kind not in _TRANSFORMATIONS:
            raise UnsupportedWafRule(f"text transformation {kind}")
        steps.append(_TRANSFORMATIONS[kind])

    def text(request: HttpRequest) -> str | None:
        value = read(request)
        for step in steps:
            value = None if value is None else step(value)
        return value

    return text


def _field(spec: dict[str, Any]) -> RequestText:
    """A FieldToMatch (or a custom key's part) as the request text it reads."""
    if "UriPath" in spec:
        return lambda request: request.raw_path
    if "Method" in spec:
        return lambda request: request.method
    if "QueryString" in spec:
        return lambda request: request.query
    if "SingleHeader" in spec:
        name = str(spec["SingleHeader"]["Name"])
        return lambda request: request.header(name)
    raise UnsupportedWafRule(f"field {sorted(spec)}")


def _matcher(statement: dict[str, Any]) -> Matcher:
    """A WAF Statement (of those the local stack knows) as a test of a request."""
    if len(statement) != 1:
        raise UnsupportedWafRule(f"statement {sorted(statement)}")
    ((kind, spec),) = statement.items()
    if kind in ("AndStatement", "OrStatement"):
        parts = [_matcher(s) for s in spec["Statements"]]
        combine = all if kind == "AndStatement" else any
        return lambda request: combine(part(request) for part in parts)
    if kind == "NotStatement":
        inner = _matcher(spec["Statement"])
        return lambda request: not inner(request)
    if kind not in ("ByteMatchStatement", "RegexMatchStatement"):
        raise UnsupportedWafRule(kind)
    read = _transformed(_field(spec["FieldToMatch"]), spec["TextTransformations"])
    if kind == "RegexMatchStatement":
        pattern = re.compile(str(spec["RegexString"]))
        return lambda request: (text := read(request)) is not None and bool(pattern.search(text))
    if "SearchStringBase64" in spec:
        needle = base64.b64decode(str(spec["SearchStringBase64"])).decode()
    else:
        needle = str(spec["SearchString"])
    position = str(spec["PositionalConstraint"])
    tests: dict[str, Callable[[str], bool]] = {
        "EXACTLY": lambda text: text == needle,
        "STARTS_WITH": lambda text: text.startswith(needle),
        "ENDS_WITH": lambda text: text.endswith(needle),
        "CONTAINS": lambda text: needle in text,
        "CONTAINS_WORD": lambda text: bool(
            re.search(rf"(?<![A-Za-z0-9_]){re.escape(needle)}(?![A-Za-z0-9_])", text)
        ),
    }
    test = tests[position]
    return lambda request: (text := read(request)) is not None and test(text)


def _rate_key(statement: dict[str, Any]) -> Callable[[HttpRequest], tuple[str, ...] | None]:
    """What a RateBasedStatement counts by; None for a request it does not count (a
    custom key the request lacks)."""
    kind = str(statement["AggregateKeyType"])
    if kind == "IP":
        return lambda request: (request.source_ip,)
    if kind == "CONSTANT":
        return lambda request: ()
    if kind != "CUSTOM_KEYS":
        raise UnsupportedWafRule(f"AggregateKeyType {kind}")
    parts: list[RequestText] = []
    for key in statement["CustomKeys"]:
        ((name, spec),) = key.items()
        if name == "IP":
            parts.append(lambda request: request.source_ip)
        elif name == "HTTPMethod":
            parts.append(lambda request: request.method)
        elif name in ("Header", "UriPath"):
            field = {"SingleHeader": {"Name": spec["Name"]}} if name == "Header" else {name: {}}
            parts.append(_transformed(_field(field), spec["TextTransformations"]))
        else:
            raise UnsupportedWafRule(f"custom key {name}")

    def key_of(request: HttpRequest) -> tuple[str, ...] | None:
        values = tuple(part(request) for part in parts)
        return None if any(v is None for v in values) else values  # type: ignore[return-value]

    return key_of


class RateCounter:
    """A rate-based rule's counts: each key's requests over the last window_s seconds,
    in one-second slots (so a key's memory is bounded by the window, not by its flood)."""

    def __init__(self, limit: int, window_s: int) -> None:
        self.limit = limit
        self.window_s = window_s
        self.slots: dict[tuple[str, ...], deque[list[int]]] = {}
        self.lock = threading.Lock()
        self.swept = time.monotonic()

    def over_limit(self, key: tuple[str, ...]) -> bool:
        """Count one request of key; whether its window now holds more than the limit.
        WAF counts the requests it blocks too: a flood stays blocked while it goes on."""
        now = time.monotonic()
        second = int(now)
        with self.lock:
            if now - self.swept > self.window_s:  # forget keys that have gone quiet
                self.slots = {
                    k: v for k, v in self.slots.items() if v[-1][0] > second - self.window_s
                }
                self.swept = now
            slots = self.slots.setdefault(key, deque())
            while slots and slots[0][0] <= second - self.window_s:
                slots.popleft()
            if slots and slots[-1][0] == second:
                slots[-1][1] += 1
            else:
                slots.append([second, 1])
            return sum(count for _, count in slots) > self.limit


@dataclass
class WafRule:
    """One rule of a web ACL: what it looks at, its action, and for a Block its custom
    response (None: WAF's own 403, API Gateway's WAF_FILTERED)."""

    name: str
    matches: Matcher  # the rule's statement, its rate aside
    action: str  # Allow or Block end the evaluation; Count goes on
    block: HttpResponse | None = None
    rate_key: Callable[[HttpRequest], tuple[str, ...] | None] | None = None
    counter: RateCounter | None = None

    def applies(self, request: HttpRequest) -> bool:
        if not self.matches(request):
            return False
        if self.rate_key is None or self.counter is None:
            return True
        key = self.rate_key(request)
        return key is not None and self.counter.over_limit(key)


class WebAcl:
    """An AWS::WAFv2::WebACL associated with the API's stage: its rules in priority
    order, evaluated before API Gateway routes a request, as WAF is."""

    def __init__(self, properties: dict[str, Any]) -> None:
        self.bodies = {
            str(key): (
                _CONTENT_TYPES.get(str(body["ContentType"]), "text/plain"),
                str(body["Content"]),
            )
            for key, body in (properties.get("CustomResponseBodies") or {}).items()
        }
        self.rules: list[WafRule] = []
        rules = sorted(properties.get("Rules") or [], key=lambda r: int(r.get("Priority", 0)))
        for rule in rules:
            try:
                self.rules.append(self._rule(rule))
            except UnsupportedWafRule as exc:
                log.warning("WAF rule %s is not applied locally: %s", rule.get("Name"), exc)

    def _rule(self, rule: dict[str, Any]) -> WafRule:
        ((action, action_spec),) = (rule.get("Action") or {"Count": {}}).items()
        if action not in ("Allow", "Block", "Count"):
            raise UnsupportedWafRule(f"action {action}")
        block = self._block_response(action_spec or {}) if action == "Block" else None
        statement = rule["Statement"]
        name = str(rule.get("Name"))
        if "RateBasedStatement" not in statement:
            return WafRule(name, _matcher(statement), action, block)
        rate = statement["RateBasedStatement"]
        scope = rate.get("ScopeDownStatement")
        return WafRule(
            name,
            _matcher(scope) if scope else (lambda request: True),
            action,
            block,
            rate_key=_rate_key(rate),
            counter=RateCounter(int(rate["Limit"]), int(rate.get("EvaluationWindowSec", 300))),
        )

    def _block_response(self, spec: dict[str, Any]) -> HttpResponse | None:
        """The CustomResponse of a Block; None for WAF's own 403 (API Gateway's
        WAF_FILTERED)."""
        custom = spec.get("CustomResponse")
        if not custom:
            return None
        content_type, body = self.bodies.get(
            str(custom.get("CustomResponseBodyKey")), ("text/plain", "")
        )
        headers = [("Content-Type", content_type)]
        headers += [(str(h["Name"]), str(h["Value"])) for h in custom.get("ResponseHeaders") or []]
        return HttpResponse(int(custom["ResponseCode"]), headers, body.encode())

    def blocking_rule(self, request: HttpRequest) -> WafRule | None:
        """The rule that blocks the request, or None where it goes on to the API."""
        for rule in self.rules:
            if rule.applies(request) and rule.action != "Count":
                return rule if rule.action == "Block" else None
        return None


# -- gateway responses --------------------------------------------------------------


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
        authorizer: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """API Gateway's own answer of the given type, as the template customises it."""
        default_status, default_message = DEFAULT_RESPONSES.get(kind, (status or 500, None))
        default_status = status or default_status
        if message is None:
            message = default_message
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
        variables = self._variables(kind, request, message, resource, authorizer)
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
        authorizer: dict[str, Any] | None,
    ) -> dict[str, str]:
        variables = {
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
        for key, value in (authorizer or {}).items():
            variables[f"authorizer.{key}"] = str(value)
        return variables

    @staticmethod
    def _header_value(
        expression: str, request: HttpRequest, variables: dict[str, str]
    ) -> str | None:
        """A ResponseParameters value: a 'static' string or a request/context mapping."""
        if len(expression) >= 2 and expression.startswith("'") and expression.endswith("'"):
            return _unquote(expression)
        if expression.startswith("method.request.header."):
            return request.header(expression.removeprefix("method.request.header."))
        if expression.startswith("context."):
            return variables.get(expression.removeprefix("context."))
        return None


# -- the authorizer -----------------------------------------------------------------


class AuthorizerDenied(Exception):
    def __init__(self, kind: str, message: str | None = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.message = message


@functools.lru_cache(maxsize=1024)  # an authorizer's policy names the same few ARNs
def _arn_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(
        "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern) + r"\Z"
    )


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def policy_allows(policy: Any, arn: str) -> bool:
    """IAM evaluation of an authorizer policy for execute-api:Invoke on arn.

    Raises AuthorizerDenied(ACCESS_DENIED) for an explicit deny; False when nothing allows.
    """
    if not isinstance(policy, dict) or "Statement" not in policy:
        raise AuthorizerDenied("AUTHORIZER_CONFIGURATION_ERROR")
    allowed = False
    for statement in _as_list(policy["Statement"]):
        if not isinstance(statement, dict):
            raise AuthorizerDenied("AUTHORIZER_CONFIGURATION_ERROR")
        actions = [str(a).lower() for a in _as_list(statement.get("Action", []))]
        if not any(_arn_pattern(a).match("execute-api:invoke") for a in actions):
            continue
        resources = [str(r) for r in _as_list(statement.get("Resource", []))]
        if not any(_arn_pattern(r).match(arn) for r in resources):
            continue
        effect = str(statement.get("Effect", ""))
        if effect == "Deny":
            raise AuthorizerDenied(
                "ACCESS_DENIED",
                "User is not authorized to access this resource with an explicit deny",
            )
        if effect == "Allow":
            allowed = True
    return allowed


def _context_value(value: Any) -> str:
    """Authorizer context values reach the proxy event as strings."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | str):
        return str(value)
    raise AuthorizerDenied("AUTHORIZER_CONFIGURATION_ERROR")


# -- the gateway --------------------------------------------------------------------

# (function, event, request id) -> the function's result
Invoker = Callable[[F, dict[str, Any], str], Any]


class Gateway(Generic[F]):
    """One REST API: a request in, the HTTP response API Gateway would give out."""

    def __init__(
        self,
        *,
        api: ApiContext,
        routes: list[Route[F]],
        responses: dict[str, GatewayResponse],
        throttle: Throttle,
        invoke: Invoker[F],
        binary_media_types: list[str] | None = None,
        cors: Cors | None = None,
        web_acl: WebAcl | None = None,
    ) -> None:
        self.api = api
        self.routes = RouteTable(routes)
        self.responses = GatewayResponses(responses, api)
        self.throttle = throttle
        self.invoke = invoke
        self.binary_media_types = binary_media_types or []
        self.cors = cors
        self.web_acl = web_acl
        self._auth_cache: dict[tuple[str, str], tuple[float, dict[str, Any]]] = {}
        self._auth_lock = threading.Lock()

    def handle(self, request: HttpRequest) -> HttpResponse:
        if not request.request_id:
            request.request_id = str(uuid.uuid4())
        response = self._filtered(request) or self._handle(request)
        response.headers.append(("x-amzn-RequestId", request.request_id))
        return response

    def too_large(self, request: HttpRequest) -> HttpResponse:
        if not request.request_id:
            request.request_id = str(uuid.uuid4())
        response = self.responses.render("REQUEST_TOO_LARGE", request)
        response.headers.append(("x-amzn-RequestId", request.request_id))
        return response

    def _filtered(self, request: HttpRequest) -> HttpResponse | None:
        """The web ACL's answer where one of its rules blocks the request: WAF looks at a
        request before API Gateway routes, throttles or authorizes it."""
        rule = None if self.web_acl is None else self.web_acl.blocking_rule(request)
        if rule is None:
            return None
        if rule.block is None:
            return self.responses.render("WAF_FILTERED", request)
        return HttpResponse(rule.block.status, list(rule.block.headers), rule.block.body)

    def _handle(self, request: HttpRequest) -> HttpResponse:
        resource = self.routes.resource_for(request.raw_path)
        if request.method == "OPTIONS" and self.cors and resource:
            methods = self.routes.by_resource[resource[0]]
            # SAM gives every path without an OPTIONS of its own the preflight, one with
            # ANY too (API Gateway prefers a method to ANY).
            if "OPTIONS" not in methods:
                return self.cors.preflight(list(methods))
        found = self.routes.match(request.method, request.raw_path)
        if found is None:
            return self.responses.render("MISSING_AUTHENTICATION_TOKEN", request)
        route, params = found
        if not self.throttle.allow(route.resource, request.method):
            return self.responses.render("THROTTLED", request, resource=route.resource)
        authorizer_context: dict[str, Any] | None = None
        if route.authorizer is not None:
            try:
                authorizer_context = self._authorize(route.authorizer, request)
            except AuthorizerDenied as denied:
                return self.responses.render(
                    denied.kind, request, message=denied.message, resource=route.resource
                )
        event = proxy_event(
            request,
            resource=route.resource,
            path_parameters=params,
            api=self.api,
            authorizer=authorizer_context,
            binary=self._is_binary(request),
        )
        try:
            result = self.invoke(route.function, event, request.request_id)
            return proxy_response(result)
        except Throttled:  # as Lambda's TooManyRequestsException
            return self.responses.render("THROTTLED", request, resource=route.resource)
        except MalformedProxyResponse as exc:
            log.error("%s: malformed Lambda proxy response: %s", route.function.logical_id, exc)
        except Exception:  # its traceback may quote the request
            log.error(
                "%s raised:\n%s",
                route.function.logical_id,
                printable_traceback(traceback.format_exc()),
            )
        return self.responses.render(
            "DEFAULT_5XX",
            request,
            message="Internal server error",
            status=502,
            resource=route.resource,
        )

    def _is_binary(self, request: HttpRequest) -> bool:
        content_type = (request.header("Content-Type") or "").split(";")[0].strip().lower()
        for media in self.binary_media_types:
            media = media.replace("~1", "/").lower()
            if (
                media == "*/*"
                or media == content_type
                or (media.endswith("/*") and content_type.startswith(media[:-1]))
            ):
                return True
        return False

    def _authorize(self, authorizer: Authorizer[F], request: HttpRequest) -> dict[str, Any]:
        """Run the TOKEN authorizer as API Gateway does; the requestContext.authorizer."""
        token = request.header(authorizer.identity_header)
        if not token:
            raise AuthorizerDenied("UNAUTHORIZED")
        if authorizer.validation_expression and not authorizer.validation_expression.fullmatch(
            token
        ):
            raise AuthorizerDenied("UNAUTHORIZED")
        arn = method_arn(self.api, request.method, request.raw_path)
        answer = self._cached(authorizer, token)
        if answer is None:
            try:
                answer = self.invoke(
                    authorizer.function,
                    token_authorizer_event(token, arn),
                    request.request_id,
                )
            except Throttled as exc:
                raise AuthorizerDenied("THROTTLED") from exc
            except Exception as exc:
                if str(exc) == "Unauthorized":
                    raise AuthorizerDenied("UNAUTHORIZED") from exc
                log.error(
                    "%s raised:\n%s",
                    authorizer.function.logical_id,
                    printable_traceback(traceback.format_exc()),
                )
                raise AuthorizerDenied("AUTHORIZER_FAILURE") from exc
            if not isinstance(answer, dict) or "principalId" not in answer:
                log.error("%s: no principalId in %r", authorizer.function.logical_id, answer)
                raise AuthorizerDenied("AUTHORIZER_CONFIGURATION_ERROR")
            if authorizer.ttl_s > 0:
                with self._auth_lock:
                    self._auth_cache[(authorizer.name, token)] = (
                        time.monotonic() + authorizer.ttl_s,
                        answer,
                    )
        if not policy_allows(answer.get("policyDocument"), arn):
            raise AuthorizerDenied("ACCESS_DENIED")
        context = answer.get("context") or {}
        if not isinstance(context, dict):
            raise AuthorizerDenied("AUTHORIZER_CONFIGURATION_ERROR")
        return {
            "principalId": str(answer["principalId"]),
            **{str(k): _context_value(v) for k, v in context.items()},
        }

    def _cached(self, authorizer: Authorizer[F], token: str) -> dict[str, Any] | None:
        if authorizer.ttl_s <= 0:
            return None
        with self._auth_lock:
            entry = self._auth_cache.get((authorizer.name, token))
            if entry is None or entry[0] < time.monotonic():
                self._auth_cache.pop((authorizer.name, token), None)
                return None
            return entry[1]
