"""The drill routes of API.md "Drills", through the gateway: each answer and each error."""

from __future__ import annotations

from typing import Any

from blackjack.drills import cells

from .helpers import Player, all_items, balance, problem

DRILLS = "/v1/tables/{table}/drills"


def _answer(
    player: Player, table: str, cards: list[str], up: str, action: str, key: str | None = None
) -> Any:
    body = {"cards": cards, "up_card": up, "action": action}
    headers = {} if key is None else {"Idempotency-Key": key}
    return player.post(DRILLS.format(table=table), body, headers=headers)


def test_a_drill_is_drawn_answered_and_counted(alice: Player) -> None:
    drill = alice.get(DRILLS.format(table="casino") + "/next?section=pairs")
    assert drill.status == 200, drill.text
    body = drill.body
    assert body["table"] == "casino" and body["cell"]["section"] == "pairs"
    assert body["cell"]["box"] == 0 and body["cell"]["attempts"] == 0
    assert body["cards"][0][0] == body["cards"][1][0] or {
        body["cards"][0][0],
        body["cards"][1][0],
    } <= set("TJQK")
    assert "split" in body["legal_actions"]
    graded = _answer(alice, "casino", body["cards"], body["up_card"], "split")
    assert graded.status == 200, graded.text
    answer = graded.body
    assert set(answer["ev"]) == set(body["legal_actions"])
    assert answer["best"] == max(answer["ev"], key=answer["ev"].get)
    assert answer["loss"] == round(answer["ev"][answer["best"]] - answer["ev"]["split"], 4)
    assert answer["cell"]["attempts"] == 1
    assert answer["cell"]["box"] == (1 if answer["loss"] < 0.0005 else 0)
    progress = alice.get(DRILLS.format(table="casino")).body
    assert progress["attempts"] == 1 and progress["correct"] == int(answer["loss"] < 0.0005)
    assert progress["cells"] == [answer["cell"]]
    assert balance(alice.login) == 10_000  # no coins move


def test_eight_eight_against_a_nine_is_split_and_the_cell_climbs(alice: Player) -> None:
    for box in (1, 2, 3, 4, 4):
        answer = _answer(alice, "european", ["8S", "8H"], "9D", "split").body
        assert answer["best"] == "split" and answer["loss"] == 0
        assert answer["cell"] == {**answer["cell"], "section": "pairs", "row": "8", "up": "9"}
        assert answer["cell"]["box"] == box
    wrong = _answer(alice, "european", ["8S", "8D"], "9C", "stand").body
    assert wrong["loss"] > 0 and wrong["cell"]["box"] == 0 and wrong["cell"]["correct"] == 5


def test_a_retried_answer_counts_once_and_a_reused_key_is_refused(alice: Player) -> None:
    first = _answer(alice, "casino", ["TS", "6H"], "9D", "hit", key="drill-1")
    again = _answer(alice, "casino", ["TS", "6H"], "9D", "hit", key="drill-1")
    assert first.status == again.status == 200 and first.body == again.body
    assert alice.get(DRILLS.format(table="casino")).body["attempts"] == 1
    reused = _answer(alice, "casino", ["TS", "6H"], "9D", "stand", key="drill-1")
    problem(reused, 422, "idempotency_key_reused")


def test_hands_without_a_cell_or_cards_the_table_lacks_are_invalid(alice: Player) -> None:
    for table, cards, up in (
        ("casino", ["AS", "KH"], "5D"),  # a natural
        ("bicycle", ["KS", "QH"], "5D"),  # same_rank: unequal tens have no cell
        ("bicycle", ["AS", "AS"], "5D"),  # one deck holds one ace of spades
        ("casino", ["1S", "5H"], "5D"),  # not a card code
        ("casino", ["5S"], "5D"),
    ):
        reply = _answer(alice, table, cards, up, "hit")
        problem(reply, 422, "validation_error")
    problem(_answer(alice, "casino", ["TS", "6H"], "9D", "split"), 409, "illegal_action")
    problem(_answer(alice, "bicycle", ["TS", "6H"], "9D", "surrender"), 409, "illegal_action")
    problem(
        alice.get(DRILLS.format(table="casino") + "/next?section=splits"), 422, "validation_error"
    )
    problem(alice.get(DRILLS.format(table="nowhere") + "/next"), 404, "not_found")
    problem(_answer(alice, "nowhere", ["TS", "6H"], "9D", "hit"), 404, "not_found")


def test_drills_touch_no_shoe_seat_or_round(alice: Player) -> None:
    before = _keys()
    drill = alice.get(DRILLS.format(table="european") + "/next").body
    _answer(alice, "european", drill["cards"], drill["up_card"], drill["legal_actions"][0])
    added = _keys() - before
    assert [sk for _, sk in added] == ["DRILLS#european"]
    assert len(cells("european")) == 330


def _keys() -> set[tuple[str, str]]:
    return {(item["pk"]["S"], item["sk"]["S"]) for item in all_items()}


def test_drills_need_a_user(api) -> None:
    reply = api.request("GET", DRILLS.format(table="casino"))
    assert reply.status == 401
