"""The local stack as players use it (`make run` in a process of its own, HTTP on loopback,
DynamoDB Local), driven by keep-alive clients in this process:

- whole rounds at the european table (bet 10 on one box, hit where it may, stand) by 1,
  4 and 16 concurrent clients: requests/s, p50/p95/p99 and errors (any non-2xx answer);
- another player's whole-round p50 while 8 clients flood failed logins for one login;
- users' logins, each from a loopback address of its own, while 30 clients flood wrong
  passwords at random logins from 127.0.0.2 for 20 s, on a stack with the template's own
  limits (its web ACL's logins per address, the sessions route's bucket): p50 and p99;
- one client's whole-round p50 after 10,000 rounds in the DATA_DIR against a fresh one;
  the 10,000 are copies of real rounds (a player's every item, under other logins)
  written straight into DynamoDB Local; the measured requests are real;
- per function, the INIT time (a cold start's handler import) of the execution
  environments started meanwhile, median and max, read from the stack's log: its REPORT
  lines, as Lambda writes them, carry `Init Duration` on an environment's first;
- whole rounds by 16 clients, each from a loopback address of its own, on the stack as
  `make run` ships it: the template's limits, its web ACL, its functions' concurrency.

Targets: the stack as shipped, 16 clients >= 150 req/s, p99 < 150 ms, 0 errors; the
flooded-out player's p50 < 30 ms; the users' logins under the address flood all 200, p99
< 1 s; after 10,000 rounds within 1.5x of fresh. But for the address flood and the stack
as shipped, API Gateway's MethodSettings limits and the web ACL are lifted (parameters)
and each function may run 16 environments (`--concurrency`): the figures are the
stack's own, not its throttling.
`python -m bench local_stack`; BENCH_LOCAL_STACK_SECONDS sets each measurement's length.

Side by side with another commit: BENCH_LOCAL_STACK_AGAINST=FOLDER, a checkout of it (say
`git worktree add --detach /tmp/base 6f181f2`, with `node_modules` copied or installed in
it), runs only the whole rounds, both stacks up at once on the same machine and this
interpreter, each client count measured on both back to back (in turns, which goes
first), with the ratio and the load average: a shared machine's load moves within a run,
so one run's figures are compared with each other only. The other commit's template is
given those of the parameters above that it declares.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import select
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from local_stack.data_dir import LocalData
from local_stack.dynamodb_local import free_port
from local_stack.template import Template

REPO = Path(__file__).resolve().parent.parent
SECONDS = float(os.environ.get("BENCH_LOCAL_STACK_SECONDS", "10"))
CLIENTS = (1, 4, 16)
FLOODERS = 8
SEEDED_ROUNDS = 10_000
WARM_UP = 5  # rounds per client, untimed: environments started, the JVM's code compiled
MAX_WARM_UP = 20  # rounds per client more at most, while they start environments
TABLE = "european"
PASSWORD = "benchpass1"
UNLIMITED = (
    "ThrottlingRateLimit=100000",
    "ThrottlingBurstLimit=100000",
    "SessionsThrottlingRateLimit=100000",
    "WafEnabled=false",
)
LOGIN_FLOODERS = 30
LOGIN_FLOOD_S = 20.0
FLOOD_ADDRESS = "127.0.0.2"
LOGIN_USERS = 8  # each from 127.0.2.<n>, under the web ACL's logins per address a minute
LOGIN_EVERY_S = 3.5
# 16 closed-loop clients keep ~16 requests in the rounds function at once: the lifted
# stack's cap is the clients' number.
CONCURRENCY = str(max(CLIENTS))
TIMEOUT_S = 30
# The stack's log line for an environment's first invocation (execution_environment.py).
INIT_REPORT = re.compile(r" (\w+) REPORT RequestId: .*\tInit Duration: ([\d.]+) ms")


class Connection:
    """One keep-alive connection, as a browser tab would use; from `address`, one of
    loopback's 127.0.0.0/8, as if from a machine of its own."""

    def __init__(self, port: int, address: str = "127.0.0.1") -> None:
        self.http = http.client.HTTPConnection(
            "127.0.0.1", port, timeout=TIMEOUT_S, source_address=(address, 0)
        )
        self.token: str | None = None

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        """(status, answer, seconds) of one request."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        started = time.perf_counter()
        self.http.request(method, path, None if body is None else json.dumps(body), headers)
        response = self.http.getresponse()
        raw = response.read()
        elapsed = time.perf_counter() - started
        return response.status, json.loads(raw) if raw else None, elapsed


@dataclass
class Tally:
    """Latencies of the answered requests, whole rounds, and the errors."""

    latencies: list[float] = field(default_factory=list)
    rounds: list[float] = field(default_factory=list)
    errors: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, latencies: list[float], round_time: float | None, errors: int) -> None:
        with self.lock:
            self.latencies.extend(latencies)
            if round_time is not None:
                self.rounds.append(round_time)
            self.errors += errors


class Player:
    def __init__(self, port: int, login: str, address: str = "127.0.0.1") -> None:
        self.conn = Connection(port, address)
        account = {"login": login, "nick": login[:20], "password": PASSWORD}
        status, answer, _ = self.conn.call("POST", "/v1/users", account)
        assert status == 201, answer
        status, session, _ = self.conn.call(
            "POST", "/v1/sessions", {"login": login, "password": PASSWORD}
        )
        assert status == 200, session
        self.conn.token = session["token"]
        self.conn.call("GET", f"/v1/tables/{TABLE}")

    def play_round(self, tally: Tally | None = None) -> None:
        """Bet, hit while hitting is offered and the hand is under 17, stand."""
        latencies: list[float] = []
        errors = 0
        started = time.perf_counter()
        path = f"/v1/tables/{TABLE}/round/actions"
        status, view, elapsed = self.conn.call(
            "POST", f"/v1/tables/{TABLE}/rounds", {"bets": [{"box": 0, "amount": 10}]}
        )
        latencies.append(elapsed)
        if status != 201:
            errors += 1
            view = {"legal_actions": ["stand"]}  # finish whatever round is open
        while view and view.get("legal_actions"):
            hit = "hit" in view["legal_actions"] and _total(view) < 17
            action = "hit" if hit else "stand"
            if action not in view["legal_actions"]:
                break
            status, answer, elapsed = self.conn.call("POST", path, {"action": action})
            latencies.append(elapsed)
            if status != 200:
                errors += 1
                break
            view = answer
        if tally is not None:
            tally.add(latencies, time.perf_counter() - started if not errors else None, errors)


def _total(view: dict[str, Any]) -> int:
    """The total of the hand in turn."""
    turn = view.get("turn") or {"box": 0, "hand": 0}
    box = next(b for b in view["boxes"] if b["box"] == turn["box"])
    return int(box["hands"][turn["hand"]]["total"])


@contextmanager
def running_stack(
    data_dir: Path, log: IO[str] | None = None, *, unlimited: bool = True, repo: Path = REPO
) -> Iterator[int]:
    """`python -m local_stack` of the checkout `repo` on a free port, its log (stderr) to
    `log`; yields the port; Ctrl-C at the end. unlimited=False: the template's limits and
    concurrency."""
    port = free_port()
    command = [sys.executable, "-m", "local_stack", "--port", str(port)]
    command += ["--data-dir", str(data_dir)]
    if unlimited:
        declared = Template.from_file(repo / "template.yaml").data.get("Parameters") or {}
        for parameter in UNLIMITED:
            if parameter.partition("=")[0] in declared:  # an older template may lack one
                command += ["--parameter", parameter]
        command += ["--concurrency", CONCURRENCY]
    process = subprocess.Popen(
        command,
        cwd=repo,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL if log is None else log,
        text=True,
    )
    try:
        assert process.stdout is not None
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if select.select([process.stdout], [], [], 1)[0]:
                line = process.stdout.readline()
                if "is running at" in line:
                    break
                if not line:
                    raise RuntimeError("the local stack exited")
        else:
            raise RuntimeError("the local stack did not start")
        yield port
    finally:
        process.send_signal(2)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()


def _players(port: int, prefix: str, count: int, addresses: bool) -> list[Player]:
    """count players, registered one at a time (untimed); with `addresses`, each from
    127.0.3.<n>, as players on machines of their own."""
    return [
        Player(port, f"{prefix}{n}", f"127.0.3.{n + 1}" if addresses else "127.0.0.1")
        for n in range(count)
    ]


def whole_rounds(
    port: int,
    clients: int,
    seconds: float = SECONDS,
    log: IO[str] | None = None,
    addresses: bool = False,
) -> dict[str, Any]:
    """clients players playing whole rounds at once for `seconds`, after WARM_UP each;
    with the stack's log, after more rounds until one round each started no environment:
    the faster a stack answers, the fewer environments WARM_UP rounds start, and the
    INITs left for the measured rounds (1-4 s each at 16 clients) were its p99."""
    players = _players(port, f"c{clients}x{time.time_ns() % 10**6}p", clients, addresses)
    rounds = 0
    with ThreadPoolExecutor(clients) as pool:  # warm: environments started, first shoes
        list(pool.map(lambda p: [p.play_round() for _ in range(WARM_UP)], players))
        while log is not None and rounds < MAX_WARM_UP:
            inits = _inits(log)
            list(pool.map(lambda p: p.play_round(), players))
            rounds += 1
            if _inits(log) == inits:
                break
    tally = Tally()
    stop_at = time.monotonic() + seconds

    def play(player: Player) -> None:
        while time.monotonic() < stop_at:
            player.play_round(tally)

    started = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(play, players))
    return _figures(tally, time.perf_counter() - started)


def _inits(log: IO[str]) -> int:
    """The environments the stack has started so far, from its log."""
    log.flush()
    return Path(log.name).read_text(encoding="utf-8").count("\tInit Duration: ")


def _figures(tally: Tally, wall: float) -> dict[str, Any]:
    cuts = statistics.quantiles(tally.latencies, n=100) if len(tally.latencies) > 1 else [0] * 99
    return {
        "requests": len(tally.latencies),
        "per_second": len(tally.latencies) / wall,
        "p50_ms": statistics.median(tally.latencies) * 1000,
        "p95_ms": cuts[94] * 1000,
        "p99_ms": cuts[98] * 1000,
        "errors": tally.errors,
        "round_p50_ms": statistics.median(tally.rounds) * 1000 if tally.rounds else 0.0,
    }


def flooded(port: int, seconds: float = SECONDS) -> dict[str, Any]:
    """A player's figures while FLOODERS clients send failed logins for one login."""
    victim = f"flood{time.time_ns() % 10**6}"
    Player(port, victim)
    player = Player(port, f"{victim}x")
    player.play_round()
    done = threading.Event()
    flood_answers: list[int] = []

    def flood() -> None:
        conn = Connection(port)
        while not done.is_set():
            wrong = {"login": victim, "password": "x" * 10}
            flood_answers.append(conn.call("POST", "/v1/sessions", wrong)[0])

    flooders = [threading.Thread(target=flood) for _ in range(FLOODERS)]
    for thread in flooders:
        thread.start()
    tally = Tally()
    started = time.perf_counter()
    try:
        time.sleep(0.5)  # the flood under way
        while time.perf_counter() - started < seconds:
            player.play_round(tally)
    finally:
        done.set()
        for thread in flooders:
            thread.join(timeout=60)
    figures = _figures(tally, time.perf_counter() - started)
    figures["flood_requests"] = len(flood_answers)
    figures["flood_statuses"] = sorted(set(flood_answers))
    return figures


