"""The JVM dies under load and the stack heals (issue 19, item 5): the real stack
(template.yaml), writers playing whole rounds at once, a `kill -9` of DynamoDB Local
in the middle. The stack notices and starts it again on the same data; meanwhile every
request that needs the table gets 503 `unavailable` with `Retry-After` (health too), at
once; afterwards the same requests, retried with the same Idempotency-Key, succeed, and
nothing that was answered is lost."""

from __future__ import annotations

import itertools
import os
import signal
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.integration.local_stack.harness import Client, Reply, Running, running_stack

REPO = Path(__file__).resolve().parents[3]
TABLE = "european"
BET = {"bets": [{"box": 0, "amount": 10}]}
WRITERS = 4
SETTLED_BEFORE_KILL = 8  # rounds settled by all writers before the JVM is killed
ROUNDS_AFTER = 2  # rounds each writer settles once the JVM is back
DEADLINE_S = 90  # a stuck writer fails the test instead of hanging it
# What a request may get while the JVM is away, besides success: the service's 503, or
# the echo of a write that landed unanswered (its retry finds the round on or settled).
WAITING = (503, "unavailable")
LANDED = {(409, "round_in_progress"), (409, "no_round")}


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with running_stack(tmp_path_factory.mktemp("chaos"), REPO / "template.yaml") as running:
        yield running


@dataclass
class Answer:
    started: float
    seconds: float
    status: int
    code: str | None
    retry_after: str | None


def answer_of(started: float, reply: Reply) -> Answer:
    code = None
    if reply.status >= 400:
        code = reply.json().get("code")
    return Answer(
        started, time.monotonic() - started, reply.status, code, reply.header("Retry-After")
    )


@dataclass
class Writer:
    """One account playing rounds, each request retried (same key) until it is answered."""

    client: Client
    login: str
    token: str = ""
    answers: list[Answer] = field(default_factory=list)
    settled: dict[str, Decimal] = field(default_factory=dict)  # round id: net, as answered
    settled_at: list[float] = field(default_factory=list)
    failure: BaseException | None = None

    def sign_up(self) -> None:
        account = {"login": self.login, "nick": self.login, "password": "password1"}
        assert self.client.request("POST", "/v1/users", account).status == 201
        session = {"login": self.login, "password": "password1"}
        self.token = self.client.request("POST", "/v1/sessions", session).json()["token"]
        assert self.request("GET", f"/v1/tables/{TABLE}").status == 200

    def request(self, method: str, path: str, body: Any = None, key: str | None = None) -> Reply:
        headers = {"Idempotency-Key": key} if key else None
        deadline = time.monotonic() + DEADLINE_S
        while True:
            started = time.monotonic()
            assert started < deadline, f"{method} {path}: still unavailable"
            reply = self.client.request(method, path, body, headers=headers, token=self.token)
            answer = answer_of(started, reply)
            self.answers.append(answer)
            if (answer.status, answer.code) != WAITING:
                return reply
            time.sleep(float(answer.retry_after or 1))  # as a client would

    def play(self, stop: threading.Event) -> None:
        try:
            for n in itertools.count():
                if stop.is_set():
                    return
                self.play_round(n)
        except BaseException as exc:  # the test thread reports it
            self.failure = exc

    def play_round(self, n: int) -> None:
        bet = self.request("POST", f"/v1/tables/{TABLE}/rounds", BET, key=f"{self.login}-{n}")
        view = self.table_round() if bet.status == 409 else self.accepted(bet)
        for m in itertools.count():
            if view["status"] == "settled":
                break
            legal = view["legal_actions"]
            action = next(a for a in ("stand", "decline_insurance", *legal) if a in legal)
            reply = self.request(
                "POST",
                f"/v1/tables/{TABLE}/round/actions",
                {"action": action},
                key=f"{self.login}-{n}-{m}",
            )
            view = self.table_round() if reply.status == 409 else self.accepted(reply)
        self.settled[view["round_id"]] = Decimal(str(view["net"]))
        self.settled_at.append(time.monotonic())

    def accepted(self, reply: Reply) -> dict[str, Any]:
        assert reply.status in (200, 201), reply.body
        view: dict[str, Any] = reply.json()
        return view

    def table_round(self) -> dict[str, Any]:
        """The round as the table has it: the write answered 409 landed before."""
        assert (self.answers[-1].status, self.answers[-1].code) in LANDED, self.answers[-1]
        view: dict[str, Any] = self.accepted(self.request("GET", f"/v1/tables/{TABLE}"))["round"]
        return view

    def history(self) -> dict[str, Decimal]:
        nets: dict[str, Decimal] = {}
        cursor = ""
        while True:
            page = self.request("GET", f"/v1/rounds?limit=100{cursor}").json()
            nets |= {r["round_id"]: Decimal(str(r["net"])) for r in page["rounds"]}
            if not page["next_cursor"]:
                return nets
            cursor = f"&cursor={page['next_cursor']}"


