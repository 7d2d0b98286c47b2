"""The trainer's grading: each user decision against the exact EVs the hint shows.

Deal order with one box: the box's first card, the dealer's up card, the box's second
card, then the hole card where the table deals one.
"""

from decimal import Decimal
from typing import get_args

import pytest

from blackjack.actions import Action, Phase
from blackjack.grading import Decision, Kind, grade
from blackjack.players import counter_play, medium
from blackjack.round import Round
from blackjack.strategy import action_values, strategy_card
from blackjack.views import round_view
from blackjack_service import responses

from .arrange import deal


def act(round_: Round, *actions: str) -> Round:
    for action in actions:
        round_.act(Action(action), grader=grade)
    return round_


def expected(round_: Round, action: Action) -> Decision:
    """The grade from the hint's values at this moment, worked out here by hand. One box at
    a fresh shoe: the only public cards are the hand's and the up card, so perfect play is
    `hard`'s."""
    view = round_.player_view()
    assert view is not None
    values = action_values(view)
    assert values is not None
    best = max(values, key=lambda a: values[a])
    loss = Decimal(str(round(values[best] - values[action], 4)))
    kind = grade(view, action, round_.unseen()).kind
    counter, index = counter_play(view, round_.unseen())
    return Decision(
        action, best, loss, kind, view.cards, best, loss, counter, index is not None, medium(view)
    )


def test_standing_on_hard_8_against_a_6_loses_what_the_strategy_card_says() -> None:
    round_ = act(deal("european", "2S 6D 6H 9C TS TH"), "stand")
    [decision] = round_.boxes[0].hands[0].decisions
    ev = strategy_card("european")["ev"]["2,6"]["6"]
    loss = Decimal(str(round(ev["hit"] - ev["stand"], 4)))
    assert decision == Decision(
        Action.STAND,
        Action.HIT,
        loss,
        Kind.HARD,
        ("2S", "6H"),
        Action.HIT,
        loss,
        Action.HIT,
        False,
        Action.HIT,
    )  # fmt: skip  (true count +0.50: under hard 8's index against a 6, +1)
    assert decision.mistake and decision.expert_mistake and not decision.deviation
    view = round_view(round_)["boxes"][0]["hands"][0]["decisions"]
    assert view == [
        {"action": "stand", "best": "hit", "loss": float(loss), "kind": "hard",
         "cards": ["2S", "6H"], "expert_best": "hit", "expert_loss": float(loss),
         "counter_best": "hit", "medium_best": "hit"}
    ]  # fmt: skip


def test_the_best_action_costs_nothing_and_each_decision_is_kept_in_order() -> None:
    round_ = deal("european", "2S 6D 6H 3C 9S TH TD")  # 8 (hole card 3C), hit: 17
    first = expected(round_, Action.HIT)
    act(round_, "hit")
    second = expected(round_, Action.STAND)
    act(round_, "stand")
    decisions = round_.boxes[0].hands[0].decisions
    assert decisions == [first, second]
    assert [d.loss for d in decisions] == [0, 0] and not any(d.mistake for d in decisions)
    assert second.cards == ("2S", "6H", "9S") and second.kind is Kind.HARD


def test_kinds_soft_and_pairs() -> None:
    soft = act(deal("european", "AS 6D 6H 9C TS"), "stand")
    assert soft.boxes[0].hands[0].decisions[0].kind is Kind.SOFT
    pair = deal("european", "8S 6D 8H 9C TS TH 9D")
    decision = expected(pair, Action.SPLIT)
    act(pair, "split")
    [first, second] = pair.boxes[0].hands
    assert first.decisions == [decision] and decision.kind is Kind.PAIRS
    assert decision.cards == ("8S", "8H") and second.decisions == []


def test_a_decision_names_the_charts_play_where_exact_play_differs() -> None:
    """T,2 against a 4 at european: the chart stands, the exact play for the hand hits. A
    player coached by the chart who stands took `medium_best`, though `hard` marks it."""
    round_ = act(deal("european", "2S 4D TH 9C TS TH"), "stand")
    [decision] = round_.boxes[0].hands[0].decisions
    assert (decision.best, decision.medium_best) == (Action.HIT, Action.STAND)
    assert decision.mistake and decision.action is decision.medium_best
    [view] = round_view(round_)["boxes"][0]["hands"][0]["decisions"]
    assert (view["best"], view["medium_best"]) == ("hit", "stand")


@pytest.mark.parametrize(
    ("table", "cards", "action"),
    [
        ("casino", "TS AH 9D 6C", "insurance"),
        ("casino", "TS AH 9D 6C", "decline_insurance"),
        ("casino", "AS AH TD 6C", "even_money"),
        ("bicycle", "TS AH 9D 6C 5S", "insurance"),
    ],
)
def test_insurance_even_money_and_declining_are_graded(table: str, cards: str, action: str) -> None:
    round_ = deal(table, cards)
    assert round_.phase is Phase.INSURANCE
    wanted = expected(round_, Action(action))
    act(round_, action)
    decisions = round_.boxes[0].hands[0].decisions
    assert decisions[0] == wanted and wanted.kind is Kind.INSURANCE
    # Off the top of a shoe, declining is best: insurance and even money cost something.
    assert wanted.best is Action.DECLINE_INSURANCE
    assert (wanted.loss > 0) == (action != "decline_insurance")


def test_insurance_is_graded_as_the_hint_values_it_whatever_its_amount() -> None:
    half, some = deal("bicycle", "TS AH 9D 6C 5S"), deal("bicycle", "TS AH 9D 6C 5S")
    half.act(Action.INSURANCE, grader=grade)
    some.act(Action.INSURANCE, Decimal("0.5"), grader=grade)
    assert half.boxes[0].hands[0].decisions == some.boxes[0].hands[0].decisions


def test_ai_boxes_are_not_graded_and_no_grader_grades_nothing() -> None:
    round_ = act(deal("european", "2S 5S 6D 6H 9H 9C TS TH", ai={1: "hard"}), "stand")
    user, ai = round_.boxes
    assert len(user.hands[0].decisions) == 1 and ai.hands[0].decisions == []
    ungraded = deal("european", "2S 6D 6H 9C TS TH")
    ungraded.act(Action.STAND)
    assert ungraded.boxes[0].hands[0].decisions == []


def test_an_illegal_action_or_amount_records_nothing() -> None:
    round_ = deal("casino", "TS AH 9D 6C")
    with pytest.raises(Exception, match="half the bet"):
        round_.act(Action.INSURANCE, Decimal(10), grader=grade)
    assert round_.boxes[0].hands[0].decisions == []


def test_the_response_model_knows_every_kind() -> None:
    assert set(get_args(responses.Kind)) == {kind.value for kind in Kind}
