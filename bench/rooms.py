"""The bill of a million player-rounds at shared tables: rooms of 2 and of 5 users, beside
one user's rounds at the same table (`european`, one box each).

As `bench.cost` does (and with its meter): the real function handlers behind the local
stack's API Gateway in this process, on DynamoDB Local, in a fresh interpreter. Each user
holds one box, bets the table minimum every round, and answers their own decisions with
the `medium` hint (hints are not billed, as in `bench.cost`); every POST carries an
`Idempotency-Key`, and every action its `If-Match`.

What DynamoDB Local does not tell, counted here by AWS's rules:
- a transaction's write units: DynamoDB Local counts items of equal size once (see
  `bench.cost`); AWS bills each item written in a transaction twice its own units (its
  size rounded up to the KB). Room bets, doubles and settlements are transactions, so
  their units are computed from the items' sizes (AWS's item size: the UTF-8 bytes of
  each attribute's name and value; a number: its digits / 2 + 1 bytes);
- the deadline queue (SQS): one message for each write with a deadline pending, counted
  from what the rooms service sends (no queue runs here), priced per request;
- live updates: each change of a room goes to every watcher (every user of the room
  here) as one WebSocket message from the broadcast function, which the DynamoDB stream
  invokes once per change. Its compute is the time of `watcher_view` per change, measured
  here (the posts' network time is not: it runs on AWS); the messages are priced as API
  Gateway's WebSocket messages, the connection minutes for the time a round takes.

Run: `python -m bench rooms` (BENCH_ROOM_ROUNDS: rounds a room, 30).
"""

from __future__ import annotations

import functools
import json
import math
import os
import statistics
import sys
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from bench.cost import (
    PRICES,
    WARM_UP_ROUNDS,
    Call,
    CapacityMeter,
    dynamodb_local,
    lambda_config,
    played_apart,
    timed,
)

ROUNDS = int(os.environ.get("BENCH_ROOM_ROUNDS", "30"))
TABLE = "european"
ROOM_SIZES = (2, 5)
ROOMS_FUNCTION = "RoomsFunction"
GOAL_USD = 8.0  # DynamoDB + Lambda per million player-rounds at 5 users (issue 40)
# API Gateway's WebSocket API list prices (us-east-1, the first billion messages, read
# with prices.json's date): per million messages of up to 32 KB, per million
# connection minutes.
WEBSOCKET_USD_PER_MILLION_MESSAGES = 1.00
WEBSOCKET_USD_PER_MILLION_CONNECTION_MINUTES = 0.25
SQS_USD_PER_MILLION_REQUESTS = 0.40  # standard queue, past the free tier
BROADCAST_MEMORY_GB = 0.25  # the broadcast function's, assumed as RoomsFunction's


@dataclass
class Played:
    """One room size's (or the table's) requests and what they sent on."""

    label: str
    users: int
    rounds: int
    seconds: list[float] = field(default_factory=list)  # handler time a request
    calls: list[list[Call]] = field(default_factory=list)
    deadlines: int = 0  # deadline messages sent
    changes: int = 0  # room writes, each one live update to every watcher
    view_seconds: float = 0.0  # watcher_view's time over all changes
    wall_seconds: float = 0.0


def item_size(item: dict[str, Any]) -> int:
    """An item's size as DynamoDB bills it (attribute names and values, in bytes)."""
    return sum(len(name.encode()) + _value_size(value) for name, value in item.items())


def _value_size(value: dict[str, Any]) -> int:
    ((kind, inner),) = value.items()
    if kind == "S":
        return len(str(inner).encode())
    if kind == "N":
        return math.ceil(len(str(inner).lstrip("-").replace(".", "")) / 2) + 1
    if kind == "B":
        return len(inner if isinstance(inner, bytes) else str(inner).encode())
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "M":
        return 3 + sum(len(k.encode()) + _value_size(v) for k, v in inner.items())
    if kind == "L":
        return 3 + sum(_value_size(v) for v in inner)
    return sum(len(str(v).encode()) for v in inner)  # sets


def transaction_units(params: dict[str, Any]) -> float:
    """Write units of a TransactWriteItems by AWS's rule: each item twice its KBs."""
    units = 0.0
    for entry in params.get("TransactItems", []):
        ((_, request),) = entry.items()
        item = request.get("Item") or request.get("Key") or {}
        units += 2 * max(1, math.ceil(item_size(item) / 1024))
    return units


