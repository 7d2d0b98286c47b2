"""The trainer through the API: each decision graded as the hint values it at that moment,
the stats the sums over the rounds in history, the rounds' times."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .harness import Gateway
from .helpers import TABLE_IDS, Player, act, bet
from .seeds import use_seeds

KINDS = ("hard", "soft", "pairs", "insurance")
RFC_3339_MS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
_players = itertools.count()


def hand_in_turn(view: dict[str, Any], turn: dict[str, int]) -> dict[str, Any]:
    [box] = [box for box in view["boxes"] if box["box"] == turn["box"]]
    hand: dict[str, Any] = box["hands"][turn["hand"]]
    return hand


def grades(decisions: list[tuple[dict[str, Any], Decimal]]) -> dict[str, Any]:
    """API.md's figures over (decision, the hand's original bet) pairs."""
    losses = [Decimal(str(decision["loss"])) for decision, _ in decisions]
    ev_lost = sum((Decimal(str(d["loss"])) * bet for d, bet in decisions), Decimal(0))
    return {
        "decisions": len(decisions),
        "mistakes": sum(loss >= Decimal("0.0005") for loss in losses),
        "ev_lost": float(ev_lost.quantize(Decimal("0.01"))),
    }


def graded_in_history(rounds: list[dict[str, Any]]) -> list[tuple[dict[str, Any], Decimal]]:
    return [
        (decision, Decimal(str(box["bet"])))
        for round_ in rounds
        for box in round_["boxes"]
        for hand in box["hands"]
        for decision in hand["decisions"]
    ]


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_each_loss_is_the_hints_ev_difference_and_the_stats_sum_the_history(
    api: Gateway, monkeypatch: pytest.MonkeyPatch, data: st.DataObject
) -> None:
    player = Player(api, f"prop{next(_players)}")
    # Distinct seeds: a shoe's id is its commitment's, so two shoes of one seed would be
    # one shoe, their rounds one round (a real seed is 256 random bits).
    seeds = data.draw(
        st.lists(st.integers(0, 2**256 - 1), min_size=3, max_size=3, unique=True), "seeds"
    )
    use_seeds(monkeypatch, *(f"{seed:064x}" for seed in seeds))
    for _ in range(data.draw(st.integers(1, 3), "rounds")):
        table = data.draw(st.sampled_from(TABLE_IDS), "table")
        player.get(f"/v1/tables/{table}")  # commits the table's shoe
        view = bet(player, table, data.draw(st.integers(10, 60), "bet")).body
        while view["status"] != "settled":
            hint = player.get(f"/v1/tables/{table}/round/hint").body
            action = data.draw(st.sampled_from(view["legal_actions"]), "action")
            reply = act(player, table, action)
            assert reply.status == 200, reply.text
            turn, view = view["turn"], reply.body
            decision = hand_in_turn(view, turn)["decisions"][-1]
            ev = hint["ev"]
            assert decision["action"] == action and decision["best"] == hint["action"]
            assert decision["loss"] == round(ev[hint["action"]] - ev[action], 4)
    stats = player.get("/v1/me").body["stats"]
    history = player.get("/v1/rounds?limit=100").body["rounds"]
    graded = graded_in_history(history)
    assert {name: stats[name] for name in ("decisions", "mistakes", "ev_lost")} == grades(graded)
    assert stats["by_kind"] == {
        kind: grades([(d, b) for d, b in graded if d["kind"] == kind]) for kind in KINDS
    }


def test_a_round_in_play_is_not_counted_and_ai_boxes_are_not_graded(alice: Player) -> None:
    bets = [{"box": 0, "amount": 10}, {"box": 1, "amount": 10}]
    ai = [{"box": 2, "level": "hard"}]
    view = alice.post("/v1/tables/european/rounds", {"bets": bets, "ai": ai}).body
    while view["status"] != "settled":
        action = "hit" if "hit" in view["legal_actions"] else view["legal_actions"][0]
        reply = act(alice, "european", action)
        me = alice.get("/v1/me").body["stats"]
        if reply.body["status"] != "settled":
            assert me["decisions"] == 0  # counted once the round settles
        view = reply.body
    [ai] = [box for box in view["boxes"] if box["player"] == "ai:hard"]
    assert all(hand["decisions"] == [] for hand in ai["hands"])
    kinds = Counter(
        d["kind"] for box in view["boxes"] for hand in box["hands"] for d in hand["decisions"]
    )
    stats = alice.get("/v1/me").body["stats"]
    assert stats["decisions"] == sum(kinds.values()) > 0
    assert {kind: stats["by_kind"][kind]["decisions"] for kind in kinds} == dict(kinds)


def test_started_at_and_settled_at(alice: Player) -> None:
    alice.get("/v1/tables/european")
    view = bet(alice, "european").body
    started = view["started_at"]
    assert RFC_3339_MS.fullmatch(started)
    while view["status"] != "settled":
        assert view["settled_at"] is None
        view = act(alice, "european", "stand").body
        assert view["started_at"] == started
    assert RFC_3339_MS.fullmatch(view["settled_at"]) and view["settled_at"] >= started
    stored = alice.get(f"/v1/rounds/{view['round_id']}").body
    seat = alice.get("/v1/tables/european").body["round"]
    assert stored["started_at"] == seat["started_at"] == started
    assert stored["settled_at"] == seat["settled_at"] == view["settled_at"]
