"""The whole local stack described by one template: its data, functions, gateway(s).

This is where SAM's conventions for functions are read: Globals and
`AWS::Serverless::Function`; local_stack.apis reads the APIs in front of them.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from local_stack.apis import api_id_for, gateway_for, gateways
from local_stack.data_dir import LocalData
from local_stack.events import HttpRequest, HttpResponse
from local_stack.gateway import Gateway
from local_stack.live_api import ManagementApi, WebSocketApi, websocket_apis
from local_stack.live_api import declare as declare_websocket_apis
from local_stack.queues import Queues
from local_stack.runtime import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MEMORY_MB,
    DEFAULT_TIMEOUT_S,
    LambdaFunction,
    new_stack_id,
)
from local_stack.streams import StreamMapping, stream_mappings
from local_stack.template import (
    ACCOUNT_ID,
    IMPLICIT_API,
    REGION,
    Physical,
    Template,
    logical_target,
)
from local_stack.worker import EnvironmentSetup, StackCall

log = logging.getLogger("local_stack")


class LocalStack:
    """Reads a template, provisions DynamoDB Local, and answers HTTP requests to its APIs."""

    def __init__(
        self,
        template_path: Path,
        data_dir: Path,
        *,
        throttling: bool = True,
        parameters: dict[str, str] | None = None,
        concurrency: int | None = None,
    ) -> None:
        """throttling=False ignores MethodSettings' limits (benchmarks measure the stack);
        parameters override the template's Parameter defaults; concurrency, when given,
        is every function's cap of execution environments (else its
        ReservedConcurrentExecutions, else 10)."""
        self.id = new_stack_id()  # on its execution environments' command lines
        self.template_path = template_path
        self.throttling = throttling
        self.concurrency = concurrency
        self.template = Template.from_file(template_path, parameters)
        self.data = LocalData(self.template, data_dir)
        self.functions: dict[str, LambdaFunction] = {}
        self.gateways: list[Gateway] = []
        self.queues = Queues(self.template, self.data.credentials)
        self.management = ManagementApi(self.data.credentials)
        self.websocket_apis: list[WebSocketApi] = []
        self.stream_mappings: list[StreamMapping] = []
        self._setups: list[EnvironmentSetup] = []
        self._stack_calls: dict[str, Callable[..., Any]] = {}

    # -- lifecycle -------------------------------------------------------------------

    def start(self) -> None:
        self._register_static_physical()
        self.data.start()
        try:
            self.queues.start()
            self.management.start()
            self._build_functions()
            self.gateways = gateways(
                self.template, self.functions, self.invoke, throttling=self.throttling
            )
            self.websocket_apis = self.management.apis = websocket_apis(
                self.template, self.functions
            )
            self._point_at_local("https", self.management.url)
            self.queues.start_mappings(self.functions)
            self.stream_mappings = stream_mappings(self.template, self.functions, self.data.client)
            for mapping in self.stream_mappings:
                mapping.thread.start()
        except Exception:
            self._stop_services()
            raise

    def serve_at(self, url: str) -> None:
        """The server's address (`http://host:port`): the functions' WebSocket URLs are its."""
        self._point_at_local("wss", url.replace("http://", "ws://", 1))

    def stop(self) -> None:
        """The event source mappings stop, the functions' execution environments end, then
        the stack's services and DynamoDB Local."""
        for mapping in self.stream_mappings:
            mapping.stopped.set()
        for mapping in self.stream_mappings:
            mapping.thread.join(timeout=10)
        self.queues.stop_mappings()
        for function in self.functions.values():
            function.stop()
        self._stop_services()

    def _stop_services(self) -> None:
        self.queues.stop()
        self.management.stop()
        self.data.stop()

    def add_environment_setup(self, setup: EnvironmentSetup) -> Callable[[], None]:
        """Have every execution environment run setup in itself: each one started so far
        before its next invocation, each one started later after its INIT (tests fix the
        shoes' seeds so). Returns what removes it for environments started afterwards."""
        self._setups.append(setup)
        for function in self.functions.values():
            function.add_setup(setup)

        def remove() -> None:
            self._setups.remove(setup)
            for function in self.functions.values():
                function.setups.remove(setup)

        return remove

    def stack_call(self, function: Callable[..., Any]) -> StackCall:
        """function as the execution environments can call it (an argument of a setup):
        they ask over their pipe, it runs in this process, its result goes back."""
        call = StackCall(uuid.uuid4().hex)
        self._stack_calls[call.key] = function
        return call

    def handle(self, request: HttpRequest) -> HttpResponse | None:
        """The API's answer, or None when no API route is near (a static file maybe)."""
        gateway = gateway_for(self.gateways, request)
        return None if gateway is None else gateway.handle(request)

    def gateway_answer(self, request: HttpRequest) -> HttpResponse:
        """API Gateway's answer for a path no route has (missing authentication token)."""
        if not self.gateways:
            return HttpResponse(
                404, [("Content-Type", "application/json")], b'{"message":"Not Found"}'
            )
        return self.gateways[0].handle(request)

    # -- functions -------------------------------------------------------------------

    def _register_static_physical(self) -> None:
        """Physical names of what its data does not provision (functions, layers, APIs)."""
        for logical_id, resource in self.template.resources.items():
            kind = resource.get("Type")
            props = resource.get("Properties") or {}
            if kind in ("AWS::Serverless::Function", "AWS::Lambda::Function"):
                name = props.get("FunctionName")
                name = name if isinstance(name, str) else logical_id
                arn = f"arn:aws:lambda:{REGION}:{ACCOUNT_ID}:function:{name}"
                self.template.physical[logical_id] = Physical(name, {"Arn": arn})
            elif kind in ("AWS::Serverless::LayerVersion", "AWS::Lambda::LayerVersion"):
                arn = f"arn:aws:lambda:{REGION}:{ACCOUNT_ID}:layer:{logical_id}:1"
                self.template.physical[logical_id] = Physical(arn, {"Arn": arn})
            elif kind in ("AWS::Serverless::Api", "AWS::ApiGateway::RestApi"):
                api_id = api_id_for(logical_id)
                self.template.physical[logical_id] = Physical(api_id, {"RootResourceId": "root"})
        self.template.physical.setdefault(
            IMPLICIT_API, Physical(api_id_for(IMPLICIT_API), {"RootResourceId": "root"})
        )
        declare_websocket_apis(self.template)
        self.queues.declare()

    def _layer_dirs(self, layers: list[Any]) -> list[Path]:
        dirs: list[Path] = []
        for layer in layers:
            target = logical_target(layer)
            resource = self.template.resources.get(target or "")
            if resource is None:
                log.warning("layer %r is not in the template; its code is not on sys.path", layer)
                continue
            props = resource.get("Properties") or {}
            content = props.get("ContentUri") or props.get("Content")
            if not isinstance(content, str):
                log.warning("layer %s has no local ContentUri", target)
                continue
            base = (self.template.directory / content).resolve()
            # a layer built by hand has its packages under python/; SAM's build puts them there
            dirs.extend(p for p in (base / "python", base) if p.is_dir())
        return dirs

    def _build_functions(self) -> None:
        for logical_id in self.template.of_type("AWS::Serverless::Function"):
            props = self.template.properties(logical_id, "Function")
            code_dir, handler = self.template.function_code(logical_id)
            variables = self.template.resolve(
                (props.get("Environment") or {}).get("Variables") or {}
            )
            name = self.template.physical[logical_id].ref
            self.functions[logical_id] = LambdaFunction(
                logical_id=logical_id,
                name=name,
                code_dir=code_dir,
                handler=handler,
                layer_dirs=self._layer_dirs(list(props.get("Layers") or [])),
                environment={str(k): _env_value(v) for k, v in variables.items()},
                timeout_s=int(self.template.resolve(props.get("Timeout", DEFAULT_TIMEOUT_S))),
                memory_mb=int(self.template.resolve(props.get("MemorySize", DEFAULT_MEMORY_MB))),
                concurrency=self.concurrency
                or int(
                    self.template.resolve(
                        props.get("ReservedConcurrentExecutions", DEFAULT_CONCURRENCY)
                    )
                ),
                setups=list(self._setups),
                stack_calls=self._stack_calls,
                aws_environment={
                    **self.data.environment(),
                    "AWS_ENDPOINT_URL_SQS": self.queues.url,
                },
                stack_id=self.id,
            )

    def _point_at_local(self, scheme: str, local: str) -> None:
        """Each function variable that holds a WebSocket API's deployed address (`wss://`
        to connect, `https://` to manage its connections) holds the local one instead."""
        for function in self.functions.values():
            for name, value in function.environment.items():
                for api in self.websocket_apis:
                    if value == api.deployed_url(scheme):
                        function.environment[name] = local + api.path

    def invoke(self, function: LambdaFunction, event: dict[str, Any], request_id: str) -> Any:
        return function.invoke(event, request_id)


def _env_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
