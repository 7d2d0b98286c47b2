"""Shared steps of the tests: playing rounds through the API, reading stored state, and
the checks every response must pass."""

from __future__ import annotations

import json
import os
from decimal import Decimal
from typing import Any

import boto3

from blackjack.fairness import shuffled_shoe

from .conftest import Player

TABLE_IDS = ("classic", "bicycle", "casino", "european")
START = Decimal(10000)


def dynamodb() -> Any:
    return boto3.client("dynamodb")


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


def seat_state(login: str, table: str) -> dict[str, Any] | None:
    item = get_item(f"USER#{login.lower()}", f"SEAT#{table}")
    if item is None:
        return None
    return {"version": int(item["version"]), **json.loads(item["state"])}


def balance(login: str) -> Decimal:
    item = get_item(f"USER#{login.lower()}", "PROFILE")
    assert item is not None
    return Decimal(item["balance"])


def ledger_sum(login: str) -> Decimal:
    total = Decimal(0)
    pages = (
        dynamodb()
        .get_paginator("query")
        .paginate(
            TableName=table_name(),
            KeyConditionExpression="pk = :pk AND begins_with(sk, :l)",
            ExpressionAttributeValues={
                ":pk": {"S": f"USER#{login.lower()}"},
                ":l": {"S": "LEDGER#"},
            },
        )
    )
    for page in pages:
        total += sum((Decimal(item["amount"]["N"]) for item in page["Items"]), Decimal(0))
    return total


def all_items() -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for page in dynamodb().get_paginator("scan").paginate(TableName=table_name()):
        items.extend(page["Items"])
    return items


def assert_ledger(login: str) -> None:
    assert balance(login) == START + ledger_sum(login)


def assert_nothing_hidden(player: Player, table: str, text: str) -> None:
    """No face-down card and nothing of the shoe's order in a response: the dealer's cards
    shown are the face-up ones of the stored round, the seed and undealt cards absent."""
    seat = seat_state(player.login, table)
    if seat is None:
        return
    state = seat["shoe"]["state"]
    assert state["server_seed"] not in text
    undealt = state["cards"][2 * state["position"] :]
    if len(undealt) >= 8:
        assert undealt[:8] not in text.replace('", "', "")
    round_ = seat["round"]
    body = json.loads(text)
    views = (
        [body]
        if "dealer" in body
        else [body.get("round")]
        if isinstance(body.get("round"), dict)
        else []
    )
    for view in views:
        if round_ is None or view.get("round_id") != seat["round_id"]:
            continue
        dealer = round_["dealer"]
        cards = [dealer[i : i + 2] for i in range(0, len(dealer), 2)]
        visible = cards[: len(cards) - round_["hidden"]]
        assert view["dealer"]["cards"] == visible
        assert view["dealer"]["hidden"] == round_["hidden"]


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