def watch_health(client: Client, done: threading.Event, answers: list[Answer]) -> None:
    while not done.wait(0.1):
        started = time.monotonic()
        answers.append(answer_of(started, client.request("GET", "/v1/health")))


def wait_for(condition: Any, what: str) -> float:
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert time.monotonic() < deadline, f"not within {DEADLINE_S} s: {what}"
        time.sleep(0.005)
    return time.monotonic()


def test_the_stack_restarts_a_killed_jvm_under_load_and_loses_nothing(
    real: Running, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = real.stack.data
    # The new JVM starts only once the test's own health request has been answered while
    # no JVM runs, so that one request surely meets the gap, however loaded the machine.
    probed, spawn = threading.Event(), data.dynamodb._spawn

    def spawn_once_probed(*args: Any) -> Any:
        assert probed.wait(DEADLINE_S), "no health request was answered in the gap"
        return spawn(*args)

    monkeypatch.setattr(data.dynamodb, "_spawn", spawn_once_probed)
    writers = [Writer(real.client, f"chaos{n}") for n in range(WRITERS)]
    for writer in writers:
        writer.sign_up()
    stop, health_done = threading.Event(), threading.Event()
    health: list[Answer] = []
    threads = [threading.Thread(target=w.play, args=(stop,)) for w in writers]
    threads.append(threading.Thread(target=watch_health, args=(real.client, health_done, health)))
    for thread in threads:
        thread.start()
    try:
        wait_for(lambda: sum(len(w.settled) for w in writers) >= SETTLED_BEFORE_KILL, "rounds")
        assert data.dynamodb.process is not None
        restarts = data.dynamodb.restarts
        killed = time.monotonic()
        os.kill(data.dynamodb.process.pid, signal.SIGKILL)
        noticed = wait_for(lambda: not data.available, "the stack notices the death")
        probe = answer_of(time.monotonic(), real.client.request("GET", "/v1/health"))
        probed.set()
        back = wait_for(lambda: data.available, "DynamoDB Local answers again")
        settled_after = [len(w.settled_at) for w in writers]
        wait_for(
            lambda: all(
                len(w.settled_at) >= before + ROUNDS_AFTER or w.failure
                for w, before in zip(writers, settled_after, strict=True)
            ),
            "rounds after the restart",
        )
    finally:
        stop.set()
        health_done.set()
        for thread in threads:
            thread.join(timeout=DEADLINE_S)
    for writer in writers:
        if writer.failure is not None:
            raise writer.failure
    assert data.dynamodb.restarts == restarts + 1

    answers = [a for w in writers for a in w.answers]
    first_success = min(
        a.started + a.seconds for a in answers if a.started > back and a.status < 400
    )
    print(
        f"\nJVM killed: noticed after {noticed - killed:.3f} s, answering again after "
        f"{back - killed:.2f} s, first success after {first_success - killed:.2f} s; "
        f"longest request {max(a.seconds for a in answers + health):.2f} s; "
        f"{sum((a.status, a.code) == WAITING for a in answers)} answers 503 of "
        f"{len(answers)}, health 503 {sum(a.status == 503 for a in health)} of {len(health)}"
    )
    # nothing but successes, 503 unavailable with Retry-After, and a landed write's echo
    for answer in [*answers, *health, probe]:
        if answer.status >= 400:
            assert (answer.status, answer.code) in {WAITING, *LANDED}, answer
        if answer.status == 503:
            assert answer.retry_after, answer
    assert any((a.status, a.code) == WAITING for a in answers), "no request met the gap"
    gap = [a for a in [*health, probe] if killed < a.started and a.started + a.seconds < back]
    assert probe in gap and all((a.status, a.code) == WAITING for a in gap), gap
    assert health[-1].status == 200

    # every coin is kept and every round answered as settled is in the history
    for writer in writers:
        history = writer.history()
        assert writer.settled.items() <= history.items(), (writer.settled, history)
        me = writer.request("GET", "/v1/me").json()
        assert Decimal(str(me["balance"])) == 10000 + sum(history.values())
