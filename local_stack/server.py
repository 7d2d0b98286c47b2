"""HTTP in front of the local stack: API routes go to the gateway, other GETs to web/.

The stdlib's ThreadingHTTPServer is enough: one thread per connection, keep-alive
(HTTP/1.1); the functions run side by side, each request in its connection's thread. Every
answer the server makes itself (a request it cannot read, a file it does not have) is a
problem document as the API's, and no header names the server's software.
"""

from __future__ import annotations

import json
import logging
import mimetypes
import re
import sys
import threading
import time
import uuid
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from local_stack.events import HttpRequest, HttpResponse
from local_stack.gateway import MAX_PAYLOAD_BYTES
from local_stack.stack import LocalStack

log = logging.getLogger("local_stack")

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


_CHUNK_SIZE = re.compile(rb"[0-9A-Fa-f]{1,8}")
# The statuses the server answers itself; anything else it cannot read is a bad request.
_PROBLEM_CODES = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}
# CloudFront's security headers as SecurityHeadersConfig names them, for web/'s files.
_SECURITY_HEADERS = {
    "ContentSecurityPolicy": ("Content-Security-Policy", "ContentSecurityPolicy"),
    "ContentTypeOptions": ("X-Content-Type-Options", None),
    "ReferrerPolicy": ("Referrer-Policy", "ReferrerPolicy"),
    "FrameOptions": ("X-Frame-Options", "FrameOption"),
}


def problem(status: int, detail: str, code: str | None = None) -> HttpResponse:
    """A problem document of API.md for an answer the server makes itself."""
    document = {
        "type": "about:blank",
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code or _PROBLEM_CODES.get(status, "malformed_request"),
    }
    headers = [("Content-Type", "application/problem+json"), ("Cache-Control", "no-store")]
    return HttpResponse(status, headers, json.dumps(document).encode())


def web_headers(resources: dict[str, dict[str, Any]]) -> list[tuple[str, str]]:
    """The headers the template's CloudFront ResponseHeadersPolicy adds to the web client."""
    headers: list[tuple[str, str]] = []
    for resource in resources.values():
        if resource.get("Type") != "AWS::CloudFront::ResponseHeadersPolicy":
            continue
        config = resource["Properties"]["ResponseHeadersPolicyConfig"]
        for key, settings in config.get("SecurityHeadersConfig", {}).items():
            if key not in _SECURITY_HEADERS:  # HSTS, say: nothing to do over plain HTTP
                continue
            name, value_key = _SECURITY_HEADERS[key]
            headers.append((name, "nosniff" if value_key is None else settings[value_key]))
    return headers


def content_type(path: Path) -> str:
    suffix = path.suffix.lower()
    return (
        CONTENT_TYPES.get(suffix)
        or mimetypes.guess_type(path.name)[0]
        or "application/octet-stream"
    )


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


class LocalServer(ThreadingHTTPServer):
    daemon_threads = True
    # Do not wait, on stop, for connections a browser keeps open: data is safe anyway,
    # since a write is on disk before its answer, and the store waits for invocations.
    block_on_close = False
    allow_reuse_address = True
    request_queue_size = 128  # the default 5 resets connections a browser opens at once

    def __init__(self, address: tuple[str, int], stack: LocalStack, web_dir: Path | None) -> None:
        super().__init__(address, RequestHandler)
        self.stack = stack
        self.web_dir = web_dir
        self.web_headers = web_headers(stack.template.resources)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away is no error; anything else is one line and a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            return
        log.exception("HTTP error with %s", client_address[0])

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


