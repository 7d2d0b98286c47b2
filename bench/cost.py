"""The bill of a million rounds, per table, from the units DynamoDB Local says it consumed.

The bench plays whole rounds at every table, each table's by a player of its own (the
table minimum on one box, the `medium` player's decisions), through the real function
handlers, behind the local stack's API Gateway run in this process
(local_stack.in_process, unthrottled), sent the way the web client sends them (every
POST with an `Idempotency-Key`), against DynamoDB Local, Amazon's own engine
(node_modules, `npm ci`). The table is created from template.yaml by the local stack's
own code (local_stack.data_dir), and the token secret is the local stack's too. Before any
function loads, the process gets the environment template.yaml's Globals give every
function, pointed at those two (AWS_ENDPOINT_URL_DYNAMODB and
AWS_ENDPOINT_URL_SECRETS_MANAGER, dummy credentials; Powertools' logs, traces and
metrics off), so the service builds its own boto3 client as on Lambda. That is why the
rounds run in a fresh interpreter (`python -m bench.cost --play FILE`): in `make bench`,
earlier modules have already loaded the service and Powertools' secret provider against
moto. DynamoDB Local's dbPath is a temporary folder on tmpfs (/dev/shm) where there is
one: its SQLite files on a disk add some 20 ms to each write. Three warm-up rounds a
table, not counted, start the JVM's compiled code and Python's caches.

Per request (a bet or an action) it records:

- the DynamoDB calls by operation, and their read and write units as DynamoDB Local
  reports them. A botocore hook on the service's client (`provide-client-params`) adds
  `ReturnConsumedCapacity="INDEXES"` to every call whose operation takes it, and another
  (`after-call`) reads `ConsumedCapacity` from the answer: one figure for GetItem,
  PutItem, UpdateItem, DeleteItem and Query, a list of one per table for the batch and
  transaction operations. DynamoDB Local's `CapacityUnits`, the total, already includes
  the GSI's units; INDEXES adds their split (`Table`, `GlobalSecondaryIndexes`), which
  is where the gsi1 figures come from. It gives no `ReadCapacityUnits` or
  `WriteCapacityUnits`, so GetItem, BatchGetItem, Query, Scan and TransactGetItems count
  as reads and every other operation as writes. Nothing is computed from item sizes.
  The time from a call's parameters to its parsed answer is its time in DynamoDB;
- the handler's in-process duration (DynamoDB Local's answers on loopback included, the
  hooks' own work taken off), rounded up to the millisecond and billed as Lambda
  GB-seconds at the function's MemorySize, at the price of the template's Architectures,
  plus the per-request charge;
- one API Gateway REST request per HTTP request.

The european round's units are also shown by call, each call named by the items its
request names.

What DynamoDB Local (2026-01-16) reports, tried call by call against it:

- TOTAL and INDEXES give the same totals; INDEXES only adds the split;
- a transaction costs double, its GSI entries too: a new 3 KB item with a gsi1 key costs
  6 units in a PutItem (3 table, 3 gsi1) and 12 in a TransactWriteItems (6 and 6); but
  items of equal units count once: four small puts cost 2, one small and two of 1.5
  and 1.8 KB cost 6 (AWS's rule, each item rounded up to a KB and doubled, gives 8
  and 10; awslabs/amazon-dynamodb-local-samples#31). The service makes no transaction;
  one that did would be under-counted here;
  a ConditionCheck in a transaction costs nothing, and a Delete of a missing key costs
  1, in a transaction or not;
- a write to an item with a gsi1 key writes gsi1 too (the projection is ALL), unless the
  item written is identical to the stored one; changing the gsi1 key writes gsi1 twice;
- a GetItem of a missing key costs 0.5 or 1, but the keys a BatchGetItem does not find,
  and a Query that finds nothing, cost 0 (AWS's guide bills each key of a batch as a
  GetItem), so a BatchGetItem of missing keys is under-counted here;
- BatchWriteItem and TransactGetItems count every item, equal or not;
- a call that fails (a condition that does not hold, a cancelled transaction) answers
  no `ConsumedCapacity` at all, where AWS bills a failed conditional write. The bench
  counts failed calls by operation and prints them; their units are not in the bill.

Prices: prices.json (us-east-1, dated). Not counted: the authorizer (its answer is cached
for ReauthorizeEvery, 300 s, so a session pays it once every five minutes), the coach's
hints (optional), storage, logs and data transfer. Run: `python -m bench cost`
(BENCH_ROUNDS: rounds a table, 40).
"""

