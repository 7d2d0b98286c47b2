"""Simulated players for Locust: each registers, logs in and plays whole rounds at the
four tables, taking the `medium` hint's action at every turn; room players share rooms
at `european` (a free box of a listed room, else a room of their own), bet the minimum
every round and answer their own decisions the same way. Every POST that changes
something carries an `Idempotency-Key`; a request lost in transit, throttled or answered
5XX is retried with the same key, and now and then a request that succeeded is sent
again on purpose, which must answer the same round.

When the run stops, every room player leaves its room (their decisions then answered by
the service), every simulated account's rounds in play are finished and its balance is
checked against its history: `balance == 10000 + Σ net`. A broken account
fails the run (exit code 1). Run through `python -m loadtest` (`make load`).
"""

from __future__ import annotations

import contextlib
import random
import time
import uuid
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import requests
from locust import HttpUser, between, events, task
from locust.env import Environment

STARTING_BALANCE = Decimal(10000)
PASSWORD = "loadtest1"
RETRIES = 4
RETRIED_STATUSES = {429, 500, 502, 503, 504}
REPLAY_SHARE = 0.05  # of successful POSTs, sent again with their key
MAX_TURNS = 40  # a round has fewer decisions (four split hands, each hit to 21)

# Every account the run made (login, password), for the check at the end.
ACCOUNTS: list[tuple[str, str]] = []
# The room each room player sits in, by login: it leaves before the check.
ROOMS: dict[str, str] = {}
ROOM_TABLE = "european"
# A room's answers a player may get from a race with the others: not failures.
ROOM_RACES = {"box_taken", "already_bet", "round_in_progress", "not_your_turn", "stale_state"}
# What a retry did not fix: a refused play, a replay that answered differently. A failure
# that a retry fixed is in Locust's figures but does not fail the run.
UNRECOVERED: list[str] = []


class Refused(Exception):
    """The service answered a play with an error: the round cannot go on."""

    def __init__(self, problem: str) -> None:
        super().__init__(problem)
        UNRECOVERED.append(problem)


def keyed(method: str, headers: dict[str, str] | None) -> dict[str, str]:
    """The headers of a request; a POST's with a fresh Idempotency-Key, which every retry of
    it keeps."""
    headers = dict(headers or {})
    if method == "POST":
        headers["Idempotency-Key"] = uuid.uuid4().hex
    return headers


def _number(value: Any) -> Decimal:
    return Decimal(str(value))


