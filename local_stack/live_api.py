"""The template's API Gateway WebSocket APIs (`AWS::ApiGatewayV2::Api`, `ProtocolType:
WEBSOCKET`) and their `@connections` management API.

A WebSocket API is served on the stack's port at `/<api id>/<stage>` (`ws://`, where
deployed it is `wss://<api id>.execute-api.<region>.amazonaws.com/<stage>`). Its
`$connect` function runs before the handshake is accepted, with API Gateway's event: an
answer other than 2xx (or a failure) refuses the upgrade with that status. `$disconnect`
runs once the connection has ended, whoever ended it. A message a client sends is
dropped: `$default` and custom routes are not served. The management API (`POST`, `GET`
and `DELETE /<api id>/<stage>/@connections/<id>`) answers on a loopback port of its
own, to requests signed with the stack's credentials (service `execute-api`), as the
secrets endpoint does; a connection that is gone is 410 `GoneException`.
"""

from __future__ import annotations

import base64
import json
import logging
import re
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from local_stack.apis import api_id_for
from local_stack.events import HttpResponse, request_time
from local_stack.runtime import LambdaFunction
from local_stack.sigv4 import Credentials, Refusal, SignedServer
from local_stack.template import REGION, Physical, Template, logical_target
from local_stack.websocket import WebSocket
from local_stack.wire import Request

log = logging.getLogger("local_stack")

IDLE_S = 600  # API Gateway closes a WebSocket connection idle for 10 minutes
_CONNECTIONS = re.compile(r"^/(?P<api>[^/]+)/(?P<stage>[^/]+)/@connections/(?P<id>[^/?]+)$")
GONE = Refusal("GoneException", "The connection is gone", status=410)


@dataclass
class Connection:
    socket: WebSocket
    source_ip: str
    user_agent: str
    connected_at: float = field(default_factory=time.time)


@dataclass
class WebSocketApi:
    """One WebSocket API of the template: its stage, its route functions, its connections."""

    api_id: str
    stage: str
    routes: dict[str, LambdaFunction]  # by route key: $connect, $disconnect
    connections: dict[str, Connection] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def path(self) -> str:
        return f"/{self.api_id}/{self.stage}"

    def deployed_url(self, scheme: str) -> str:
        return f"{scheme}://{self.api_id}.execute-api.{REGION}.amazonaws.com/{self.stage}"

    def open(self, request: Request) -> Callable[[Request, WebSocket], None] | HttpResponse:
        """Run `$connect` for the request: the connection's handler, or the refusal."""
        connection_id = base64.b64encode(secrets.token_bytes(11)).decode()  # as API Gateway's
        connected_ms = int(time.time() * 1000)
        event = self._event(request, connection_id, "CONNECT", connected_ms)
        event["queryStringParameters"] = dict(parse_qsl(urlsplit(request.target).query)) or None
        status = self._run("$connect", event)
        if not 200 <= status < 300:
            return HttpResponse(status, [("Content-Type", "application/json")], b"")

        def serve(request: Request, socket: WebSocket) -> None:
            user_agent = next((v for k, v in request.headers if k.lower() == "user-agent"), "")
            with self.lock:
                self.connections[connection_id] = Connection(socket, request.peer[0], user_agent)
            try:
                while socket.receive() is not None:
                    pass  # no route takes a client's message
            finally:
                with self.lock:
                    self.connections.pop(connection_id, None)
                gone = self._event(request, connection_id, "DISCONNECT", connected_ms)
                self._run("$disconnect", gone)

        return serve

    def manage(self, method: str, connection_id: str, data: bytes) -> HttpResponse:
        """The management API's answer about one connection."""
        with self.lock:
            connection = self.connections.get(connection_id)
        gone = HttpResponse(GONE.status, [("Content-Type", "application/json")], GONE.body())
        if connection is None:
            return gone
        if method == "POST":
            try:
                connection.socket.send(data.decode(errors="replace"))
            except OSError:  # the client vanished without a close: its handler ends soon
                return gone
            return HttpResponse(200, [], b"")
        if method == "DELETE":
            connection.socket.close()
            return HttpResponse(204, [], b"")
        document = {
            "connectedAt": _iso(connection.connected_at),
            "lastActiveAt": _iso(time.time()),
            "identity": {"sourceIp": connection.source_ip, "userAgent": connection.user_agent},
        }
        return HttpResponse(
            200, [("Content-Type", "application/json")], json.dumps(document).encode()
        )

    def _run(self, route: str, event: dict[str, Any]) -> int:
        """The route function's status code (502 where it failed, 200 where there is none)."""
        function = self.routes.get(route)
        if function is None:
            return 200
        try:
            result = function.invoke(event)
        except Exception as error:  # a failure, a timeout, a throttle: API Gateway's 502
            log.warning("%s %s of %s failed: %s", self.api_id, route, function.name, error)
            return 502
        status = result.get("statusCode", 200) if isinstance(result, Mapping) else 200
        return int(status)

    def _event(
        self, request: Request, connection_id: str, event_type: str, connected_ms: int
    ) -> dict[str, Any]:
        """API Gateway's event for `$connect` or `$disconnect` (payload of a WebSocket API)."""
        headers: dict[str, str] = {}
        multi: dict[str, list[str]] = {}
        for name, value in request.headers:
            headers[name] = value
            multi.setdefault(name, []).append(value)
        now_ms = int(time.time() * 1000)
        request_id = base64.b64encode(secrets.token_bytes(6)).decode()
        context: dict[str, Any] = {
            "routeKey": "$connect" if event_type == "CONNECT" else "$disconnect",
            "eventType": event_type,
            "extendedRequestId": request_id,
            "requestTime": request_time(now_ms),
            "messageDirection": "IN",
            "stage": self.stage,
            "connectedAt": connected_ms,
            "requestTimeEpoch": now_ms,
            "identity": {"sourceIp": request.peer[0], "userAgent": headers.get("User-Agent")},
            "requestId": request_id,
            "domainName": f"{self.api_id}.execute-api.{REGION}.amazonaws.com",
            "connectionId": connection_id,
            "apiId": self.api_id,
        }
        if event_type == "DISCONNECT":
            context |= {"disconnectStatusCode": 1000, "disconnectReason": ""}
        return {
            "headers": headers,
            "multiValueHeaders": multi,
            "requestContext": context,
            "isBase64Encoded": False,
        }


