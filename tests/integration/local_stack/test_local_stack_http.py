"""The local stack over HTTP, against the fixture template: routing, events, the
authorizer, gateway responses, throttling, errors and static files; a request runs only
once it has arrived whole (issue 30, item 2), within its time, its body within what the
server holds at once (issue 43, item 7)."""

from __future__ import annotations

import http.client
import json
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.integration.local_stack.harness import FIXTURES, Client, Running

# The REST API (payload 1.0) proxy event's documented top-level fields.
EVENT_FIELDS = {
    "resource",
    "path",
    "httpMethod",
    "headers",
    "multiValueHeaders",
    "queryStringParameters",
    "multiValueQueryStringParameters",
    "pathParameters",
    "stageVariables",
    "requestContext",
    "body",
    "isBase64Encoded",
}
REQUEST_CONTEXT_FIELDS = {
    "accountId",
    "apiId",
    "domainName",
    "domainPrefix",
    "extendedRequestId",
    "httpMethod",
    "identity",
    "path",
    "protocol",
    "requestId",
    "requestTime",
    "requestTimeEpoch",
    "resourceId",
    "resourcePath",
    "stage",
}
# Long past the server's wait for a stalled body: a raw exchange ends when the server closes.
RAW_TIMEOUT_S = 60


def test_public_route_writes_and_the_function_answers_conflicts(client: Client) -> None:
    first = client.request("POST", "/v1/users", {"login": "Alice"})
    assert first.status == 201, first.body
    assert first.json() == {"login": "Alice", "balance": 10000}
    assert first.header("Content-Type") == "application/json"
    assert first.header("x-amzn-RequestId")
    again = client.request("POST", "/v1/users", {"login": "alice"})
    assert again.status == 409
    assert again.json() == {"code": "login_taken"}


def test_proxy_event_of_a_public_route(client: Client) -> None:
    before = int(time.time() * 1000)
    reply = client.request(
        "POST",
        "/v1/public/echo?a=1&a=2&b=",
        {"x": 1},
        headers=[("X-Many", "one"), ("X-Many", "two"), ("User-Agent", "pytest")],
    )
    assert reply.status == 200, reply.body
    event = reply.json()["event"]
    assert set(event) == EVENT_FIELDS
    assert event["resource"] == "/v1/public/echo"
    assert event["path"] == "/v1/public/echo"
    assert event["httpMethod"] == "POST"
    assert event["headers"]["X-Many"] == "two"
    assert event["multiValueHeaders"]["X-Many"] == ["one", "two"]
    assert event["headers"]["Content-Type"] == "application/json"
    assert event["queryStringParameters"] == {"a": "2", "b": ""}
    assert event["multiValueQueryStringParameters"] == {"a": ["1", "2"], "b": [""]}
    assert event["pathParameters"] is None
    assert event["stageVariables"] is None
    assert event["body"] == '{"x": 1}'
    assert event["isBase64Encoded"] is False
    context = event["requestContext"]
    assert set(context) >= REQUEST_CONTEXT_FIELDS
    assert "authorizer" not in context  # a public route has no authorizer
    assert context["resourcePath"] == "/v1/public/echo"
    assert context["httpMethod"] == "POST"
    assert context["path"] == "/v1/public/echo"
    assert context["stage"] == "v1"  # the StageName parameter's default
    assert context["requestId"] == reply.header("x-amzn-RequestId")
    assert context["identity"]["sourceIp"] == "127.0.0.1"
    assert context["identity"]["userAgent"] == "pytest"
    assert before <= context["requestTimeEpoch"] <= int(time.time() * 1000)
    assert reply.json()["who"] == reply.json()["imported_who"] == "users"
    assert reply.json()["function_name"] == "UsersFunction"


def test_get_without_query_or_body_has_nulls(client: Client) -> None:
    event = client.request("GET", "/v1/public/echo").json()["event"]
    assert event["queryStringParameters"] is None
    assert event["multiValueQueryStringParameters"] is None
    assert event["body"] is None
    assert event["httpMethod"] == "GET"  # Method: any