class Player(HttpUser):
    wait_time = between(0.2, 1.0)
    weight = 3

    def on_start(self) -> None:
        self.login = f"ld{uuid.uuid4().hex[:24]}"
        self.post("/v1/users", {"login": self.login, "nick": "loadtest", "password": PASSWORD})
        ACCOUNTS.append((self.login, PASSWORD))
        session = self.post("/v1/sessions", {"login": self.login, "password": PASSWORD})
        self.client.headers["Authorization"] = f"Bearer {session['token']}"
        self.min_bet = {table["id"]: table["min_bet"] for table in session["tables"]}
        for table in self.min_bet:  # the first view commits the table's first shoe
            self.call("GET", f"/v1/tables/{table}", name="/v1/tables/{table_id}")

    @task
    def play_a_round(self) -> None:
        table = random.choice(list(self.min_bet))
        # A refusal is counted as a failure by call(); the next task starts afresh.
        with contextlib.suppress(Refused):
            play_round(self, table, self.min_bet[table])

    # -- HTTP -----------------------------------------------------------------------

    def post(self, path: str, body: dict[str, Any], name: str | None = None) -> Any:
        return self.call("POST", path, body=body, name=name)

    def call(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        name: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        """One request, retried with the same Idempotency-Key while the failure is one a
        client should retry; its JSON body, or Refused."""
        headers = keyed(method, headers)
        for attempt in range(RETRIES):
            with self.client.request(
                method, path, json=body, headers=headers, name=name or path, catch_response=True
            ) as reply:
                if reply.status_code in RETRIED_STATUSES or reply.status_code == 0:
                    reply.failure(f"{reply.status_code}, retried")
                    if attempt + 1 < RETRIES:  # no wait after the last try
                        time.sleep(_backoff(reply.headers, attempt))
                    continue
                if reply.status_code >= 400:
                    reply.failure(f"{reply.status_code} {reply.text[:200]}")
                    raise Refused(f"{method} {path}: {reply.status_code} {reply.text[:200]}")
                answer = reply.json()
            # Only the plays are idempotent (a login makes a new token each time).
            if (
                method == "POST"
                and path.startswith("/v1/tables/")
                and random.random() < REPLAY_SHARE
            ):
                self.replay(method, path, body, headers, name or path, answer)
            return answer
        raise Refused(f"{method} {path}: still failing after {RETRIES} tries")

    def replay(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None,
        headers: dict[str, str],
        name: str,
        first: Any,
    ) -> None:
        with self.client.request(
            method, path, json=body, headers=headers, name=f"{name} (replay)", catch_response=True
        ) as reply:
            if reply.status_code >= 400 or reply.json() != first:
                reply.failure(f"a replay answered differently: {reply.status_code}")
                UNRECOVERED.append(f"{method} {path}: a replay answered differently")


def _backoff(headers: Mapping[str, str], attempt: int) -> float:
    """The wait before the next try: the server's Retry-After, else exponential."""
    return float(headers.get("Retry-After") or 0.2 * 2**attempt)


def play_round(player: Player, table: str, bet: Any) -> None:
    """Bet the table minimum on box 0 and take the medium hint's action until settled."""
    seat = player.call("GET", f"/v1/tables/{table}", name="/v1/tables/{table_id}")
    view = seat["round"]
    if view is None or view["status"] == "settled":
        view = player.post(
            f"/v1/tables/{table}/rounds",
            {"bets": [{"box": 0, "amount": bet}]},
            name="/v1/tables/{table_id}/rounds",
        )
    finish_round(player.call, table, view)


def finish_round(call: Any, table: str, view: dict[str, Any]) -> None:
    for _ in range(MAX_TURNS):
        if view["status"] == "settled":
            return
        hint = call(
            "GET",
            f"/v1/tables/{table}/round/hint?level=medium",
            name="/v1/tables/{table_id}/round/hint",
        )
        view = call(
            "POST",
            f"/v1/tables/{table}/round/actions",
            body={"action": hint["action"]},
            name="/v1/tables/{table_id}/round/actions",
            headers={"If-Match": f'"{view["version"]}"'},
        )
    raise Refused(f"a round at {table} did not settle in {MAX_TURNS} turns")


class RoomPlayer(Player):
    """A player at a shared table: polls the room (Locust has no WebSocket client) and acts
    on its own box."""

    weight = 1

    def on_start(self) -> None:
        super().on_start()
        listed = self.call("GET", f"/v1/rooms?table={ROOM_TABLE}", name="/v1/rooms")["rooms"]
        for summary in listed:
            room = self.call("GET", f"/v1/rooms/{summary['room_id']}", name="/v1/rooms/{room_id}")
            free = sorted(set(range(5)) - {seat["box"] for seat in room["seats"]})
            if free and self.room_call("POST", room, "seats", {"boxes": free[:1]}):
                self.room_id, self.box = room["room_id"], free[0]
                break
        else:
            room = self.post("/v1/rooms", {"table": ROOM_TABLE, "boxes": [0]}, name="/v1/rooms")
            self.room_id, self.box = room["room_id"], 0
        ROOMS[self.login] = self.room_id

    @task
    def play_a_round(self) -> None:
        with contextlib.suppress(Refused):
            room = self.call("GET", f"/v1/rooms/{self.room_id}", name="/v1/rooms/{room_id}")
            mine = room["legal_actions"]
            if room["phase"] in ("waiting", "betting", "settled"):
                bet = {"bets": [{"box": self.box, "amount": self.min_bet[ROOM_TABLE]}]}
                self.room_call("POST", room, "bets", bet)
            elif mine:
                hint = self.call(
                    "GET",
                    f"/v1/rooms/{self.room_id}/hint?level=medium",
                    name="/v1/rooms/{room_id}/hint",
                )
                headers = {"If-Match": str(room["version"])}
                self.room_call("POST", room, "actions", {"action": hint["action"]}, headers)

    def room_call(
        self,
        method: str,
        room: dict[str, Any],
        part: str,
        body: dict[str, Any],
        headers: dict[str, str] | None = None,
    ) -> bool:
        """A room request; False when another player's request won a race to it."""
        path, name = f"/v1/rooms/{room['room_id']}/{part}", f"/v1/rooms/{{room_id}}/{part}"
        with self.client.request(
            method, path, json=body, headers=keyed(method, headers), name=name, catch_response=True
        ) as reply:
            if reply.status_code < 400:
                return True
            code = reply.json().get("code") if reply.text.startswith("{") else None
            if code in ROOM_RACES:
                reply.success()
                return False
            reply.failure(f"{reply.status_code} {reply.text[:200]}")
            raise Refused(f"{method} {path}: {reply.status_code} {reply.text[:200]}")


# ---- the check at the end ---------------------------------------------------------------


class Checker:
    """Plain requests (the run is over): finish each account's rounds, then compare."""

    def __init__(self, host: str, login: str, password: str) -> None:
        self.host = host.rstrip("/")
        self.session = requests.Session()
        session = self.call("POST", "/v1/sessions", body={"login": login, "password": password})
        self.session.headers["Authorization"] = f"Bearer {session['token']}"
        self.tables = [table["id"] for table in session["tables"]]

    def call(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        name: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Any:
        headers = keyed(method, headers)
        failure, backoff = "no try", 0.0
        for attempt in range(RETRIES * 2):
            if attempt:
                time.sleep(backoff)
            try:
                reply = self.session.request(
                    method, self.host + path, json=body, headers=headers, timeout=30
                )
            except requests.ConnectionError as error:  # as a client would: retried
                failure, backoff = str(error)[:200], _backoff({}, attempt)
                continue
            if reply.status_code in RETRIED_STATUSES:
                failure, backoff = f"{reply.status_code}", _backoff(reply.headers, attempt)
                continue
            if reply.status_code >= 400:
                raise Refused(f"{method} {path}: {reply.status_code} {reply.text[:200]}")
            return reply.json()
        raise Refused(f"{method} {path}: still failing after {RETRIES * 2} tries ({failure})")

    def broken(self) -> str | None:
        """None if balance == 10000 + Σ net over the history, else what differs."""
        for table in self.tables:
            view = self.call("GET", f"/v1/tables/{table}")["round"]
            if view is not None:
                finish_round(self.call, table, view)
        net, rounds, cursor = Decimal(0), 0, None
        while True:
            page = self.call(
                "GET", "/v1/rounds?limit=100" + (f"&cursor={cursor}" if cursor else "")
            )
            net += sum((_number(view["net"]) for view in page["rounds"]), Decimal(0))
            rounds += len(page["rounds"])
            cursor = page["next_cursor"]
            if cursor is None:
                break
        balance = _number(self.call("GET", "/v1/me")["balance"])
        if balance == STARTING_BALANCE + net:
            return None
        return f"balance {balance} != {STARTING_BALANCE} + {net} over {rounds} rounds"


def check_every_account(environment: Environment, **_: Any) -> None:
    host = environment.host or ""
    broken = []
    for login, password in ACCOUNTS:  # first every room player leaves: rounds settle
        if login in ROOMS:
            try:
                Checker(host, login, password).call("DELETE", f"/v1/rooms/{ROOMS[login]}/seats")
            except Refused as error:
                broken.append(f"{login}: could not leave its room: {error}")
    for login, password in ACCOUNTS:
        try:
            problem = Checker(host, login, password).broken()
        except Refused as error:
            problem = f"could not be checked: {error}"
        if problem:
            broken.append(f"{login}: {problem}")
    print(
        f"Invariant balance == 10000 + Σ net: {len(ACCOUNTS) - len(broken)} of "
        f"{len(ACCOUNTS)} accounts hold"
    )
    for line in broken:
        print(f"  BROKEN {line}")
    print(f"Failures no retry fixed: {len(UNRECOVERED)}")
    for line in UNRECOVERED[:20]:
        print(f"  {line}")
    environment.process_exit_code = 1 if broken or UNRECOVERED or not ACCOUNTS else 0


events.quitting.add_listener(check_every_account)  # type: ignore[no-untyped-call]
