"""Nobody but the stack reads or writes its data or its key (issue 19, items 1 and 2).

Another local user (`nobody`, through setpriv or runuser) tries what an attacker did:
GetSecretValue on the secrets endpoint, DynamoDB calls on the JVM's port (on loopback and
on the host's other address) and on the forwarder the functions use, unsigned, signed
with made-up credentials, and as a web page's preflight. Every one is refused; the
stack's own functions, holding the stack's credentials, are answered as before.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import pwd
import secrets
import shutil
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from tests.integration.local_stack.harness import Running, running_stack

OTHER_USER = "nobody"
# Run as the other user by a Python it can execute (the venv's may be in a private home):
# it sends each raw request and prints what came back, or the error.
PROBE = r"""
import base64, json, socket, sys
out = []
for target, raw in json.load(sys.stdin):
    try:
        if isinstance(target, str):
            sock = socket.socket(socket.AF_UNIX)
            sock.settimeout(5)
            sock.connect(target)
        else:
            sock = socket.create_connection(tuple(target), timeout=5)
        with sock:
            sock.sendall(base64.b64decode(raw))
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
        out.append(data.decode("latin-1"))
    except OSError as exc:
        out.append(f"error: {type(exc).__name__}: {exc}")
print(json.dumps(out))
"""


def _as_other_user() -> list[str] | str:
    """The command prefix that runs a program as OTHER_USER, or why there is none."""
    if os.geteuid() != 0:
        return "acting as another local user needs root"
    try:
        pwd.getpwnam(OTHER_USER)
    except KeyError:
        return f"no user {OTHER_USER!r} on this machine"
    if shutil.which("setpriv"):
        prefix = ["setpriv", f"--reuid={OTHER_USER}", "--regid=nogroup", "--clear-groups"]
        if subprocess.run([*prefix, "true"], capture_output=True).returncode == 0:
            return prefix
    if shutil.which("runuser"):
        return ["runuser", "-u", OTHER_USER, "--"]
    return "neither setpriv nor runuser is installed"


def _python_for(prefix: list[str]) -> str | None:
    for python in ("/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"):
        if subprocess.run([*prefix, python, "-c", "pass"], capture_output=True).returncode == 0:
            return python
    return None


@pytest.fixture(scope="module")
def other_user() -> Iterator[list[str]]:
    prefix = _as_other_user()
    if isinstance(prefix, str):
        pytest.skip(prefix)
    python = _python_for(prefix)
    if python is None:
        pytest.skip(f"no Python that {OTHER_USER} may run")
    yield [*prefix, python, "-I", "-c", PROBE]


def from_other_user(command: list[str], *requests: tuple[Any, bytes]) -> list[str]:
    """Each (address, raw request) sent by the other user; what it got, one a request."""
    batch = [(target, base64.b64encode(raw).decode()) for target, raw in requests]
    done = subprocess.run(
        command, input=json.dumps(batch), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    answers: list[str] = json.loads(done.stdout)
    return answers


def raw_request(
    endpoint: str,
    target: str,
    body: dict[str, Any],
    credentials: Credentials | None,
    service: str,
    extra: dict[str, str] | None = None,
) -> bytes:
    """A JSON-protocol request as botocore sends it, signed with credentials if any."""
    data = json.dumps(body).encode()
    headers = {
        "Content-Type": "application/x-amz-json-1.1",
        "X-Amz-Target": target,
        **(extra or {}),
    }
    request = AWSRequest(method="POST", url=f"{endpoint}/", data=data, headers=headers)
    if credentials is not None:
        SigV4Auth(credentials, service, "us-east-1").add_auth(request)
    host = endpoint.removeprefix("http://")
    lines = ["POST / HTTP/1.1", f"Host: {host}", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in request.headers.items()]
    lines.append(f"Content-Length: {len(data)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + data


def made_up() -> Credentials:
    """Credentials as the stack makes them, that the stack did not make."""
    key_id = "ASIA" + secrets.token_hex(8).upper()
    return Credentials(key_id, secrets.token_urlsafe(32), secrets.token_urlsafe(32))


def guessed_secret(environment: dict[str, str]) -> Credentials:
    """The stack's access key id and session token, with a wrong secret key."""
    return Credentials(
        environment["AWS_ACCESS_KEY_ID"], "guessed", environment["AWS_SESSION_TOKEN"]
    )


