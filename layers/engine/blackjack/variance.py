"""The variance of a round's net per initial bet for the `hard` player at a fresh shoe
(API.md, the strategy card's `variance`; the edge route's Kelly bet divides by it).

Computed from the exact analysis, as the strategy card's `player_ev` is: per up card and
two-card hand, the hand is played as `hard` plays it (its first decision the card's best
action, ties to the simplest play; then hit while hitting is worth more than standing),
and each final hand contributes its second moment from the dealer's final-total
distribution with the hand's cards removed: standing on t against a dealer outcome wins
or loses the stake (its square: the stake's square) unless the dealer makes t (a push,
0); a bust loses the stake; a double stakes two units (4 when it wins or loses); a
surrender returns half (0.25); a natural wins 1.5 (2.25) unless the dealer has one too.
Where the dealer peeks (`bicycle`, ace or ten up) a dealer natural ends the round at -1
before any decision, and everything after is weighted by the chance that there is none
(the analysis's U, here for both moments).

Splits, the stated estimate. Each hand a split makes is valued as the analysis values it
(its sibling's first card removed up to its third card, then as an ordinary hand), its own
first and second moments exact under that play. The box's hands are not independent:
they all meet one dealer. Their cross moments are taken as conditionally independent
given the dealer's outcome, that outcome drawn with only the pair removed: E[X_i X_j] =
sum_D P(D) g(D)^2, g(D) the hand's expected result against D. How many hands a split
makes follows the analysis's resplit chain (each new hand pairs again with chance q),
whose joint distribution of hands that drew a non-pair card and of pair hands kept
unsplit gives the factorial moments the cross terms need.

The figures ship in `variance.json`, rounded to four decimals:
`python -m blackjack.variance` (PYTHONPATH=layers/engine) writes them, `--check` compares.
The analysis kernel computes a table in under a second; the Python analysis, in about
half a minute.
"""

import argparse
import json
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from .actions import Action
from .rules import TABLES, Rules, Split

if TYPE_CHECKING:  # the analysis is imported when a figure is computed, not to read one
    from .strategy.analysis import UpCardSolver

DATA = Path(__file__).with_name("variance.json")
DIGITS = 4

# Dealer outcomes, as the analysis numbers them: totals 17..21, bust, natural.
_BUST, _NATURAL = 5, 6
# A hand's finish: its total (16 stands for every total that loses to any dealer total,
# 22 for a bust) and its stake in units of the initial bet.
_Finish = tuple[int, int]
_Moments = tuple[float, float]  # E[X], E[X^2] (at peek tables: times 1{no dealer natural})
_PREFERENCE = (Action.STAND, Action.HIT, Action.DOUBLE, Action.SPLIT, Action.SURRENDER)


@cache
def _shipped() -> dict[str, float]:
    figures: dict[str, float] = json.loads(DATA.read_text(encoding="utf-8"))
    return figures


def variance(table_id: str) -> Decimal:
    """The shipped variance of a table, four decimals; KeyError for an unknown table."""
    return Decimal(repr(_shipped()[table_id]))


def moments(table_id: str) -> _Moments:
    """E[X] and E[X^2] of a round's net X per initial bet, `hard` at a fresh shoe."""
    return _Analysis(table_id).round()


def build_variance(table_id: str) -> float:
    mean, square = moments(table_id)
    return round(square - mean * mean, DIGITS)


class _Analysis:
    """One table's moments, up card by up card (see the module docstring)."""

    def __init__(self, table_id: str) -> None:
        from .strategy.analysis import shoe_counts
        from .strategy.card import strategy_card

        self.table_id = table_id
        self.rules: Rules = TABLES[table_id].rules
        self.full = shoe_counts(self.rules.decks)
        self.card_ev = strategy_card(table_id)["ev"]

    def round(self) -> _Moments:
        from .strategy.card import deal_chance, two_card_hands
        from .strategy.solvers import solver

        size = sum(self.full)
        mean = square = 0.0
        for up in range(len(self.full)):
            pool = tuple(n - (rank == up) for rank, n in enumerate(self.full))
            hands = _UpCard(self, up, solver(self.rules, up, pool))
            up_chance = self.full[up] / size
            for hand in two_card_hands():
                chance = deal_chance(pool, *hand)
                if chance > 0:
                    m1, m2 = hands.dealt(hand)
                    mean += up_chance * chance * m1
                    square += up_chance * chance * m2
        return mean, square


