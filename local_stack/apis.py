"""The gateways a template describes: one per REST API, in front of the template's functions.

This is where SAM's conventions for APIs are read (the README lists what is served). Who
runs the functions is the caller's: the stack's execution environments, or this process.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Generic

from local_stack.events import ApiContext, HttpRequest
from local_stack.gateway import Gateway
from local_stack.gateway.authorizer import Authorizer
from local_stack.gateway.cors import Cors
from local_stack.gateway.integration import F, Invoker
from local_stack.gateway.responses import parse_gateway_responses
from local_stack.gateway.routes import Route
from local_stack.gateway.throttling import Throttle
from local_stack.gateway.waf import WebAcl
from local_stack.template import IMPLICIT_API, Physical, Template, TemplateError, logical_target

log = logging.getLogger("local_stack")


def api_id_for(logical_id: str) -> str:
    """A stable 10-character id like API Gateway's, so method ARNs stay the same."""
    letters = re.sub(r"[^a-z0-9]", "", logical_id.lower())
    return (letters + "0000000000")[:10]


def gateways(
    template: Template,
    functions: Mapping[str, F],
    invoke: Invoker[F],
    *,
    throttling: bool,
) -> list[Gateway[F]]:
    """The template's APIs, their routes sending to `functions` (by logical id) through
    `invoke`; throttling=False ignores MethodSettings' limits and the web ACLs."""
    for logical_id, function in functions.items():
        # what `!GetAtt AuthorizerFunction.Arn` in an Api's Auth resolves to
        template.physical.setdefault(logical_id, Physical(function.name, {"Arn": function.arn}))
    specs = _api_specs(template, functions)
    return [_gateway(template, spec, invoke, throttling=throttling) for spec in specs]


def gateway_for(gateways: list[Gateway[F]], request: HttpRequest) -> Gateway[F] | None:
    """The gateway with a route for the request, or None (a static file maybe)."""
    for gateway in gateways:
        if gateway.routes.match(request.method, request.raw_path) or (
            request.method == "OPTIONS" and gateway.routes.resource_for(request.raw_path)
        ):
            return gateway
    return None


def _web_acl(template: Template, api: str) -> WebAcl | None:
    """The web ACL an `AWS::WAFv2::WebACLAssociation` puts in front of the API's stage
    (its ResourceArn names the API), its rules as the template writes them."""
    for association in template.of_type("AWS::WAFv2::WebACLAssociation").values():
        properties = association.get("Properties") or {}
        if logical_target(properties.get("ResourceArn")) != api:
            continue
        acl = logical_target(properties.get("WebACLArn"))
        if acl not in template.of_type("AWS::WAFv2::WebACL"):
            raise TemplateError(f"WebACLArn {properties.get('WebACLArn')!r}: no such web ACL")
        acl_properties = template.properties(acl)
        return WebAcl(
            {
                key: template.resolve(acl_properties[key])
                for key in ("Rules", "CustomResponseBodies")
                if key in acl_properties
            }
        )
    return None


@dataclass
class ApiSpec(Generic[F]):
    logical_id: str
    properties: dict[str, Any]
    routes: list[Route[F]]


def _api_specs(template: Template, functions: Mapping[str, F]) -> list[ApiSpec[F]]:
    apis = template.of_type("AWS::Serverless::Api")
    specs: dict[str, ApiSpec[F]] = {
        name: ApiSpec(name, _api_properties(template, name), []) for name in apis
    }
    for route in template.api_routes():
        if route.api not in specs:
            if route.api != IMPLICIT_API:
                raise TemplateError(
                    f"{route.function}.{route.operation}: unknown RestApiId {route.api}"
                )
            specs[route.api] = ApiSpec(route.api, _api_properties(template, None), [])
        spec = specs[route.api]
        spec.routes.append(
            Route(
                resource=route.path,
                method=route.method,
                function=functions[route.function],
                authorizer=_route_authorizer(functions, spec, route.authorizer),
            )
        )
    return list(specs.values())


def _api_properties(template: Template, logical_id: str | None) -> dict[str, Any]:
    """The Api properties the local gateway uses, resolved (others may not resolve)."""
    if logical_id is None:
        props = template.globals_for("Api")
    else:
        props = template.properties(logical_id, "Api")
    used = (
        "StageName",
        "Auth",
        "GatewayResponses",
        "MethodSettings",
        "BinaryMediaTypes",
        "Cors",
    )
    return {key: template.resolve(props[key]) for key in used if key in props}


def _route_authorizer(
    functions: Mapping[str, F], spec: ApiSpec[F], name: str | None
) -> Authorizer[F] | None:
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
        function=_function_by_arn(functions, config.get("FunctionArn")),
        identity_header=str(identity.get("Header", "Authorization")),
        validation_expression=re.compile(str(expression)) if expression else None,
        ttl_s=int(identity.get("ReauthorizeEvery", 0)),
    )


def _function_by_arn(functions: Mapping[str, F], value: Any) -> F:
    """The function an authorizer's (resolved) FunctionArn names."""
    for function in functions.values():
        if value in (function.arn, function.name):
            return function
    raise TemplateError(f"authorizer function {value!r} is not a function of the template")


def _gateway(
    template: Template, spec: ApiSpec[F], invoke: Invoker[F], *, throttling: bool
) -> Gateway[F]:
    stage = str(spec.properties.get("StageName", "Prod"))
    return Gateway(
        api=ApiContext(api_id=api_id_for(spec.logical_id), stage=stage),
        routes=spec.routes,
        responses=parse_gateway_responses(spec.properties.get("GatewayResponses") or {}),
        throttle=Throttle(list(spec.properties.get("MethodSettings") or []) if throttling else []),
        invoke=invoke,
        binary_media_types=[str(t) for t in spec.properties.get("BinaryMediaTypes") or []],
        cors=Cors.parse(spec.properties.get("Cors")),
        web_acl=_web_acl(template, spec.logical_id) if throttling else None,
    )
