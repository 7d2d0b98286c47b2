"""The bill of a million rounds, per table, from what a round costs in process.

Plays whole rounds (the table minimum on one box, the `medium` player's decisions)
through the real function handlers, as API Gateway events sent the way the web client
sends them (every POST with an `Idempotency-Key`), against moto, and records per request:

- the DynamoDB requests and the read and write units they consume. moto's
  `ConsumedCapacity` is a constant per call (and absent from transactions), so the units
  are computed from the items each request read or wrote, by DynamoDB's rules: a write
  unit per KB written (two in a transaction, plus one per KB of a `gsi1` entry), a read
  unit per 4 KB read strongly consistent (half eventually consistent, two in a
  transaction);
- the handler's in-process duration, billed as Lambda GB-seconds at the function's
  MemorySize in template.yaml, plus Lambda's per-request charge;
- one API Gateway REST request per HTTP request.

Prices: prices.json (us-east-1, dated). Not counted: the authorizer (its answer is cached
for ReauthorizeEvery, 300 s, so a session pays it once every five minutes), the coach's
hints (optional), storage, logs and data transfer. Run: `python -m bench cost`.
"""

from __future__ import annotations

import json
import math
import statistics
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.backend import moto_backend
from blackjack.rules import TABLES

ROOT = Path(__file__).resolve().parents[1]
PRICES = Path(__file__).with_name("prices.json")
ROUNDS_PER_TABLE = 40
GOAL_TABLE, GOAL_USD = "european", 4.0  # DynamoDB + Lambda per million european rounds
HISTORY_INDEX_KEY = "gsi1pk"
INDEX_ENTRY_OVERHEAD = 100  # bytes DynamoDB adds to each GSI entry
ROUNDS_FUNCTION = "RoundsFunction"  # bets and actions; its MemorySize bills them


# ---- DynamoDB units from item sizes -----------------------------------------------------


def _value_size(value: dict[str, Any]) -> int:
    ((kind, data),) = value.items()
    if kind == "S":
        return len(str(data).encode())
    if kind == "N":
        digits = str(data).lstrip("-").replace(".", "").strip("0") or "0"
        return math.ceil(len(digits) / 2) + 1
    if kind == "B":
        return len(data)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "L":
        return 3 + sum(1 + _value_size(item) for item in data)
    if kind == "M":
        return 3 + sum(1 + len(k.encode()) + _value_size(v) for k, v in data.items())
    if kind in ("SS", "NS", "BS"):
        return sum(_value_size({kind[0]: item}) for item in data)
    raise ValueError(f"unknown DynamoDB type {kind}")


def item_size(item: dict[str, Any]) -> int:
    """An item's size as DynamoDB bills it: attribute names plus values, in bytes."""
    return sum(len(name.encode()) + _value_size(value) for name, value in item.items())


def item_kind(item: dict[str, Any]) -> str:
    """What a stored item is, from its key (see store.py's single-table design)."""
    pk, sk = str(item["pk"]["S"]), str(item["sk"]["S"])
    if pk.startswith("idempotency#"):
        return "idempotency record"
    return sk.split("#", 1)[0].lower()


def write_units(item: dict[str, Any], transactional: bool) -> float:
    units = math.ceil(max(item_size(item), 1) / 1024) * (2 if transactional else 1)
    if HISTORY_INDEX_KEY in item:
        units += math.ceil((item_size(item) + INDEX_ENTRY_OVERHEAD) / 1024)
    return float(units)


def read_units(size: int, consistent: bool, transactional: bool = False) -> float:
    blocks = math.ceil(max(size, 1) / 4096)
    return blocks * (2.0 if transactional else 1.0 if consistent else 0.5)


@dataclass
class Written:
    kind: str
    size: int
    units: float
    transactional: bool


@dataclass
class Consumed:
    calls: int = 0
    seconds: float = 0.0  # inside DynamoDB calls (moto's time here, the network's on AWS)
    read: float = 0.0
    writes: list[Written] = field(default_factory=list)

    @property
    def write(self) -> float:
        return sum(w.units for w in self.writes)


