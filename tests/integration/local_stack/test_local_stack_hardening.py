"""The local stack's HTTP layer against requests a fuzzer or an attacker sends (issues 8
and 19): every answer is a problem document (400, 404, 405, 413), never a 5xx nor an HTML
page; a request that two parsers could read two ways is refused; no header names the
server's software, and no byte of a request reaches the operator's terminal as it is."""

from __future__ import annotations

import json
import logging
import socket
import time

import pytest

from tests.integration.local_stack.harness import Client, Running


def raw_exchange(port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are (http.client would refuse some) and read one answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
        head, _, body = received.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        length = int(headers.get("Content-Length", "0"))
        while len(body) < length:
            chunk = connection.recv(65536)
            if not chunk:
                break
            body += chunk
        return int(lines[0].split()[1]), headers, body


def assert_problem(status: int, headers: dict[str, str], body: bytes, *allowed: int) -> None:
    assert status in allowed, (status, body)
    assert headers["Content-Type"] == "application/problem+json", headers
    document = json.loads(body)
    assert document["status"] == status and document["code"]
    assert "Python" not in headers.get("Server", "")


@pytest.mark.parametrize("method", ["TRACE", "PROPFIND", "FOO", "get", "CONNECT"])
@pytest.mark.parametrize("path", ["/v1/users", "/index.html"])
def test_any_method_is_answered_as_a_problem(running: Running, method: str, path: str) -> None:
    request = f"{method} {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".encode()
    assert_problem(*raw_exchange(running.client.port, request), 404, 405)


@pytest.mark.parametrize("size", [b"zz", b"-5", b"0x10", b""])
def test_a_bad_chunk_size_is_400(running: Running, size: bytes) -> None:
    request = (
        b"POST /v1/public/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + size + b"\r\n{}\r\n0\r\n\r\n"
    )
    assert_problem(*raw_exchange(running.client.port, request), 400)  # "" too: no size


@pytest.mark.parametrize("length", ["-5", "x", "1e3", "+7", "\xb2"])  # b2: "²", a digit to str
def test_a_bad_content_length_is_400(running: Running, length: str) -> None:
    request = f"POST /v1/public/echo HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n"
    assert_problem(*raw_exchange(running.client.port, request.encode("latin-1")), 400)


@pytest.mark.parametrize(
    "framing",
    [
        b"Content-Length: 2\r\nContent-Length: 10\r\n",
        b"Content-Length: 2\r\nContent-Length: 2\r\n",  # as `Content-Length: 2, 2` is
        b"Content-Length: 2\r\nTransfer-Encoding: chunked\r\n",
        b"Transfer-Encoding: gzip, chunked\r\n",
        b"Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n",
    ],
    ids=["two-lengths", "one-length-twice", "length-and-chunked", "gzip-chunked", "chunked-twice"],
)
def test_a_body_whose_end_two_parsers_could_see_apart_is_400(
    running: Running, framing: bytes
) -> None:
    """RFC 9112 6.3: the server reads one end of the body only and closes after the 400,
    so that no rest of it is read as a next request."""
    request = (
        b"POST /v1/public/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        + framing
        + b"\r\n2\r\n{}\r\n0\r\n\r\n"
    )
    status, headers, body = raw_exchange(running.client.port, request)
    assert_problem(status, headers, body, 400)
    assert headers["Connection"] == "close"


def test_chunked_in_http_10_and_a_chunk_over_its_size_are_400(running: Running) -> None:
    chunked = b"POST /v1/public/echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    assert_problem(*raw_exchange(running.client.port, chunked), 400)
    longer = (
        b"POST /v1/public/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        b"2\r\n{}, smuggled\r\n0\r\n\r\n"
    )
    assert_problem(*raw_exchange(running.client.port, longer), 400)


def test_a_chunk_size_line_without_end_is_400_without_waiting_for_it(running: Running) -> None:
    request = (
        b"POST /v1/public/echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
        + b"0" * 70_000  # and no line end: the server holds no more than a line's limit
    )
    assert_problem(*raw_exchange(running.client.port, request), 400)


@pytest.mark.parametrize(
    ("method", "path", "headers"),
    [
        ("get", "/v1/items/special", "Authorization: Bearer user-bob\r\n"),
        ("post", "/v1/users", "Content-Type: application/json\r\n"),
        ("options", "/v1/items/7", ""),
    ],
)
def test_a_lower_case_method_is_an_unknown_one(
    running: Running, method: str, path: str, headers: str
) -> None:
    """RFC 9110 9.1: methods are case-sensitive; API Gateway answers a method a resource
    does not have as a missing authentication token, which the template makes 404."""
    request = f"{method} {path} HTTP/1.1\r\nHost: x\r\n{headers}Content-Length: 2\r\n\r\n{{}}"
    status, answer_headers, body = raw_exchange(running.client.port, request.encode())
    assert_problem(status, answer_headers, body, 404)
    assert json.loads(body)["code"] == "not_found"


def test_an_http_09_request_line_is_400_at_once_and_closed(running: Running) -> None:
    with socket.create_connection(("127.0.0.1", running.client.port), timeout=10) as connection:
        connection.sendall(b"GET /v1/public/echo\r\n")  # no version, and no headers follow
        received = b"".join(iter(lambda: connection.recv(65536), b""))  # to the server's close
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.split(b" ")[1] == b"400", received
    assert json.loads(body)["code"] == "malformed_request"


@pytest.mark.parametrize(
    "line",
    [
        b"GET /v1/public/echo\x00x HTTP/1.1",
        b"GET /v1/\x1b[2Jecho HTTP/1.1",
        b"GET /v1/caf\xe9 HTTP/1.1",
        b"GET\t/v1/public/echo HTTP/1.1",
        b"GET  /v1/public/echo HTTP/1.1",
        b"GET /v1/public/echo HTTP/1.10",
    ],
    ids=["nul", "esc", "latin-1", "tab", "two-spaces", "version-1.10"],
)
def test_a_request_line_out_of_rfc_9112s_grammar_is_400(running: Running, line: bytes) -> None:
    request = line + b"\r\nHost: x\r\n\r\n"
    assert_problem(*raw_exchange(running.client.port, request), 400)


@pytest.mark.parametrize(
    "header_lines",
    [
        b"Host: x\r\nNoColon\r\nAuthorization: Bearer user-bob\r\n",
        b"Host: x\r\nX-Name : value\r\n",
        b"Host: x\r\nX-Folded: one\r\n two\r\n",
        b"Host: x\r\nX-Nul: a\x00b\r\n",
        b"Host: x\r\nX-Esc: \x1b[2J\r\n",
        b"Host: x\r\nX(Name): value\r\n",
        b"Host: x\r\n: no name\r\n",
        b"X-No-Host: 1\r\n",
        b"Host: x\r\nHost: y\r\n",
    ],
    ids=[
        "no-colon",
        "space-before-colon",
        "obs-fold",
        "nul",
        "esc",
        "name-not-a-token",
        "empty-name",
        "no-host",
        "two-hosts",
    ],
)
def test_a_header_section_read_two_ways_is_400(running: Running, header_lines: bytes) -> None:
    request = b"GET /v1/public/echo HTTP/1.1\r\n" + header_lines + b"\r\n"
    assert_problem(*raw_exchange(running.client.port, request), 400)


def test_a_requests_control_bytes_reach_the_log_escaped(
    running: Running, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="local_stack")
    requests = {
        "red": b"GET /v1/\x1b[31mred HTTP/1.1\r\nHost: x\r\n\r\n",
        "title": b"\x1b]0;title\x07 / HTTP/1.1\r\n\r\n",
        "fake": b"GET /v1/x\rfake 200 HTTP/1.1\r\nHost: x\r\n\r\n",
    }
    for request in requests.values():
        raw_exchange(running.client.port, request)
    deadline = time.monotonic() + 10  # the server logs a request after answering it
    lines: dict[str, str] = {}
    while len(lines) < len(requests) and time.monotonic() < deadline:
        lines = {
            name: record.getMessage()
            for record in caplog.records
            for name in requests
            if name in record.getMessage()
        }
        time.sleep(0.01)
    assert set(lines) == set(requests), caplog.records
    for line in lines.values():
        assert not any(ord(character) < 0x20 for character in line), line
    assert lines["red"].startswith("GET /v1/\\x1b[31mred ")
    assert lines["title"].startswith("\\x1b]0;title\\x07 / ")
    assert lines["fake"].startswith("GET /v1/x\\rfake 200 ")


@pytest.mark.parametrize(
    "path",
    ["/a%00b", "/" + "a" * 5000, "/%00", "/js/%00app.js"],
    ids=["nul", "5000-chars", "only-nul", "nul-in-dir"],
)
def test_static_paths_the_file_system_cannot_hold_are_404(client: Client, path: str) -> None:
    reply = client.request("GET", path)
    assert reply.status == 404
    assert reply.header("Content-Type") == "application/problem+json"


def test_a_malformed_request_line_is_400(running: Running) -> None:
    assert_problem(*raw_exchange(running.client.port, b"GARBAGE\r\n\r\n"), 400)
    request = b"GET / HTTP/9.9\r\nHost: x\r\n\r\n"
    assert_problem(*raw_exchange(running.client.port, request), 400)


def test_no_header_names_the_servers_software(client: Client) -> None:
    for path in ("/", "/v1/public/echo", "/missing"):
        server = client.request("GET", path).header("Server") or ""
        assert "Python" not in server and "BaseHTTP" not in server, server


def test_web_files_carry_the_templates_security_headers(client: Client) -> None:
    index = client.request("GET", "/")
    assert index.status == 200
    assert index.header("Content-Security-Policy") == "default-src 'self'; frame-ancestors 'none'"
    assert index.header("X-Content-Type-Options") == "nosniff"
    assert index.header("Referrer-Policy") == "no-referrer"
