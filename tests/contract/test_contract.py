"""Schemathesis against the running local stack (repository's template.yaml), as a user
who has logged in and viewed every table: every check but one (see schemathesis.toml and
UNCHECKED), the examples, coverage, fuzzing and stateful phases, deterministic.

`make test` runs it bounded (FUZZ_EXAMPLES examples per operation, default 10: the examples
and coverage phases, which the count does not bound, send most of its requests); `make
fuzz` runs it longer (500). It prints how many requests the stack answered, and in how long.
"""

from __future__ import annotations

import json
import logging
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.request import Request, urlopen

import pytest

from tests.e2e.environment import Stack

HERE = Path(__file__).parent
CONFIG = HERE / "schemathesis.toml"
# API Gateway answers a method a resource lacks with its MISSING_AUTHENTICATION_TOKEN
# response, 404 not_found (API.md allows it); schemathesis wants a 405 with `Allow`.
UNCHECKED = "unsupported_method"
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "10"))
_SUMMARY = re.compile(r"API Links:|Scenarios:|generated,")


class RequestCounter(logging.Handler):
    """Counts the requests the local stack's server answered (one log line each)."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.count += 1


@pytest.fixture(scope="module")
def base_url(shared_stack: Stack) -> str:
    """The stack the browser tests share (tests/conftest.py): its web ACL's rate limits
    are raised past what the fuzzer sends, its many logins and hints included."""
    return shared_stack.base_url


def _call(method: str, url: str, body: object = None, token: str | None = None) -> object:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    with urlopen(Request(url, data, headers, method=method), timeout=30) as response:
        return json.loads(response.read())


def _logged_in_user(base_url: str) -> str:
    """A user's token, with every table viewed (so a bet's shoe is committed)."""
    user = {"login": "fuzzer01", "nick": "fuzzer01", "password": "fuzzer01pass"}
    _call("POST", f"{base_url}/v1/users", user)
    session = _call("POST", f"{base_url}/v1/sessions", {k: user[k] for k in ("login", "password")})
    assert isinstance(session, dict)
    token = str(session["token"])
    for table in session["tables"]:
        _call("GET", f"{base_url}/v1/tables/{table['id']}", token=token)
    return token


def test_the_api_keeps_its_openapi_contract(
    base_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = _logged_in_user(base_url)
    counter = RequestCounter()
    logging.getLogger("local_stack").addHandler(counter)
    logging.getLogger("local_stack").setLevel(logging.INFO)
    command = [
        str(Path(sys.executable).with_name("st")),
        "--config-file",
        str(CONFIG),
        "--no-color",
        "run",
        f"{base_url}/v1/openapi.json",
        "--header",
        f"Authorization: Bearer {token}",
        "--checks",
        "all",
        "--exclude-checks",
        UNCHECKED,
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--max-examples",
        str(EXAMPLES),
        "--generation-deterministic",
        "--workers",
        "1",
        "--report-dir",
        str(tmp_path),
    ]
    started = time.perf_counter()
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=1800, cwd=tmp_path)
    finally:
        logging.getLogger("local_stack").removeHandler(counter)
    elapsed = time.perf_counter() - started
    summary = [line.strip() for line in result.stdout.splitlines() if _SUMMARY.search(line)]
    with capsys.disabled():
        print(
            f"\nschemathesis: {counter.count} requests in {elapsed:.0f} s "
            f"({EXAMPLES} examples per operation), exit code {result.returncode}; "
            + "; ".join(summary)
        )
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-5000:]
