"""The stored items keep their format: what the store writes is what it always wrote, and
items written before the trainer's counters or the round times existed read and play on."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from blackjack.grading import Kind
from blackjack_service import factories
from blackjack_service.records import LoginAttempts, Profile, Seat, ShoeRecord

from .helpers import Player, bet, dynamodb, get_item, play_out, table_name
from .seeds import find_seed, use_seeds, value


def raw_item(pk: str, sk: str) -> dict[str, Any]:
    """The item as DynamoDB holds it: typed attribute values."""
    key = {"pk": {"S": pk}, "sk": {"S": sk}}
    item: dict[str, Any] = dynamodb().get_item(TableName=table_name(), Key=key)["Item"]
    return item


def test_items_are_written_as_before(aws: None) -> None:
    store = factories.store()
    store.create_profile(
        Profile(login="Alice1", nick="alnick", password_hash="h", balance=Decimal(10000))
    )
    assert raw_item("USER#alice1", "PROFILE") == {
        "pk": {"S": "USER#alice1"},
        "sk": {"S": "PROFILE"},
        "login": {"S": "Alice1"},
        "nick": {"S": "alnick"},
        "password_hash": {"S": "h"},
        "balance": {"N": "10000"},
        "rounds": {"N": "0"},
        "hands_won": {"N": "0"},
        "hands_lost": {"N": "0"},
        "hands_pushed": {"N": "0"},
        "net": {"N": "0"},
        **{
            f"{kind}_{name}": {"N": "0"}
            for kind in Kind
            for name in ("decisions", "mistakes", "ev_lost")
        },
    }
    shoe = ShoeRecord(shoe_id="s1", table="classic", state={"nonce": 1}, server_seed_hash="ab")
    store.create_seat("alice1", Seat(table="classic", version=1, shoe=shoe))
    shoe_document = (
        '{"shoe_id":"s1","table":"classic","state":{"nonce":1},"server_seed_hash":"ab",'
        '"rounds":[],"in_play":false,"retired":false,"dealt":null}'
    )
    assert raw_item("USER#alice1", "SEAT#classic") == {
        "pk": {"S": "USER#alice1"},
        "sk": {"S": "SEAT#classic"},
        "table": {"S": "classic"},
        "version": {"N": "1"},
        "state": {
            "S": '{"shoe":' + shoe_document + ',"round_id":null,"round_shoe_id":null,"round":null,'
            '"round_started_at":null,"round_settled_at":null}'
        },
    }
    assert raw_item("USER#alice1", "SHOE#s1") == {
        "pk": {"S": "USER#alice1"},
        "sk": {"S": "SHOE#s1"},
        "state": {"S": shoe_document},
    }
    store.put_login_attempts("alice1", LoginAttempts(2, 1700, 0), expires_at=2660)
    assert raw_item("LOGIN#alice1", "ATTEMPTS") == {
        "pk": {"S": "LOGIN#alice1"},
        "sk": {"S": "ATTEMPTS"},
        "failures": {"N": "2"},
        "window_start": {"N": "1700"},
        "locked_until": {"N": "0"},
        "expires_at": {"N": "2660"},
    }


def _as_stored_before(login: str, table: str) -> None:
    """The profile and seat as they were stored before the trainer's counters and the
    round times were kept."""
    trainer = [f"{kind}_{name}" for kind in Kind for name in ("decisions", "mistakes", "ev_lost")]
    dynamodb().update_item(
        TableName=table_name(),
        Key={"pk": {"S": f"USER#{login}"}, "sk": {"S": "PROFILE"}},
        UpdateExpression="REMOVE " + ", ".join(trainer),
    )
    seat = raw_item(f"USER#{login}", f"SEAT#{table}")
    state = json.loads(seat["state"]["S"])
    del state["round_started_at"], state["round_settled_at"]
    seat["state"] = {"S": json.dumps(state)}
    dynamodb().put_item(TableName=table_name(), Item=seat)


def test_items_stored_before_read_and_play_on(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A hard 10 or 11 against a dealer's 2 to 9: the player has a decision to make.
    seed = find_seed(6, lambda s: value(s[0]) + value(s[2]) in (10, 11) and 2 <= value(s[1]) <= 9)
    use_seeds(monkeypatch, seed)
    assert alice.get("/v1/tables/casino").status == 200
    _as_stored_before("alice1", "casino")
    assert alice.get("/v1/me").body["stats"]["by_kind"]["hard"] == {
        "decisions": 0,
        "mistakes": 0,
        "ev_lost": 0,
    }
    view = play_out(alice, "casino", bet(alice, "casino", 100).body)
    stats = alice.get("/v1/me").body["stats"]
    hard = stats["by_kind"]["hard"]["decisions"]
    assert stats["rounds"] == 1 and hard >= 1
    profile = get_item("USER#alice1", "PROFILE")
    assert profile is not None and profile["hard_decisions"] == hard
    assert alice.get(f"/v1/rounds/{view['round_id']}").body == view
