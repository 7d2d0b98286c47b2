"""What a round graded against perfect play adds to the user's stats."""

from decimal import Decimal

from blackjack.actions import Action, Phase
from blackjack.grading import grade
from blackjack_service.game import settlement_stats
from tests.unit.engine.arrange import after_small_cards


def test_a_settled_deviation_counts_in_the_stats() -> None:
    round_ = after_small_cards("european", "TH TD 6H 9C 5S")
    round_.act(Action.STAND, grader=grade)  # what perfect play does here: no expert loss
    assert round_.phase is Phase.SETTLED
    stats = settlement_stats(round_, Decimal(0)).expert
    assert (stats.deviations, stats.deviations_taken, stats.expert_mistakes) == (1, 1, 0)
    assert stats.expert_ev_lost == 0
    [decision] = round_.boxes[0].hands[0].decisions
    assert decision.mistake and decision.loss > 0  # against `hard`, standing is a mistake
