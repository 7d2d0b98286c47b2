"""Rounds against perfect play for the shoe: the count the table shows, the `expert` AI
player and the grade of each decision against both levels, on shoes whose earlier rounds
dealt many small cards."""

from decimal import Decimal

from blackjack.actions import Action, HandStatus, Phase
from blackjack.grading import Replaying, grade

from .arrange import after_small_cards, deal


def test_sixteen_against_a_ten_hit_is_a_deviation_perfect_play_stands() -> None:
    round_ = after_small_cards("european", "TH TD 6H 9C 5S")
    round_.act(Action.HIT, grader=grade)
    [decision] = round_.boxes[0].hands[0].decisions
    assert (decision.best, decision.loss) == (Action.HIT, 0)
    assert decision.expert_best is Action.STAND and decision.expert_loss > 0
    assert decision.deviation and decision.expert_mistake and not decision.mistake


def test_an_expert_ai_box_stands_where_the_cards_seen_say_so() -> None:
    # Box 0 (the user) TS, 9H: 19; box 1 (expert AI) TC, 6D against a ten.
    round_ = after_small_cards("european", "TS TC TD 9H 6D 9C", ai={1: "expert"})
    assert round_.turn is not None and round_.turn[0].index == 0
    round_.act(Action.STAND)
    ai_hand = round_.boxes[1].hands[0]
    assert ai_hand.cards == ["TC", "6D"] and ai_hand.status is not HandStatus.BUST
    hard = after_small_cards("european", "TS TC TD 9H 6D 9C 5S", ai={1: "hard"})
    hard.act(Action.STAND)
    assert len(hard.boxes[1].hands[0].cards) == 3  # off the top, 16 against a ten hits


def test_the_count_shows_every_box_and_the_dealers_face_up_cards_only() -> None:
    # european (a hole card): the user's 8,8 and an easy AI box's T,7 against a 6, a 5 in
    # the hole.
    round_ = deal("european", "8S TH 6D 8H 7C 5C 2D 3D", ai={1: "easy"})
    assert round_.phase is Phase.PLAYER_TURN and round_.hidden == 1
    counted = round_.count()
    public = ["8S", "TH", "6D", "8H", "7C"]  # not the 5 in the hole
    assert (counted["running"], counted["cards_seen"]) == (0, len(public))
    assert counted["cards_unseen"] == 52 * 6 - len(public)
    round_.act(Action.SPLIT)  # the first 8 draws the 2 (+1)
    assert round_.count()["running"] == 1
    round_.act(Action.STAND)  # the second draws the 3 (+1)
    assert round_.count()["running"] == 2


def test_at_casino_the_dealer_has_no_face_down_card() -> None:
    round_ = deal("casino", "8S TH 6D 8H 7C", ai={1: "easy"})
    assert round_.hidden == 0 and round_.count()["cards_seen"] == 5


def test_a_replay_takes_each_decisions_grade_against_perfect_play_as_kept() -> None:
    taken = Replaying([])
    round_ = after_small_cards("european", "TH TD 6H 9C 5S")
    round_.act(Action.HIT, grader=taken)
    assert taken.expert == [(Action.STAND, round_.boxes[0].hands[0].decisions[0].expert_loss)]
    # Played again with a grade kept (here a made-up one): the analysis is not run again.
    kept = (Action.STAND, Decimal("0.1234"))
    again = Replaying([kept])
    replayed = after_small_cards("european", "TH TD 6H 9C 5S")
    replayed.act(Action.HIT, grader=again)
    [decision] = replayed.boxes[0].hands[0].decisions
    assert (decision.expert_best, decision.expert_loss) == kept and again.expert == [kept]
