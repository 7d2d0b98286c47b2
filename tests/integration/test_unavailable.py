"""A table that cannot be reached (issue 19): the routes answer 503 `unavailable` with
`Retry-After` within the store's timeouts, health says so, and a write whose answer was
lost replays when retried with its key. The store talks to real sockets on loopback: one
nobody listens on, one that answers DynamoDB's 500, one that never answers."""

from __future__ import annotations

import base64
import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import boto3
import pytest
from botocore.exceptions import ReadTimeoutError

from blackjack_service import factories

from .harness import Gateway, Reply
from .helpers import Player, assert_ledger, balance, problem
from .seeds import find_seed, use_seeds, value

BET = {"bets": [{"box": 0, "amount": 100}]}
# A shoe whose first round waits for the player (10 or 11 against a small card).
IN_PLAY = find_seed(6, lambda s: value(s[0]) + value(s[2]) in (10, 11) and 2 <= value(s[1]) <= 9)
# What a player's requests read or write: each must say 503 when the table is gone.
ROUTES: list[tuple[str, str, Any]] = [
    ("GET", "/v1/me", None),
    ("GET", "/v1/tables/european", None),
    ("POST", "/v1/tables/european/rounds", BET),
    ("GET", "/v1/rounds", None),
    ("POST", "/v1/sessions", {"login": "alice1", "password": "password1"}),
]


def _table_at(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    """The functions' store talks to `url` from their next request on."""
    monkeypatch.setenv("AWS_ENDPOINT_URL_DYNAMODB", url)
    factories.reset()


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def _answering(status: int, code: str) -> Iterator[tuple[int, list[str]]]:
    """A DynamoDB look-alike answering every request with that error; yields its port and
    the targets of the requests it got."""
    targets: list[str] = []

    class Failing(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            targets.append(self.headers.get("X-Amz-Target", ""))
            body = f'{{"__type":"com.amazonaws.dynamodb.v20120810#{code}","message":"down"}}'
            self.send_response(status)
            self.send_header("Content-Type", "application/x-amz-json-1.0")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body.encode())

        def log_message(self, *_: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Failing)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], targets
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def _silent() -> Iterator[int]:
    """A port that takes connections and never answers; yields it."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    try:
        yield int(listener.getsockname()[1])
    finally:
        listener.close()


def _timed(api: Gateway, method: str, path: str, **kwargs: Any) -> tuple[Reply, float]:
    started = time.monotonic()
    reply = api.request(method, path, **kwargs)
    return reply, time.monotonic() - started


@contextmanager
def _attempts() -> Iterator[list[tuple[int, str]]]:
    """The attempts the store's client makes meanwhile, each as its number within its call
    and the name of the error it ended on (botocore asks whether to retry after each)."""
    made: list[tuple[int, str]] = []

    def record(attempts: int, caught_exception: Exception | None, **_: Any) -> None:
        made.append((attempts, type(caught_exception).__name__))

    events = factories.store().client.meta.events
    events.register("needs-retry.dynamodb", record)
    try:
        yield made
    finally:
        events.unregister("needs-retry.dynamodb", record)


def _unavailable(reply: Reply) -> None:
    problem(reply, 503, "unavailable")
    assert reply.header("Retry-After") == "2"


def test_health_is_ok_while_the_table_answers(api: Gateway) -> None:
    reply = api.request("GET", "/v1/health")
    assert (reply.status, reply.body) == (200, {"status": "ok"})


def test_a_table_nobody_listens_on_is_503_at_once(
    api: Gateway, alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At once: each call's one attempt is refused (EndpointConnectionError), so no request
    waits on a timeout or a retry; the seconds are printed, not asserted."""
    _table_at(monkeypatch, f"http://127.0.0.1:{_closed_port()}")
    for method, path, body in [*ROUTES, ("GET", "/v1/health", None)]:
        with _attempts() as attempts:
            reply, seconds = _timed(api, method, path, body=body, token=alice.token)
        print(f"{method} {path}: {reply.status} in {seconds:.2f} s, attempts {attempts}")
        _unavailable(reply)
        assert attempts == [(1, "EndpointConnectionError")], (method, path, attempts)