def test_greedy_path_parameter_authorizer_context_and_environment(client: Client) -> None:
    reply = client.request("GET", "/v1/echo/a/b%20c?x=1", token="user-bob")
    assert reply.status == 200, reply.body
    answer = reply.json()
    event = answer["event"]
    assert event["resource"] == "/v1/echo/{proxy+}"
    assert event["pathParameters"] == {"proxy": "a/b c"}
    assert event["requestContext"]["authorizer"] == {
        "principalId": "bob",
        "login": "bob",
        "admin": "false",
        "level": "3",
        "secret_length": "48",
    }
    assert answer["who"] == answer["imported_who"] == "items"
    assert answer["module"] == "app"
    assert Path(answer["file"]) == FIXTURES / "functions" / "items" / "app.py"
    assert answer["env"] == {
        "TABLE_NAME": "GameTable",
        "TABLE_ARN": "arn:aws:dynamodb:us-east-1:123456789012:table/GameTable",
        "TOKEN_SECRET_ARN": answer["env"]["TOKEN_SECRET_ARN"],
        "FLAVOUR": "plain",
        "REGION_AND_TABLE": "us-east-1/GameTable/${Literal}",
        "POWERTOOLS_SERVICE_NAME": "blackjack",
        "AWS_REGION": "us-east-1",
        "AWS_DEFAULT_REGION": "us-east-1",
        "AWS_LAMBDA_FUNCTION_NAME": "ItemsFunction",
    }
    assert answer["env"]["TOKEN_SECRET_ARN"].startswith(
        "arn:aws:secretsmanager:us-east-1:123456789012:secret:TokenSecret"
    )
    assert answer["secret_length"] == 48
    context = answer["context"]
    assert context["function_name"] == "ItemsFunction"
    assert context["memory_limit_in_mb"] == 256
    assert context["aws_request_id"] == event["requestContext"]["requestId"]
    assert context["invoked_function_arn"] == (
        "arn:aws:lambda:us-east-1:123456789012:function:ItemsFunction"
    )
    assert 0 < context["remaining"] <= 10_000  # Globals Timeout: 10


def test_functions_keep_their_own_modules(client: Client) -> None:
    first = client.request("GET", "/v1/echo/x", token="user-bob").json()
    second = client.request("GET", "/v1/echo/x", token="user-carol").json()
    # the module survives between invocations (a warm container) ...
    assert second["invocations"] == first["invocations"] + 1
    # ... but is not left in sys.modules, where the authorizer's app.py would collide
    for name in ("app", "users"):  # other tests may import modules of these names
        leaked = sys.modules.get(name)
        assert leaked is None or not str(getattr(leaked, "__file__", "")).startswith(str(FIXTURES))
    # each function has its own copy of the layer's modules, as each Lambda has its memory
    users = client.request("GET", "/v1/public/echo").json()
    assert users["layer_module"] != second["layer_module"]
    assert first["layer_module"] == second["layer_module"]
    assert "fixture_shared" not in sys.modules


def test_literal_segment_beats_path_parameter(client: Client) -> None:
    reply = client.request("GET", "/v1/items/special", token="user-bob")
    assert reply.json() == {"special": True, "principal": "bob"}
    missing = client.request("GET", "/v1/items/nothing-here", token="user-bob")
    assert missing.status == 404
    assert missing.json() == {"code": "not_found"}


def test_missing_authorization_header_is_401_without_the_authorizer(client: Client) -> None:
    reply = client.request("GET", "/v1/items/special")
    assert reply.status == 401
    assert reply.header("Content-Type") == "application/problem+json"
    body = reply.json()
    assert body["code"] == "unauthorized"
    assert body["detail"] == "Unauthorized"  # $context.error.message
    assert body["request_id"] == reply.header("x-amzn-RequestId")


def test_authorizer_raising_unauthorized_is_401(client: Client) -> None:
    reply = client.request("GET", "/v1/items/special", headers={"Authorization": "Basic abc"})
    assert reply.status == 401
    assert reply.json()["code"] == "unauthorized"


def test_explicit_deny_is_access_denied(client: Client) -> None:
    reply = client.request("GET", "/v1/items/special", token="deny")
    # the fixture maps ACCESS_DENIED to 401 as the real template does
    assert reply.status == 401
    assert reply.json() == {
        "status": 401,
        "code": "unauthorized",
        "detail": "User is not authorized to access this resource with an explicit deny",
    }


def test_policy_not_covering_the_method_arn_is_access_denied(client: Client) -> None:
    allowed = client.request("GET", "/v1/items/special", token="narrow")
    assert allowed.status == 200
    denied = client.request("GET", "/v1/items/1", token="narrow")
    assert denied.status == 401
    assert denied.json()["detail"] == "User is not authorized to access this resource"