class CapacityMeter:
    """Hooks the service's DynamoDB client: the units of each call, from its items."""

    def __init__(self, client: Any, reader: Any) -> None:
        self.reader = reader  # an unhooked client, to size the items an update changed
        self.current = Consumed()
        client.meta.events.register("provide-client-params.dynamodb", self._remember)
        client.meta.events.register("after-call.dynamodb", self._measure)

    def take(self) -> Consumed:
        taken, self.current = self.current, Consumed()
        return taken

    def _remember(self, params: dict[str, Any], context: dict[str, Any], **_: Any) -> None:
        context["bench_params"] = params
        context["bench_start"] = time.perf_counter()

    def _stored(self, table: str, key: dict[str, Any]) -> dict[str, Any]:
        return dict(self.reader.get_item(TableName=table, Key=key).get("Item") or {})

    def _measure(
        self, parsed: dict[str, Any], model: Any, context: dict[str, Any], **_: Any
    ) -> None:
        params = context.get("bench_params", {})
        operation = model.name
        read, writes = 0.0, []
        if operation == "GetItem":
            read = read_units(
                item_size(parsed.get("Item") or {}), params.get("ConsistentRead", False)
            )
        elif operation == "BatchGetItem":
            for table, items in parsed.get("Responses", {}).items():
                consistent = params["RequestItems"][table].get("ConsistentRead", False)
                read += sum(read_units(item_size(item), consistent) for item in items)
        elif operation == "Query":
            size = sum(item_size(item) for item in parsed.get("Items", []))
            read = read_units(size, params.get("ConsistentRead", False))
        elif operation == "PutItem":
            writes = [params["Item"]]
        elif operation in ("UpdateItem", "DeleteItem"):
            writes = [self._stored(params["TableName"], params["Key"]) or params["Key"]]
        elif operation == "TransactWriteItems":
            for entry in params["TransactItems"]:
                ((_, request),) = entry.items()
                writes.append(
                    request.get("Item") or self._stored(request["TableName"], request["Key"])
                )
        transactional = operation == "TransactWriteItems"
        self.current.calls += 1
        self.current.seconds += time.perf_counter() - context.get(
            "bench_start", time.perf_counter()
        )
        self.current.read += read
        self.current.writes += [
            Written(
                item_kind(item), item_size(item), write_units(item, transactional), transactional
            )
            for item in writes
        ]


# ---- the rounds ----------------------------------------------------------------------------


@dataclass
class Request:
    kind: str
    consumed: Consumed
    seconds: float


@dataclass
class TableFigures:
    rounds: int = 0
    requests: list[Request] = field(default_factory=list)


def play(rounds_per_table: int) -> dict[str, TableFigures]:
    figures: dict[str, TableFigures] = {table: TableFigures() for table in TABLES}
    with moto_backend():
        import boto3

        from blackjack_service import factories
        from tests.integration.harness import Gateway

        gateway = Gateway()
        meter = CapacityMeter(factories.store().client, boto3.client("dynamodb"))
        handler_seconds: list[float] = []
        rounds: Any = gateway.modules["rounds"]
        rounds_handler = rounds.handler

        def timed_handler(event: Any, context: Any) -> Any:
            start = time.perf_counter()
            try:
                return rounds_handler(event, context)
            finally:
                handler_seconds.append(time.perf_counter() - start)

        rounds.handler = timed_handler
        login = f"cost{uuid.uuid4().hex[:12]}"
        gateway.request(
            "POST", "/v1/users", {"login": login, "nick": "cost", "password": "password1"}
        )
        token = gateway.request(
            "POST", "/v1/sessions", {"login": login, "password": "password1"}
        ).body["token"]

        def call(kind: str, method: str, path: str, body: Any = None, **headers: str) -> Any:
            if method == "POST":
                headers["Idempotency-Key"] = uuid.uuid4().hex
            meter.take()
            handler_seconds.clear()
            reply = gateway.request(method, path, body, token=token, headers=headers)
            assert reply.status < 400, (path, reply.status, reply.body)
            return kind, reply.body, meter.take(), sum(handler_seconds)

        for table, spec in TABLES.items():
            bet = spec.min_bet
            gateway.request("GET", f"/v1/tables/{table}", token=token)  # commits the first shoe
            for _ in range(rounds_per_table):
                recorded = [
                    call(
                        "bet",
                        "POST",
                        f"/v1/tables/{table}/rounds",
                        {"bets": [{"box": 0, "amount": bet}]},
                    )
                ]
                view = recorded[-1][1]
                while view["status"] != "settled":
                    hint = gateway.request(
                        "GET", f"/v1/tables/{table}/round/hint?level=medium", token=token
                    ).body
                    recorded.append(
                        call(
                            hint["action"],
                            "POST",
                            f"/v1/tables/{table}/round/actions",
                            {"action": hint["action"]},
                            **{"If-Match": f'"{view["version"]}"'},
                        )
                    )
                    view = recorded[-1][1]
                figures[table].rounds += 1
                figures[table].requests += [
                    Request(kind, consumed, seconds) for kind, _, consumed, seconds in recorded
                ]
    return figures


# ---- the bill ------------------------------------------------------------------------------


def memory_gb(function: str) -> float:
    from local_stack.template import Template

    template = Template.from_file(ROOT / "template.yaml")
    return float(template.properties(function, "Function")["MemorySize"]) / 1024


