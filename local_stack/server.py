"""HTTP in front of the local stack: API routes go to the gateway, other GETs to web/.

The stdlib's ThreadingHTTPServer is enough: one thread per connection, keep-alive
(HTTP/1.1); the functions run side by side, each request in its connection's thread. Every
answer the server makes itself (a request it cannot read, a file it does not have) is a
problem document as the API's, and no header names the server's software. A request runs
only once it has arrived whole: one whose connection ends before its header section or
body does is dropped unanswered, and a body that stalls is answered 408.
"""

from __future__ import annotations

import json
import logging
import mimetypes
import re
import sys
import threading
import time
import traceback
import uuid
from dataclasses import dataclass
from fnmatch import fnmatchcase
from http import HTTPStatus
from http.server import ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from local_stack.events import HttpRequest, HttpResponse, printable, printable_traceback
from local_stack.gateway import MAX_PAYLOAD_BYTES
from local_stack.stack import LocalStack
from local_stack.wire import QuickHeaders, http_message

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
_LINE_LIMIT = 65536  # bytes of a chunk-size or trailer line, as the stdlib's header lines
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # RFC 9110 5.6.2
# RFC 9112 5: a header line is a token, a colon, then the value up to the line's end.
_HEADER_LINE = re.compile(_TOKEN.pattern.encode() + rb":[^\r\n]*\r?\n")
_BLANK_LINE = (b"\r\n", b"\n")  # a line with nothing before its end
# Seconds a request's body may go without a byte arriving before it is answered 408: on
# loopback or a LAN a client sends its body at once, so a pause this long means a client
# that stalled, which would otherwise hold its connection's thread.
BODY_STALL_S = 10
# RFC 9112 3: method SP request-target SP HTTP-version, the method a token, the target
# visible ASCII (no control byte, no NUL, nothing a terminal acts on), one digit each side
# of the version's dot; a line without a version (HTTP/0.9) is refused too.
_REQUEST_LINE = re.compile(_TOKEN.pattern.encode() + rb" [!-~]+ HTTP/[0-9]\.[0-9]\r?\n")
# RFC 9110 5.5: a field value holds no CR, LF or NUL (an obs-fold leaves CR LF in the
# value) nor any other control byte but HTAB.
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")
_DIGITS = re.compile(r"[0-9]+")  # str.isdigit takes "²", which int() refuses
# The statuses the server answers itself; anything else it cannot read is a bad request.
_PROBLEM_CODES = {
    404: "not_found",
    405: "method_not_allowed",
    408: "request_timeout",
    413: "payload_too_large",
}
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


class IncompleteRequest(Exception):
    """The connection ended before the request did: it is dropped, never run."""


class _HeaderLines:
    """The connection's reader as the stdlib's header parser uses it, keeping each line
    the parser read: the mail parser it hands them to drops some lines without a word
    (`From x` is a mailbox's envelope line to it), and does not say whether the section
    ended with its blank line or with the connection."""

    def __init__(self, rfile: Any) -> None:
        self._rfile = rfile
        self.lines: list[bytes] = []

    def readline(self, limit: int = -1) -> bytes:
        line: bytes = self._rfile.readline(limit)
        self.lines.append(line)
        return line


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
        self.behaviour_headers = behaviour_headers(stack.template.resources)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that went away is no error; anything else is one line and a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError | TimeoutError):
            return
        log.error(
            "HTTP error with %s\n%s", client_address[0], printable_traceback(traceback.format_exc())
        )

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host!s}:{port}"