def flood_logins(port: int, seconds: float) -> dict[int, int]:
    """LOGIN_FLOODERS clients of wrong passwords at random logins from FLOOD_ADDRESS for
    `seconds`; the count of each status. Run in a process of its own (`python -m
    bench.local_stack flood PORT SECONDS`), as another machine: its threads take no lock
    from the measured users' client."""
    stop_at = time.monotonic() + seconds
    statuses: dict[int, int] = {}
    lock = threading.Lock()

    def flood(n: int) -> None:
        conn = Connection(port, FLOOD_ADDRESS)
        while time.monotonic() < stop_at:
            wrong = {"login": f"rnd{n}x{time.time_ns() % 10**9}", "password": "x" * 10}
            try:
                status = conn.call("POST", "/v1/sessions", wrong)[0]
            except (OSError, http.client.HTTPException):
                conn = Connection(port, FLOOD_ADDRESS)  # the server closed it: a new one
                continue
            with lock:
                statuses[status] = statuses.get(status, 0) + 1

    with ThreadPoolExecutor(LOGIN_FLOODERS) as pool:
        list(pool.map(flood, range(LOGIN_FLOODERS)))
    return statuses


def _register(port: int, logins: list[str]) -> None:
    conn = Connection(port)
    for login in logins:
        account = {"login": login, "nick": login[:20], "password": PASSWORD}
        status, answer, _ = conn.call("POST", "/v1/users", account)
        assert status == 201, answer