def _iso(epoch_s: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(epoch_s))


def declare(template: Template) -> None:
    """The WebSocket APIs' ids, for `!Ref` and `${Api}` in the template."""
    for logical_id in template.of_type("AWS::ApiGatewayV2::Api"):
        template.physical[logical_id] = Physical(api_id_for(logical_id))


def websocket_apis(
    template: Template, functions: Mapping[str, LambdaFunction]
) -> list[WebSocketApi]:
    """The template's WebSocket APIs, each route's function found through its integration."""
    apis: dict[str, WebSocketApi] = {}
    for logical_id, resource in template.of_type("AWS::ApiGatewayV2::Api").items():
        if (resource.get("Properties") or {}).get("ProtocolType") == "WEBSOCKET":
            apis[logical_id] = WebSocketApi(api_id_for(logical_id), "$default", {})
    for stage in template.of_type("AWS::ApiGatewayV2::Stage").values():
        properties = stage.get("Properties") or {}
        api = apis.get(logical_target(properties.get("ApiId")) or "")
        if api is not None:
            api.stage = str(template.resolve(properties["StageName"]))
    for route in template.of_type("AWS::ApiGatewayV2::Route").values():
        properties = route.get("Properties") or {}
        api = apis.get(logical_target(properties.get("ApiId")) or "")
        integration = template.resources.get(logical_target(properties.get("Target")) or "")
        if api is None or integration is None:
            continue
        uri = (integration.get("Properties") or {}).get("IntegrationUri")
        function = functions.get(logical_target(uri) or "")
        if function is None:
            log.warning("%s: its integration names no function of the template", properties)
            continue
        api.routes[str(properties["RouteKey"])] = function
    return list(apis.values())


class ManagementApi(SignedServer):
    """The `@connections` management API of every WebSocket API, on a loopback port."""

    service = "execute-api"
    content_type = "application/json"

    def __init__(self, credentials: Credentials) -> None:
        super().__init__(credentials, "connections")
        self.apis: list[WebSocketApi] = []

    def signed(self, request: Request) -> HttpResponse:
        match = _CONNECTIONS.fullmatch(urlsplit(request.target).path)
        api = next(
            (a for a in self.apis if match and (a.api_id, a.stage) == match.group("api", "stage")),
            None,
        )
        if match is None or api is None or request.method not in ("POST", "GET", "DELETE"):
            return self.aws_answer(Refusal("NotFoundException", "No such route", status=404))
        return api.manage(request.method, unquote(match["id"]), request.body)