from __future__ import annotations

import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ROOT / "template.yaml"
PRICES = Path(__file__).with_name("prices.json")
ROUNDS_PER_TABLE = int(os.environ.get("BENCH_ROUNDS", "40"))
WARM_UP_ROUNDS = 3  # a table, not counted
# DynamoDB Local's dbPath on tmpfs where there is one: SQLite on a disk adds ~20 ms a write.
MEMORY_DIR = Path("/dev/shm")
GOAL_USD = 3.5  # DynamoDB + Lambda per million rounds, at every table (issue 31)
GOAL_TABLE = "european"  # whose round's units are shown by call
GOAL_WRITE_UNITS, GOAL_READ_UNITS = 5.0, 3.0  # a european round on one box
ROUNDS_FUNCTION = "RoundsFunction"  # bets and actions; its MemorySize bills them
DEFAULT_ARCHITECTURE = "x86_64"  # SAM's, when the template names none
READ_OPERATIONS = frozenset({"GetItem", "BatchGetItem", "Query", "Scan", "TransactGetItems"})
CAPACITY_MODE = "INDEXES"
# The functions' logs, traces and metrics off: the bench prints figures, nothing else.
QUIET = {
    "POWERTOOLS_LOG_LEVEL": "ERROR",
    "POWERTOOLS_TRACE_DISABLED": "true",
    "POWERTOOLS_METRICS_DISABLED": "true",
}


# ---- DynamoDB units from DynamoDB Local's answers ----------------------------------------


@dataclass
class Call:
    """One DynamoDB call: what it did and the units its answer reported."""

    operation: str
    label: str  # the operation and the kinds of item it named
    seconds: float = 0.0
    read: float = 0.0
    write: float = 0.0
    index_read: float = 0.0  # of read and write, the secondary indexes' part
    index_write: float = 0.0
    failed: str = ""  # the error code of a refused call


def consumed_units(entry: dict[str, Any]) -> tuple[float, float]:
    """A `ConsumedCapacity` entry's total units and, of them, the secondary indexes'."""
    index = sum(
        float(figures.get("CapacityUnits", 0.0))
        for group in ("GlobalSecondaryIndexes", "LocalSecondaryIndexes")
        for figures in (entry.get(group) or {}).values()
    )
    return float(entry.get("CapacityUnits", 0.0)), index


def item_kind(key: dict[str, Any]) -> str:
    """What a stored item is, from its key (see store.py's single-table design)."""
    pk = str((key.get("pk") or {}).get("S", "?"))
    sk = str((key.get("sk") or {}).get("S", ""))
    if pk.startswith("idempotency#"):
        return "idempotency"
    return (sk or pk).split("#", 1)[0].lower()


def _listed(kinds: list[str]) -> str:
    return ", ".join(
        kind if count == 1 else f"{kind} x{count}" for kind, count in sorted(Counter(kinds).items())
    )


def call_label(operation: str, params: dict[str, Any]) -> str:
    """The operation and the items its request names, e.g. `UpdateItem idempotency`."""
    if operation in ("Query", "Scan"):
        return f"{operation} {params.get('IndexName', 'table')}"
    if operation in ("GetItem", "PutItem", "UpdateItem", "DeleteItem"):
        return f"{operation} {item_kind(params.get('Item') or params.get('Key') or {})}"
    kinds: list[str] = []
    if operation == "BatchGetItem":
        for request in (params.get("RequestItems") or {}).values():
            kinds += [item_kind(key) for key in request.get("Keys", [])]
    elif operation == "BatchWriteItem":
        for requests in (params.get("RequestItems") or {}).values():
            for entry in requests:
                ((action, request),) = entry.items()
                what = request.get("Item") or request.get("Key") or {}
                kinds.append(f"{action.removesuffix('Request').lower()} {item_kind(what)}")
    elif operation in ("TransactWriteItems", "TransactGetItems"):
        for entry in params.get("TransactItems", []):
            ((action, request),) = entry.items()
            what = request.get("Item") or request.get("Key") or {}
            kinds.append(f"{action.lower()} {item_kind(what)}")
    return f"{operation}: {_listed(kinds)}" if kinds else operation