class _Bench:
    """The API in this process on DynamoDB Local, metered (see the module's docstring)."""

    def __init__(self, template: Any) -> None:
        from blackjack_service import factories
        from local_stack.in_process import InProcessApi

        factories.reset()
        self.sent: list[int] = []
        sent = self.sent

        class CountedDeadlines:
            def schedule(self, room_id: str, version: int, due_ms: int) -> None:
                sent.append(version)

        factories.deadlines = functools.cache(CountedDeadlines)
        self.factories = factories
        self.gateway = InProcessApi(template, throttling=False)
        self.client = factories.store().client
        self.meter = CapacityMeter(self.client)
        self.transactions: list[float] = []
        self.client.meta.events.register(
            "provide-client-params.dynamodb.TransactWriteItems",
            lambda params, **_: self.transactions.append(transaction_units(params)),
        )
        self.handler_seconds: list[float] = []
        for module_name in ("rooms", "rounds"):
            module: Any = self.gateway.modules[module_name]
            module.handler = timed(module.handler, self.handler_seconds)

    def sign_up(self) -> str:
        login = f"room{uuid.uuid4().hex[:12]}"
        account = {"login": login, "nick": login, "password": "password1"}
        self.gateway.request("POST", "/v1/users", account)
        session = self.gateway.request(
            "POST", "/v1/sessions", {"login": login, "password": "password1"}
        )
        return str(session.body["token"])

    def request(
        self,
        played: Played | None,
        method: str,
        path: str,
        token: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        """The request's answer; its handler time and calls go to `played` (None: not
        counted)."""
        self.meter.take()
        self.handler_seconds.clear()
        self.transactions.clear()
        headers = dict(headers or {})
        if method == "POST":
            headers["Idempotency-Key"] = uuid.uuid4().hex
        reply = self.gateway.request(method, path, body, token=token, headers=headers)
        assert reply.status < 400, (path, reply.status, reply.body)
        calls, overhead = self.meter.take()
        if played is not None:
            for made in calls:  # a transaction's units by AWS's rule
                if made.operation == "TransactWriteItems" and not made.failed:
                    made.write = self.transactions.pop(0)
            played.calls.append(calls)
            played.seconds.append(sum(self.handler_seconds) - overhead)
        return reply.body

    def room_item(self, room_id: str) -> dict[str, Any]:
        from blackjack_service.store import _from_item

        item = self.client.get_item(
            TableName=os.environ["TABLE_NAME"],
            Key={"pk": {"S": f"ROOM#{room_id}"}, "sk": {"S": "ROOM"}},
            ConsistentRead=True,
        )["Item"]
        return _from_item(item)

    def watched(
        self, played: Played | None, before: dict[str, Any], room_id: str
    ) -> dict[str, Any]:
        """The room item after a change, whose live update is made as the broadcast
        function makes it, timed."""
        after = self.room_item(room_id)
        if played is not None and after["version"] != before["version"]:
            start = time.perf_counter()
            self.factories.rooms().watcher_view(before, after)
            played.view_seconds += time.perf_counter() - start
            played.changes += 1
        return after

    def play_room(self, users: int, min_bet: int) -> Played:
        tokens = [self.sign_up() for _ in range(users)]
        body = {"table": TABLE, "boxes": [0]}
        room_id = self.request(None, "POST", "/v1/rooms", tokens[0], body)["room_id"]
        for box, token in enumerate(tokens[1:], start=1):
            self.request(None, "POST", f"/v1/rooms/{room_id}/seats", token, {"boxes": [box]})
        played = Played(f"room of {users}", users, ROUNDS)
        for number in range(WARM_UP_ROUNDS + ROUNDS):
            counting = played if number >= WARM_UP_ROUNDS else None
            start = time.perf_counter()
            before = self.room_item(room_id)
            self.sent.clear()
            for box, token in enumerate(tokens):
                bet = {"bets": [{"box": box, "amount": min_bet}]}
                room = self.request(counting, "POST", f"/v1/rooms/{room_id}/bets", token, bet)
                before = self.watched(counting, before, room_id)
            while room["phase"] in ("insurance", "player_turn"):
                token = tokens[room["round"]["turn"]["box"]]
                version = str(room["version"])
                room = self.medium_move(counting, f"/v1/rooms/{room_id}", token, version)
                before = self.watched(counting, before, room_id)
            if counting is not None:
                counting.deadlines += len(self.sent)
                counting.wall_seconds += time.perf_counter() - start
        return played

    def play_table(self, min_bet: int) -> Played:
        played = Played("table (1 user)", 1, ROUNDS)
        token = self.sign_up()
        self.request(None, "GET", f"/v1/tables/{TABLE}", token)
        for number in range(WARM_UP_ROUNDS + ROUNDS):
            counting = played if number >= WARM_UP_ROUNDS else None
            bet = {"bets": [{"box": 0, "amount": min_bet}]}
            view = self.request(counting, "POST", f"/v1/tables/{TABLE}/rounds", token, bet)
            while view["status"] != "settled":
                version = f'"{view["version"]}"'
                view = self.medium_move(counting, f"/v1/tables/{TABLE}/round", token, version)
        return played

    def medium_move(self, played: Played | None, path: str, token: str, version: str) -> Any:
        """The `medium` hint's action at the decision `path` (a round's or a room's) asks."""
        hint = self.request(None, "GET", f"{path}/hint?level=medium", token)
        body = {"action": hint["action"]}
        return self.request(played, "POST", f"{path}/actions", token, body, {"If-Match": version})


def _play_rooms(out: Path) -> None:
    from blackjack.rules import TABLES

    with dynamodb_local() as template:
        bench = _Bench(template)
        min_bet = TABLES[TABLE].min_bet
        results = [bench.play_room(users, min_bet) for users in ROOM_SIZES]
        results.append(bench.play_table(min_bet))
    out.write_text(json.dumps([asdict(played) for played in results]))


def play() -> list[Played]:
    rows = played_apart("bench.rooms")
    return [
        Played(**{**row, "calls": [[Call(**c) for c in calls] for calls in row["calls"]]})
        for row in rows
    ]


def main() -> None:
    prices = json.loads(PRICES.read_text())
    config = lambda_config(ROOMS_FUNCTION)
    gb_price = prices["lambda_usd_per_gb_second"][config.architecture]
    print(
        f"Per player-round at {TABLE} ({ROUNDS} rounds after {WARM_UP_ROUNDS} warm-up, one "
        f"box a user, medium play; transactions' units by AWS's rule; Lambda "
        f"{config.architecture} at {config.memory_gb * 1024:.0f} MB):"
    )
    print(
        f"  {'players':<15} {'requests':>8} {'RRU':>6} {'WRU':>6} {'GB-s':>8} {'WS msgs':>7} "
        f"{'SQS':>5} {'DynamoDB':>8} {'Lambda':>7} {'API GW':>7} {'WS+SQS':>7}  DynamoDB+Lambda"
    )
    for played in play():
        per = 1 / (played.rounds * played.users)
        requests = len(played.seconds) * per
        reads = sum(c.read for calls in played.calls for c in calls) * per
        writes = sum(c.write for calls in played.calls for c in calls) * per
        gb_seconds = sum(math.ceil(s * 1000) / 1000 * config.memory_gb for s in played.seconds)
        broadcasts = played.changes  # one invocation a change (the stream's batch of one)
        if broadcasts:
            view_ms = played.view_seconds / broadcasts
            gb_seconds += broadcasts * math.ceil(view_ms * 1000) / 1000 * BROADCAST_MEMORY_GB
        gb_seconds *= per
        invocations = requests + broadcasts * per + played.deadlines * per
        messages = played.changes * played.users * per
        minutes = played.wall_seconds / 60 * played.users * per
        dynamodb = (
            writes * prices["dynamodb_usd_per_million_write_units"]
            + reads * prices["dynamodb_usd_per_million_read_units"]
        )
        lambda_usd = (
            gb_seconds * 1e6 * gb_price + invocations * prices["lambda_usd_per_million_requests"]
        )
        api = requests * prices["api_gateway_rest_usd_per_million_requests"]
        live = (
            messages * WEBSOCKET_USD_PER_MILLION_MESSAGES
            + minutes * WEBSOCKET_USD_PER_MILLION_CONNECTION_MINUTES
            + played.deadlines * per * SQS_USD_PER_MILLION_REQUESTS
        )
        ours = dynamodb + lambda_usd
        goal = f"  goal {ours:.2f} <= {GOAL_USD:.2f}: {'ok' if ours <= GOAL_USD else 'MISSED'}"
        print(
            f"  {played.label:<15} {requests:>8.2f} {reads:>6.2f} {writes:>6.2f} "
            f"{gb_seconds:>8.4f} {messages:>7.2f} {played.deadlines * per:>5.2f} {dynamodb:>8.2f} "
            f"{lambda_usd:>7.2f} {api:>7.2f} {live:>7.2f}  {ours:.2f}"
            + (goal if played.users == max(ROOM_SIZES) else "")
        )
        if played.seconds:
            by_label: dict[str, float] = {}
            for calls in played.calls:
                for made in calls:
                    by_label[made.label] = by_label.get(made.label, 0.0) + made.write
            top = sorted(by_label.items(), key=lambda item: -item[1])[:3]
            print(
                "    write units go to: "
                + "; ".join(f"{label} {units * per:.2f}" for label, units in top)
                + f"; handler median {statistics.median(played.seconds) * 1000:.1f} ms"
            )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--play"]:
        _play_rooms(Path(sys.argv[2]))
    else:
        main()
