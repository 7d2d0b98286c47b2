"""The template's APIs (local_stack.apis) with their functions' handlers imported into this
very process and called in the caller's thread, for the tests and benchmarks: moto's
`mock_aws` patches this process's botocore, and tests patch the service's objects in place.
"""

from __future__ import annotations

import copy
import importlib
import json
import sys
import threading
from dataclasses import dataclass
from types import ModuleType
from typing import Any
from urllib.parse import urlsplit

from local_stack.apis import gateway_for, gateways
from local_stack.events import HttpRequest, HttpResponse
from local_stack.template import ACCOUNT_ID, REGION, Template
from local_stack.worker import LambdaContext


@dataclass(frozen=True)
class InProcessFunction:
    """A function of the template, named by its logical id, its handler in this process."""

    logical_id: str
    module: ModuleType
    attribute: str  # the handler's name in its module

    @property
    def name(self) -> str:
        return self.logical_id

    @property
    def arn(self) -> str:
        return f"arn:aws:lambda:{REGION}:{ACCOUNT_ID}:function:{self.name}"


# A handler's context here: its memory and time are figures only, nothing in process
# enforces them.
CONTEXT_MEMORY_MB = 256
CONTEXT_TIMEOUT_S = 30


@dataclass
class Reply:
    """An HTTP answer as a client reads it, with the proxy event the function got (None
    when API Gateway answered itself)."""

    status: int
    headers: dict[str, str]  # a header sent more than once: its values joined by commas
    text: str
    event: dict[str, Any] | None = None

    @property
    def body(self) -> Any:
        return json.loads(self.text) if self.text else None

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers.items() if k.lower() == name.lower()), None)


class InProcessApi:
    """The template's APIs in front of its functions, all in this process."""

    def __init__(self, template: Template, *, throttling: bool) -> None:
        """throttling=False ignores MethodSettings' limits, as the local stack can."""
        self._events: dict[str, dict[str, Any]] = {}  # the proxy events, by request id
        functions = {
            logical_id: _in_process_function(template, logical_id)
            for logical_id in template.of_type("AWS::Serverless::Function")
        }
        self.modules = {f.module.__name__: f.module for f in functions.values()}
        # One invocation at a time per function, as an execution environment serves: a
        # handler's resolver keeps the request in its app (Powertools' `app.context`).
        self._serving = {logical_id: threading.Lock() for logical_id in functions}
        self.gateways = gateways(template, functions, self._invoke, throttling=throttling)

    def handle(self, request: HttpRequest) -> HttpResponse:
        """API Gateway's answer: a route's, or its own for a path no route has."""
        gateway = gateway_for(self.gateways, request) or self.gateways[0]
        return gateway.handle(request)

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
        """A request as the web client sends it: `body` as JSON (or `raw`, sent as it is),
        `token` as a bearer token, `headers` over those."""
        sent = {"Accept": "application/json"}
        if raw is not None or body is not None:
            sent["Content-Type"] = "application/json"
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        sent.update(headers or {})
        text = raw if raw is not None else (None if body is None else json.dumps(body))
        parts = urlsplit(url)
        request = HttpRequest(
            method=method,
            raw_path=parts.path,
            query=parts.query,
            headers=list(sent.items()),
            body=(text or "").encode(),
        )
        response = self.handle(request)
        received: dict[str, str] = {}
        for key, value in response.headers:
            received[key] = f"{received[key]},{value}" if key in received else value
        event = self._events.pop(request.request_id, None)
        return Reply(response.status, received, response.body.decode(), event)

    def _invoke(self, function: InProcessFunction, event: dict[str, Any], request_id: str) -> Any:
        if "httpMethod" in event:  # a proxy event (the authorizer's TOKEN event has none)
            self._events[request_id] = copy.deepcopy(event)
        # looked up at each call: a benchmark times the handler by wrapping it
        handler = getattr(function.module, function.attribute)
        context = LambdaContext(
            function.name, function.arn, request_id, CONTEXT_MEMORY_MB, CONTEXT_TIMEOUT_S
        )
        with self._serving[function.logical_id]:
            return handler(event, context)


def _in_process_function(template: Template, logical_id: str) -> InProcessFunction:
    """A function, its module imported as Lambda's runtime imports it: its CodeUri on
    sys.path. In one process the functions share sys.modules, so their handler modules
    must be named apart (the template's are)."""
    code_dir, handler = template.function_code(logical_id)
    module, _, attribute = handler.rpartition(".")
    if str(code_dir) not in sys.path:
        sys.path.insert(0, str(code_dir))
    return InProcessFunction(logical_id, importlib.import_module(module), attribute)