class CapacityMeter:
    """Hooks a DynamoDB client: every call asks for its consumed capacity, and each
    answer's units are kept, call by call, until taken."""

    def __init__(self, client: Any) -> None:
        self.calls: list[Call] = []
        self.overhead = 0.0  # seconds in these hooks, taken off the handler's duration
        client.meta.events.register("provide-client-params.dynamodb", self._ask)
        client.meta.events.register("after-call.dynamodb", self._record)

    def take(self) -> tuple[list[Call], float]:
        """The calls since the last take, and the seconds spent in the hooks meanwhile."""
        taken, self.calls = self.calls, []
        overhead, self.overhead = self.overhead, 0.0
        return taken, overhead

    def _ask(self, params: dict[str, Any], model: Any, context: dict[str, Any], **_: Any) -> None:
        start = time.perf_counter()
        shape = model.input_shape
        takes_it = shape is not None and "ReturnConsumedCapacity" in shape.members
        if takes_it and params.get("ReturnConsumedCapacity", "NONE") == "NONE":
            params["ReturnConsumedCapacity"] = CAPACITY_MODE
        context["bench_label"] = call_label(model.name, params)
        context["bench_start"] = time.perf_counter()
        self.overhead += context["bench_start"] - start

    def _record(
        self,
        http_response: Any,
        parsed: dict[str, Any],
        model: Any,
        context: dict[str, Any],
        **_: Any,
    ) -> None:
        start = time.perf_counter()
        call = Call(model.name, context.get("bench_label", model.name))
        call.seconds = start - context.get("bench_start", start)
        if http_response.status_code >= 300:
            call.failed = str((parsed.get("Error") or {}).get("Code") or http_response.status_code)
        consumed = parsed.get("ConsumedCapacity") or []
        reads = model.name in READ_OPERATIONS
        for entry in [consumed] if isinstance(consumed, dict) else consumed:
            total, index = consumed_units(entry)
            read, write = entry.get("ReadCapacityUnits"), entry.get("WriteCapacityUnits")
            if read is None and write is None:  # DynamoDB Local: the total only
                read, write = (total, 0.0) if reads else (0.0, total)
            call.read += float(read or 0.0)
            call.write += float(write or 0.0)
            if reads:
                call.index_read += index
            else:
                call.index_write += index
        self.calls.append(call)
        self.overhead += time.perf_counter() - start


# ---- the rounds (in a fresh interpreter) -----------------------------------------------------


@dataclass
class Request:
    table: str
    kind: str  # bet, or the action
    seconds: float  # in the rounds function's handler
    calls: list[Call] = field(default_factory=list)

    @property
    def read(self) -> float:
        return sum(c.read for c in self.calls)

    @property
    def write(self) -> float:
        return sum(c.write for c in self.calls)


def _function_environment(template: Any, store: Any) -> dict[str, str]:
    """What Lambda would give the rounds function: the template's variables (Globals
    merged), resolved against the local resources, and the local endpoints. The rooms'
    deadline queue and WebSocket API do not run here (`bench.rooms` counts what would be
    sent to them): their names stand in."""
    from local_stack.live_api import declare as declare_websocket_apis
    from local_stack.template import Physical

    declare_websocket_apis(template)
    for queue in template.of_type("AWS::SQS::Queue"):
        template.physical.setdefault(queue, Physical(f"https://sqs.invalid/{queue}"))
    properties = template.properties(ROUNDS_FUNCTION, "Function")
    variables = template.resolve((properties.get("Environment") or {}).get("Variables") or {})
    environment = {
        str(name): (str(value).lower() if isinstance(value, bool) else str(value))
        for name, value in variables.items()
    }
    return {**store.environment(), **environment, **QUIET}


