"""An in-process API Gateway for the tests: routes a request to the function the template
maps it to, runs the TOKEN authorizer function on protected routes, and builds the proxy
event from the samples in `events/` (as API Gateway would fill them in)."""

from __future__ import annotations

import copy
import importlib
import json
import re
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple
from urllib.parse import parse_qsl, urlsplit

from local_stack.template import Template

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"
TEMPLATE = Template.from_file(ROOT / "template.yaml")
CODE_DIRS = TEMPLATE.handler_modules()  # each function's module and its folder
MODULES = sorted(CODE_DIRS)


class Route(NamedTuple):
    method: str
    resource: str
    module: str  # the function's
    sample: str  # the event in events/ of the same method and resource
    public: bool


def _samples() -> dict[tuple[str, str], str]:
    """The sample proxy events by method and resource (the authorizer's has neither)."""
    events = {path.stem: json.loads(path.read_text()) for path in sorted(EVENTS.glob("*.json"))}
    return {
        (event["httpMethod"], event["resource"]): name
        for name, event in events.items()
        if "httpMethod" in event
    }


def _routes() -> list[Route]:
    samples = _samples()
    routes = []
    for route in TEMPLATE.api_routes():
        _, handler = TEMPLATE.function_code(route.function)
        sample = samples.get((route.method, route.path))
        assert sample, f"events/ has no sample event of {route.method} {route.path}"
        routes.append(
            Route(
                route.method,
                route.path,
                handler.partition(".")[0],
                sample,
                route.authorizer is None,
            )
        )
    return routes


ROUTES = _routes()  # template.yaml's


def load_function(name: str) -> ModuleType:
    """Import the function's module as Lambda would (its CodeUri on sys.path)."""
    code_dir = str(CODE_DIRS[name])
    if code_dir not in sys.path:
        sys.path.insert(0, code_dir)
    return importlib.import_module(name)


def sample(name: str) -> dict[str, Any]:
    return dict(json.loads((EVENTS / f"{name}.json").read_text()))


class LambdaContext:
    function_name = "blackjack-test"
    function_version = "$LATEST"
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:blackjack-test"
    memory_limit_in_mb = 256
    log_group_name = "/aws/lambda/blackjack-test"
    log_stream_name = "test"

    def __init__(self) -> None:
        self.aws_request_id = str(uuid.uuid4())

    def get_remaining_time_in_millis(self) -> int:
        return 30_000


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    text: str
    event: dict[str, Any] | None = None

    @property
    def body(self) -> Any:
        return json.loads(self.text) if self.text else None

    def header(self, name: str) -> str | None:
        for key, value in self.headers.items():
            if key.lower() == name.lower():
                return value
        return None


def _pattern(resource: str) -> re.Pattern[str]:
    return re.compile("^" + re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", resource) + "$")


def _route(method: str, path: str) -> tuple[Route, re.Match[str]] | None:
    for route in ROUTES:
        match = _pattern(route[1]).match(path)
        if match and route[0] == method:
            return route, match
    return None


@dataclass
class Gateway:
    modules: dict[str, ModuleType] = field(default_factory=dict)
    calls: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.modules = {name: load_function(name) for name in MODULES}

    def gateway_problem(self, status: int, code: str, detail: str) -> Reply:
        body = {
            "type": "about:blank",
            "title": code,
            "status": status,
            "detail": detail,
            "code": code,
        }
        return Reply(status, {"Content-Type": "application/problem+json"}, json.dumps(body))

    def authorize(
        self, authorization: str | None, method: str, resource: str
    ) -> dict[str, Any] | None:
        event = sample("authorizer_token")
        event["authorizationToken"] = authorization
        event["methodArn"] = (
            f"arn:aws:execute-api:us-east-1:123456789012:abc123/Prod/{method}{resource}"
        )
        if authorization is None:
            return None  # API Gateway refuses without calling the authorizer
        try:
            policy = self.modules["authorizer"].handler(event, LambdaContext())
        except Exception as error:  # the authorizer's one way to say no
            assert str(error) == "Unauthorized"
            return None
        statement = policy["policyDocument"]["Statement"][0]
        assert statement["Effect"] == "Allow"
        assert statement["Resource"] == "arn:aws:execute-api:us-east-1:123456789012:abc123/Prod/*/*"
        return {"principalId": policy["principalId"], **policy["context"], "integrationLatency": 3}

    def request(
        self,
        method: str,
        url: str,
        body: Any = None,
        *,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        raw: str | None = None,
    ) -> Reply:
        parts = urlsplit(url)
        found = _route(method, parts.path)
        if found is None:
            return self.gateway_problem(404, "not_found", "no such route")
        (_, resource, module, sample_name, public), match = found
        event = copy.deepcopy(sample(sample_name))
        event["path"] = parts.path
        event["pathParameters"] = match.groupdict() or None
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        event["queryStringParameters"] = query or None
        event["multiValueQueryStringParameters"] = {k: [v] for k, v in query.items()} or None
        all_headers = {"Accept": "application/json"}
        if raw is not None or body is not None:
            all_headers["Content-Type"] = "application/json"
        if token is not None:
            all_headers["Authorization"] = f"Bearer {token}"
        all_headers.update(headers or {})
        event["headers"] = all_headers
        event["multiValueHeaders"] = {k: [v] for k, v in all_headers.items()}
        event["body"] = raw if raw is not None else (None if body is None else json.dumps(body))
        event["requestContext"]["requestId"] = str(uuid.uuid4())
        event["requestContext"].pop("authorizer", None)
        if not public:
            authorizer = self.authorize(all_headers.get("Authorization"), method, resource)
            if authorizer is None:
                return self.gateway_problem(401, "unauthorized", "no valid token")
            event["requestContext"]["authorizer"] = authorizer
        self.calls.append((method, resource))
        response = self.modules[module].handler(copy.deepcopy(event), LambdaContext())
        headers_out = dict(response.get("headers") or {})
        for key, values in (response.get("multiValueHeaders") or {}).items():
            headers_out.setdefault(key, ",".join(values))
        return Reply(response["statusCode"], headers_out, response.get("body") or "", event)
