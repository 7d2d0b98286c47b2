"""Index drills through the gateway (API.md "Drills", `section=indices`): drawn near the
index with the true count they are asked at, answered at that count and graded as the
counter plays, scheduled with the chart's cells; their bad answers are 422."""

from __future__ import annotations

from typing import Any

from blackjack.actions import Action
from blackjack.drills import grade_index
from blackjack.rules import TABLES
from blackjack.strategy.indices import indices_document

from .helpers import Player, problem

DRILLS = "/v1/tables/{table}/drills"


def _answer(player: Player, table: str, body: dict[str, Any]) -> Any:
    return player.post(DRILLS.format(table=table), body)


def test_an_index_drill_is_drawn_answered_and_scheduled(alice: Player) -> None:
    document = indices_document("casino")
    for _ in range(6):
        drill = alice.get(DRILLS.format(table="casino") + "/next?section=indices")
        assert drill.status == 200, drill.text
        body = drill.body
        cell = body["cell"]
        assert cell["section"] == "indices" and cell["direction"] in ("at_or_above", "at_or_below")
        entry = next(
            e
            for e in document["indices"]
            if (e["section"] if e["section"] == "insurance" else f"{e['section']} {e['row']}")
            == cell["row"]
            and e["up"] == cell["up"]
            and e["direction"] == cell["direction"]
        )
        t = body["true_count"]
        assert abs(t - entry["index"]) <= 3 and -10 <= t <= 10
        action = body["legal_actions"][0]
        answer = _answer(
            alice,
            "casino",
            {"cards": body["cards"], "up_card": body["up_card"], "action": action, "true_count": t},
        )
        assert answer.status == 200, answer.text
        graded = grade_index(TABLES["casino"], body["cards"], body["up_card"], Action(action), t)
        assert answer.body["best"] == graded.best.value
        assert answer.body["ev"] == {a.value: v for a, v in graded.ev.items()}
        assert answer.body["cell"]["section"] == "indices"
        assert answer.body["cell"]["attempts"] >= 1
    progress = alice.get(DRILLS.format(table="casino")).body
    assert progress["cells"] and all(c["section"] == "indices" for c in progress["cells"])
    # `any` draws the chart's cells only, with no true count.
    chart = alice.get(DRILLS.format(table="casino") + "/next").body
    assert chart["cell"]["section"] != "indices" and "true_count" not in chart
    assert "direction" not in chart["cell"]


def test_bad_index_answers_are_422(alice: Player) -> None:
    base = {"cards": ["TS", "6H"], "up_card": "TD", "action": "hit"}
    for bad in (11, -11, "3", 2.5, True):
        problem(_answer(alice, "casino", {**base, "true_count": bad}), 422, "validation_error")
    no_index = {"cards": ["TS", "9H"], "up_card": "2D", "action": "stand", "true_count": 0}
    problem(_answer(alice, "casino", no_index), 422, "validation_error")
    insurance = {"cards": ["TS", "6H"], "up_card": "AD", "action": "insurance", "true_count": 5}
    problem(_answer(alice, "european", insurance), 422, "validation_error")
    assert _answer(alice, "casino", insurance).status == 200
    problem(_answer(alice, "nowhere", {**base, "true_count": 0}), 404, "not_found")
    problem(
        alice.get(DRILLS.format(table="casino") + "/next?section=index"), 422, "validation_error"
    )
