"""Shared steps of the tests: a fresh moto account, a player driving the API, playing
rounds, reading stored state, and the checks every response must pass."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

import boto3
from moto import mock_aws

from blackjack.actions import Phase
from blackjack.fairness import shuffled_shoe
from blackjack.rules import TABLES
from blackjack_service import factories, records
from blackjack_service.game import seat_round
from blackjack_service.identity import Identity
from local_stack.data_dir import create_table as create_declared_table

from .exposure import assert_reveals_nothing
from .harness import TEMPLATE, Gateway

TABLE_IDS = ("classic", "bicycle", "casino", "european")
START = Decimal(10000)
GAME_TABLE = TEMPLATE.resources["GameTable"]["Properties"]


def create_table(table_name: str) -> None:
    """The game table exactly as template.yaml declares it."""
    create_declared_table(boto3.client("dynamodb"), table_name, GAME_TABLE)


@contextmanager
def fresh_aws() -> Iterator[None]:
    """An empty moto account with the stack's table and secret; the factories build anew.

    moto keeps boto3's default session (`reset_boto3_session`: off): the account is still
    empty, and the clients the factories build anew load their service models from the
    session's cache instead of decoding them again, some 0.2 s a client."""
    with mock_aws(config={"core": {"reset_boto3_session": False}}):
        create_table(os.environ["TABLE_NAME"])
        secret = boto3.client("secretsmanager").create_secret(
            Name="blackjack-token-key", SecretString="test-hmac-key-" + "k" * 40
        )
        os.environ["TOKEN_SECRET_ARN"] = secret["ARN"]
        factories.reset()
        from aws_lambda_powertools.utilities import parameters

        parameters.clear_caches()  # type: ignore[no-untyped-call]
        yield
        factories.reset()


_SEAT = re.compile(r"/v1/tables/(?P<table>[^/?]+)")
_BET = re.compile(r"/v1/tables/(?P<table>[^/?]+)/rounds/?")


class Player:
    """A registered, logged-in user driving the API."""

    def __init__(self, api: Gateway, login: str, password: str = "password1") -> None:
        self.api = api
        self.login = login
        reply = api.request(
            "POST", "/v1/users", {"login": login, "nick": "Nick" + login[:8], "password": password}
        )
        assert reply.status == 201, reply.text
        reply = api.request("POST", "/v1/sessions", {"login": login, "password": password})
        assert reply.status == 200, reply.text
        self.token: str = reply.body["token"]
        self.viewed: set[str] = set()  # tables whose seat (and first shoe) this user has

    def get(self, url: str, **kwargs: Any) -> Any:
        reply = self.api.request("GET", url, token=self.token, **kwargs)
        assert_reveals_nothing(self.login, reply.text)
        seat = _SEAT.fullmatch(url)
        if seat and reply.status == 200:
            self.viewed.add(seat["table"])
        return reply

    def post(self, url: str, body: Any = None, *, view_first: bool = True, **kwargs: Any) -> Any:
        """A POST; a bet at a table not viewed yet views it first, as the web client does
        (API.md: a bet needs the table's shoe committed, i.e. seen)."""
        bet = _BET.fullmatch(url)
        if view_first and bet and bet["table"] not in self.viewed:
            self.get(f"/v1/tables/{bet['table']}")
        reply = self.api.request("POST", url, body, token=self.token, **kwargs)
        assert_reveals_nothing(self.login, reply.text)
        return reply


def problem(reply, status: int, code: str) -> None:
    assert reply.status == status, reply.text
    assert reply.header("Content-Type") == "application/problem+json"
    body = reply.body
    assert set(body) >= {"type", "title", "status", "detail", "code"}
    assert body["status"] == status and body["code"] == code
    assert "Traceback" not in reply.text


def dynamodb() -> Any:
    """The store's own client: building a client takes some 6 ms, and a test that reads
    every item again after each of its steps built thousands."""
    return factories.store().client


def table_name() -> str:
    return os.environ["TABLE_NAME"]