def _log_in(conn: Connection, login: str) -> tuple[int, float]:
    """The status and seconds of one login; a refusal's code printed."""
    status, answer, elapsed = conn.call(
        "POST", "/v1/sessions", {"login": login, "password": PASSWORD}
    )
    if status != 200:
        print(f"  a login refused: {status} {(answer or {}).get('code')}", flush=True)
    return status, elapsed


def _warm_sessions(port: int, count: int, prefix: str) -> None:
    """count environments of the sessions function started, in waves of 4 logins more at
    once (each of its own user, from an address of its own): on Lambda the flood's first
    logins start environments on other machines; here their INITs would take the measured
    users' cores, and 20 at once outlast the function's timeout."""
    logins = [f"{prefix}w{n}" for n in range(count)]
    _register(port, logins)
    for size in [*range(4, count, 4), count]:
        barrier = threading.Barrier(size)

        def one(n: int, barrier: threading.Barrier = barrier) -> int:
            conn = Connection(port, f"127.0.1.{n + 1}")
            barrier.wait()
            return _log_in(conn, logins[n])[0]

        with ThreadPoolExecutor(size) as pool:
            assert set(pool.map(one, range(size))) == {200}


def _logins(port: int, users: list[str], seconds: float) -> dict[str, Any]:
    """Each user's logins every LOGIN_EVERY_S for `seconds`, from an address of its own
    (within the web ACL's logins per address a minute): their figures."""
    answers: list[tuple[int, float]] = []
    lock = threading.Lock()

    def user(n: int) -> None:
        conn = Connection(port, f"127.0.2.{n + 1}")
        time.sleep(n * LOGIN_EVERY_S / len(users))  # spread over the interval
        stop_at = time.monotonic() + seconds - LOGIN_EVERY_S
        while time.monotonic() < stop_at:
            answer = _log_in(conn, users[n])
            with lock:
                answers.append(answer)
            time.sleep(LOGIN_EVERY_S)

    with ThreadPoolExecutor(len(users)) as pool:
        list(pool.map(user, range(len(users))))
    latencies = [elapsed for _, elapsed in answers]
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    return {
        "logins": len(answers),
        "refused": sorted(status for status, _ in answers if status != 200),
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": cuts[98] * 1000,
    }