class RequestHandler(QuickHeaders):
    server: LocalServer
    protocol_version = "HTTP/1.1"
    timeout = 120  # seconds an idle keep-alive connection is kept
    disable_nagle_algorithm = True  # no answer waits for the ACK of the one before
    server_version = "local-stack"
    _header_lines: _HeaderLines  # the request's header section, as parse_request read it

    def version_string(self) -> str:
        return self.server_version  # no Python version in the `Server` header

    def __getattr__(self, name: str) -> Any:
        # Every method (TRACE, PROPFIND, a lower-case `get`) reaches the gateway, which
        # answers it as API Gateway does, instead of the stdlib's 501 page.
        if name.startswith("do_"):
            return self._dispatch
        raise AttributeError(name)

    def parse_request(self) -> bool:
        """The stdlib's parsing, held to RFC 9112 where the stdlib is lenient: a request whose
        line or header section another parser could read otherwise is refused, 400; one
        whose connection ends before its header section does is dropped unanswered."""
        if not self.raw_requestline.endswith(b"\n"):  # the connection ended within the line
            self.close_connection = True
            return False
        if self.raw_requestline.strip() and not _REQUEST_LINE.fullmatch(self.raw_requestline):
            # Refused before the stdlib reads on: it would wait for the headers of an
            # HTTP/0.9 line (there are none) until the timeout.
            self.command = ""
            self.request_version = self.default_request_version
            self.requestline = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n")
            self.send_error(400, "the request line is not `METHOD target HTTP/x.y`")
            return False
        rfile, self._header_lines = self.rfile, _HeaderLines(self.rfile)
        self.rfile = self._header_lines  # type: ignore[assignment]  # readline is all it uses
        try:
            return super().parse_request() and self._header_section_accepted()
        finally:
            self.rfile = rfile

    def handle_expect_100(self) -> bool:
        """The stdlib's 100 Continue goes out only for a header section that is accepted."""
        return self._header_section_accepted() and super().handle_expect_100()

    def _header_section_accepted(self) -> bool:
        """Whether the header section just read came whole and reads one way only; a 400
        is sent for one that does not, nothing for one the connection cut short."""
        if self._header_lines.lines[-1] not in _BLANK_LINE:
            self.close_connection = True
            log.info(
                "%s dropped: the connection ended within its headers", printable(self.requestline)
            )
            return False
        refusal = self._header_refusal(self._header_lines.lines[:-1])
        if refusal is not None:
            self.send_error(400, refusal)
            return False
        return True

    def _header_refusal(self, lines: list[bytes]) -> str | None:
        """Why the header section cannot be read one way only, or None when it can."""
        # The lines themselves, not the mail parser's defects: the parser stops at a line
        # with no colon or a space before it and drops it and every one after, but it also
        # reports the defects of a multipart body it was never given.
        if not all(_HEADER_LINE.fullmatch(line) for line in lines):
            return "a header line is not `name: value`"
        headers = self.headers
        for value in headers.values():
            if _CONTROL.search(value):
                return "a header value has a control character"
        hosts = headers.get_all("Host") or []
        if len(hosts) > 1 or (not hosts and self.request_version == "HTTP/1.1"):
            return "a request has one Host header at most, and HTTP/1.1 one exactly"  # 9112 3.2
        lengths = headers.get_all("Content-Length") or []
        codings = headers.get_all("Transfer-Encoding") or []
        # RFC 9112 6.3: two lengths (even equal ones, as `Content-Length: 2, 2` is) or a
        # length beside a coding are two readings of where the body ends; and the server
        # decodes no transfer coding but chunked, which HTTP/1.0 does not have.
        if codings and (lengths or self.request_version != "HTTP/1.1"):
            return "Transfer-Encoding goes without Content-Length, and in HTTP/1.1 only"
        if codings and [coding.strip().lower() for coding in codings] != ["chunked"]:
            return "the only transfer coding taken is chunked"
        if len(lengths) > 1:
            return "Content-Length is given more than once"
        if lengths and not _DIGITS.fullmatch(lengths[0].strip()):
            return "Content-Length is not a number of bytes"
        return None

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """The stdlib's refusals and ours (a bad request line or header, headers too long)
        as problem documents, each one line in the log."""
        status = code if code in _PROBLEM_CODES else 400
        detail = message or HTTPStatus(code).phrase
        self.close_connection = True
        if self.request_version == "HTTP/0.9":  # a request line it could not read
            self.request_version = "HTTP/1.0"  # the answer has a status line and headers
        self._send(problem(status, detail))
        log.info("%s %d refused: %s", printable(self.requestline), status, printable(detail))

    def _dispatch(self) -> None:
        started = time.perf_counter()
        line = printable(f"{self.command} {self.path}")
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
        except IncompleteRequest:
            self.close_connection = True
            log.info("%s dropped: the connection ended within the body", line)
            return
        except Exception:
            log.error(
                "local stack error on %s\n%s", line, printable_traceback(traceback.format_exc())
            )
            response = problem(500, "the local stack failed; see its log", "internal_error")
            self.close_connection = True
        # The local stack is one origin, as the WebUrl: CloudFront in front of the API.
        self._send(
            with_behaviour_headers(response, request.raw_path, self.server.behaviour_headers)
        )
        elapsed = (time.perf_counter() - started) * 1000
        log.info("%s %d %.1fms", line, response.status, elapsed)

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
        declared = (self.headers.get("Content-Length") or "0").strip()  # digits: see above
        length = int(declared[:9]) if len(declared) <= 9 else MAX_PAYLOAD_BYTES + 1
        chunked = "Transfer-Encoding" in self.headers  # chunked alone: see _header_refusal
        try:
            body = self._read_body(length, chunked)
        except ValueError as error:
            self.close_connection = True
            return problem(400, str(error))
        except TimeoutError:
            self.close_connection = True  # what is left of the body would read as a request
            return problem(408, f"no byte of the body came for {BODY_STALL_S} s")
        if body is None:
            self.close_connection = True  # the body is not read: the connection cannot go on
            return (
                self.server.stack.gateways[0].too_large(request)
                if self.server.stack.gateways
                else HttpResponse(413, [], b"")
            )
        request.body = body
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

    def _read_body(self, length: int, chunked: bool) -> bytes | None:
        """The body, whole; None when it is over API Gateway's limit (it is not read then).
        IncompleteRequest if the connection ends within it, TimeoutError if it stalls
        BODY_STALL_S, ValueError if its chunks are not chunked coding."""
        if length > MAX_PAYLOAD_BYTES:
            return None
        self.connection.settimeout(BODY_STALL_S)  # each read's wait, not the whole body's
        try:
            if chunked:
                return self._read_chunked()
            return self._read_exactly(length)
        finally:
            self.connection.settimeout(self.timeout)  # the idle wait for the next request

    def _read_exactly(self, size: int) -> bytes:
        data = self.rfile.read(size) if size else b""
        if len(data) < size:  # a buffered read returns short only at the connection's end
            raise IncompleteRequest
        return data

    def _read_chunked(self) -> bytes | None:
        """A chunked body; None once it is over API Gateway's limit; ValueError if a chunk
        size is not one."""
        chunks: list[bytes] = []
        total = 0
        while True:
            declared = self._chunk_line().split(b";")[0].strip() or b"0"
            if not _CHUNK_SIZE.fullmatch(declared):
                raise ValueError("a chunk size is not a hexadecimal number")
            size = int(declared, 16)
            if size == 0:
                while self._chunk_line() not in _BLANK_LINE:
                    pass  # trailers
                return b"".join(chunks)
            total += size
            if total > MAX_PAYLOAD_BYTES:
                return None
            chunks.append(self._read_exactly(size))
            if self._chunk_line() not in _BLANK_LINE:
                raise ValueError("a chunk is longer than its size")

    def _chunk_line(self) -> bytes:
        """One line of a chunked body, never more than _LINE_LIMIT bytes held in memory."""
        line = self.rfile.readline(_LINE_LIMIT + 1)
        if len(line) > _LINE_LIMIT:
            raise ValueError("a line of the chunked body is too long")
        if not line.endswith(b"\n"):  # a line short of its limit ends so only at EOF
            raise IncompleteRequest
        return line

    def _send(self, response: HttpResponse) -> None:
        """The answer as the stdlib's send_response, send_header and end_headers make it,
        with its body, in one write."""
        headers = [("Server", self.version_string()), ("Date", self.date_time_string())]
        headers += [
            (name, value)
            for name, value in response.headers
            if name.lower() not in ("content-length", "connection", "transfer-encoding")
        ]
        if self.close_connection:
            headers.append(("Connection", "close"))
        phrase = self.responses.get(response.status, ("",))[0]
        status_line = f"{self.protocol_version} {response.status} {phrase}"
        message = http_message(status_line, headers, response.body)
        if self.command == "HEAD":  # its Content-Length, not its body
            message = message[: len(message) - len(response.body)]
        try:
            self.wfile.write(message)
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
