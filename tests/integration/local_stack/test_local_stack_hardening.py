"""The local stack's HTTP layer against requests a fuzzer or an attacker sends (issue 8):
every answer is a problem document (400, 404, 405, 413), never a 5xx nor an HTML page,
and no header names the server's software."""

from __future__ import annotations

import json
import socket

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
    status, headers, body = raw_exchange(running.client.port, request)
    if size == b"":  # an empty size line ends the body: the request is answered as usual
        assert status == 200
    else:
        assert_problem(status, headers, body, 400)


@pytest.mark.parametrize("length", ["-5", "x", "1e3", "+7"])
def test_a_bad_content_length_is_400(running: Running, length: str) -> None:
    request = f"POST /v1/public/echo HTTP/1.1\r\nHost: x\r\nContent-Length: {length}\r\n\r\n"
    assert_problem(*raw_exchange(running.client.port, request.encode()), 400)


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