class _UpCard:
    """The hands against one up card, from the pool of a fresh shoe less that card."""

    def __init__(self, table: _Analysis, up: int, s: "UpCardSolver") -> None:
        self.table, self.rules, self.up, self.s = table, table.rules, up, s
        self._ordinary: dict[tuple[int, ...], tuple[_Moments, dict[_Finish, float]]] = {}
        # A dealer natural at a peek table is settled before the player decides.
        self.natural_loss = 0.0 if s.peeked else 1.0

    # ---- final hands against the dealer --------------------------------------------

    def result(self, finish: _Finish, outcome: int) -> float:
        """What a final hand wins per unit of the initial bet against a dealer outcome."""
        points, stake = finish
        if outcome == _NATURAL:  # takes all that is staked, or was settled before (peek)
            return -stake * self.natural_loss
        if points > 21:
            return float(-stake)
        if outcome == _BUST:
            return float(stake)
        dealer = 17 + outcome
        return float(stake * ((points > dealer) - (points < dealer)))

    def final(self, removed: tuple[int, ...], finish: _Finish) -> _Moments:
        """The moments of a final hand, the hands' cards `removed`."""
        if finish[0] > 21 and not self.s.peeked:
            return -finish[1], finish[1] ** 2
        m1 = m2 = 0.0
        for outcome, p in enumerate(self.s.dealer(removed)):
            x = self.result(finish, outcome)
            m1 += p * x
            m2 += p * x * x
        return m1, m2

    # ---- hands ----------------------------------------------------------------------

    def dealt(self, hand: tuple[int, int]) -> _Moments:
        """A dealt two-card hand's round: its first decision as `hard` takes it."""
        from .strategy.analysis import of_ranks, pair_rank
        from .strategy.dealer import total

        s, rules = self.s, self.rules
        comp = of_ranks(*hand)
        natural_chance = s.natural_chance(comp)
        if total(comp)[0] == 21:
            if rules.natural_paid_at_deal:
                return 1.5, 2.25
            return 1.5 * (1 - natural_chance), 2.25 * (1 - natural_chance)
        action = self.first_action(hand)
        if action is Action.STAND:
            m1, m2 = self.final(comp, (self.points(comp), 1))
        elif action is Action.HIT:
            (m1, m2), _ = self.hit_on(comp)
        elif action is Action.DOUBLE:
            m1, m2 = self.double(_EMPTY, comp)
        elif action is Action.SURRENDER:
            kept = 1 - natural_chance if s.peeked else 1.0
            m1, m2 = -0.5 * kept, 0.25 * kept
        else:
            pair = pair_rank(comp)
            assert pair is not None
            m1, m2 = self.split(pair)
        if s.peeked:  # the dealer's natural, checked first, takes the initial bet
            m1, m2 = m1 - natural_chance, m2 + natural_chance
        return m1, m2

    def first_action(self, hand: tuple[int, int]) -> Action:
        """`hard`'s first decision: the best action of the shipped card's hand and up card
        (blackjack.strategy.advisor.best_of's order on ties)."""
        from .strategy.card import hand_key, label

        values = self.table.card_ev[hand_key(*hand)][label(self.up)]
        actions = {Action(name): value for name, value in values.items()}
        return max(actions, key=lambda a: (actions[a], -_PREFERENCE.index(a)))

    def points(self, hand: tuple[int, ...]) -> int:
        from .strategy.dealer import total

        return min(max(total(hand)[0], 16), 22)

    def pays_at_once(self, hand: tuple[int, ...]) -> bool:
        from .strategy.dealer import total

        return self.rules.any_21_pays_3_2 and sum(hand) >= 3 and total(hand)[0] == 21

    def ordinary(self, hand: tuple[int, ...]) -> tuple[_Moments, dict[_Finish, float]]:
        """A hand not made by a split, played on by `hard` (hit while hitting is worth more
        than standing): its moments, and the chance of each finish it ends in."""
        known = self._ordinary.get(hand)
        if known is not None:
            return known
        from .strategy.analysis import EMPTY, stand_dominated
        from .strategy.dealer import total

        points = total(hand)[0]
        if self.pays_at_once(hand):
            played: tuple[_Moments, dict[_Finish, float]] = ((1.5, 2.25), {(21, 1): 1.0})
        elif points >= 21 or not (
            stand_dominated(hand) or self.s.hit(EMPTY, hand) > self.s.stand(EMPTY, hand)
        ):
            finish = (self.points(hand), 1)
            played = (self.final(hand, finish), {finish: 1.0})
        else:
            played = self.hit_on(hand)
        self._ordinary[hand] = played
        return played

    def hit_on(self, hand: tuple[int, ...]) -> tuple[_Moments, dict[_Finish, float]]:
        """Take a card and play on as an ordinary hand."""
        from .strategy.dealer import add

        m1 = m2 = 0.0
        finishes: dict[_Finish, float] = defaultdict(float)
        for rank, p in self.s.draw(hand):
            (a1, a2), ends = self.ordinary(add(hand, rank))
            m1, m2 = m1 + p * a1, m2 + p * a2
            for finish, q in ends.items():
                finishes[finish] += p * q
        return (m1, m2), dict(finishes)

    def double(self, extra: tuple[int, ...], hand: tuple[int, ...]) -> _Moments:
        return self.doubled(extra, hand)[0]

    def doubled(
        self, extra: tuple[int, ...], hand: tuple[int, ...]
    ) -> tuple[_Moments, dict[_Finish, float]]:
        """One card at two units, then stand."""
        from .strategy.analysis import merge
        from .strategy.dealer import add

        m1 = m2 = 0.0
        finishes: dict[_Finish, float] = defaultdict(float)
        for rank, p in self.s.draw(merge(extra, hand)):
            more = add(hand, rank)
            finish = (self.points(more), 2)
            a1, a2 = self.final(merge(extra, more), finish)
            m1, m2 = m1 + p * a1, m2 + p * a2
            finishes[finish] += p
        return (m1, m2), dict(finishes)

    # ---- splits (the estimate: see the module docstring) -----------------------------

    def split_hand(
        self, pair: int, after: tuple[int, ...], hand: tuple[int, ...]
    ) -> tuple[_Moments, dict[_Finish, float]]:
        """A two-card hand made by splitting `pair` cards, `after` its sibling's first
        card, played as the analysis plays it (`UpCardSolver.split_hand_options`)."""
        from .strategy.analysis import DOUBLE, HIT, STAND, merge
        from .strategy.dealer import add, total

        s = self.s
        options = s.split_hand_options(pair, after, hand)
        choice = max(options, key=lambda a: (options[a], -[STAND, HIT, DOUBLE].index(a)))
        if choice == DOUBLE:
            return self.doubled(after, hand)
        if choice == STAND:
            finish = (self.points(hand), 1)
            return self.final(merge(after, hand), finish), {finish: 1.0}
        m1 = m2 = 0.0
        finishes: dict[_Finish, float] = defaultdict(float)
        for rank, p in s.draw(merge(after, hand)):
            more = add(hand, rank)
            removed = merge(after, more)
            stand = (self.points(more), 1)
            if total(more)[0] < 21:
                # From its third card on, as an ordinary hand (renormalised at peek tables).
                scale = s.renormalise(more, removed)
                if s.hit(_EMPTY, more) * scale > s.stand(after, more):
                    (a1, a2), ends = self.hit_on(more)
                    m1, m2 = m1 + p * a1 * scale, m2 + p * a2 * scale
                    for finish, q in ends.items():
                        finishes[finish] += p * q
                    continue
            a1, a2 = self.final(removed, stand)
            m1, m2 = m1 + p * a1, m2 + p * a2
            finishes[stand] += p
        return (m1, m2), dict(finishes)

    def split(self, pair: int) -> _Moments:
        from .strategy.analysis import of_ranks
        from .strategy.dealer import TEN

        s, rules = self.s, self.rules
        removed = of_ranks(pair, pair)
        after = of_ranks(pair)
        max_hands = rules.max_hands if pair != 0 or rules.resplit_aces else 2
        remaining = s.size - 2
        if rules.split is Split.SAME_RANK and pair == TEN:
            q = max(0.0, s.counts[TEN] / 4 - 2) / remaining  # as `UpCardSolver.split`
        else:
            q = s.left(removed, pair) / remaining
        other: list[tuple[float, _Moments, dict[_Finish, float]]] = []
        pair_hand: tuple[_Moments, dict[_Finish, float]] = ((0.0, 0.0), {})
        for rank, p in s.draw(removed):
            played = self.split_hand(pair, after, of_ranks(pair, rank))
            if rank == pair:
                pair_hand = played
                if p > q:  # a ten of another rank: the same 20, pairing nothing
                    other.append((p - q, *played))
            else:
                other.append((p, *played))
        weight = sum(w for w, _, _ in other)
        other_hand = _mixture([(w / weight, m, st) for w, m, st in other])
        hands = _hand_counts(q, 2, max_hands)
        n_o = sum(p * a for (a, _), p in hands.items())
        n_p = sum(p * b for (_, b), p in hands.items())
        oo = sum(p * a * (a - 1) for (a, _), p in hands.items())
        op = sum(p * a * b for (a, b), p in hands.items())
        pp = sum(p * b * (b - 1) for (_, b), p in hands.items())
        (o1, o2), o_finishes = other_hand
        (p1, p2), p_finishes = pair_hand
        cross = 0.0
        for outcome, chance in enumerate(self.s.dealer(removed)):
            if s.peeked and outcome == _NATURAL:
                continue  # settled before the split
            g_o = sum(q_ * self.result(st, outcome) for st, q_ in o_finishes.items())
            g_p = sum(q_ * self.result(st, outcome) for st, q_ in p_finishes.items())
            cross += chance * (oo * g_o * g_o + 2 * op * g_o * g_p + pp * g_p * g_p)
        return n_o * o1 + n_p * p1, n_o * o2 + n_p * p2 + cross