def namespaces_refused() -> str | None:
    """Why this machine gives a program no network namespace of its own, if it does not."""
    if shutil.which("unshare") is None:
        return "unshare is not installed"
    for prefix in (["unshare", "--net"], ["unshare", "--net", "--map-root-user"]):
        if subprocess.run([*prefix, "true"], capture_output=True).returncode == 0:
            return None
    return "unshare --net is refused here"


def preflight(host: str) -> bytes:
    return (
        f"OPTIONS / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n"
        "Origin: http://attacker.example\r\nAccess-Control-Request-Method: POST\r\n"
        "Access-Control-Request-Headers: authorization,content-type,x-amz-target\r\n\r\n"
    ).encode()


def address(endpoint: str) -> tuple[str, int]:
    host, _, port = endpoint.removeprefix("http://").rpartition(":")
    return host, int(port)


def status_of(answer: str) -> int:
    assert answer.startswith("HTTP/1.1 "), answer
    return int(answer.split()[1])


def error_code(answer: str) -> str:
    document = json.loads(answer.partition("\r\n\r\n")[2])
    return str(document["__type"]).rpartition("#")[2]


def host_addresses() -> list[str]:
    """127.0.0.1 and this host's address on its default route, if it has one."""
    found = ["127.0.0.1"]
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: it picks the source address
            outward = probe.getsockname()[0]
        except OSError:
            return found
    return found if outward.startswith("127.") else [*found, outward]