def timed(handler: Any, seconds: list[float]) -> Any:
    """The handler, adding each call's seconds in it to `seconds`."""

    def timed_handler(event: Any, context: Any) -> Any:
        start = time.perf_counter()
        try:
            return handler(event, context)
        finally:
            seconds.append(time.perf_counter() - start)

    return timed_handler


def _rounds(template: Any, rounds_per_table: int) -> list[Request]:
    from blackjack.rules import TABLES
    from blackjack_service import factories
    from local_stack.in_process import InProcessApi

    factories.reset()
    gateway = InProcessApi(template, throttling=False)
    meter = CapacityMeter(factories.store().client)
    handler_seconds: list[float] = []
    rounds: Any = gateway.modules["rounds"]
    rounds.handler = timed(rounds.handler, handler_seconds)
    token = ""

    def sign_up() -> str:
        login = f"cost{uuid.uuid4().hex[:12]}"
        account = {"login": login, "nick": "cost", "password": "password1"}
        gateway.request("POST", "/v1/users", account)
        session = gateway.request("POST", "/v1/sessions", {"login": login, "password": "password1"})
        return str(session.body["token"])

    def call(table: str, kind: str, path: str, body: Any, **headers: str) -> tuple[Any, Request]:
        headers["Idempotency-Key"] = uuid.uuid4().hex
        meter.take()
        handler_seconds.clear()
        reply = gateway.request("POST", path, body, token=token, headers=headers)
        assert reply.status < 400, (path, reply.status, reply.body)
        calls, overhead = meter.take()
        return reply.body, Request(table, kind, sum(handler_seconds) - overhead, calls)

    def play_round(table: str, bet: Any) -> list[Request]:
        view, request = call(
            table, "bet", f"/v1/tables/{table}/rounds", {"bets": [{"box": 0, "amount": bet}]}
        )
        played = [request]
        while view["status"] != "settled":
            hint = gateway.request(
                "GET", f"/v1/tables/{table}/round/hint?level=medium", token=token
            ).body
            view, request = call(
                table,
                hint["action"],
                f"/v1/tables/{table}/round/actions",
                {"action": hint["action"]},
                **{"If-Match": f'"{view["version"]}"'},
            )
            played.append(request)
        return played

    requests: list[Request] = []
    for table, spec in TABLES.items():
        token = sign_up()  # a player at one table, as the goal's round is played
        gateway.request("GET", f"/v1/tables/{table}", token=token)  # commits the first shoe
        for _ in range(WARM_UP_ROUNDS):
            play_round(table, spec.min_bet)
        for _ in range(rounds_per_table):
            requests += play_round(table, spec.min_bet)
    return requests


@contextmanager
def dynamodb_local() -> Iterator[Any]:
    """DynamoDB Local and the secret as the local stack starts them (its dbPath in memory
    if it can), and the functions' environment while they run (the process's own restored
    after): the template, resolved against them."""
    from blackjack_service import factories
    from local_stack.data_dir import LocalData
    from local_stack.template import Template

    template = Template.from_file(TEMPLATE)
    memory = MEMORY_DIR if os.access(MEMORY_DIR, os.W_OK) else None
    saved = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix="bench-", dir=memory) as data:
        local = LocalData(template, Path(data))
        local.start()
        try:
            os.environ.update(_function_environment(template, local))
            factories.reset()
            yield template
        finally:
            local.stop()
            os.environ.clear()
            os.environ.update(saved)
            factories.reset()


def _play(out: Path) -> None:
    """Play on DynamoDB Local and write the requests to out as JSON."""
    with dynamodb_local() as template:
        requests = _rounds(template, ROUNDS_PER_TABLE)
    out.write_text(json.dumps([asdict(request) for request in requests]))


