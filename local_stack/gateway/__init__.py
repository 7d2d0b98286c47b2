"""What API Gateway does in front of the functions, one module per phase, in the order a
request meets them: `waf`, `routes` (and `cors` for preflights), `throttling`, `authorizer`,
`integration`; `responses` are its own answers, wherever a phase ends the request.
`Gateway`, below, runs them for one REST API.
"""

from __future__ import annotations

from typing import Any, Generic

from local_stack.events import ApiContext, HttpRequest, HttpResponse
from local_stack.gateway.authorizer import Authorization, AuthorizerDenied
from local_stack.gateway.cors import Cors
from local_stack.gateway.integration import F, Invoker, ProxyIntegration
from local_stack.gateway.responses import GatewayResponse, GatewayResponses
from local_stack.gateway.routes import Route, RouteTable
from local_stack.gateway.throttling import Throttle
from local_stack.gateway.waf import WebAcl

# API Gateway's request payload quota: the server reads no body past it, and the gateway
# answers REQUEST_TOO_LARGE (Gateway.too_large).
MAX_PAYLOAD_BYTES = 10 * 1024 * 1024


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
        self.web_acl = web_acl
        self.routes = RouteTable(routes)
        self.cors = cors
        self.throttle = throttle
        self.authorization = Authorization(api, invoke)
        self.responses = GatewayResponses(responses, api)
        self.integration = ProxyIntegration(api, invoke, binary_media_types or [], self.responses)

    def handle(self, request: HttpRequest) -> HttpResponse:
        response = self._filtered(request) or self._handle(request)
        response.headers.append(("x-amzn-RequestId", request.request_id))
        return response

    def too_large(self, request: HttpRequest) -> HttpResponse:
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
                authorizer_context = self.authorization.authorize(route.authorizer, request)
            except AuthorizerDenied as denied:
                return self.responses.render(
                    denied.kind, request, message=denied.message, resource=route.resource
                )
        return self.integration.answer(
            request,
            route.function,
            resource=route.resource,
            path_parameters=params,
            authorizer=authorizer_context,
        )
