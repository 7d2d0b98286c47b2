"""HTTP in front of the local stack: API routes go to the gateway, other GETs to web/.

Each request runs in its connection's thread (local_stack.httpd). Every answer the server
makes itself (a request it will not run, a file it does not have) is a problem document as
the API's, and no header names the server's software.
"""

from __future__ import annotations

import json
import mimetypes
import threading
import time
import uuid
from dataclasses import dataclass
from email.utils import formatdate
from fnmatch import fnmatchcase
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from local_stack import live_api, websocket
from local_stack.events import HttpRequest, HttpResponse
from local_stack.gateway import MAX_PAYLOAD_BYTES
from local_stack.httpd import Server
from local_stack.stack import LocalStack
from local_stack.template import Template
from local_stack.wire import Request

# Types some platforms' mime tables get wrong or lack.
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".woff2": "font/woff2",
    ".txt": "text/plain; charset=utf-8",
}


# The codes of the statuses the server answers itself (a request it will not run is 400).
_PROBLEM_CODES = {
    404: "not_found",
    408: "request_timeout",
    413: "payload_too_large",
    500: "internal_error",
    503: "unavailable",
}
# CloudFront's security headers as SecurityHeadersConfig names them, for web/'s files.
_SECURITY_HEADERS = {
    "ContentSecurityPolicy": ("Content-Security-Policy", "ContentSecurityPolicy"),
    "ContentTypeOptions": ("X-Content-Type-Options", None),
    "ReferrerPolicy": ("Referrer-Policy", "ReferrerPolicy"),
    "FrameOptions": ("X-Frame-Options", "FrameOption"),
}


def problem(status: int, detail: str) -> HttpResponse:
    """A problem document of API.md for an answer the server makes itself."""
    document = {
        "type": "about:blank",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": _PROBLEM_CODES.get(status, "malformed_request"),
    }
    headers = [("Content-Type", "application/problem+json"), ("Cache-Control", "no-store")]
    if status == 503:  # as the service's own `unavailable`
        headers.append(("Retry-After", "1"))
    return HttpResponse(status, headers, json.dumps(document).encode())


def web_headers(template: Template) -> list[tuple[str, str]]:
    """The headers the template's CloudFront ResponseHeadersPolicy adds to the web client."""
    headers: list[tuple[str, str]] = []
    for resource in template.resources.values():
        if resource.get("Type") != "AWS::CloudFront::ResponseHeadersPolicy":
            continue
        config = resource["Properties"]["ResponseHeadersPolicyConfig"]
        for key, settings in config.get("SecurityHeadersConfig", {}).items():
            if key not in _SECURITY_HEADERS:  # HSTS, say: nothing to do over plain HTTP
                continue
            name, value_key = _SECURITY_HEADERS[key]
            value = "nosniff" if value_key is None else template.resolve(settings[value_key])
            headers.append((name, value))
    return headers


@dataclass(frozen=True)
class BehaviourHeader:
    """A custom header a CloudFront cache behaviour's ResponseHeadersPolicy adds."""

    path_pattern: str
    name: str
    value: str
    override: bool  # replace the origin's header of that name, or add it where none is


def behaviour_headers(resources: dict[str, dict[str, Any]]) -> list[BehaviourHeader]:
    """The custom headers the template's CloudFront adds to the answers of its cache
    behaviours (`/v1/*`: the API's), from the policies the template itself declares."""
    found: list[BehaviourHeader] = []
    for resource in resources.values():
        if resource.get("Type") != "AWS::CloudFront::Distribution":
            continue
        for behaviour in resource["Properties"]["DistributionConfig"].get("CacheBehaviors", []):
            policy = behaviour.get("ResponseHeadersPolicyId")
            if not isinstance(policy, dict) or "Ref" not in policy:
                continue  # none, or a managed policy's id: nothing the template says
            config = resources[policy["Ref"]]["Properties"]["ResponseHeadersPolicyConfig"]
            found.extend(
                BehaviourHeader(
                    behaviour["PathPattern"], item["Header"], str(item["Value"]), item["Override"]
                )
                for item in config.get("CustomHeadersConfig", {}).get("Items", [])
            )
    return found


def with_behaviour_headers(
    response: HttpResponse, path: str, headers: list[BehaviourHeader]
) -> HttpResponse:
    """The answer as CloudFront passes it on for a request of that path."""
    for header in headers:
        if not fnmatchcase(path, header.path_pattern):
            continue
        present = [(k, v) for k, v in response.headers if k.lower() == header.name.lower()]
        if present and not header.override:
            continue
        response.headers = [pair for pair in response.headers if pair not in present]
        response.headers.append((header.name, header.value))
    return response