def get_item(pk: str, sk: str) -> dict[str, Any] | None:
    from boto3.dynamodb.types import TypeDeserializer

    item = (
        dynamodb()
        .get_item(TableName=table_name(), Key={"pk": {"S": pk}, "sk": {"S": sk}})
        .get("Item")
    )
    if item is None:
        return None
    return {k: TypeDeserializer().deserialize(v) for k, v in item.items()}


def player_record(login: str) -> records.Player:
    """The player item (or, before the first write, the one the old items make)."""
    player = factories.store().load_player(login.lower())
    assert player is not None
    return player


def balance(login: str) -> Decimal:
    return player_record(login).balance


def settled_rounds(login: str) -> list[dict[str, Any]]:
    """Every settled round of the user as the history shows it (`GET /v1/rounds`, every
    page), last settled first."""
    identity = Identity(login=login, nick=login)
    rounds: list[dict[str, Any]] = []
    before = None
    while True:
        page = factories.game().history(identity, None, 100, before)
        rounds += page.rounds
        if page.next_position is None:
            return rounds
        before = page.next_position


def assert_ledger(login: str) -> None:
    """Every coin is accounted for: the balance is the start, plus the net of every round
    in the history, plus what the rounds in play have taken so far; each settled round is
    in the history once, and the stats count them all."""
    player = player_record(login)
    in_play = Decimal(0)
    for table, seat in player.seats.items():
        round_ = seat_round(TABLES[table], seat)
        if round_ is not None and round_.phase is not Phase.SETTLED:
            in_play += round_.returned() - round_.staked()
    history = settled_rounds(login)
    assert len({round_["round_id"] for round_ in history}) == len(history)
    nets = sum((Decimal(str(round_["net"])) for round_ in history), Decimal(0))
    assert player.balance == START + nets + in_play
    assert player.stats.rounds == len(history)


def all_items() -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for page in dynamodb().get_paginator("scan").paginate(TableName=table_name()):
        items.extend(page["Items"])
    return items


def assert_nothing_hidden(player: Player, table: str, text: str) -> None:
    """No face-down card and nothing of the shoe's order in a response."""
    assert_reveals_nothing(player.login, text)


def bet(player: Player, table: str, amount: int = 10, **extra: Any) -> Any:
    reply = player.post(
        f"/v1/tables/{table}/rounds", {"bets": [{"box": 0, "amount": amount}], **extra}
    )
    assert_nothing_hidden(player, table, reply.text)
    return reply


def act(player: Player, table: str, action: str, **extra: Any) -> Any:
    reply = player.post(f"/v1/tables/{table}/round/actions", {"action": action}, **extra)
    assert_nothing_hidden(player, table, reply.text)
    return reply


def play_out(player: Player, table: str, view: dict[str, Any]) -> dict[str, Any]:
    """Follow the medium hint until the round settles; check each step's invariants."""
    while view["status"] != "settled":
        hint = player.get(f"/v1/tables/{table}/round/hint?level=medium")
        assert hint.status == 200, hint.text
        action = hint.body["action"]
        assert action in view["legal_actions"]
        reply = act(player, table, action)
        if reply.status == 409 and reply.body["code"] == "insufficient_funds":
            reply = act(
                player, table, "stand" if "stand" in view["legal_actions"] else "decline_insurance"
            )
        assert reply.status == 200, reply.text
        assert reply.body["version"] == view["version"] + 1
        assert reply.header("ETag") == f'"{reply.body["version"]}"'
        view = reply.body
    assert view["turn"] is None and view["legal_actions"] == []
    return view


def recompute(shoe: dict[str, Any]) -> list[str]:
    return shuffled_shoe(shoe["server_seed"], shoe["client_seed"], shoe["nonce"], shoe["decks"])


def user_decisions(rounds: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The user's graded decisions over round views, in the rounds' order."""
    return [
        d
        for r in rounds
        for b in r["boxes"]
        if b["player"] == "user"
        for h in b["hands"]
        for d in h["decisions"]
    ]
