"""Requests per second through the local stack, over HTTP on loopback.

The real template's `POST /v1/tables/european/round/actions` `hit` when it has that
route (a new round is dealt, untimed, whenever hitting is no longer possible), else
the fixture template's authenticated conditional write. Throttling is off: the figure
is the stack's own (HTTP, the authorizer, the function, moto, the journal fsync).
"""

from __future__ import annotations

import http.client
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from local_stack.server import start_server, stop_server
from local_stack.stack import LocalStack
from local_stack.template import TemplateError, load_template

REPO = Path(__file__).resolve().parent.parent
REAL_TEMPLATE = REPO / "template.yaml"
FIXTURE_TEMPLATE = REPO / "tests" / "integration" / "local_stack" / "fixtures" / "template.yaml"
ACTIONS_PATH = "/v1/tables/{table_id}/round/actions"
REQUESTS = int(os.environ.get("BENCH_LOCAL_STACK_REQUESTS", "300"))
WARM_UP = 20  # imports, the first shoe
TIMEOUT_S = 30


class Connection:
    """One keep-alive connection, as a browser tab would use."""

    def __init__(self, port: int) -> None:
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_S)
        self.token: str | None = None

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        self.http.request(method, path, None if body is None else json.dumps(body), headers)
        response = self.http.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None

    def timed(self, method: str, path: str, body: Any = None) -> tuple[float, int, Any]:
        started = time.perf_counter()
        status, answer = self.call(method, path, body)
        return time.perf_counter() - started, status, answer


class RealHits:
    """`hit` at the european table of the real template, as one fresh player."""

    name = "POST /v1/tables/european/round/actions hit"

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        login = f"bench{int(time.time() * 1000) % 10**9}"
        account = {"login": login, "nick": login, "password": "benchpass1"}
        status, answer = conn.call("POST", "/v1/users", account)
        assert status == 201, answer
        status, session = conn.call(
            "POST", "/v1/sessions", {"login": login, "password": "benchpass1"}
        )
        assert status == 200, session
        conn.token = session["token"]
        conn.call("GET", "/v1/tables/european")
        self.legal: list[str] = []

    def step(self) -> float:
        while "hit" not in self.legal:  # deal a new round, untimed
            bet = {"bets": [{"box": 0, "amount": 10}]}
            status, view = self.conn.call("POST", "/v1/tables/european/rounds", bet)
            assert status == 201, view
            self.legal = view["legal_actions"]
        elapsed, status, view = self.conn.timed(
            "POST", "/v1/tables/european/round/actions", {"action": "hit"}
        )
        assert status == 200, view
        self.legal = view["legal_actions"]
        return elapsed


class FixtureBumps:
    """The fixture template's authenticated conditional write, on a new item each time
    (the fixture's item keeps a list of its writers, which would grow)."""

    name = "POST /v1/items/{item_id}/bump (fixture template)"

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        conn.token = "user-bench"
        self.count = 0

    def step(self) -> float:
        self.count += 1
        path = f"/v1/items/bench{self.count}/bump"
        elapsed, status, answer = self.conn.timed("POST", path, {"expected": 0})
        assert status == 200, answer
        return elapsed


def has_actions_route(template: Path) -> bool:
    try:
        data = load_template(template)
    except TemplateError:
        return False
    for resource in (data.get("Resources") or {}).values():
        for event in ((resource.get("Properties") or {}).get("Events") or {}).values():
            props = event.get("Properties") or {}
            if props.get("Path") == ACTIONS_PATH and str(props.get("Method")).lower() == "post":
                return True
    return False


def run(requests: int = REQUESTS) -> dict[str, Any]:
    real = REAL_TEMPLATE.is_file() and has_actions_route(REAL_TEMPLATE)
    template = REAL_TEMPLATE if real else FIXTURE_TEMPLATE
    with tempfile.TemporaryDirectory(prefix="bench-local-stack-") as data_dir:
        stack = LocalStack(template, Path(data_dir), throttling=False)
        stack.start()
        try:
            server, thread = start_server(stack, "127.0.0.1", 0, None)
            try:
                conn = Connection(server.server_address[1])
                workload: RealHits | FixtureBumps = (RealHits if real else FixtureBumps)(conn)
                for _ in range(WARM_UP):
                    workload.step()
                latencies = [workload.step() for _ in range(requests)]
            finally:
                stop_server(server, thread)
        finally:
            stack.stop()
    return {
        "route": workload.name,
        "requests": len(latencies),
        "per_second": len(latencies) / sum(latencies),
        "p50_ms": statistics.median(latencies) * 1000,
        "p95_ms": statistics.quantiles(latencies, n=20)[-1] * 1000,
    }


def main() -> None:
    result = run()
    print(
        f"local_stack: {result['route']}: {result['requests']} requests, "
        f"{result['per_second']:.0f} req/s (one keep-alive client; "
        f"p50 {result['p50_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms)"
    )


if __name__ == "__main__":
    main()