def address_flood() -> tuple[dict[str, Any], dict[str, Any]]:
    """LOGIN_USERS users' logins without a flood, then while LOGIN_FLOODERS clients flood
    wrong logins from FLOOD_ADDRESS, on a stack with the template's limits; the flood's
    statuses under "flood"."""
    prefix = f"af{time.time_ns() % 10**6}"
    template = Template.from_file(REPO / "template.yaml")
    limit = int(template.parameter_default("WafLoginsPerIpPerMinute"))
    cap = int(template.parameter_default("FunctionConcurrency"))
    environments = min(limit + LOGIN_USERS, cap)  # the flood's passing logins, the users'
    with (
        tempfile.TemporaryDirectory(prefix="bench-local-stack-") as folder,
        running_stack(Path(folder), unlimited=False) as port,
    ):
        users = [f"{prefix}u{n}" for n in range(LOGIN_USERS)]
        _register(port, users)
        _warm_sessions(port, environments, prefix)
        # the users' logins a minute: half without the flood, half with it
        quiet = _logins(port, users, LOGIN_FLOOD_S / 2)
        command = [sys.executable, "-m", "bench.local_stack", "flood", str(port)]
        flood = subprocess.Popen(
            [*command, str(LOGIN_FLOOD_S)], cwd=REPO, stdout=subprocess.PIPE, text=True
        )
        time.sleep(0.5)  # the flood under way
        flooded = _logins(port, users, LOGIN_FLOOD_S - 0.5)
        output, _ = flood.communicate(timeout=LOGIN_FLOOD_S + 120)
    flooded["flood"] = json.loads(output)
    return quiet, flooded


