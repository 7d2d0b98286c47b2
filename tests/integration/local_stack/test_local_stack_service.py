"""The real stack (template.yaml) against what issue 30 found.

A burst at a cold function is queued, not failed (item 4): 25 requests at once at a
function none has called yet, the authorizer cold behind them too. The stack starts no
more environments at once than the machine can warm; the other invocations wait for a
warm environment or a start slot, and every request is answered 200.

A multipart body is the service's 415 (item 5), not the local stack's 400."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.local_stack.harness import Running, running_stack

REPO = Path(__file__).resolve().parents[3]
BURST = 25  # the template's FunctionConcurrency: every request is within the cap
# A queued request waits for cold starts that a busy machine makes slow; the client must
# not give up first.
CLIENT_TIMEOUT_S = 600


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with running_stack(tmp_path_factory.mktemp("burst"), REPO / "template.yaml") as running:
        yield running


def _get(port: int, path: str, token: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=CLIENT_TIMEOUT_S)
    try:
        connection.request("GET", path, headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_a_burst_at_a_cold_function_is_queued_and_every_request_answered(real: Running) -> None:
    client = real.client
    account = {"login": "burst1", "nick": "burst1", "password": "password1"}
    assert client.request("POST", "/v1/users", account).status == 201
    session = client.request("POST", "/v1/sessions", {"login": "burst1", "password": "password1"})
    token = session.json()["token"]
    drills = real.stack.functions["DrillsFunction"]
    authorizer = real.stack.functions["AuthorizerFunction"]
    assert drills.environments() == [] and authorizer.environments() == []  # both cold

    answers: list[tuple[int, bytes]] = []
    start = threading.Barrier(BURST)

    def drill() -> None:
        start.wait()
        answers.append(_get(client.port, "/v1/tables/european/drills/next", token))

    threads = [threading.Thread(target=drill) for _ in range(BURST)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    statuses = sorted(status for status, _ in answers)
    assert statuses == [200] * BURST, [(s, b[:200]) for s, b in answers if s != 200]
    assert all(json.loads(body)["table"] == "european" for _, body in answers)


def test_a_multipart_body_is_the_services_415(real: Running) -> None:
    form = b"--x\r\nContent-Disposition: form-data; name=login\r\n\r\nbob12\r\n--x--\r\n"
    connection = http.client.HTTPConnection("127.0.0.1", real.client.port, timeout=60)
    try:
        connection.request(
            "POST",
            "/v1/users",
            body=form,
            headers={"Content-Type": "multipart/form-data; boundary=x"},
        )
        response = connection.getresponse()
        problem = json.loads(response.read())
    finally:
        connection.close()
    assert response.status == 415, problem
    assert problem["code"] == "unsupported_media_type"
    assert response.getheader("Content-Type") == "application/problem+json"
