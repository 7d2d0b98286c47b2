"""Requests per second through the local stack, over HTTP on loopback.

The real template's `POST /v1/tables/european/round/actions` `hit` when it exists
(a new round is dealt, untimed, whenever hitting is no longer possible), else the
fixture template's authenticated conditional write. Throttling is off: the figure is
the stack's own (HTTP, the authorizer, the function, moto, the snapshot to disk).
"""

from __future__ import annotations

import http.client
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
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
        data = None if body is None else json.dumps(body)
        self.http.request(method, path, body=data, headers=headers)
        response = self.http.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw else None


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


def real_workload(conn: Connection) -> tuple[str, Callable[[], bool]]:
    """Hits at the european table; returns the timed call (False: not a hit answer)."""
    login = f"bench{int(time.time() * 1000) % 10**9}"
    status, _ = conn.call(
        "POST", "/v1/users", {"login": login, "nick": login, "password": "benchpass1"}
    )
    assert status == 201, status
    status, session = conn.call("POST", "/v1/sessions", {"login": login, "password": "benchpass1"})
    assert status == 200, session
    conn.token = session["token"]
    conn.call("GET", "/v1/tables/european")
    state: dict[str, Any] = {"legal": []}

    def deal() -> None:
        status, view = conn.call(
            "POST", "/v1/tables/european/rounds", {"bets": [{"box": 0, "amount": 10}]}
        )
        assert status == 201, view
        state["legal"] = view["legal_actions"]

    def hit() -> bool:
        while "hit" not in state["legal"]:
            deal()  # not timed: the caller times only what hit() spends in the request below
        started = time.perf_counter()
        status, view = conn.call("POST", "/v1/tables/european/round/actions", {"action": "hit"})
        state["elapsed"] = time.perf_counter() - started
        assert status == 200, view
        state["legal"] = view["legal_actions"]
        return True

    return "POST /v1/tables/european/round/actions hit", hit_timer(hit, state)


def fixture_workload(conn: Connection) -> tuple[str, Callable[[], bool]]:
    conn.token = "user-bench"
    state: dict[str, Any] = {"expected": 0}

    def bump() -> bool:
        started = time.perf_counter()
        status, answer = conn.call("POST", "/v1/items/bench/bump", {"expected": state["expected"]})
        state["elapsed"] = time.perf_counter() - started
        assert status == 200, answer
        state["expected"] += 1
        return True

    return "POST /v1/items/{id}/bump (fixture template)", hit_timer(bump, state)


def hit_timer(call: Callable[[], bool], state: dict[str, Any]) -> Callable[[], bool]:
    def timed() -> bool:
        call()
        state.setdefault("latencies", []).append(state["elapsed"])
        return True

    timed.state = state  # type: ignore[attr-defined]
    return timed


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
                name, call = (real_workload if real else fixture_workload)(conn)
                for _ in range(min(20, requests)):  # warm up: imports, first shoe
                    call()
                state = call.state  # type: ignore[attr-defined]
                state["latencies"] = []
                for _ in range(requests):
                    call()
                latencies: list[float] = state["latencies"]
            finally:
                stop_server(server, thread)
        finally:
            stack.stop()
    total = sum(latencies)
    return {
        "route": name,
        "requests": len(latencies),
        "per_second": len(latencies) / total,
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