def seed_rounds(data_dir: Path, login: str, rounds_played: int, rounds: int) -> int:
    """Copy every item of `login` (who played rounds_played rounds) under new logins until
    the table holds `rounds` more rounds; the stack must be stopped. Items written."""
    store = LocalData(Template.from_file(REPO / "template.yaml"), data_dir)
    store.start()  # DynamoDB Local behind its forwarder: only the store's clients get in
    try:
        client = store.client("dynamodb")
        (table,) = client.list_tables()["TableNames"]
        pages = client.get_paginator("scan").paginate(TableName=table)
        items = [i for page in pages for i in page["Items"] if login in json.dumps(i)]
        text = json.dumps(items)
        copies = -(-rounds // rounds_played)
        batches = [
            [{"PutRequest": {"Item": item}} for item in copy[start : start + 25]]
            for copy in (json.loads(text.replace(login, f"{login}s{n:05d}")) for n in range(copies))
            for start in range(0, len(copy), 25)
        ]

        def write(batch: list[dict[str, Any]]) -> None:
            pending: dict[str, Any] = {table: batch}
            while pending:
                pending = client.batch_write_item(RequestItems=pending)["UnprocessedItems"]

        with ThreadPoolExecutor(4) as pool:
            list(pool.map(write, batches))
        return sum(len(b) for b in batches)
    finally:
        store.stop()


def after_many_rounds(seconds: float = SECONDS) -> dict[str, Any]:
    """One client's whole-round figures on a fresh DATA_DIR, then after SEEDED_ROUNDS."""
    seeder, played = "seedplayer", 20
    with tempfile.TemporaryDirectory(prefix="bench-local-stack-") as folder:
        data_dir = Path(folder)
        with running_stack(data_dir) as port:
            player = Player(port, seeder)
            for _ in range(played):
                player.play_round()
        # both measured alike: a restarted stack (a cold JVM), the same warm-up
        with running_stack(data_dir) as port:
            fresh = whole_rounds(port, 1, seconds)
        written = seed_rounds(data_dir, seeder, played, SEEDED_ROUNDS)
        with running_stack(data_dir) as port:
            used = whole_rounds(port, 1, seconds)
    return {"fresh": fresh, "used": used, "items_written": written}


def _line(label: str, figures: dict[str, Any]) -> str:
    return (
        f"{label}: {figures['per_second']:.0f} req/s, p50 {figures['p50_ms']:.1f} ms, "
        f"p95 {figures['p95_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, "
        f"{figures['errors']} errors, whole round p50 {figures['round_p50_ms']:.0f} ms "
        f"({figures['requests']} requests)"
    )


def measure_clients(port: int, log: IO[str]) -> None:
    """Whole rounds by 1, 4 and 16 clients, then a player during a flood of logins."""
    for clients in CLIENTS:
        figures = whole_rounds(port, clients, log=log)
        print(_line(f"local_stack: whole rounds, {clients:2d} clients", figures), flush=True)
    figures = flooded(port)
    print(
        _line(f"local_stack: a player while {FLOODERS} clients flood one login", figures)
        + f"; flood: {figures['flood_requests']} answers {figures['flood_statuses']}"
        + " (target: p50 < 30 ms)",
        flush=True,
    )


def init_durations(log: str) -> dict[str, list[float]]:
    """The INIT milliseconds of each function's environments, from the stack's log."""
    durations: dict[str, list[float]] = {}
    for function, milliseconds in INIT_REPORT.findall(log):
        durations.setdefault(function, []).append(float(milliseconds))
    return durations


def measure_address_flood() -> None:
    quiet, flooded = address_flood()
    for label, figures in (("no flood", quiet), (f"{LOGIN_FLOODERS} clients flood", flooded)):
        print(
            f"local_stack: {figures['logins']} logins of {LOGIN_USERS} users, each from an "
            f"address of its own, {label}: refused {figures['refused']}, p50 "
            f"{figures['p50_ms']:.0f} ms, p99 {figures['p99_ms']:.0f} ms",
            flush=True,
        )
    print(
        f"  flood of wrong logins from {FLOOD_ADDRESS}: {flooded['flood']} (target: none "
        "refused, p99 < 1 s)",
        flush=True,
    )


def _load() -> str:
    return "load " + " ".join(f"{figure:.1f}" for figure in os.getloadavg())


def side_by_side(other: Path) -> None:
    """Whole rounds on this checkout's stack and on `other`'s, each client count on both
    back to back, the one measured first in turns."""
    label = _commit(other)
    with (
        tempfile.TemporaryDirectory(prefix="bench-local-stack-") as folder,
        (Path(folder) / "this.log").open("w+", encoding="utf-8") as log,
        (Path(folder) / "other.log").open("w+", encoding="utf-8") as other_log,
        running_stack(Path(folder) / "this", log) as port,
        running_stack(Path(folder) / "other", other_log, repo=other) as other_port,
    ):
        print(f"local_stack: side by side with {label} ({other}), {_load()}", flush=True)
        for turn, clients in enumerate(CLIENTS):
            stacks = [("this", port, log), (label, other_port, other_log)]
            figures = {}
            for name, stack_port, stack_log in stacks if turn % 2 == 0 else stacks[::-1]:
                figures[name] = whole_rounds(stack_port, clients, log=stack_log)
                print(
                    _line(f"local_stack: whole rounds, {clients:2d} clients, {name}", figures[name])
                    + f", {_load()}",
                    flush=True,
                )
            ratio = figures["this"]["per_second"] / figures[label]["per_second"]
            print(f"  {clients:2d} clients: this / {label} = {ratio:.2f}x requests/s", flush=True)


def _commit(checkout: Path) -> str:
    """The short commit id a checkout is at."""
    return subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def main() -> None:
    if sys.argv[1:2] == ["flood"]:  # the address flood's own process
        print(json.dumps(flood_logins(int(sys.argv[2]), float(sys.argv[3]))))
        return
    against = os.environ.get("BENCH_LOCAL_STACK_AGAINST")
    if against:
        side_by_side(Path(against).resolve())
        return
    with (
        tempfile.TemporaryDirectory(prefix="bench-local-stack-") as folder,
        (Path(folder) / "stack.log").open("w+", encoding="utf-8") as log,
    ):
        with running_stack(Path(folder) / "data", log) as port:
            measure_clients(port, log)
        with running_stack(Path(folder) / "shipped", log, unlimited=False) as port:
            clients = max(CLIENTS)
            figures = whole_rounds(port, clients, log=log, addresses=True)
            label = f"local_stack as `make run` ships: whole rounds, {clients} clients"
            print(_line(f"{label} from {clients} addresses", figures), flush=True)
            print("  (target: >= 150 req/s, p99 < 150 ms, 0 errors)", flush=True)
        log.seek(0)
        for function, durations in sorted(init_durations(log.read()).items()):
            print(
                f"local_stack: INIT {function}: median {statistics.median(durations):.0f} ms, "
                f"max {max(durations):.0f} ms ({len(durations)} environments)"
            )
    measure_address_flood()
    many = after_many_rounds()
    ratio = many["used"]["round_p50_ms"] / many["fresh"]["round_p50_ms"]
    print(_line("local_stack: one client, fresh DATA_DIR", many["fresh"]))
    print(_line(f"local_stack: one client, after {SEEDED_ROUNDS} rounds", many["used"]))
    print(
        f"local_stack: whole round p50 after {SEEDED_ROUNDS} rounds ({many['items_written']} "
        f"items written) / fresh: {ratio:.2f}x (target: within 1.5x)"
    )


if __name__ == "__main__":
    main()