class RequestHandler(BaseHTTPRequestHandler):
    server: LocalServer
    protocol_version = "HTTP/1.1"
    timeout = 120  # seconds an idle keep-alive connection is kept
    disable_nagle_algorithm = True  # headers and body go out in two writes
    server_version = "local-stack"

    def version_string(self) -> str:
        return self.server_version  # no Python version in the `Server` header

    def __getattr__(self, name: str) -> Any:
        # Every method (TRACE, PROPFIND, a lower-case `get`) reaches the gateway, which
        # answers it as API Gateway does, instead of the stdlib's 501 page.
        if name.startswith("do_"):
            return self._dispatch
        raise AttributeError(name)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The stdlib's refusals (a bad request line, headers too long) as problem documents."""
        status = code if code in _PROBLEM_CODES else 400
        self.close_connection = True
        if self.request_version == "HTTP/0.9":  # a request line it could not read
            self.request_version = "HTTP/1.0"  # the answer has a status line and headers
        self._send(problem(status, message or HTTPStatus(code).phrase))

    def _dispatch(self) -> None:
        started = time.perf_counter()
        parts = urlsplit(self.path)
        request = HttpRequest(
            method=self.command,
            raw_path=parts.path or "/",
            query=parts.query,
            headers=self._forwarded_headers(),
            body=b"",
            source_ip=self.client_address[0],
            request_id=str(uuid.uuid4()),
        )
        try:
            response = self._respond(request)
        except Exception:
            log.exception("local stack error on %s %s", self.command, self.path)
            response = problem(500, "the local stack failed; see its log", "internal_error")
            self.close_connection = True
        self._send(response)
        elapsed = (time.perf_counter() - started) * 1000
        log.info("%s %s %d %.1fms", self.command, self.path, response.status, elapsed)

    def _forwarded_headers(self) -> list[tuple[str, str]]:
        """The request's headers plus those API Gateway adds in front of a function."""
        headers = list(self.headers.items())
        present = {name.lower() for name, _ in headers}
        added = {
            "X-Forwarded-For": self.client_address[0],
            "X-Forwarded-Port": str(self.server.server_address[1]),
            "X-Forwarded-Proto": "http",
            "X-Amzn-Trace-Id": f"Root=1-{int(time.time()):08x}-{uuid.uuid4().hex[:24]}",
        }
        headers.extend((k, v) for k, v in added.items() if k.lower() not in present)
        return headers

    def _respond(self, request: HttpRequest) -> HttpResponse:
        declared = (self.headers.get("Content-Length") or "0").strip()
        if not declared.isdigit():
            self.close_connection = True  # the body's end is unknown
            return problem(400, "Content-Length is not a number of bytes")
        length = int(declared[:9]) if len(declared) <= 9 else MAX_PAYLOAD_BYTES + 1
        chunked = self.headers.get("Transfer-Encoding", "").lower() == "chunked"
        try:
            body = self._read_chunked() if chunked else None
        except ValueError as error:
            self.close_connection = True
            return problem(400, str(error))
        if length > MAX_PAYLOAD_BYTES or (chunked and body is None):
            self.close_connection = True  # the body is not read: the connection cannot go on
            return (
                self.server.stack.gateways[0].too_large(request)
                if self.server.stack.gateways
                else HttpResponse(413, [], b"")
            )
        request.body = body if body is not None else self.rfile.read(length) if length else b""
        method = request.method
        answer = self.server.stack.handle(request)
        if answer is not None:
            return answer
        if method in ("GET", "HEAD") and not request.raw_path.startswith("/v1/"):
            path = static_file(self.server.web_dir, request.raw_path)
            if path is not None:
                return HttpResponse(
                    200,
                    [
                        ("Content-Type", content_type(path)),
                        ("Cache-Control", "no-cache"),
                        *self.server.web_headers,
                    ],
                    path.read_bytes(),
                )
            return problem(404, "no such file")
        return self.server.stack.gateway_answer(request)

    def _read_chunked(self) -> bytes | None:
        """A chunked body; None once it is over API Gateway's limit; ValueError if a chunk
        size is not one."""
        chunks: list[bytes] = []
        total = 0
        while True:
            declared = self.rfile.readline().split(b";")[0].strip() or b"0"
            if not _CHUNK_SIZE.fullmatch(declared):
                raise ValueError("a chunk size is not a hexadecimal number")
            size = int(declared, 16)
            if size == 0:
                while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                    pass  # trailers
                return b"".join(chunks)
            total += size
            if total > MAX_PAYLOAD_BYTES:
                return None
            chunks.append(self.rfile.read(size))
            self.rfile.readline()

    def _send(self, response: HttpResponse) -> None:
        try:
            self.send_response(response.status)
            for name, value in response.headers:
                if name.lower() not in ("content-length", "connection", "transfer-encoding"):
                    self.send_header(name, value)
            self.send_header("Content-Length", str(len(response.body)))
            if self.close_connection:
                self.send_header("Connection", "close")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(response.body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:
        """The stdlib's access log is replaced by one line per request in _dispatch."""


def start_server(
    stack: LocalStack, host: str = "127.0.0.1", port: int = 0, web_dir: Path | None = None
) -> tuple[LocalServer, threading.Thread]:
    """Serve in a background thread (port 0: any free port); stop with stop_server."""
    server = LocalServer((host, port), stack, web_dir)
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True
    )
    thread.start()
    return server, thread


def stop_server(server: LocalServer, thread: threading.Thread) -> None:
    server.shutdown()
    server.server_close()
    thread.join(timeout=10)