def test_authorizer_failures_are_5xx(client: Client) -> None:
    crash = client.request("GET", "/v1/items/special", token="crash")
    assert crash.status == 500
    assert crash.json() == {"code": "internal", "type": "AUTHORIZER_FAILURE"}
    bad = client.request("GET", "/v1/items/special", token="bad-context")
    assert bad.status == 500
    assert bad.json() == {"code": "internal", "type": "AUTHORIZER_CONFIGURATION_ERROR"}


def test_unknown_route_and_method_are_the_templates_gateway_response(client: Client) -> None:
    for method, path in [
        ("GET", "/v1/nope"),
        ("DELETE", "/v1/users"),
        ("GET", "/v1/users"),
        ("POST", "/v1/items/1/bump/extra"),
        ("POST", "/"),
    ]:
        reply = client.request(method, path, headers={"User-Agent": "agent-7"})
        assert reply.status == 404, (method, path)
        assert reply.json() == {"status": 404, "code": "not_found", "path": path}
        assert reply.header("Content-Type") == "application/problem+json"
        assert reply.header("X-Echo-Agent") == "agent-7"  # method.request.header mapping


def test_function_errors_are_502_and_the_stack_lives_on(client: Client) -> None:
    boom = client.request("POST", "/v1/boom", {"a": 1})
    assert boom.status == 502
    assert boom.json() == {"code": "internal", "type": "DEFAULT_5XX"}
    malformed = client.request("GET", "/v1/malformed")
    assert malformed.status == 502
    assert client.request("GET", "/v1/public/echo").status == 200


def test_single_and_multi_value_response_headers_are_merged(client: Client) -> None:
    reply = client.request("GET", "/v1/cookies")
    assert reply.status == 200
    assert sorted(reply.header_values("Set-Cookie")) == ["a=1", "b=2", "c=3"]
    assert reply.header("X-Single") == "one"
    assert reply.body == b""


def test_method_settings_throttle_with_the_templates_answer(client: Client) -> None:
    statuses = [client.request("GET", "/v1/limited").status for _ in range(4)]
    assert statuses == [200, 200, 429, 429]  # burst 2, then (almost) no refill
    throttled = client.request("GET", "/v1/limited")
    assert throttled.json() == {"status": 429, "code": "throttled"}
    assert throttled.header("Retry-After") == "1"
    # other methods have their own buckets
    assert client.request("GET", "/v1/public/echo").status == 200


def test_cors_preflight_answers_without_the_authorizer(client: Client) -> None:
    reply = client.request("OPTIONS", "/v1/items/7")
    assert reply.status == 200
    assert reply.header("Access-Control-Allow-Origin") == "*"
    assert reply.header("Access-Control-Allow-Headers") == "Authorization,Content-Type"
    assert reply.header("Access-Control-Allow-Methods") == "GET,OPTIONS"
    assert reply.header("Access-Control-Max-Age") == "600"


def test_cors_preflight_of_a_path_with_any_is_the_preflight(client: Client) -> None:
    """SAM gives the preflight to every path with no OPTIONS of its own, one with ANY too."""
    reply = client.request("OPTIONS", "/v1/public/echo")
    assert reply.status == 200
    assert reply.body == b""
    assert reply.header("Access-Control-Allow-Methods") == "DELETE,GET,HEAD,OPTIONS,PATCH,POST,PUT"
    assert client.request("DELETE", "/v1/public/echo").json()["event"]["httpMethod"] == "DELETE"


def test_request_over_api_gateways_limit_is_413(running: Running) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", running.client.port, timeout=10)
    try:
        connection.putrequest("POST", "/v1/users")
        connection.putheader("Content-Length", str(11 * 1024 * 1024))
        connection.endheaders()
        reply = connection.getresponse()
        assert reply.status == 413
        assert b"Request Too Long" in reply.read()
    finally:
        connection.close()


def test_static_files(client: Client) -> None:
    index = client.request("GET", "/")
    assert index.status == 200
    assert index.header("Content-Type") == "text/html; charset=utf-8"
    assert index.body == (FIXTURES / "web" / "index.html").read_bytes()
    script = client.request("GET", "/js/app.js")
    assert script.header("Content-Type") == "text/javascript; charset=utf-8"
    assert script.body == b"export const answer = 42;\n"
    assert client.request("GET", "/css/site.css").header("Content-Type") == (
        "text/css; charset=utf-8"
    )
    head = client.request("HEAD", "/index.html")
    assert head.status == 200
    assert head.body == b""
    assert head.header("Content-Length") == str(len(index.body))
    assert client.request("GET", "/missing.png").status == 404
    assert client.request("GET", "/../secret.txt").status == 404
    assert client.request("GET", "/%2e%2e/secret.txt").status == 404


