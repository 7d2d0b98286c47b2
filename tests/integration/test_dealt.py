"""`dealt` (API.md): the answer to a bet or an action says what it did to the cards, in
order; every other view says nothing."""

from __future__ import annotations

from typing import Any

from .helpers import Player, act, bet


def _cards_on_boxes(view: dict[str, Any]) -> list[str]:
    return [card for box in view["boxes"] for hand in box["hands"] for card in hand["cards"]]


def _keyed_bet(player: Player, key: str) -> Any:
    body = {"bets": [{"box": 0, "amount": 10}]}
    return player.post("/v1/tables/casino/rounds", body, headers={"Idempotency-Key": key})


def test_a_bet_deals_its_cards_in_order_and_an_action_its_own(alice: Player) -> None:
    for attempt in range(20):  # a round that asks the user to play (not insurance first)
        key = f"deal-{attempt}"
        view = _keyed_bet(alice, key).body
        if view["status"] == "player_turn":
            break
        while view["status"] != "settled":  # insurance: declined, then stand
            action = "decline_insurance" if view["status"] == "insurance" else "stand"
            view = act(alice, "casino", action).body
    dealt = view["dealt"]
    # casino: one card to the box, the dealer's one face-up card, the box's second card.
    assert dealt == [
        {"to": "box", "box": 0, "hand": 0, "card": view["boxes"][0]["hands"][0]["cards"][0]},
        {"to": "dealer", "card": view["dealer"]["cards"][0]},
        {"to": "box", "box": 0, "hand": 0, "card": view["boxes"][0]["hands"][0]["cards"][1]},
    ]
    again = _keyed_bet(alice, key).body
    assert again["dealt"] == dealt  # a replayed answer carries the first answer's
    assert alice.get("/v1/tables/casino").body["round"]["dealt"] == []
    stood = act(alice, "casino", "stand").body
    while stood["status"] != "settled":
        stood = act(alice, "casino", "stand").body
    drawn = [entry["card"] for entry in stood["dealt"]]
    assert all(entry["to"] == "dealer" for entry in stood["dealt"])
    assert drawn == stood["dealer"]["cards"][len(stood["dealer"]["cards"]) - len(drawn) :]
    assert alice.get(f"/v1/rounds/{stood['round_id']}").body["dealt"] == []


def test_a_hole_card_is_dealt_face_down_and_turned(alice: Player) -> None:
    view = bet(alice, "european", 10).body
    first = view["dealt"]
    assert {"to": "dealer", "card": None} in first  # european: the hole card
    assert len([entry for entry in first if entry["to"] == "box"]) == 2
    while view["status"] != "settled":
        view = act(alice, "european", "stand").body
    turned = [entry for entry in view["dealt"] if "turned" in entry]
    assert turned == [{"to": "dealer", "turned": view["dealer"]["cards"][1]}]
    assert set(_cards_on_boxes(view)) >= {e["card"] for e in first if e["to"] == "box"}