def test_a_table_answering_500_is_503_without_a_retry(
    api: Gateway, alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    for status, code in ((500, "InternalServerError"), (503, "ServiceUnavailable")):
        with _answering(status, code) as (port, targets):
            _table_at(monkeypatch, f"http://127.0.0.1:{port}")
            reply, seconds = _timed(api, "GET", "/v1/me", token=alice.token)
            print(f"{code}: {reply.status} in {seconds:.2f} s, requests {targets}")
            _unavailable(reply)
            assert targets == ["DynamoDB_20120810.BatchGetItem"]  # one call, not sent again
            health = api.request("GET", "/v1/health")
            _unavailable(health)


def test_a_table_that_never_answers_is_503_within_the_timeouts(
    api: Gateway, alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Within the timeouts: health's one call ends on its read timeout after one attempt
    (no retry, no hang); the seconds it took are printed."""
    with _silent() as port:
        _table_at(monkeypatch, f"http://127.0.0.1:{port}")
        with _attempts() as attempts:
            reply, seconds = _timed(api, "GET", "/v1/health")
        print(f"health of a silent table: {reply.status} in {seconds:.2f} s, attempts {attempts}")
        _unavailable(reply)
        assert attempts == [(1, "ReadTimeoutError")]


def test_a_bet_that_landed_unanswered_is_503_and_its_retry_replays(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_seeds(monkeypatch, IN_PLAY)  # the bet's one write is the player's item
    key = {"Idempotency-Key": "lost-answer"}
    assert alice.get("/v1/tables/casino").status == 200
    events = factories.store().client.meta.events
    lost: list[str] = []

    def lose_the_answer(**_: Any) -> None:
        # The player's item is written; its answer is lost on the way back, once.
        if not lost:
            lost.append("PutItem")
            raise ReadTimeoutError(endpoint_url="http://dynamodb")

    events.register("after-call.dynamodb.PutItem", lose_the_answer)
    try:
        first = alice.post("/v1/tables/casino/rounds", BET, headers=key)
    finally:
        events.unregister("after-call.dynamodb.PutItem", lose_the_answer)
    _unavailable(first)
    assert lost and balance("alice1") == 9900  # it landed
    again = alice.post("/v1/tables/casino/rounds", BET, headers=key)
    assert again.status == 201, again.text
    assert again.body["status"] == "player_turn" and again.body["balance"] == 9900
    assert balance("alice1") == 9900  # charged once
    assert_ledger("alice1")


def _sent(wire: Any) -> Any:
    """A request's parameters as it went on the wire (binary values in base64), as a
    client takes them."""
    if isinstance(wire, dict):
        if set(wire) == {"B"}:
            return {"B": base64.b64decode(wire["B"])}
        return {name: _sent(value) for name, value in wire.items()}
    return [_sent(value) for value in wire] if isinstance(wire, list) else wire


def test_a_settling_write_that_landed_unanswered_keeps_its_round(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Sent again, the landed write's condition would fail: a done round would pass for a
    # lost race (409) while its money had moved.
    use_seeds(monkeypatch, IN_PLAY)
    assert alice.get("/v1/tables/casino").status == 200
    assert alice.post("/v1/tables/casino/rounds", BET).status == 201
    client = factories.store().client
    puts: list[str] = []

    def lose_the_player_items_answer(request: Any, **_: Any) -> None:
        # The stand's one write, the player's item, written (by another client) and its
        # answer lost, inside botocore's send loop where a retry starts.
        puts.append("PutItem")
        if len(puts) == 1:
            boto3.client("dynamodb").put_item(**_sent(json.loads(request.body)))
            raise ReadTimeoutError(endpoint_url="http://dynamodb")

    key = {"Idempotency-Key": "lost-settling-answer"}
    client.meta.events.register("before-send.dynamodb.PutItem", lose_the_player_items_answer)
    try:
        first = alice.post("/v1/tables/casino/round/actions", {"action": "stand"}, headers=key)
    finally:
        client.meta.events.unregister("before-send.dynamodb.PutItem", lose_the_player_items_answer)
    _unavailable(first)
    again = alice.post("/v1/tables/casino/round/actions", {"action": "stand"}, headers=key)
    assert again.status == 200, again.text
    assert again.body["status"] == "settled"
    # The round whose money moved is in the history.
    assert alice.get(f"/v1/rounds/{again.body['round_id']}").status == 200, "withdrawn"
    assert_ledger("alice1")