def test_chunked_bodies_and_bad_lengths(running: Running) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", running.client.port, timeout=10)
    try:
        connection.request(
            "POST",
            "/v1/public/echo",
            body=iter([b'{"a": ', b"1}"]),
            headers={"Content-Type": "application/json"},
            encode_chunked=True,
        )
        reply = connection.getresponse()
        assert reply.status == 200
        assert json.loads(reply.read())["event"]["body"] == '{"a": 1}'
    finally:
        connection.close()
    bad = running.client.request("POST", "/v1/public/echo", headers={"Content-Length": "x"})
    assert bad.status == 400


def _send_and_read_to_eof(port: int, request: bytes, *, end_writes: bool) -> bytes:
    """Send the bytes as they are (end_writes: then EOF, as a client that dies mid-request
    does); every byte the server sends until it closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=RAW_TIMEOUT_S) as connection:
        connection.sendall(request)
        if end_writes:
            connection.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
        return received


def _new_item(client: Client, item: str) -> None:
    """The item, at version 1."""
    reply = client.request("POST", f"/v1/items/{item}/bump", {"expected": 0}, token="user-bob")
    assert reply.status == 200, reply.body


def _item_version(client: Client, item: str) -> int:
    reply = client.request("GET", f"/v1/items/{item}", token="user-bob")
    assert reply.status == 200, reply.body
    return int(reply.json()["item"]["version"])


def _bump(item: str, body: bytes, content_length: int) -> bytes:
    return (
        f"POST /v1/items/{item}/bump HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer user-bob\r\n"
        f"Content-Type: application/json\r\nContent-Length: {content_length}\r\n\r\n"
    ).encode() + body


def test_a_body_shorter_than_its_length_then_eof_is_not_executed(running: Running) -> None:
    client = running.client
    body = b'{"expected": 1}'  # whole JSON, yet short of the length the request declares
    _new_item(client, "cut")
    answer = _send_and_read_to_eof(
        running.client.port, _bump("cut", body, len(body) + 10), end_writes=True
    )
    assert answer == b""  # nothing answered: the connection is just closed
    assert _item_version(client, "cut") == 1  # and the bump did not run
    chunked = (
        b"POST /v1/items/cut/bump HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer user-bob\r\n"
        b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        + f"{len(body):x}\r\n".encode()
        + body
        + b"\r\n"  # and no last chunk
    )
    assert _send_and_read_to_eof(running.client.port, chunked, end_writes=True) == b""
    assert _item_version(client, "cut") == 1


def test_a_header_section_without_its_end_then_eof_is_not_executed(running: Running) -> None:
    client = running.client
    before = client.request("GET", "/v1/echo/whole", token="user-bob").json()["invocations"]
    for cut in (b"\r\n", b""):  # EOF after a whole header line, or inside one
        request = b"GET /v1/echo/cut HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer user-bob" + cut
        assert _send_and_read_to_eof(running.client.port, request, end_writes=True) == b""
    after = client.request("GET", "/v1/echo/whole", token="user-bob").json()["invocations"]
    assert after == before + 1  # the warm environment served nothing in between


def test_a_body_that_stalls_is_408_and_not_executed(
    running: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(running.server, "request_s", 1)  # not REQUEST_S: a cheaper test
    client = running.client
    _new_item(client, "stall")
    body = b'{"expected": 1}'
    answer = _send_and_read_to_eof(
        running.client.port, _bump("stall", body[:5], len(body)), end_writes=False
    )
    head, _, document = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 408 "), answer
    assert b"\r\nConnection: close\r\n" in head + b"\r\n"
    assert b"\r\nContent-Type: application/problem+json\r\n" in head + b"\r\n"
    problem = json.loads(document)
    assert problem["status"] == 408 and problem["code"] == "request_timeout"
    assert set(problem) == {"type", "title", "status", "detail", "code"}
    assert _item_version(client, "stall") == 1


def test_a_multipart_content_type_is_a_header_like_any(running: Running) -> None:
    """The mail parser's multipart defects are about a body it was never given: the
    request reaches the function, which says what it takes (the service: 415)."""
    request = (
        b"POST /v1/public/echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        b"Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 7\r\n\r\n--x--\r\n"
    )
    answer = _send_and_read_to_eof(running.client.port, request, end_writes=False)
    assert answer.startswith(b"HTTP/1.1 200 "), answer
    event = json.loads(answer.partition(b"\r\n\r\n")[2])["event"]
    assert event["headers"]["Content-Type"] == "multipart/form-data; boundary=x"
    assert event["body"] == "--x--\r\n"


@pytest.mark.parametrize(
    "header_lines",
    [b"From x\r\nHost: x\r\n", b"Host: x\r\nFrom x\r\n"],
    ids=["envelope-first", "envelope-last"],
)
def test_a_header_line_the_mail_parser_drops_unsaid_is_400(
    running: Running, header_lines: bytes
) -> None:
    """`From x` is a mailbox's envelope line to the mail parser, dropped with no defect."""
    request = b"GET /v1/public/echo HTTP/1.1\r\n" + header_lines + b"\r\n"
    answer = _send_and_read_to_eof(running.client.port, request, end_writes=True)
    assert answer.startswith(b"HTTP/1.1 400 "), answer
    document = json.loads(answer.partition(b"\r\n\r\n")[2])
    assert document["detail"].startswith("illegal header line")  # h11's words


