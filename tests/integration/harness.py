"""The API as template.yaml describes it, for the in-process tests: the local stack's
gateway (local_stack.in_process) in front of the function handlers imported into this
process, where moto's `mock_aws` answers their AWS calls; and the sample events of
`events/` the tests send the handlers themselves."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any, NamedTuple

from local_stack import in_process, worker
from local_stack.in_process import InProcessApi
from local_stack.in_process import Reply as Reply  # what Gateway.request answers
from local_stack.template import Template

ROOT = Path(__file__).resolve().parents[2]
EVENTS = ROOT / "events"
TEMPLATE = Template.from_file(ROOT / "template.yaml")
CODE_DIRS = TEMPLATE.handler_modules()  # each function's module and its folder
MODULES = sorted(CODE_DIRS)


class SampledRoute(NamedTuple):
    """A route of the template and the sample event of it the tests send."""

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


def _routes() -> list[SampledRoute]:
    samples = _samples()
    routes = []
    for route in TEMPLATE.api_routes():
        _, handler = TEMPLATE.function_code(route.function)
        sample = samples.get((route.method, route.path))
        assert sample, f"events/ has no sample event of {route.method} {route.path}"
        routes.append(
            SampledRoute(
                route.method,
                route.path,
                handler.partition(".")[0],
                sample,
                route.authorizer is None,
            )
        )
    return routes


ROUTES = _routes()  # template.yaml's
# The modules of the functions behind the REST API (not the authorizer, nor those fed by a
# WebSocket API, a stream or a queue).
API_MODULES = sorted({route.module for route in ROUTES})


def sample(name: str) -> dict[str, Any]:
    return dict(json.loads((EVENTS / f"{name}.json").read_text()))


class LambdaContext(worker.LambdaContext):
    """The context of a handler a test calls itself (conftest's AWS_LAMBDA_FUNCTION_NAME)."""

    def __init__(self) -> None:
        arn = "arn:aws:lambda:us-east-1:123456789012:function:blackjack-test"
        super().__init__(
            "blackjack-test",
            arn,
            str(uuid.uuid4()),
            in_process.CONTEXT_MEMORY_MB,
            in_process.CONTEXT_TIMEOUT_S,
        )


class Gateway(InProcessApi):
    """template.yaml's API, unthrottled: the tests send bursts MethodSettings would cut."""

    def __init__(self) -> None:
        super().__init__(TEMPLATE, throttling=False)
