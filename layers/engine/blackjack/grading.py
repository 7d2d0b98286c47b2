"""The trainer: each decision of the user graded by the exact EVs the hint shows.

`grade` values the decision on the very `PlayerView` the hint endpoint values, so a grade
never contradicts the coach: `best` is the action the `hard` player takes there and `loss`
the EV it gives up, per unit of the hand's original bet, rounded to four decimals. The
round asks for a grade only through the grader it is handed (`Round.act`), so the engine
plays on without the analysis wherever no one is graded (AI boxes, the simulator).
"""

from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_EVEN, Decimal
from enum import StrEnum
from typing import Any

from .actions import Action, Phase
from .cards import Card, hand_value
from .turn import PlayerView

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

    @property
    def mistake(self) -> bool:
        return self.loss >= MISTAKE

    def to_state(self) -> dict[str, Any]:
        return {
            "action": self.action.value,
            "best": self.best.value,
            "loss": str(self.loss),
            "kind": self.kind.value,
            "cards": "".join(self.cards),
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> "Decision":
        cards: str = state["cards"]
        return cls(
            action=Action(state["action"]),
            best=Action(state["best"]),
            loss=Decimal(state["loss"]),
            kind=Kind(state["kind"]),
            cards=tuple(cards[i : i + 2] for i in range(0, len(cards), 2)),
        )


Grader = Callable[[PlayerView, Action], Decision]


def kind_of(view: PlayerView) -> Kind:
    if view.phase is Phase.INSURANCE:
        return Kind.INSURANCE
    if Action.SPLIT in view.legal_actions:
        return Kind.PAIRS
    return Kind.SOFT if hand_value(view.cards).soft else Kind.HARD


def grade(view: PlayerView, action: Action) -> Decision:
    """The decision `action` on `view`, valued as the `hard` hint values it."""
    from .strategy import action_values, best_of  # on first use, as the `hard` player

    values = action_values(view)
    assert values is not None  # a legal action was taken: something was asked
    best = best_of(values)
    loss = Decimal(values[best] - values[action]).quantize(LOSS_STEP, ROUND_HALF_EVEN)
    return Decision(action, best, loss, kind_of(view), view.cards)