def _trickle(port: int, head: bytes, body: bytes) -> bytes:
    """Send the head at once and the body a byte every 0.2 s (each read of the server's
    gets a byte); every byte the server sends until it closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=RAW_TIMEOUT_S) as connection:

        def send() -> None:
            try:
                connection.sendall(head)
                for byte in body:
                    time.sleep(0.2)
                    connection.sendall(bytes([byte]))
            except OSError:  # the server closed the connection first
                pass

        sender = threading.Thread(target=send)
        sender.start()
        received = b""
        try:
            while chunk := connection.recv(65536):
                received += chunk
        except ConnectionResetError:  # bytes sent after its close: received is whole
            pass
        sender.join()
        return received


@pytest.mark.parametrize("trickled", ["head", "body"])
def test_a_request_trickled_past_its_time_is_408_and_not_executed(
    running: Running, monkeypatch: pytest.MonkeyPatch, trickled: str
) -> None:
    """The whole request must arrive within the server's time from its first byte, however
    steadily its bytes come (issue 43, item 7: a 7-byte body ran after 69 s)."""
    monkeypatch.setattr(running.server, "request_s", 1)  # REQUEST_S is 10
    client = running.client
    item = f"trickle-{trickled}"
    _new_item(client, item)
    request = _bump(item, b'{"expected": 1}', len(b'{"expected": 1}'))
    head, body = (b"", request) if trickled == "head" else request.split(b"\r\n\r\n", 1)
    answer = _trickle(running.client.port, head + b"\r\n\r\n" * (trickled == "body"), body)
    status_line, _, document = answer.partition(b"\r\n\r\n")
    assert status_line.startswith(b"HTTP/1.1 408 "), answer
    assert json.loads(document)["code"] == "request_timeout"
    assert _item_version(client, item) == 1


def test_bodies_held_at_once_are_bounded_across_connections(running: Running) -> None:
    """Three 10 MB bodies on their way fit in what a port holds at once (BODIES_HELD, 32
    MiB), a fourth does not: it is 503 before a byte of it is sent (issue 43, item 7: 40
    connections holding 9.9 MB bodies took the stack from 139 to 517 MB)."""
    head = (
        b"POST /v1/public/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Expect: 100-continue\r\nContent-Length: 10000000\r\n\r\n"
    )
    port = running.client.port
    held = [socket.create_connection(("127.0.0.1", port), timeout=RAW_TIMEOUT_S) for _ in "abc"]
    try:
        for connection in held:
            connection.sendall(head)  # the 100 says the server holds room for the body
            assert connection.recv(65536).startswith(b"HTTP/1.1 100 Continue\r\n")
        refused = _send_and_read_to_eof(port, head, end_writes=False)
    finally:
        for connection in held:
            connection.close()
    status_line, _, document = refused.partition(b"\r\n\r\n")
    assert status_line.startswith(b"HTTP/1.1 503 "), refused
    assert b"\r\nRetry-After: 1\r\n" in status_line + b"\r\n"
    assert json.loads(document)["code"] == "unavailable"
    # The room of a body whose connection ended is free again (once the server sees the end).
    deadline = time.monotonic() + RAW_TIMEOUT_S
    while time.monotonic() < deadline:
        with socket.create_connection(("127.0.0.1", port), timeout=RAW_TIMEOUT_S) as connection:
            connection.sendall(head)
            if connection.recv(65536).startswith(b"HTTP/1.1 100 Continue\r\n"):
                return
        time.sleep(0.05)
    raise AssertionError("the ended connections' bodies are still held")