_EMPTY = (0,) * 10


def _mixture(
    parts: list[tuple[float, _Moments, dict[_Finish, float]]],
) -> tuple[_Moments, dict[_Finish, float]]:
    m1 = sum(w * m[0] for w, m, _ in parts)
    m2 = sum(w * m[1] for w, m, _ in parts)
    finishes: dict[_Finish, float] = defaultdict(float)
    for w, _, ends in parts:
        for finish, q in ends.items():
            finishes[finish] += w * q
    return (m1, m2), dict(finishes)


@cache
def _hand_counts(q: float, hands: int, max_hands: int) -> dict[tuple[int, int], float]:
    """The joint distribution of a split's final hands that drew a non-pair card and of
    its pair hands kept unsplit (no resplit left), each new hand pairing again with
    chance q: `analysis.split_hand_counts`'s chain, as a distribution."""

    @cache
    def play(waiting: int, made: int) -> dict[tuple[int, int], float]:
        if waiting == 0:
            return {(0, 0): 1.0}
        out: dict[tuple[int, int], float] = defaultdict(float)
        for (a, b), p in play(waiting - 1, made).items():
            out[(a + 1, b)] += (1 - q) * p
        if made < max_hands:
            for key, p in play(waiting + 1, made + 1).items():
                out[key] += q * p
        else:
            for (a, b), p in play(waiting - 1, made).items():
                out[(a, b + 1)] += q * p
        return dict(out)

    return play(2, hands)


def dumps(figures: dict[str, float]) -> str:
    return json.dumps(figures, indent=1) + "\n"


def main(argv: list[str] | None = None, build: Callable[[str], float] = build_variance) -> int:
    parser = argparse.ArgumentParser(prog="python -m blackjack.variance", description=__doc__)
    parser.add_argument("--check", action="store_true", help="compare, do not write")
    args = parser.parse_args(argv)
    figures = {}
    for table_id in TABLES:
        start = time.perf_counter()
        figures[table_id] = build(table_id)
        elapsed = time.perf_counter() - start
        print(f"{table_id:9} variance {figures[table_id]:.4f}  computed in {elapsed:.2f} s")
    text = dumps(figures)
    if args.check:
        if not DATA.exists() or DATA.read_text(encoding="utf-8") != text:
            print(f"stale: {DATA.name}", file=sys.stderr)
            return 1
        return 0
    DATA.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
