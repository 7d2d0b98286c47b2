"""Rounds through the API: a full round at each table, every action, every error code."""

from __future__ import annotations

from decimal import Decimal

import pytest

from .helpers import (
    TABLE_IDS,
    Player,
    act,
    assert_ledger,
    balance,
    bet,
    dynamodb,
    play_out,
    problem,
    table_name,
)
from .seeds import find_seed, use_seeds, value


@pytest.mark.parametrize("table", TABLE_IDS)
def test_full_round_at_each_table(alice: Player, table: str) -> None:
    seat = alice.get(f"/v1/tables/{table}")
    assert seat.status == 200
    assert seat.body["round"] is None and seat.body["balance"] == 10000
    shoe = seat.body["shoe"]
    assert shoe["nonce"] == 1 and len(shoe["server_seed_hash"]) == 64
    for _ in range(3):
        reply = bet(alice, table, 20)
        assert reply.status == 201, reply.text
        view = play_out(alice, table, reply.body)
        assert view["round_id"] == reply.body["round_id"]
        assert Decimal(str(view["balance"])) == balance("alice1")
        assert_ledger("alice1")
    me = alice.get("/v1/me").body
    assert me["stats"]["rounds"] == 3
    assert me["balance"] == 10000 + me["stats"]["net"]
    after = alice.get(f"/v1/tables/{table}").body
    assert after["round"]["status"] == "settled"
    assert after["balance"] == me["balance"]


def test_ai_players_bet_from_the_house(alice: Player) -> None:
    reply = alice.post(
        "/v1/tables/european/rounds",
        {
            "bets": [{"box": 2, "amount": 50}],
            "ai": [{"box": 0, "level": "easy"}, {"box": 4, "level": "hard"}],
        },
    )
    assert reply.status == 201, reply.text
    assert [box["player"] for box in reply.body["boxes"]] == ["ai:easy", "user", "ai:hard"]
    settled_at_deal = reply.body["status"] == "settled"  # the user's natural
    assert reply.body["balance"] == (10000 + reply.body["net"] if settled_at_deal else 9950)
    view = play_out(alice, "european", reply.body)
    user_box = view["boxes"][1]
    assert view["net"] == sum(hand["payout"] for hand in user_box["hands"]) - sum(
        hand["bet"] for hand in user_box["hands"]
    )
    assert_ledger("alice1")


def test_round_in_progress_and_no_round(alice: Player) -> None:
    problem(act(alice, "casino", "stand"), 409, "no_round")
    problem(alice.get("/v1/tables/casino/round/hint"), 409, "no_round")
    reply = bet(alice, "casino")
    if reply.body["status"] != "settled":
        problem(bet(alice, "casino"), 409, "round_in_progress")
        play_out(alice, "casino", reply.body)
    problem(act(alice, "casino", "hit"), 409, "no_round")


def test_bet_errors(alice: Player) -> None:
    cases = [
        ({"bets": [{"box": 0, "amount": 5}]}, 422, "bet_out_of_limits"),
        ({"bets": [{"box": 0, "amount": 1001}]}, 422, "bet_out_of_limits"),
        ({"bets": [{"box": 5, "amount": 10}]}, 422, "bet_out_of_limits"),
        ({"bets": [{"box": 0, "amount": 10}, {"box": 0, "amount": 10}]}, 422, "bet_out_of_limits"),
        (
            {"bets": [{"box": 0, "amount": 10}], "ai": [{"box": 0, "level": "easy"}]},
            422,
            "bet_out_of_limits",
        ),
        ({"bets": [{"box": 0, "amount": 10.5}]}, 422, "validation_error"),
        ({"bets": [{"box": 0, "amount": 0}]}, 422, "validation_error"),
        ({"bets": [{"box": 0, "amount": -10}]}, 422, "validation_error"),
        ({"bets": [{"box": 0, "amount": "10"}]}, 422, "validation_error"),
        ({"bets": [{"box": "0", "amount": 10}]}, 422, "validation_error"),
        ({"bets": [{"box": 0, "amount": True}]}, 422, "validation_error"),
        ({"bets": []}, 422, "validation_error"),
        ({"bets": [{"box": 0, "amount": 10}], "tip": 1}, 422, "validation_error"),
        (
            {"bets": [{"box": 0, "amount": 10}], "ai": [{"box": 1, "level": "genius"}]},
            422,
            "validation_error",
        ),
        ({"bets": [{"box": 0, "amount": 10}], "cut": 0.9}, 422, "validation_error"),
        ({"bets": [{"box": 0, "amount": 10}], "cut": 0.705}, 422, "validation_error"),
        ({"bets": [{"box": 0, "amount": 10}], "cut": "0.7"}, 422, "validation_error"),
        ({"bets": [{"box": 0, "amount": 10}], "client_seed": "has space"}, 422, "validation_error"),
        ({"bets": [{"box": 0, "amount": 10}], "client_seed": "x" * 65}, 422, "validation_error"),
    ]
    for body, status, code in cases:
        problem(alice.post("/v1/tables/casino/rounds", body), status, code)
    problem(
        alice.post(
            "/v1/tables/classic/rounds",
            {"bets": [{"box": 0, "amount": 10}], "ai": [{"box": 0, "level": "easy"}]},
        ),
        422,
        "bet_out_of_limits",
    )
    problem(
        alice.post("/v1/tables/classic/rounds", {"bets": [{"box": 0, "amount": 10}], "cut": 0.7}),
        422,
        "validation_error",
    )
    problem(
        alice.post("/v1/tables/european/rounds", {"bets": [{"box": 0, "amount": 10}], "cut": 0.7}),
        422,
        "validation_error",
    )
    problem(
        alice.post("/v1/tables/nowhere/rounds", {"bets": [{"box": 0, "amount": 10}]}),
        404,
        "not_found",
    )
    assert balance("alice1") == 10000
    assert_ledger("alice1")


