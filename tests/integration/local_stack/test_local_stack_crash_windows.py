"""The two windows in which history lost or invented a round (issue 30), reproduced with
real processes: a `double` and a `stand` race at one seat, their DynamoDB calls ordered at
the forwarder (the one door between the execution environments and DynamoDB Local), and
the double's execution environment killed (SIGKILL) right after its settling write
landed, before it could do anything more; in the second window the stand's too. Then the
next bet is killed between its history put and its write. At every point the history
tells the balance's story: each round once, as it was played."""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from blackjack.rules import TABLES
from local_stack.forwarder import Forwarder
from local_stack.wire import Request
from tests.integration.local_stack.harness import (
    Client,
    Reply,
    Running,
    running_stack,
    stack_workers,
)
from tests.integration.seeds import FixedSeeds, find_seed, use_stack_seeds, value

REPO = Path(__file__).resolve().parents[3]
TABLE = "european"
START = Decimal(10000)
HOLD_S = 30  # a call waits at most this long for its turn: a stuck order fails the test
# A hand of 10 or 11 against a 2 to 9: a double is worth taking and a stand settles.
DOUBLE_DEAL = find_seed(
    TABLES[TABLE].rules.decks,
    lambda s: value(s[0]) + value(s[2]) in (10, 11) and 2 <= value(s[1]) <= 9,
)


@dataclass(frozen=True)
class Call:
    """One DynamoDB call of a function, as the forwarder sees it."""

    operation: str
    item: str  # the sort key of the item it names (`PLAYER`, `HISTORY#…`), or ""
    move: str | None  # the last move of the round it writes, or None

    @classmethod
    def of(cls, request: Request) -> Call:
        target = next((v for k, v in request.headers if k.lower() == "x-amz-target"), "")
        document = json.loads(request.body or b"{}")
        item = document.get("Item") or document.get("Key") or {}
        sk = item.get("sk", {}).get("S", "")
        seat = item.get(f"seat_{TABLE}") or item.get("round")
        move = None
        if seat is not None:
            round_ = json.loads(seat["S"])
            moves = (round_.get("round") or {}).get("moves") or []
            move = moves[-1] if moves else "bet"
        return cls(target.rpartition(".")[2], sk.partition("#")[0], move)


def _worker_of(stack_id: str, port: int, forwarder_port: int) -> int:
    """The pid of the stack's execution environment whose socket to the forwarder is
    `port`. Both ends are matched: another process may connect from the same port to
    another server."""
    inodes = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = (int(end.split(":")[1], 16) for end in fields[1:3])
        if (local, remote) == (port, forwarder_port):
            inodes.add(fields[9])
    for pid in stack_workers(stack_id):
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                if os.readlink(f"/proc/{pid}/fd/{fd}").strip("socket:[]") in inodes:
                    return pid
        except OSError:
            continue
    raise AssertionError(f"no environment of stack {stack_id} has the socket of port {port}")


@dataclass
class Tap:
    """Orders the functions' DynamoDB calls of stack `stack_id`: each waits at the
    forwarder until `may_go` says so, and a call that `kills` names kills its environment
    once it has landed."""

    stack_id: str
    may_go: Callable[[Tap, Call], bool] = lambda tap, call: True
    kills: Callable[[Tap, Call], bool] = lambda tap, call: False
    done: list[Call] = field(default_factory=list)
    waiting: list[Call] = field(default_factory=list)
    killed: list[int] = field(default_factory=list)
    turn: threading.Condition = field(default_factory=threading.Condition)

    def landed(self, operation: str, item: str, move: str | None = None) -> bool:
        return any(c == Call(operation, item, move) for c in self.done)

    def waits(self, operation: str, item: str, move: str | None = None) -> bool:
        return any(c == Call(operation, item, move) for c in self.waiting)

    def answer(self, server: Any, original: Any, request: Request) -> Any:
        call = Call.of(request)
        with self.turn:
            self.waiting.append(call)
            self.turn.notify_all()
            in_turn = self.turn.wait_for(lambda: self.may_go(self, call), HOLD_S)
            assert in_turn, f"{call} waited for ever; done: {self.done}"
            self.waiting.remove(call)
        answer = original(server, request)
        with self.turn:
            self.done.append(call)
            self.turn.notify_all()
        if self.kills(self, call):
            pid = _worker_of(self.stack_id, request.peer[1], server.server_address[1])
            os.kill(pid, signal.SIGKILL)  # before its answer: the write landed unanswered
            self.killed.append(pid)
        return answer


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    with running_stack(tmp_path_factory.mktemp("windows"), REPO / "template.yaml") as running:
        yield running


@pytest.fixture
def tap(real: Running, monkeypatch: pytest.MonkeyPatch) -> Tap:
    tapped = Tap(real.stack.id)
    original = Forwarder.signed

    def signed(server: Any, request: Request) -> Any:
        return tapped.answer(server, original, request)

    monkeypatch.setattr(Forwarder, "signed", signed)
    return tapped


