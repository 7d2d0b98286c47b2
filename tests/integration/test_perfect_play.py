"""Perfect play through the API: the `expert` hint and AI players, the count, and each
decision graded against both levels."""

from __future__ import annotations

from typing import Any

from blackjack.actions import Action

from .helpers import Player, act, bet, player_record, problem

COUNT_FIELDS = {"system", "running", "true", "cards_seen", "cards_unseen"}


def _in_play(player: Player, table: str, **extra: object) -> dict[str, Any]:
    """A round that asks the user something (a natural settles on the deal: bet again)."""
    for _ in range(20):
        view: dict[str, Any] = bet(player, table, 10, **extra).body
        if view["status"] == "insurance":  # declined: the user's turn follows, or the end
            view = act(player, table, "decline_insurance").body
        if view["status"] == "player_turn":
            return view
    raise AssertionError("20 rounds settled on their deal")


def test_the_expert_hint_values_every_action_and_counts_the_cards_seen(alice: Player) -> None:
    view = _in_play(alice, "casino")
    expert = alice.get("/v1/tables/casino/round/hint?level=expert")
    assert expert.status == 200, expert.text
    hint = expert.body
    assert hint["level"] == "expert" and set(hint["ev"]) == set(view["legal_actions"])
    assert hint["action"] == max(hint["ev"], key=hint["ev"].get)
    count = hint["count"]
    assert set(count) == COUNT_FIELDS and count["system"] == "hi_lo"
    seen = [card for box in view["boxes"] for hand in box["hands"] for card in hand["cards"]]
    seen += view["dealer"]["cards"]
    assert count["cards_seen"] >= len(seen)  # and the shoe's earlier rounds
    assert count["cards_seen"] + count["cards_unseen"] == 6 * 52
    assert alice.get("/v1/tables/casino/round/hint").body["count"] == count
    medium = alice.get("/v1/tables/casino/round/hint?level=medium").body
    assert medium["ev"] is None and medium["count"] == count
    problem(alice.get("/v1/tables/casino/round/hint?level=genius"), 422, "validation_error")


def test_the_seat_counts_its_shoe_and_decisions_are_graded_twice(alice: Player) -> None:
    _in_play(alice, "casino")
    seat = alice.get("/v1/tables/casino").body
    assert set(seat["shoe"]["count"]) == COUNT_FIELDS
    in_play = seat["shoe"]["count"]
    settled = act(alice, "casino", "stand").body
    while settled["status"] != "settled":
        settled = act(alice, "casino", "stand").body
    [decision, *_] = settled["boxes"][0]["hands"][0]["decisions"]
    assert {"expert_best", "expert_loss"} <= set(decision)
    assert decision["expert_best"] in {action.value for action in Action}
    after = alice.get("/v1/tables/casino").body["shoe"]["count"]
    dealer = settled["dealer"]["cards"]
    if after["cards_seen"]:  # the same shoe plays on: the dealer's cards are public now
        assert after["cards_seen"] >= in_play["cards_seen"] + len(dealer) - 1
    me = alice.get("/v1/me").body["stats"]
    assert {"expert_mistakes", "expert_ev_lost", "deviations", "deviations_taken"} <= set(me)
    assert me["deviations_taken"] <= me["deviations"] <= me["decisions"]


def test_expert_ai_players_take_boxes(alice: Player) -> None:
    view = bet(alice, "european", 10, ai=[{"box": 1, "level": "expert"}])
    assert view.status == 201, view.text
    assert view.body["boxes"][1]["player"] == "ai:expert"


def test_between_rounds_the_count_is_every_card_the_shoe_dealt(alice: Player) -> None:
    view = bet(alice, "european", 10, ai=[{"box": 1, "level": "easy"}]).body
    while view["status"] != "settled":
        view = act(alice, "european", view["legal_actions"][0]).body
    cards = [card for box in view["boxes"] for hand in box["hands"] for card in hand["cards"]]
    cards += view["dealer"]["cards"]  # the hole card turned: public
    count = alice.get("/v1/tables/european").body["shoe"]["count"]
    assert count["cards_seen"] == len(cards)  # the shoe's first round, settled
    assert count["running"] == sum(_hi_lo(card) for card in cards)


def _hi_lo(card: str) -> int:
    rank = card[0]
    return 1 if rank in "23456" else 0 if rank in "789" else -1


def test_each_decisions_grade_against_perfect_play_is_kept_with_its_move(
    alice: Player,
) -> None:
    _in_play(alice, "casino")
    view = act(alice, "casino", "stand").body
    stored = player_record(alice.login).seats["casino"].round
    assert stored is not None and len(stored.expert) == len(stored.moves)
    graded = [d for box in view["boxes"] for hand in box["hands"] for d in hand["decisions"]]
    assert {(d["expert_best"], d["expert_loss"]) for d in graded} <= {
        (action.value, float(loss)) for action, loss in stored.expert
    }