def test_client_seed_and_cut_only_on_a_new_shoe(alice: Player) -> None:
    reply = bet(alice, "casino", 10, client_seed="my-lucky-seed!", cut=0.5)
    assert reply.status == 201, reply.text
    seat = alice.get("/v1/tables/casino").body
    assert seat["shoe"]["client_seed"] == "my-lucky-seed!"
    play_out(alice, "casino", reply.body)
    problem(bet(alice, "casino", 10, client_seed="again"), 422, "validation_error")
    problem(bet(alice, "casino", 10, cut=0.6), 422, "validation_error")
    shoe = alice.get(f"/v1/shoes/{reply.body['shoe_id']}").body
    assert shoe["cut_index"] == 156  # floor(312 * 0.5)


def test_actions_errors_and_if_match(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    # A hard 10 or 11 against a 2..9: hit, stand, double and surrender all legal at casino.
    seed = find_seed(6, lambda s: value(s[0]) + value(s[2]) in (10, 11) and 2 <= value(s[1]) <= 9)
    use_seeds(monkeypatch, seed)
    reply = bet(alice, "casino", 100)
    view = reply.body
    assert view["legal_actions"] == ["hit", "stand", "double", "surrender"]
    problem(act(alice, "casino", "split"), 409, "illegal_action")
    problem(act(alice, "casino", "insurance"), 409, "illegal_action")
    problem(
        alice.post("/v1/tables/casino/round/actions", {"action": "stand", "amount": 5}),
        422,
        "validation_error",
    )
    problem(
        alice.post("/v1/tables/casino/round/actions", {"action": "fold"}), 422, "validation_error"
    )
    problem(alice.post("/v1/tables/casino/round/actions", {}), 422, "validation_error")
    stale = f'"{view["version"] - 1}"'
    problem(act(alice, "casino", "double", headers={"If-Match": stale}), 412, "stale_state")
    assert balance("alice1") == 9900
    reply = act(alice, "casino", "double", headers={"If-Match": f'"{view["version"]}"'})
    assert reply.status == 200, reply.text
    hand = reply.body["boxes"][0]["hands"][0]
    assert hand["doubled"] and hand["bet"] == 200 and len(hand["cards"]) == 3
    assert reply.body["status"] == "settled"
    assert reply.body["balance"] == 9800 + hand["payout"]
    assert_ledger("alice1")


def test_split(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = find_seed(6, lambda s: s[0][0] == s[2][0] == "8" and s[1][0] not in "A")
    use_seeds(monkeypatch, seed)
    view = bet(alice, "casino", 100).body
    assert "split" in view["legal_actions"]
    view = act(alice, "casino", "split").body
    assert len(view["boxes"][0]["hands"]) == 2
    assert view["balance"] == 9800
    view = play_out(alice, "casino", view)
    assert_ledger("alice1")


def test_surrender(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = find_seed(
        6,
        lambda s: (
            value(s[0]) + value(s[2]) == 16 and "A" not in s[0][0] + s[2][0] and s[1][0] in "9T"
        ),
    )
    use_seeds(monkeypatch, seed)
    bet(alice, "casino", 100)
    view = act(alice, "casino", "surrender").body
    assert view["status"] == "settled" and view["net"] == -50
    assert view["boxes"][0]["hands"][0]["result"] == "surrender"
    assert balance("alice1") == 9950
    assert_ledger("alice1")


def test_insurance_at_bicycle(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = find_seed(1, lambda s: s[1][0] == "A" and value(s[0]) + value(s[2]) < 21)
    use_seeds(monkeypatch, seed)
    view = bet(alice, "bicycle", 11).body
    assert view["status"] == "insurance"
    assert view["legal_actions"] == ["insurance", "decline_insurance"]
    for amount in (6, 0.25, 0):
        problem(
            alice.post(
                "/v1/tables/bicycle/round/actions", {"action": "insurance", "amount": amount}
            ),
            422,
            "validation_error",
        )
    reply = alice.post("/v1/tables/bicycle/round/actions", {"action": "insurance", "amount": 2.5})
    assert reply.status == 200, reply.text
    assert reply.body["boxes"][0]["insurance"] == 2.5
    assert balance("alice1") == Decimal("9986.5")
    view = play_out(alice, "bicycle", reply.body)
    assert view["boxes"][0]["insurance_payout"] in (0, 7.5)
    assert_ledger("alice1")


def test_even_money_at_casino(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = find_seed(6, lambda s: s[1][0] == "A" and {value(s[0]), value(s[2])} == {10, 11})
    use_seeds(monkeypatch, seed)
    view = bet(alice, "casino", 10).body
    assert view["legal_actions"] == ["even_money", "decline_insurance"]
    view = act(alice, "casino", "even_money").body
    assert view["status"] == "settled" and view["net"] == 10
    assert view["boxes"][0]["hands"][0]["result"] == "even_money"
    assert_ledger("alice1")


def test_insufficient_funds(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = find_seed(6, lambda s: value(s[0]) + value(s[2]) in (10, 11) and 2 <= value(s[1]) <= 9)
    use_seeds(monkeypatch, seed)
    bet(alice, "casino", 1000)
    # Out of band, the balance drops below what a double needs.
    dynamodb().update_item(
        TableName=table_name(),
        Key={"pk": {"S": "USER#alice1"}, "sk": {"S": "PLAYER"}},
        UpdateExpression="SET balance = :b",
        ExpressionAttributeValues={":b": {"N": "999"}},
    )
    problem(act(alice, "casino", "double"), 409, "insufficient_funds")
    assert balance("alice1") == 999
    assert act(alice, "casino", "stand").status == 200
    dynamodb().update_item(  # whatever the stand paid, the next bet is more than is left
        TableName=table_name(),
        Key={"pk": {"S": "USER#alice1"}, "sk": {"S": "PLAYER"}},
        UpdateExpression="SET balance = :b",
        ExpressionAttributeValues={":b": {"N": "999"}},
    )
    reply = alice.post("/v1/tables/casino/rounds", {"bets": [{"box": 0, "amount": 1000}]})
    problem(reply, 409, "insufficient_funds")
    assert balance("alice1") == 999


def test_hint(alice: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    seed = find_seed(
        6,
        lambda s: (
            value(s[0]) + value(s[2]) == 16
            and "A" not in (s[0][0], s[2][0])
            and value(s[0]) != value(s[2])
            and s[1][0] == "T"
        ),
    )
    use_seeds(monkeypatch, seed)
    bet(alice, "casino", 10)
    hard = alice.get("/v1/tables/casino/round/hint")
    assert hard.status == 200
    assert hard.body["level"] == "hard" and hard.body["action"] == "surrender"
    medium = alice.get("/v1/tables/casino/round/hint?level=medium").body
    assert medium == {
        "action": "surrender",
        "level": "medium",
        "ev": None,
        "count": hard.body["count"],
        "index": None,
    }
    assert hard.body["index"] is None  # only the counter names an index
    problem(alice.get("/v1/tables/casino/round/hint?level=easy"), 422, "validation_error")
    problem(alice.get("/v1/tables/nowhere/round/hint"), 404, "not_found")


def test_strategy_card(api) -> None:
    reply = api.request("GET", "/v1/tables/casino/strategy")
    problem(api.request("GET", "/v1/tables/nowhere/strategy"), 404, "not_found")
    assert reply.status == 200, reply.text
    card = reply.body
    assert card["table"] == "casino"
    assert set(card) >= {"table", "player_ev", "chart", "ev"}