def bill(figures: TableFigures, prices: dict[str, Any], gb: float) -> dict[str, float]:
    """USD per million rounds: DynamoDB, Lambda and API Gateway."""
    per_round = 1 / figures.rounds
    requests = len(figures.requests) * per_round
    reads = sum(r.consumed.read for r in figures.requests) * per_round
    writes = sum(r.consumed.write for r in figures.requests) * per_round
    # Lambda bills each invocation's duration rounded up to the millisecond.
    gb_seconds = sum(math.ceil(r.seconds * 1000) / 1000 * gb for r in figures.requests) * per_round
    return {
        "requests": requests,
        "read units": reads,
        "write units": writes,
        "GB-s": gb_seconds,
        "dynamodb": writes * prices["dynamodb_usd_per_million_write_units"]
        + reads * prices["dynamodb_usd_per_million_read_units"],
        "lambda": gb_seconds * 1e6 * prices["lambda_usd_per_gb_second"]
        + requests * prices["lambda_usd_per_million_requests"],
        "api": requests * prices["api_gateway_rest_usd_per_million_requests"],
    }


def layer_size() -> tuple[int, int] | None:
    """Bytes and files of the built layer (.aws-sam/build, after `make build`), or None."""
    built = ROOT / ".aws-sam" / "build" / "EngineLayer"
    if not built.is_dir():
        return None
    files = [p for p in built.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files), len(files)


def main() -> None:
    prices = json.loads(PRICES.read_text())
    figures = play(ROUNDS_PER_TABLE)
    gb = memory_gb(ROUNDS_FUNCTION)
    by_kind: dict[str, list[Request]] = defaultdict(list)
    for played in figures.values():
        for request in played.requests:
            by_kind[request.kind].append(request)
    print(f"Per request (moto, in process; {ROUNDS_PER_TABLE} rounds a table, medium player):")
    print(
        f"  {'request':<18} {'count':>6} {'calls':>6} {'RRU':>6} {'WRU':>6} {'ms median':>9} "
        "(in DynamoDB calls)"
    )
    for kind, requests in sorted(by_kind.items()):
        print(
            f"  {kind:<18} {len(requests):>6} "
            f"{statistics.mean(r.consumed.calls for r in requests):>6.2f} "
            f"{statistics.mean(r.consumed.read for r in requests):>6.2f} "
            f"{statistics.mean(r.consumed.write for r in requests):>6.2f} "
            f"{statistics.median(r.seconds for r in requests) * 1000:>9.1f} "
            f"({statistics.median(r.consumed.seconds for r in requests) * 1000:.1f})"
        )
    print(
        f"USD per million rounds (list prices {prices['region']}, {prices['as_of']}; Lambda at "
        f"{gb * 1024:.0f} MB):"
    )
    print(
        f"  {'table':<10} {'requests':>8} {'RRU':>6} {'WRU':>6} {'GB-s':>8} "
        f"{'DynamoDB':>9} {'Lambda':>8} {'API GW':>8} {'total':>8}  DynamoDB+Lambda"
    )
    for table, table_figures in figures.items():
        cost = bill(table_figures, prices, gb)
        ours = cost["dynamodb"] + cost["lambda"]
        goal = (
            f"  goal <= {GOAL_USD:.2f}: {'ok' if ours <= GOAL_USD else 'MISSED'}"
            if table == GOAL_TABLE
            else ""
        )
        print(
            f"  {table:<10} {cost['requests']:>8.2f} {cost['read units']:>6.2f} "
            f"{cost['write units']:>6.2f} {cost['GB-s']:>8.4f} {cost['dynamodb']:>9.2f} "
            f"{cost['lambda']:>8.2f} {cost['api']:>8.2f} "
            f"{cost['dynamodb'] + cost['lambda'] + cost['api']:>8.2f}  {ours:.2f}{goal}"
        )
    print(f"Write units per {GOAL_TABLE} round, by item written:")
    print(
        f"  {'item':<20} {'writes':>6} {'bytes median':>12} {'bytes max':>9} {'WRU':>6}  "
        "in a transaction"
    )
    goal_table = figures[GOAL_TABLE]
    written: dict[str, list[Written]] = defaultdict(list)
    for request in goal_table.requests:
        for item in request.consumed.writes:
            written[item.kind].append(item)
    for kind, items in sorted(written.items(), key=lambda entry: -sum(w.units for w in entry[1])):
        sizes = [w.size for w in items]
        print(
            f"  {kind:<20} {len(items) / goal_table.rounds:>6.2f} "
            f"{statistics.median(sizes):>12.0f} "
            f"{max(sizes):>9} {sum(w.units for w in items) / goal_table.rounds:>6.2f}  "
            f"{sum(w.transactional for w in items) / len(items):.0%}"
        )
    built = layer_size()
    if built is None:
        print("Layer: not built (`make build` builds it into .aws-sam/build/EngineLayer)")
    else:
        print(f"Layer: {built[0] / 1e6:.1f} MB unzipped in {built[1]} files (.aws-sam/build)")


if __name__ == "__main__":
    main()
