"""Shoes: committed before any bet, revealed once retired, recomputable (FAIRNESS.md)."""

from __future__ import annotations

import hashlib
from decimal import Decimal

from blackjack.fairness import cut_index

from .helpers import Player, bet, play_out, problem, recompute


def test_every_round_table_retires_its_shoe(alice: Player) -> None:
    first = alice.get("/v1/tables/classic").body["shoe"]
    view = play_out(alice, "classic", bet(alice, "classic", 10).body)
    assert view["shoe_id"] == first["shoe_id"]
    shoe = alice.get(f"/v1/shoes/{first['shoe_id']}")
    assert shoe.status == 200
    body = shoe.body
    assert body["retired"] is True and body["cut_index"] is None
    assert body["rounds"] == [view["round_id"]] and body["table"] == "classic"
    assert (
        hashlib.sha256(bytes.fromhex(body["server_seed"])).hexdigest() == first["server_seed_hash"]
    )
    assert body["server_seed_hash"] == first["server_seed_hash"]
    full = recompute(body)
    assert body["cards"] == full[: len(body["cards"])]
    assert body["cards"][:3] == [
        view["boxes"][0]["hands"][0]["cards"][0],
        view["dealer"]["cards"][0],
        view["boxes"][0]["hands"][0]["cards"][1],
    ]
    nxt = alice.get("/v1/tables/classic").body["shoe"]
    assert nxt["nonce"] == 2 and nxt["shoe_id"] != first["shoe_id"]
    assert nxt["server_seed_hash"] != first["server_seed_hash"]
    assert nxt["cards_remaining"] == 208 and nxt["cut_card_out"] is False


def test_cut_card_shoe_until_the_cut(alice: Player) -> None:
    seat = alice.get("/v1/tables/european").body["shoe"]
    shoe_id = seat["shoe_id"]
    committed = alice.get(f"/v1/shoes/{shoe_id}").body
    assert committed["server_seed"] is None and committed["cards"] is None
    assert committed["retired"] is False and committed["cut_index"] == 234
    rounds = []
    while True:
        view = play_out(alice, "european", bet(alice, "european", 10).body)
        rounds.append(view["round_id"])
        shoe = alice.get(f"/v1/shoes/{shoe_id}").body
        if shoe["retired"]:
            break
        assert shoe["server_seed"] is None and shoe["cards"] is None
        live = alice.get("/v1/tables/european").body["shoe"]
        assert live["shoe_id"] == shoe_id and live["cards_remaining"] < 312
    assert shoe["rounds"] == rounds
    assert len(shoe["cards"]) > cut_index(6, Decimal("0.75"))
    assert shoe["cards"] == recompute(shoe)[: len(shoe["cards"])]
    assert alice.get("/v1/tables/european").body["shoe"]["nonce"] == 2


def test_check_values_of_fairness_md() -> None:
    from blackjack.fairness import seed_hash, shuffled_shoe

    seed = "00" * 32
    assert seed_hash(seed) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    assert shuffled_shoe(seed, "player", 1, 1)[:10] == [
        "8H",
        "TD",
        "9D",
        "QD",
        "7C",
        "4S",
        "2C",
        "5D",
        "9H",
        "JD",
    ]


def test_shoes_and_rounds_of_another_user_are_404(alice: Player, bob: Player) -> None:
    view = play_out(alice, "classic", bet(alice, "classic", 10).body)
    problem(bob.get(f"/v1/shoes/{view['shoe_id']}"), 404, "not_found")
    problem(bob.get(f"/v1/rounds/{view['round_id']}"), 404, "not_found")
    assert alice.get(f"/v1/rounds/{view['round_id']}").status == 200
    assert bob.get("/v1/rounds").body == {"rounds": [], "next_cursor": None}
    problem(bob.get("/v1/shoes/unknown"), 404, "not_found")
    # Bob's seat at the table is his own.
    assert bob.get("/v1/tables/classic").body["round"] is None
