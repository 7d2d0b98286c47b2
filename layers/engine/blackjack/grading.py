"""The trainer: each decision of the user graded by the exact EVs the hint shows.

`grade` values the decision on the very `PlayerView` the hint endpoint values, so a grade
never contradicts the coach: `best` is the action the `hard` player takes there and `loss`
the EV it gives up, per unit of the hand's original bet, rounded to four decimals; and
against perfect play for the shoe as it stood, `expert_best` and `expert_loss`, from the
unseen cards of that moment (`count.unseen`); `counter_best`, the `counter` player's
action at that moment's true count, with whether an index play changed the card's there;
and `medium_best`, the `medium` player's (its chart's) action, so that a player coached by
the chart is marked against the chart.
The round asks for a grade only through the
grader it is handed (`Round.act`), so the engine plays on without the analysis wherever no
one is graded (AI boxes, the simulator).
"""

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from enum import StrEnum
from typing import TYPE_CHECKING

from .actions import Action, Phase
from .cards import Card, hand_value
from .turn import PlayerView

if TYPE_CHECKING:
    from .strategy.dealer import Comp

LOSS_STEP = Decimal("0.0001")
MISTAKE = Decimal("0.0005")  # API.md: a decision whose loss is this or more is a mistake


class Kind(StrEnum):
    """The stats' kinds of decision (API.md, `by_kind`)."""

    HARD = "hard"
    SOFT = "soft"
    PAIRS = "pairs"  # a two-card pair that could be split
    INSURANCE = "insurance"  # insurance, even money and their decline


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    best: Action
    loss: Decimal  # per unit of the hand's original bet, four decimals
    kind: Kind
    cards: tuple[Card, ...]  # the hand as it was decided on
    expert_best: Action  # against perfect play for the shoe as it stood
    expert_loss: Decimal
    # The `counter` player's action, and whether an index play made it (the `counter`
    # hint's `index` was not null).
    counter_best: Action
    index_spot: bool
    medium_best: Action  # the `medium` player's action

    @property
    def mistake(self) -> bool:
        return self.loss >= MISTAKE

    @property
    def expert_mistake(self) -> bool:
        return self.expert_loss >= MISTAKE

    @property
    def deviation(self) -> bool:
        """A spot where the shoe's cards change the best play."""
        return self.expert_best is not self.best

    @property
    def index_taken(self) -> bool:
        """An index spot where the user played the index."""
        return self.index_spot and self.action is self.counter_best


Grader = Callable[[PlayerView, Action, "Comp"], Decision]


def kind_of(view: PlayerView) -> Kind:
    if view.phase is Phase.INSURANCE:
        return Kind.INSURANCE
    if Action.SPLIT in view.legal_actions:
        return Kind.PAIRS
    return Kind.SOFT if hand_value(view.cards).soft else Kind.HARD


ExpertGrade = tuple[Action, Decimal]  # a decision's `expert_best` and `expert_loss`


def grade(
    view: PlayerView, action: Action, unseen: "Comp", expert: ExpertGrade | None = None
) -> Decision:
    """The decision `action` on `view`, valued as the `hard` hint values it and as the
    `expert` hint values it with the `unseen` cards (unless its `expert` grade is known),
    and named as the `counter` and `medium` hints name it (no analysis: their charts)."""
    from .players import counter_play, medium
    from .strategy import action_values, expert_values  # on first use, as the players

    values = action_values(view)
    assert values is not None  # a legal action was taken: something was asked
    best, loss = best_and_loss(values, action)
    if expert is None:
        expert_values_now = expert_values(view, unseen)
        assert expert_values_now is not None
        expert = best_and_loss(expert_values_now, action)
    counter, index = counter_play(view, unseen)
    return Decision(
        action,
        best,
        loss,
        kind_of(view),
        view.cards,
        *expert,
        counter,
        index is not None,
        medium(view),
    )


class Replaying:
    """The grader of a round played again from its moves. Grading against perfect play
    runs the analysis on the shoe of that moment, so each decision's expert grade is kept
    from when it was taken (`known`, in the order of the moves) and reused; a decision
    without one is graded afresh. `expert` then holds every decision's, in order."""

    def __init__(self, known: list[ExpertGrade]) -> None:
        self.expert = list(known)
        self._taken = 0

    def __call__(self, view: PlayerView, action: Action, unseen: "Comp") -> Decision:
        known = self.expert[self._taken] if self._taken < len(self.expert) else None
        decision = grade(view, action, unseen, known)
        if known is None:
            self.expert.append((decision.expert_best, decision.expert_loss))
        self._taken += 1
        return decision


def best_and_loss(values: dict[Action, float], action: Action) -> tuple[Action, Decimal]:
    """The best of `values` and what `action` gives up against it, to four decimals."""
    from .strategy import best_of

    best = best_of(values)
    return best, Decimal(values[best] - values[action]).quantize(LOSS_STEP, ROUND_HALF_EVEN)