def listening_inodes() -> set[str]:
    """The inodes of the TCP sockets listening in this process's network namespace."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":  # LISTEN
                inodes.add(fields[9])
    return inodes


def socket_inodes(pid: int) -> set[str]:
    inodes: set[str] = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:[") : -1])
    return inodes


def test_another_user_gets_no_secret(running: Running, other_user: list[str]) -> None:
    data = running.stack.data
    environment = data.environment()
    endpoint = environment["AWS_ENDPOINT_URL_SECRETS_MANAGER"]
    secret = data.client("secretsmanager").get_secret_value(SecretId="TokenSecret")
    value = secret["SecretString"]
    ask = {"SecretId": "TokenSecret"}
    target = "secretsmanager.GetSecretValue"
    answers = from_other_user(
        other_user,
        *(
            (address(endpoint), raw_request(endpoint, target, ask, signer, "secretsmanager"))
            for signer in (None, made_up(), guessed_secret(environment))
        ),
    )
    print(f"{OTHER_USER} asking GetSecretValue:", [a.splitlines()[0] for a in answers])
    assert [status_of(a) for a in answers] == [403, 403, 403]
    assert [error_code(a) for a in answers] == [
        "MissingAuthenticationTokenException",
        "UnrecognizedClientException",
        "InvalidSignatureException",
    ]
    assert not any(value in answer for answer in answers)


def test_dynamodb_local_has_no_port_on_the_host(running: Running, other_user: list[str]) -> None:
    refused = namespaces_refused()
    if refused is not None:
        pytest.skip(f"{refused}: the JVM listens on every interface, as the stack warns")
    dynamodb = running.stack.data.dynamodb
    assert dynamodb.process is not None
    jvm = dynamodb.process.pid
    # The JVM listens, but in its own namespace: none of its sockets listens in ours.
    assert not socket_inodes(jvm) & listening_inodes()
    list_tables = raw_request(
        "http://127.0.0.1", "DynamoDB_20120810.ListTables", {}, made_up(), "dynamodb"
    )
    attempts: list[tuple[Any, bytes]] = [
        ((host, dynamodb.port), list_tables) for host in host_addresses()
    ]
    # the stack's door to the JVM is a socket in DATA_DIR, which is its owner's only
    attempts.append((str(dynamodb.db_path / "dynamodb.sock"), list_tables))
    answers = from_other_user(other_user, *attempts)
    print(f"{OTHER_USER} on the JVM's port {dynamodb.port} and socket:", answers)
    assert not any("TableNames" in answer for answer in answers)
    assert answers[-1].startswith("error: PermissionError")


def test_the_forwarder_answers_the_stacks_credentials_only(
    running: Running, other_user: list[str]
) -> None:
    data = running.stack.data
    environment = data.environment()
    endpoint = environment["AWS_ENDPOINT_URL_DYNAMODB"]
    host = endpoint.removeprefix("http://")
    target = "DynamoDB_20120810.ListTables"
    answers = from_other_user(
        other_user,
        *(
            (address(endpoint), raw_request(endpoint, target, {}, signer, "dynamodb"))
            for signer in (None, made_up(), guessed_secret(environment))
        ),
        (address(endpoint), preflight(host)),
        (
            address(endpoint),
            raw_request(endpoint, target, {}, None, "dynamodb", {"Origin": "http://a.example"}),
        ),
    )
    print(f"{OTHER_USER} on the forwarder:", [a.splitlines()[0] for a in answers])
    assert [status_of(a) for a in answers] == [403] * 5
    assert [error_code(a) for a in answers][:3] == [
        "MissingAuthenticationTokenException",
        "UnrecognizedClientException",
        "InvalidSignatureException",
    ]
    for answer in answers:
        assert "TableNames" not in answer
        assert "access-control-" not in answer.partition("\r\n\r\n")[0].lower()
    # the stack's own clients and functions hold the credentials: answered as before
    assert data.client("dynamodb").list_tables()["TableNames"]
    assert running.client.request("GET", "/v1/echo/s", token="user-i").status == 200
    bumped = running.client.request("POST", "/v1/items/i1/bump", {"expected": 0}, token="user-i")
    assert bumped.status == 200, bumped.body


def test_no_web_page_may_read_dynamodb_local(running: Running) -> None:
    """The JVM's CORS allow-list matches no Origin a browser sends (it allowed `*`)."""
    dynamodb = running.stack.data.dynamodb
    for origin in ("http://attacker.example", "null", "http://127.0.0.1:3000"):
        with dynamodb.connect(timeout=10) as connection:
            connection.sendall(
                preflight("localhost").replace(b"http://attacker.example", origin.encode())
            )
            answer = b""
            while chunk := connection.recv(65536):
                answer += chunk
        head = answer.partition(b"\r\n\r\n")[0].decode("latin-1").lower()
        assert "access-control-allow-origin" not in head, (origin, head)


def test_without_a_namespace_the_stack_says_so_once_and_checks_signatures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    java = shutil.which("java")
    assert java is not None
    only_java = tmp_path / "bin"
    only_java.mkdir()
    (only_java / "java").symlink_to(java)
    monkeypatch.setenv("PATH", str(only_java))  # no unshare: no namespace
    with caplog.at_level(logging.WARNING, "local_stack"), running_stack(tmp_path / "d") as running:
        environment = running.stack.data.environment()
        endpoint = environment["AWS_ENDPOINT_URL_DYNAMODB"]
        list_tables = raw_request(endpoint, "DynamoDB_20120810.ListTables", {}, None, "dynamodb")
        with socket.create_connection(address(endpoint), timeout=10) as connection:
            connection.sendall(list_tables)
            answer = connection.recv(65536).decode("latin-1")
        bumped = running.client.request(
            "POST", "/v1/items/n1/bump", {"expected": 0}, token="user-n"
        )
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    print("without a namespace:", warnings)
    assert len(warnings) == 1 and "network namespace" in warnings[0], warnings
    assert status_of(answer) == 403
    assert bumped.status == 200, bumped.body
