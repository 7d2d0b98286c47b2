"""The `counter` level through the API: its hint names the card's action or the shipped
index play at the hint's own true count (and that index), every decision is graded with
the action it names (`counter_best`), `/v1/me` counts the index spots and those taken, and
`counter` AI players sit at the table."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from blackjack.actions import Action, Phase
from blackjack.players import counter_at
from blackjack.rules import TABLES
from blackjack.turn import PlayerView

from .helpers import Player, act, bet, problem, user_decisions
from .seeds import use_seeds

SEED = "34" * 32


def _view(table: str, round_view: dict[str, Any]) -> PlayerView:
    """The decision in turn, as the engine's players see it."""
    turn = round_view["turn"]
    box = next(b for b in round_view["boxes"] if b["box"] == turn["box"])
    hand = box["hands"][turn["hand"]]
    return PlayerView(
        TABLES[table].rules,
        Phase(round_view["status"]),
        tuple(hand["cards"]),
        round_view["dealer"]["cards"][0],
        tuple(Action(a) for a in round_view["legal_actions"]),
        len(box["hands"]),
        hand["split"],
    )


def _play(
    player: Player, table: str, rounds: int, follow: str
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Play `rounds` rounds taking the `follow` hint's action; each counter hint checked
    against the engine's counter at its count. The hints asked, and each round's decisions."""
    hints: list[dict[str, Any]] = []
    decisions: list[dict[str, Any]] = []
    for _ in range(rounds):
        reply = bet(player, table, 10, ai=[{"box": 1, "level": "counter"}])
        assert reply.status == 201, reply.text
        view = reply.body
        while view["status"] != "settled":
            hint = player.get(f"/v1/tables/{table}/round/hint?level=counter")
            assert hint.status == 200, hint.text
            body = hint.body
            assert body["level"] == "counter" and body["ev"] is None
            action, index = counter_at(_view(table, view), Decimal(str(body["count"]["true"])))
            assert body["action"] == action.value
            assert body["index"] == (None if index is None else index.as_dict())
            hints.append(body)
            taken = body["action"]
            if follow != "counter":
                taken = player.get(f"/v1/tables/{table}/round/hint?level={follow}").body["action"]
            reply = act(player, table, taken)
            assert reply.status == 200, reply.text
            view = reply.body
        decisions += user_decisions([view])
        assert view["boxes"][1]["player"] == "ai:counter"
    return hints, decisions


@pytest.mark.parametrize("follow", ["counter", "hard"])
def test_counter_hints_grades_and_stats(alice: Player, monkeypatch, follow: str) -> None:
    use_seeds(monkeypatch, SEED)
    alice.get("/v1/tables/casino")
    hints, decisions = _play(alice, "casino", 40, follow)
    assert [d["counter_best"] for d in decisions] == [h["action"] for h in hints]
    spots = [(h, d) for h, d in zip(hints, decisions, strict=True) if h["index"] is not None]
    assert spots, "a shoe of 40 rounds meets an index"
    stats = alice.get("/v1/me").body["stats"]
    assert stats["index_spots"] == len(spots)
    taken = sum(d["action"] == d["counter_best"] for _, d in spots)
    assert stats["index_spots_taken"] == taken
    if follow == "counter":
        assert taken == len(spots)
    # History replays the rounds: the same grades.
    history = alice.get("/v1/rounds?table=casino&limit=100").body["rounds"]
    assert user_decisions(reversed(history)) == decisions


def test_a_bad_level_is_422(alice: Player) -> None:
    alice.get("/v1/tables/casino")
    assert bet(alice, "casino", 10).status == 201
    problem(alice.get("/v1/tables/casino/round/hint?level=counting"), 422, "validation_error")
