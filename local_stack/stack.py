"""The whole local stack described by one template: store, functions, gateway(s).

This is where SAM's conventions are read: Globals, `AWS::Serverless::Function`
with `Events` of `Type: Api`, the Api's `Auth`, `GatewayResponses` and
`MethodSettings`, and the implicit `ServerlessRestApi` of events without a RestApiId.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from local_stack.events import ApiContext, HttpRequest, HttpResponse
from local_stack.gateway import (
    Authorizer,
    Cors,
    Gateway,
    GatewayResponse,
    Route,
    Throttle,
    parse_gateway_responses,
)
from local_stack.runtime import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MEMORY_MB,
    DEFAULT_TIMEOUT_S,
    EnvironmentSetup,
    LambdaFunction,
)
from local_stack.store import LocalData
from local_stack.template import (
    ACCOUNT_ID,
    IMPLICIT_API,
    REGION,
    Physical,
    Template,
    TemplateError,
    logical_target,
)

log = logging.getLogger("local_stack")


def api_id_for(logical_id: str) -> str:
    """A stable 10-character id like API Gateway's, so method ARNs stay the same."""
    letters = re.sub(r"[^a-z0-9]", "", logical_id.lower())
    return (letters + "0000000000")[:10]


@dataclass
class ApiSpec:
    logical_id: str
    properties: dict[str, Any]
    routes: list[Route]


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
        self.template_path = template_path
        self.throttling = throttling
        self.concurrency = concurrency
        self.template = Template.from_file(template_path, parameters)
        self.store = LocalData(self.template, data_dir)
        self.functions: dict[str, LambdaFunction] = {}
        self.gateways: list[Gateway] = []
        self._setups: list[EnvironmentSetup] = []

    # -- lifecycle -------------------------------------------------------------------

    def start(self) -> None:
        self._register_static_physical()
        self.store.start()
        try:
            self._build_functions()
            self.gateways = [self._build_gateway(spec) for spec in self._api_specs()]
        except Exception:
            self.store.stop()
            raise

    def stop(self) -> None:
        self.store.stop()

    def add_environment_setup(self, setup: EnvironmentSetup) -> Callable[[], None]:
        """Run setup in every execution environment started so far and in each one
        started later, once its handler is imported (tests fix the shoes' seeds so).
        Returns what removes it for environments started afterwards."""
        self._setups.append(setup)
        for function in self.functions.values():
            for environment in function.environments():
                setup(environment)
        return lambda: self._setups.remove(setup)

    def handle(self, request: HttpRequest) -> HttpResponse | None:
        """The API's answer, or None when no API route is near (a static file maybe)."""
        for gateway in self.gateways:
            if gateway.routes.match(request.method, request.raw_path) or (
                request.method == "OPTIONS" and gateway.routes.resource_for(request.raw_path)
            ):
                return gateway.handle(request)
        return None

    def gateway_answer(self, request: HttpRequest) -> HttpResponse:
        """API Gateway's answer for a path no route has (missing authentication token)."""
        if not self.gateways:
            return HttpResponse(
                404, [("Content-Type", "application/json")], b'{"message":"Not Found"}'
            )
        return self.gateways[0].handle(request)

    # -- functions -------------------------------------------------------------------

    def _register_static_physical(self) -> None:
        """Physical names of what the store does not provision (functions, layers, APIs)."""
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
                setups=self._setups,
                aws_environment=self.store.environment(),
            )

    def _function_by_arn(self, value: Any) -> LambdaFunction:
        target = logical_target(value)
        if target in self.functions:
            return self.functions[target]
        resolved = self.template.resolve(value)
        for function in self.functions.values():
            if resolved in (function.arn, function.name):
                return function
        raise TemplateError(f"authorizer function {value!r} is not a function of the template")

    def invoke(self, function: LambdaFunction, event: dict[str, Any], request_id: str) -> Any:
        return function.invoke(event, request_id)

    # -- APIs ------------------------------------------------------------------------

    def _api_specs(self) -> list[ApiSpec]:
        apis = self.template.of_type("AWS::Serverless::Api")
        specs = {name: ApiSpec(name, self._api_properties(name), []) for name in apis}
        for route in self.template.api_routes():
            if route.api not in specs:
                if route.api != IMPLICIT_API:
                    raise TemplateError(
                        f"{route.function}.{route.operation}: unknown RestApiId {route.api}"
                    )
                specs[route.api] = ApiSpec(route.api, self._api_properties(None), [])
            spec = specs[route.api]
            spec.routes.append(
                Route(
                    resource=route.path,
                    method=route.method,
                    function=self.functions[route.function],
                    authorizer=self._route_authorizer(spec, route.authorizer),
                )
            )
        return list(specs.values())

    def _api_properties(self, logical_id: str | None) -> dict[str, Any]:
        """The Api properties the local gateway uses, resolved (others may not resolve)."""
        if logical_id is None:
            props = self.template.globals_for("Api")
        else:
            props = self.template.properties(logical_id, "Api")
        used = (
            "StageName",
            "Auth",
            "GatewayResponses",
            "MethodSettings",
            "BinaryMediaTypes",
            "Cors",
        )
        return {key: self.template.resolve(props[key]) for key in used if key in props}

    def _route_authorizer(self, spec: ApiSpec, name: str | None) -> Authorizer | None:
        if name is None:
            return None
        if name == "AWS_IAM":
            log.warning("AWS_IAM authorization is not checked locally")
            return None
        auth = spec.properties.get("Auth") or {}
        config = (auth.get("Authorizers") or {}).get(name)
        if config is None:
            raise TemplateError(f"{spec.logical_id}: unknown authorizer {name}")
        if str(config.get("FunctionPayloadType", "TOKEN")) != "TOKEN":
            raise TemplateError(f"{spec.logical_id}.{name}: only TOKEN authorizers run locally")
        identity = config.get("Identity") or {}
        expression = identity.get("ValidationExpression")
        return Authorizer(
            name=str(name),
            function=self._function_by_arn(config.get("FunctionArn")),
            identity_header=str(identity.get("Header", "Authorization")),
            validation_expression=re.compile(str(expression)) if expression else None,
            ttl_s=int(identity.get("ReauthorizeEvery", 0)),
        )

    def _build_gateway(self, spec: ApiSpec) -> Gateway:
        stage = str(spec.properties.get("StageName", "Prod"))
        api = ApiContext(api_id=api_id_for(spec.logical_id), stage=stage)
        responses: dict[str, GatewayResponse] = parse_gateway_responses(
            spec.properties.get("GatewayResponses") or {}
        )
        return Gateway(
            api=api,
            routes=spec.routes,
            responses=responses,
            throttle=Throttle(
                list(spec.properties.get("MethodSettings") or []) if self.throttling else []
            ),
            invoke=self.invoke,
            binary_media_types=[str(t) for t in spec.properties.get("BinaryMediaTypes") or []],
            cors=Cors.parse(spec.properties.get("Cors")),
        )


def _env_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
