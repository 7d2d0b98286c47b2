"""Retries with an Idempotency-Key: the first success is replayed, coins move once."""

from __future__ import annotations

import time
from typing import Any

import pytest

from blackjack_service import factories

from .helpers import Player, assert_ledger, balance, play_out, problem, settled_rounds
from .seeds import find_seeds, no_natural_nor_ace_up, use_seeds

BET = {"bets": [{"box": 0, "amount": 100}]}
# Shoes (of six decks, as at european and casino) whose first round stays in play: its
# bet's coins are taken and none come back until the player acts.
IN_PLAY = find_seeds(3, 6, no_natural_nor_ace_up)


def test_bet_retried_takes_coins_once(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    use_seeds(monkeypatch, IN_PLAY[0])
    key = {"Idempotency-Key": "bet-0001"}
    first = alice.post("/v1/tables/european/rounds", BET, headers=key)
    assert first.status == 201, first.text
    again = alice.post(
        "/v1/tables/european/rounds", {"bets": [{"amount": 100, "box": 0}]}, headers=key
    )
    assert again.status == 201
    assert again.body == first.body
    assert again.header("ETag") == first.header("ETag")
    assert first.body["status"] == "player_turn"
    assert balance("alice1") == 9900
    assert_ledger("alice1")
    problem(
        alice.post(
            "/v1/tables/european/rounds", {"bets": [{"box": 0, "amount": 200}]}, headers=key
        ),
        422,
        "idempotency_key_reused",
    )


def test_equal_numbers_are_one_body(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    # API.md: a key's body is compared as parsed JSON, so a number by its value, however
    # spelled; a spelling a float would round to 100 is another value, another body.
    use_seeds(monkeypatch, IN_PLAY[0])
    key = {"Idempotency-Key": "bet-spelled"}
    rounds = "/v1/tables/european/rounds"
    first = alice.post(rounds, raw='{"bets": [{"box": 0, "amount": 100}]}', headers=key)
    assert first.status == 201, first.text
    for amount in ("100.0", "1e2", "1E+2", "0.1e3", "100.000e0", "10000e-2"):
        body = f'{{"bets": [{{"box": 0, "amount": {amount}}}]}}'
        again = alice.post(rounds, raw=body, headers=key)
        assert (again.status, again.text) == (first.status, first.text), amount
    assert balance("alice1") == 9900
    problem(
        alice.post(
            rounds, raw='{"bets": [{"box": 0, "amount": 100.0000000000000000001}]}', headers=key
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


def test_keys_are_per_user_and_route(
    alice: Player, bob: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_seeds(monkeypatch, *IN_PLAY)
    key = {"Idempotency-Key": "same-key"}
    european = alice.post("/v1/tables/european/rounds", BET, headers=key)
    assert european.status == 201
    # Had the key been the user's alone, or the route's, these would be replays of
    # alice's european round: no coins taken, its round id again.
    bobs = bob.post("/v1/tables/european/rounds", BET, headers=key)
    assert bobs.status == 201
    casino = alice.post("/v1/tables/casino/rounds", BET, headers=key)
    assert casino.status == 201
    assert len({european.body["round_id"], bobs.body["round_id"], casino.body["round_id"]}) == 3
    assert balance("bob123") == 9900
    assert balance("alice1") == 9800
    assert_ledger("alice1")
    assert_ledger("bob123")


def test_action_retried(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    use_seeds(monkeypatch, IN_PLAY[0])
    view = alice.post("/v1/tables/european/rounds", BET).body
    assert view["status"] == "player_turn" and "stand" in view["legal_actions"]
    key = {"Idempotency-Key": "stand-1"}
    first = alice.post("/v1/tables/european/round/actions", {"action": "stand"}, headers=key)
    assert first.status == 200, first.text
    assert first.body["status"] == "settled"
    settled = balance("alice1")
    # Sent again, the stand is the first one's answer: not 409 no_round (the round is
    # settled), and its payout is not paid twice.
    again = alice.post("/v1/tables/european/round/actions", {"action": "stand"}, headers=key)
    assert again.status == 200, again.text
    assert again.body == first.body
    assert balance("alice1") == settled == 9900 + first.body["boxes"][0]["hands"][0]["payout"]
    assert len(settled_rounds("alice1")) == 1
    assert_ledger("alice1")


def test_bad_keys(alice: Player) -> None:
    for bad in ("", "x" * 129, "tab\there", "ünï"):
        reply = alice.post("/v1/tables/european/rounds", BET, headers={"Idempotency-Key": bad})
        problem(reply, 422, "validation_error")
    assert balance("alice1") == 10000


Sent = tuple[str, dict[str, Any], Any]  # the path, the body and the reply


def _keyed_round(player: Player, table: str, keys: list[str], sent: dict[str, Sent]) -> None:
    """A round whose every request carries a new key; what was sent and answered is kept
    under its key."""

    def send(path: str, body: dict[str, Any]) -> dict[str, Any]:
        key = f"key-{len(keys):02d}"
        reply = player.post(path, body, headers={"Idempotency-Key": key})
        assert reply.status in (200, 201), reply.text
        keys.append(key)
        sent[key] = (path, body, reply)
        return dict(reply.body)

    view = send(f"/v1/tables/{table}/rounds", BET)
    while view["status"] != "settled":
        hint = player.get(f"/v1/tables/{table}/round/hint?level=medium").body["action"]
        view = send(f"/v1/tables/{table}/round/actions", {"action": hint})


def test_the_last_16_keys_at_a_table_replay_byte_for_byte(alice: Player) -> None:
    keys: list[str] = []
    sent: dict[str, Sent] = {}
    while len(keys) < 17:
        _keyed_round(alice, "european", keys, sent)
    # Only the last 16 are kept: the first of them, some rounds back, replays as it was.
    path, body, first = sent[keys[-16]]
    again = alice.post(path, body, headers={"Idempotency-Key": keys[-16]})
    # Its headers too, but for the request id API Gateway gives every answer.
    first_headers, again_headers = (
        {k: v for k, v in reply.headers.items() if k != "x-amzn-RequestId"}
        for reply in (first, again)
    )
    assert (again.status, again.text, again_headers) == (first.status, first.text, first_headers)
    assert_ledger("alice1")
    # The key before them is forgotten: sent again, it is a new request.
    path, body, older = sent[keys[-17]]
    reply = alice.post(path, body, headers={"Idempotency-Key": keys[-17]})
    assert reply.text != older.text
    assert_ledger("alice1")


def test_a_key_is_kept_24_hours(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    key = {"Idempotency-Key": "a day"}
    first = alice.post("/v1/tables/classic/rounds", BET, headers=key)
    assert first.status == 201
    play_out(alice, "classic", first.body)
    game = factories.game()
    start = time.time()
    monkeypatch.setattr(game, "clock", lambda: start + 24 * 3600 - 120)
    assert alice.post("/v1/tables/classic/rounds", BET, headers=key).text == first.text
    monkeypatch.setattr(game, "clock", lambda: start + 24 * 3600 + 60)
    later = alice.post("/v1/tables/classic/rounds", BET, headers=key)
    assert later.status == 201 and later.body["round_id"] != first.body["round_id"]


def _calls_of(alice: Player, method: str, path: str, body: Any = None) -> tuple[Any, list[str]]:
    """The reply to one request, and the DynamoDB operations it made."""
    made: list[str] = []
    events = factories.store().client.meta.events
    events.register("before-call.dynamodb", lambda model, **_: made.append(model.name))
    try:
        reply = alice.api.request(method, path, body, token=alice.token)
    finally:
        events.unregister("before-call.dynamodb")
    return reply, made


def test_a_request_makes_one_write_and_a_bet_after_a_settled_round_two(alice: Player) -> None:
    # The write that settles a round is its only one; the next bet puts the round's
    # history item, then its own write.
    alice.get("/v1/tables/european")
    settled = 0
    while settled < 5:
        reply, made = _calls_of(alice, "POST", "/v1/tables/european/rounds", BET)
        first = True
        while True:
            view = reply.body
            assert reply.status in (200, 201), reply.text
            writes = [name for name in made if name not in ("GetItem", "BatchGetItem", "Query")]
            assert writes == ["PutItem"] * (2 if first and settled else 1), made
            first = False
            if view["status"] == "settled":
                break
            action = "stand" if "stand" in view["legal_actions"] else "decline_insurance"
            reply, made = _calls_of(
                alice, "POST", "/v1/tables/european/round/actions", {"action": action}
            )
        settled += 1


def test_ids_that_cannot_be_ours_are_not_found_unread(alice: Player) -> None:
    # Issue 19: a round id of 1,019 characters and more, a shoe id of 1,100 and more, were
    # 500 on DynamoDB Local: a key over DynamoDB's limits, which moto does not enforce.
    for path in ("/v1/rounds/" + "a" * 1019, "/v1/shoes/" + "f" * 1100, "/v1/rounds/nope"):
        reply, made = _calls_of(alice, "GET", path)
        problem(reply, 404, "not_found")
        assert made == []