class User:
    def __init__(self, client: Client, login: str) -> None:
        self.client = client
        account = {"login": login, "nick": login, "password": "password1"}
        assert client.request("POST", "/v1/users", account).status == 201
        session = {"login": login, "password": "password1"}
        self.token = client.request("POST", "/v1/sessions", session).json()["token"]

    def request(self, method: str, path: str, body: Any = None, key: str | None = None) -> Reply:
        headers = {} if key is None else {"Idempotency-Key": key}
        return self.client.request(method, path, body, headers=headers, token=self.token)

    def history(self) -> list[dict[str, Any]]:
        rounds: list[dict[str, Any]] = []
        cursor = ""
        while True:
            page = self.request("GET", f"/v1/rounds?limit=2{cursor}").json()
            rounds += page["rounds"]
            if page["next_cursor"] is None:
                return rounds
            cursor = f"&cursor={page['next_cursor']}"

    def staked_in_play(self) -> Decimal:
        """What the round in play at the table holds of the user's coins."""
        round_ = self.request("GET", f"/v1/tables/{TABLE}").json()["round"]
        if round_ is None or round_["status"] == "settled":
            return Decimal(0)
        boxes = [box for box in round_["boxes"] if box["player"] == "user"]
        bets = (hand["bet"] for box in boxes for hand in box["hands"])
        insured = (box["insurance"] or 0 for box in boxes)
        return Decimal(sum(bets)) + Decimal(sum(insured))

    def assert_truth(self, played: dict[str, dict[str, Any]]) -> None:
        """The history is the balance's story, each round once and as `played` answered."""
        history = self.history()
        ids = [round_["round_id"] for round_ in history]
        assert len(set(ids)) == len(ids), ids
        me = self.request("GET", "/v1/me").json()
        nets = sum((Decimal(str(round_["net"])) for round_ in history), Decimal(0))
        assert Decimal(str(me["balance"])) == START + nets - self.staked_in_play()
        assert me["stats"]["rounds"] == len(history)
        shown = {round_["round_id"]: round_ for round_ in history}
        for round_id, round_ in played.items():
            assert shown.get(round_id) == {**round_, "dealt": []}
            assert self.request("GET", f"/v1/rounds/{round_id}").json() == {**round_, "dealt": []}


def _at_once(send: Callable[[Any], Any], arguments: list[Any]) -> None:
    threads = [threading.Thread(target=send, args=(argument,)) for argument in arguments]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _race(user: User, tap: Tap, kill_stand: bool) -> tuple[Reply, Reply]:
    """The stand and the double read the seat; the stand's writes go first but for the
    settling one, which the double wins; the double dies right after it."""
    stand, double = ("PutItem", "PLAYER", "stand"), ("PutItem", "PLAYER", "double")

    def may_go(tap: Tap, call: Call) -> bool:
        reads = sum(c.operation == "GetItem" and c.item == "PLAYER" for c in tap.done)
        if call.operation not in ("PutItem", "DeleteItem"):
            return True
        if reads < 2:
            return False  # both requests read the seat before anything is written
        if (call.operation, call.item, call.move) == stand:
            return tap.landed(*double)
        if call.move == "double":  # after the stand's history put (where it makes one)
            return tap.landed("PutItem", "HISTORY", "stand") or tap.waits(*stand)
        return True

    def kills(tap: Tap, call: Call) -> bool:
        return (call.operation, call.item, call.move) == double or (
            kill_stand and (call.operation, call.item, call.move) == stand
        )

    # Two environments warmed by what the race's requests use (the DynamoDB client, the
    # analysis that grades a move), so that neither request's first use of them holds the
    # other's call past the two seconds its client waits (503): 0.3 s here on a quiet
    # machine, more under load. Each `expert` hint's read waits for the other's, so that
    # the two hints are in two environments at once.
    tap.may_go = lambda tap, call: len(tap.waiting) + len(tap.done) >= 2
    _at_once(lambda _: user.request("GET", f"/v1/tables/{TABLE}/round/hint?level=expert"), [1, 2])
    tap.done.clear()
    tap.may_go, tap.kills = may_go, kills
    answers: dict[str, Reply] = {}

    def send(action: str) -> None:
        answers[action] = user.request(
            "POST", f"/v1/tables/{TABLE}/round/actions", {"action": action}, key=f"{action}-key"
        )

    _at_once(send, ["stand", "double"])
    tap.may_go, tap.kills = Tap.may_go, Tap.kills
    return answers["stand"], answers["double"]


@pytest.mark.parametrize("kill_stand", [False, True], ids=["double killed", "both killed"])
def test_a_round_settled_by_a_killed_request_is_history_once(
    real: Running, tap: Tap, kill_stand: bool
) -> None:
    user = User(real.client, f"window{int(kill_stand)}")
    stop = use_stack_seeds(real.stack, FixedSeeds([DOUBLE_DEAL]))
    try:
        assert user.request("GET", f"/v1/tables/{TABLE}").status == 200
        bet = {"bets": [{"box": 0, "amount": 100}]}
        assert user.request("POST", f"/v1/tables/{TABLE}/rounds", bet).status == 201

        stand, double = _race(user, tap, kill_stand)
        assert double.status == 502, double.body  # its environment died mid-request
        assert len(tap.killed) == 1 + kill_stand
        assert stand.status == (502 if kill_stand else 409), stand.body
        # The double's retry answers what the double did: the round it settled.
        replay = user.request(
            "POST", f"/v1/tables/{TABLE}/round/actions", {"action": "double"}, key="double-key"
        )
        assert replay.status == 200, replay.body
        played = replay.json()
        assert played["status"] == "settled" and played["boxes"][0]["hands"][0]["doubled"]
        user.assert_truth({played["round_id"]: played})

        # The next bet files the round, and dies between its history put and its write.
        tap.kills = lambda tap, call: call.operation == "PutItem" and call.item == "HISTORY"
        killed = user.request("POST", f"/v1/tables/{TABLE}/rounds", bet, key="next-bet")
        assert killed.status == 502, killed.body
        tap.kills = Tap.kills
        user.assert_truth({played["round_id"]: played})
        assert user.request("POST", f"/v1/tables/{TABLE}/rounds", bet, key="next-bet").status == 201
        user.assert_truth({played["round_id"]: played})
    finally:
        stop()
