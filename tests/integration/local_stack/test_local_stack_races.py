"""Races through the real stack (template.yaml, DynamoDB Local, functions side by side):
identical bets at once, double/split/hit at once on one round, one Idempotency-Key sent
several times at once. Losers get a clean 409 (or 429) and change nothing; a transaction
conflict may fail every contender, as in DynamoDB. Whatever wins, every coin is kept:
for every account, the balance is 10000 plus the net of its settled rounds."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from tests.integration.local_stack.harness import Client, Reply, Running, running_stack

REPO = Path(__file__).resolve().parents[3]
TABLE = "european"
ROUNDS = f"/v1/tables/{TABLE}/rounds"
ACTIONS = f"/v1/tables/{TABLE}/round/actions"
BET = {"bets": [{"box": 0, "amount": 10}]}
LOST_RACE = {(409, "conflict"), (409, "round_in_progress"), (409, "illegal_action"),
             (409, "no_round"), (429, "throttled")}  # fmt: skip


@pytest.fixture(scope="module")
def real(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Running]:
    data_dir = tmp_path_factory.mktemp("races")
    with running_stack(data_dir, REPO / "template.yaml") as running:
        yield running


class Account:
    def __init__(self, client: Client, login: str) -> None:
        self.client = client
        account = {"login": login, "nick": login, "password": "password1"}
        assert client.request("POST", "/v1/users", account).status == 201
        session = client.request("POST", "/v1/sessions", {"login": login, "password": "password1"})
        self.token = session.json()["token"]
        assert self.get(f"/v1/tables/{TABLE}").status == 200

    def get(self, path: str) -> Reply:
        return self.client.request("GET", path, token=self.token)

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None) -> Reply:
        return self.client.request("POST", path, body, headers=headers, token=self.token)

    def finish(self) -> None:
        """Stand until no round is open at the table."""
        for _ in range(20):
            reply = self.post(ACTIONS, {"action": "stand"})
            if reply.status == 409 and reply.json()["code"] == "no_round":
                return
            assert reply.status in (200, 409), reply.body
        raise AssertionError("the round never settled")

    def assert_every_coin_kept(self) -> None:
        nets: list[Decimal] = []
        cursor = ""
        while True:
            page = self.get(f"/v1/rounds?limit=100{cursor}").json()
            nets.extend(Decimal(str(r["net"])) for r in page["rounds"])
            if not page["next_cursor"]:
                break
            cursor = f"&cursor={page['next_cursor']}"
        balance = Decimal(str(self.get("/v1/me").json()["balance"]))
        assert balance == 10000 + sum(nets), (balance, nets)


def at_once(calls: list[Callable[[], Reply]]) -> list[Reply]:
    """Every call from its own thread, released together."""
    barrier = threading.Barrier(len(calls), timeout=30)
    replies: list[Reply | None] = [None] * len(calls)

    def run(n: int) -> None:
        barrier.wait()
        replies[n] = calls[n]()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(reply is not None for reply in replies)
    return [reply for reply in replies if reply is not None]


def losers_lost_cleanly(replies: list[Reply], winning: int) -> list[Reply]:
    winners = [r for r in replies if r.status == winning]
    for reply in replies:
        if reply.status != winning:
            assert (reply.status, reply.json()["code"]) in LOST_RACE, reply.body
    return winners


def test_requests_side_by_side_keep_their_own_identity(real: Running) -> None:
    players = [Account(real.client, f"whoami{n}") for n in range(6)]
    for _ in range(4):
        replies = at_once([partial(p.get, "/v1/me") for p in players for _ in range(2)])
        logins = [r.json()["login"] for r in replies if r.status == 200]
        expected = [f"whoami{n}" for n in range(len(players)) for _ in range(2)]
        assert logins == [e for e, r in zip(expected, replies, strict=True) if r.status == 200]


def test_identical_bets_at_once_open_one_round_at_a_time(real: Running) -> None:
    players = [Account(real.client, f"bets{n}") for n in range(2)]
    for _ in range(3):
        replies = at_once([partial(p.post, ROUNDS, BET) for p in players for _ in range(4)])
        for n, player in enumerate(players):
            winners = losers_lost_cleanly(replies[4 * n : 4 * n + 4], 201)
            # one round at a time: a second bet that wins found the first settled at once
            rounds = [w.json() for w in winners]
            assert len({r["round_id"] for r in rounds}) == len(rounds)
            assert sum(r["status"] != "settled" for r in rounds) <= 1
            player.finish()
    for player in players:
        player.assert_every_coin_kept()


def test_double_split_and_hit_at_once_on_one_round(real: Running) -> None:
    player = Account(real.client, "actions1")
    raced = 0
    for _ in range(60):  # deal until the hand may be split (a pair), race there
        view = player.post(ROUNDS, BET).json()
        if {"split", "double", "hit"} <= set(view["legal_actions"]):
            actions = ["double", "split", "hit"] * 3
            replies = at_once([partial(player.post, ACTIONS, {"action": a}) for a in actions])
            winners = losers_lost_cleanly(replies, 200)
            # each success moved the round on from a state of its own: no lost update
            versions = [w.json()["version"] for w in winners]
            assert len(set(versions)) == len(versions), versions
            raced += 1
        player.finish()
        if raced == 2:
            break
    assert raced, "no pair was dealt"
    player.assert_every_coin_kept()


def test_one_idempotency_key_sent_at_once_bets_once(real: Running) -> None:
    player = Account(real.client, "retries1")
    for n in range(3):
        key = {"Idempotency-Key": f"bet-{n}"}
        replies = at_once([partial(player.post, ROUNDS, BET, key) for _ in range(6)])
        winners = losers_lost_cleanly(replies, 201)
        assert len({w.body for w in winners}) <= 1  # a retry gets the first answer again
        player.finish()
        again = player.post(ROUNDS, BET, key)  # later, the first answer again
        assert again.status == 201, again.body
        if winners:
            assert again.body == winners[0].body
        player.finish()
    player.assert_every_coin_kept()
