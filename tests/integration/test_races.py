"""Deterministic races: a request reads the seat, another change lands before it writes;
the stale write must fail with 409 and change nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from blackjack_service import factories

from .helpers import Player, all_items, assert_ledger, bet, dynamodb, problem, table_name
from .seeds import find_seed, use_seeds, value


def after_first_read(change: Callable[[], None]) -> list[list[str]]:
    """Run `change` out of band right after the service's next BatchGetItem; the returned
    list receives the table's items as they are just after that change."""
    snapshots: list[list[str]] = []

    def hook(**_: Any) -> None:
        if not snapshots:
            change()
            snapshots.append(sorted(map(str, all_items())))

    factories.store().client.meta.events.register("after-call.dynamodb.BatchGetItem", hook)
    return snapshots


def bump_seat(login: str, table: str) -> Callable[[], None]:
    def change() -> None:
        dynamodb().update_item(
            TableName=table_name(),
            Key={"pk": {"S": f"USER#{login}"}, "sk": {"S": f"SEAT#{table}"}},
            UpdateExpression="SET version = version + :one",
            ExpressionAttributeValues={":one": {"N": "1"}},
        )

    return change


def _open_round(alice: Player, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    seed = find_seed(6, lambda s: value(s[0]) + value(s[2]) in (10, 11) and 2 <= value(s[1]) <= 9)
    use_seeds(monkeypatch, seed)
    view: dict[str, Any] = bet(alice, "casino", 100).body
    return view


def test_stale_action_changes_nothing(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    _open_round(alice, monkeypatch)
    for action in ("hit", "double"):  # a seat-only write and a wallet transaction
        snapshots = after_first_read(bump_seat("alice1", "casino"))
        problem(alice.post("/v1/tables/casino/round/actions", {"action": action}), 409, "conflict")
        assert sorted(map(str, all_items())) == snapshots[0]
        factories.store().client.meta.events.unregister("after-call.dynamodb.BatchGetItem")
    assert_ledger("alice1")


def test_stale_bet_changes_nothing(alice: Player) -> None:
    alice.get("/v1/tables/european")
    snapshots = after_first_read(bump_seat("alice1", "european"))
    problem(
        alice.post("/v1/tables/european/rounds", {"bets": [{"box": 0, "amount": 10}]}),
        409,
        "conflict",
    )
    assert sorted(map(str, all_items())) == snapshots[0]


def test_balance_spent_meanwhile_is_insufficient_funds(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    _open_round(alice, monkeypatch)

    def spend() -> None:
        dynamodb().update_item(
            TableName=table_name(),
            Key={"pk": {"S": "USER#alice1"}, "sk": {"S": "PROFILE"}},
            UpdateExpression="SET balance = :b",
            ExpressionAttributeValues={":b": {"N": "50"}},
        )

    snapshots = after_first_read(spend)
    reply = alice.post("/v1/tables/casino/round/actions", {"action": "double"})
    problem(reply, 409, "insufficient_funds")
    assert sorted(map(str, all_items())) == snapshots[0]


def test_concurrent_first_views(alice: Player) -> None:
    """Two first views of a table: the one that loses the race to create the seat gets 409
    and writes nothing (the winner's seat stays as it was)."""

    def other_view_creates_the_seat() -> None:
        dynamodb().put_item(
            TableName=table_name(),
            Item={
                "pk": {"S": "USER#alice1"},
                "sk": {"S": "SEAT#bicycle"},
                "version": {"N": "1"},
                "state": {"S": "written by the winner"},
            },
        )

    snapshots = after_first_read(other_view_creates_the_seat)
    problem(alice.get("/v1/tables/bicycle"), 409, "conflict")
    assert sorted(map(str, all_items())) == snapshots[0]
