"""The trainer's cost: what grading adds to a decision, median and p99.

- two-card decisions: every dealt two-card hand against every up card at every table,
  each legal first action graded (shipped data, loaded once as in a warm function);
  target: under 1 ms;
- insurance decisions: every two-card hand against an ace where insurance is offered;
- decisions on three or more cards: a sample of the hands `bench.strategy` times, each
  graded from a fresh state beside its first hint from a fresh state (the grade should
  cost what the hint costs), and graded again after its hint (a hint, then the decision).

BENCH_GRADING_HANDS sets the sample of 3+-card hands per table (default 60).
"""

import os
import random
import statistics
import time
from collections.abc import Callable
from decimal import Decimal

from blackjack import count
from blackjack.actions import Action, Phase
from blackjack.grading import grade
from blackjack.round import Round
from blackjack.rules import TABLES, Insurance
from blackjack.shoe import Shoe
from blackjack.strategy import action_values, dealer
from blackjack.turn import PlayerView

from .strategy import RANK_NAMES, _cold, hint_hands, hint_view


def _ms(call: Callable[..., object], *args: object) -> float:
    start = time.perf_counter()
    call(*args)
    return 1000 * (time.perf_counter() - start)


def _graded(view: PlayerView, action: Action) -> object:
    """The grade of a decision at a fresh shoe, where perfect play is `hard`'s."""
    return grade(view, action, count.unseen(view.rules.decks, [*view.cards, view.up_card]))


def _figures(times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return f"median {statistics.median(ordered):.3f} ms, p99 {p99:.3f} ms"


def _dealt_views(phase: Phase) -> list[PlayerView]:
    """Each table's first decision on every two-card hand against every up card (against
    an ace only, and only where insurance is offered, in the insurance phase), with the
    actions a round offers there."""
    views = []
    for table in TABLES.values():
        rules = table.rules
        if phase is Phase.INSURANCE and rules.insurance is Insurance.NONE:
            continue
        for up in range(dealer.RANKS) if phase is Phase.PLAYER_TURN else (0,):
            for first in range(dealer.RANKS):
                for second in range(first, dealer.RANKS):
                    cards = (RANK_NAMES[first] + "S", RANK_NAMES[second] + "H")
                    view = _view_of_a_deal(table.id, cards, RANK_NAMES[up] + "D")
                    if view is not None and view.phase is phase:
                        views.append(view)
    return views


def _view_of_a_deal(table_id: str, cards: tuple[str, ...], up: str) -> PlayerView | None:
    """The view a round deals: the user's first question, if any, on these cards."""
    table = TABLES[table_id]
    order = [cards[0], up, cards[1], "9C", *["5C"] * 10]  # a 9 in the hole: no natural
    shoe = Shoe("00" * 32, "bench", 1, table.rules.decks, None, order)
    round_ = Round.deal(table, shoe, {0: Decimal(table.min_bet)})
    return round_.player_view()


def two_card() -> None:
    for phase, label in ((Phase.PLAYER_TURN, "two-card"), (Phase.INSURANCE, "insurance")):
        views = _dealt_views(phase)
        for view in views:  # the shipped data and solvers loaded, as in a warm function
            _graded(view, view.legal_actions[0])
        grades = [_ms(_graded, view, action) for view in views for action in view.legal_actions]
        hints = [_ms(action_values, view) for view in views]
        print(
            f"grading, {label} decisions ({len(grades)} over {len(views)} deals, 4 tables): "
            f"{_figures(grades)}; their hint: {_figures(hints)}"
            + (" (target < 1 ms)" if phase is Phase.PLAYER_TURN else ""),
            flush=True,
        )


def three_or_more_cards() -> None:
    sample = int(os.environ.get("BENCH_GRADING_HANDS", 60))
    pick = random.Random(11)
    fresh_grades: list[float] = []
    fresh_hints: list[float] = []
    after_hint: list[float] = []
    for table in TABLES.values():
        hands = [(up, order) for up in range(dealer.RANKS) for order in hint_hands(table.rules, up)]
        for up, order in pick.sample(hands, min(sample, len(hands))):
            view = hint_view(table.rules, up, order)
            _cold()
            fresh_hints.append(_ms(action_values, view))
            after_hint.append(_ms(_graded, view, Action.STAND))
            _cold()
            fresh_grades.append(_ms(_graded, view, Action.STAND))
    print(
        f"grading, decisions on 3-4 cards ({len(fresh_grades)} hands, 4 tables), each from a "
        f"fresh state: {_figures(fresh_grades)}; their first hint: {_figures(fresh_hints)}; "
        f"graded after the hint: {_figures(after_hint)} (load average "
        f"{os.getloadavg()[0]:.1f})",
        flush=True,
    )


def main() -> None:
    two_card()
    three_or_more_cards()


if __name__ == "__main__":
    main()