def content_type(path: Path) -> str:
    known = CONTENT_TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0]
    return known or "application/octet-stream"


def static_file(web_dir: Path | None, raw_path: str) -> Path | None:
    """The file under web_dir a GET of raw_path names, or None (never outside web_dir)."""
    if web_dir is None:
        return None
    root = web_dir.resolve()
    relative = unquote(raw_path).lstrip("/")
    try:
        candidate = (root / relative).resolve()
        if not candidate.is_relative_to(root):
            return None
        if candidate.is_dir():
            candidate = candidate / "index.html"
        return candidate if candidate.is_file() else None
    except (ValueError, OSError):  # a NUL byte, a name too long for the file system
        return None


class LocalServer(Server):
    """The API's routes (through the gateway), and web/'s files for other GETs."""

    max_body = MAX_PAYLOAD_BYTES
    access_log = True
    websocket_idle_s = live_api.IDLE_S

    def __init__(self, address: tuple[str, int], stack: LocalStack, web_dir: Path | None) -> None:
        super().__init__(address, "local-stack")
        self.stack = stack
        self.web_dir = web_dir
        self.web_headers = web_headers(stack.template)
        self.behaviour_headers = behaviour_headers(stack.template.resources)

    def own_headers(self) -> list[tuple[str, str]]:
        # No Python version in the `Server` header.
        return [("Server", "local-stack"), ("Date", formatdate(time.time(), usegmt=True))]

    def error_answer(self, status: int, detail: str) -> HttpResponse:
        return problem(status, detail)

    def too_large(self, request: Request) -> HttpResponse:
        if not self.stack.gateways:
            return HttpResponse(413, [], b"")
        return self.stack.gateways[0].too_large(self._gateway_request(request))

    def outgoing(self, request: Request, response: HttpResponse) -> HttpResponse:
        # The local stack is one origin, as the WebUrl: CloudFront in front of the API.
        path = urlsplit(request.target).path or "/"
        return with_behaviour_headers(response, path, self.behaviour_headers)

    def websocket(self, request: Request) -> websocket.Handler | HttpResponse | None:
        """A connection to one of the template's WebSocket APIs, if it opens."""
        path = urlsplit(request.target).path
        api = next((a for a in self.stack.websocket_apis if a.path == path), None)
        return None if api is None else api.open(request)

    def answer(self, request: Request) -> HttpResponse:
        received = self._gateway_request(request)
        answer = self.stack.handle(received)
        if answer is not None:
            return answer
        if received.method in ("GET", "HEAD") and not received.raw_path.startswith("/v1/"):
            path = static_file(self.web_dir, received.raw_path)
            if path is None:
                return problem(404, "no such file")
            headers = [("Content-Type", content_type(path)), ("Cache-Control", "no-cache")]
            return HttpResponse(200, [*headers, *self.web_headers], path.read_bytes())
        return self.stack.gateway_answer(received)

    def _gateway_request(self, request: Request) -> HttpRequest:
        """The request as API Gateway hands it on: its headers plus those it adds."""
        parts = urlsplit(request.target)
        source_ip = request.peer[0]
        headers = list(request.headers)
        present = {name.lower() for name, _ in headers}
        added = {
            "X-Forwarded-For": source_ip,
            "X-Forwarded-Port": str(self.server_address[1]),
            "X-Forwarded-Proto": "http",
            "X-Amzn-Trace-Id": f"Root=1-{int(time.time()):08x}-{uuid.uuid4().hex[:24]}",
        }
        headers.extend((k, v) for k, v in added.items() if k.lower() not in present)
        return HttpRequest(
            method=request.method,
            raw_path=parts.path or "/",
            query=parts.query,
            headers=headers,
            body=request.body,
            source_ip=source_ip,
        )


def start_server(
    stack: LocalStack, host: str = "127.0.0.1", port: int = 0, web_dir: Path | None = None
) -> tuple[LocalServer, threading.Thread]:
    """Serve in a background thread (port 0: any free port); stop with stop_server."""
    server = LocalServer((host, port), stack, web_dir)
    server.start()
    stack.serve_at(server.url)
    return server, server.thread


def stop_server(server: LocalServer, thread: threading.Thread) -> None:
    """Stop what start_server started; `thread` is the server's own, which stop joins."""
    server.stop()