def played_apart(module: str) -> Any:
    """What `python -m <module> --play FILE` wrote to FILE, as JSON: rounds played in a
    fresh interpreter (see the docstring)."""
    with tempfile.TemporaryDirectory(prefix="bench-") as folder:
        out = Path(folder) / "played.json"
        child = subprocess.run([sys.executable, "-m", module, "--play", str(out)], cwd=ROOT)
        if child.returncode != 0:
            raise RuntimeError(f"the rounds failed (exit status {child.returncode}, see above)")
        return json.loads(out.read_text())


def play() -> list[Request]:
    """The requests of ROUNDS_PER_TABLE rounds at every table, played in a fresh process."""
    played = played_apart("bench.cost")
    return [
        Request(r["table"], r["kind"], r["seconds"], [Call(**c) for c in r["calls"]])
        for r in played
    ]


# ---- the bill ------------------------------------------------------------------------------


@dataclass
class TableFigures:
    rounds: int
    requests: list[Request]


@dataclass
class LambdaConfig:
    memory_gb: float
    architecture: str


def lambda_config(function: str) -> LambdaConfig:
    """The function's MemorySize and Architectures in template.yaml (Globals merged)."""
    from local_stack.template import Template

    template = Template.from_file(TEMPLATE)
    memory = template.resolve(template.properties(function, "Function")["MemorySize"])
    # Its own Architectures replace the Globals' (a merge would concatenate the lists).
    own = (template.resources[function].get("Properties") or {}).get("Architectures")
    architectures = template.resolve(
        own or template.globals_for("Function").get("Architectures") or [DEFAULT_ARCHITECTURE]
    )
    (architecture,) = architectures
    return LambdaConfig(float(memory) / 1024, str(architecture))


def bill(figures: TableFigures, prices: dict[str, Any], config: LambdaConfig) -> dict[str, float]:
    """USD per million rounds: DynamoDB, Lambda and API Gateway."""
    per_round = 1 / figures.rounds
    requests = len(figures.requests) * per_round
    reads = sum(r.read for r in figures.requests) * per_round
    writes = sum(r.write for r in figures.requests) * per_round
    # Lambda bills each invocation's duration rounded up to the millisecond.
    gb_seconds = (
        sum(math.ceil(r.seconds * 1000) / 1000 * config.memory_gb for r in figures.requests)
        * per_round
    )
    gb_second_price = prices["lambda_usd_per_gb_second"][config.architecture]
    return {
        "requests": requests,
        "read units": reads,
        "write units": writes,
        "GB-s": gb_seconds,
        "dynamodb": writes * prices["dynamodb_usd_per_million_write_units"]
        + reads * prices["dynamodb_usd_per_million_read_units"],
        "lambda": gb_seconds * 1e6 * gb_second_price
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


def _dynamodb_local_version() -> str:
    from local_stack.dynamodb_local import find_jar

    return find_jar().parent.name.removeprefix("dynamodb_local_")


def _mean_calls(requests: list[Request]) -> str:
    counts = Counter(c.operation for r in requests for c in r.calls)
    return ", ".join(f"{n / len(requests):.2f} {op}" for op, n in sorted(counts.items()))


def _verdict(value: float, goal: float) -> str:
    return f"{value:.2f} <= {goal:.2f}: {'ok' if value <= goal else 'MISSED'}"


def main() -> None:
    prices = json.loads(PRICES.read_text())
    config = lambda_config(ROUNDS_FUNCTION)
    played = play()
    by_table: dict[str, list[Request]] = defaultdict(list)
    by_kind: dict[str, list[Request]] = defaultdict(list)
    for request in played:
        by_table[request.table].append(request)
        by_kind[request.kind].append(request)
    figures = {
        table: TableFigures(ROUNDS_PER_TABLE, requests) for table, requests in by_table.items()
    }
    print(
        f"Per request (DynamoDB Local {_dynamodb_local_version()}, ReturnConsumedCapacity="
        f"{CAPACITY_MODE} on every call; {ROUNDS_PER_TABLE} rounds a table after "
        f"{WARM_UP_ROUNDS} warm-up rounds, medium player; handlers in process):"
    )
    width = max(len("request"), *map(len, by_kind))
    print(
        f"  {'request':<{width}} {'count':>6} {'RRU':>6} {'WRU':>6} {'ms median':>9} "
        f"{'(DynamoDB)':>10}  calls a request"
    )
    for kind, requests in sorted(by_kind.items()):
        print(
            f"  {kind:<{width}} {len(requests):>6} "
            f"{statistics.mean(r.read for r in requests):>6.2f} "
            f"{statistics.mean(r.write for r in requests):>6.2f} "
            f"{statistics.median(r.seconds for r in requests) * 1000:>9.1f} "
            f"{statistics.median(sum(c.seconds for c in r.calls) for r in requests) * 1000:>10.1f}"
            f"  {_mean_calls(requests)}"
        )
    print(
        f"USD per million rounds (list prices {prices['region']}, {prices['as_of']}; Lambda "
        f"{config.architecture} at {config.memory_gb * 1024:.0f} MB):"
    )
    print(
        f"  {'table':<10} {'requests':>8} {'RRU':>6} {'WRU':>6} {'GB-s':>8} "
        f"{'DynamoDB':>9} {'Lambda':>8} {'API GW':>8} {'total':>8}  DynamoDB+Lambda"
    )
    for table, table_figures in figures.items():
        cost = bill(table_figures, prices, config)
        ours = cost["dynamodb"] + cost["lambda"]
        goal = f"  goal {_verdict(ours, GOAL_USD)}"
        print(
            f"  {table:<10} {cost['requests']:>8.2f} {cost['read units']:>6.2f} "
            f"{cost['write units']:>6.2f} {cost['GB-s']:>8.4f} {cost['dynamodb']:>9.2f} "
            f"{cost['lambda']:>8.2f} {cost['api']:>8.2f} "
            f"{cost['dynamodb'] + cost['lambda'] + cost['api']:>8.2f}  {ours:.2f}{goal}"
        )
    goal_table = figures[GOAL_TABLE]
    goal_cost = bill(goal_table, prices, config)
    waiting = sum(c.seconds for r in goal_table.requests for c in r.calls)
    handling = sum(r.seconds for r in goal_table.requests)
    print(
        f"  (GB-s include the waits on DynamoDB Local: {waiting / handling:.0%} of the "
        f"{GOAL_TABLE} handlers' time is spent in DynamoDB calls)"
    )
    write_goal = _verdict(goal_cost["write units"], GOAL_WRITE_UNITS)
    read_goal = _verdict(goal_cost["read units"], GOAL_READ_UNITS)
    print(f"Units a {GOAL_TABLE} round (one box): WRU {write_goal}; RRU {read_goal}")
    print(f"Units a {GOAL_TABLE} round, by call (named by the items its request names):")
    print(f"  {'calls':>5} {'RRU':>6} {'WRU':>6} {'of GSI':>6}  call")
    by_call: dict[str, list[Call]] = defaultdict(list)
    for request in goal_table.requests:
        for made in request.calls:
            by_call[made.label].append(made)
    per_round = 1 / goal_table.rounds
    for label, calls in sorted(
        by_call.items(),
        key=lambda entry: (-sum(c.read + c.write for c in entry[1]), entry[0]),
    ):
        print(
            f"  {len(calls) * per_round:>5.2f} "
            f"{sum(c.read for c in calls) * per_round:>6.2f} "
            f"{sum(c.write for c in calls) * per_round:>6.2f} "
            f"{sum(c.index_read + c.index_write for c in calls) * per_round:>6.2f}  "
            f"{label}"
        )
    failed = Counter(f"{c.operation} {c.failed}" for r in played for c in r.calls if c.failed)
    print(
        "Failed calls (DynamoDB Local reports no units for them; AWS bills a failed write): "
        + (", ".join(f"{n} {what}" for what, n in sorted(failed.items())) or "none")
    )
    built = layer_size()
    if built is None:
        print("Layer: not built (`make build` builds it into .aws-sam/build/EngineLayer)")
    else:
        print(f"Layer: {built[0] / 1e6:.1f} MB unzipped in {built[1]} files (.aws-sam/build)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--play"]:
        _play(Path(sys.argv[2]))
    else:
        main()
