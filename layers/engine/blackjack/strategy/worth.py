"""What an index play is worth to a counter at a table (API.md, the indices' `worth`): the EV
it adds per 100 rounds at a flat bet, the gain it makes at each true count weighted by
how often a shoe of the table deals that true count.

The true counts are those at a round's first decision: the cards dealt before the round
(a cut-card shoe's depth, any from none to the cut card's, each as likely; none at a table
that shuffles every round) and the round's first three (the player's two, the up card).
Their Hi-Lo running count is hypergeometric, so its chances are exact; each true count is
valued on the unseen cards of the nearest whole true count (`indices.unseen_at`).
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from math import exp, floor, lgamma

from ..rules import Rules, Shuffle, Split
from .analysis import SPLIT
from .card import UpCardResult, deal_chance, label
from .dealer import ACE, TEN, Comp

DECK = 52
SEEN_IN_ROUND = 3  # before the first decision: the player's two cards and the up card
INSURANCE_STAKE = 0.5  # insurance is half the bet, paid 2:1
Hand = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Chance:
    """The chance of the true counts nearest a whole `t`: below it, at it, above it (`t`
    itself apart: an index at `t` applies there, whichever way it goes)."""

    below: float = 0.0
    at: float = 0.0
    above: float = 0.0

    @property
    def total(self) -> float:
        return self.below + self.at + self.above


@cache
def true_count_chances(rules: Rules, bound: int) -> dict[int, Chance]:
    """The chance of each true count at a round's first decision, by its nearest whole
    true count from `-bound` to `bound` (beyond them, the bound's)."""
    size = DECK * rules.decks
    depths: Sequence[int] = [0]
    if rules.shuffle is Shuffle.CUT_CARD and rules.cut_default is not None:
        depths = range(int(size * rules.cut_default))
    parts: dict[int, list[float]] = {t: [0.0, 0.0, 0.0] for t in range(-bound, bound + 1)}
    for depth in depths:
        seen = depth + SEEN_IN_ROUND
        for running, chance in _running_counts(rules.decks, seen).items():
            true = running * DECK / (size - seen)
            nearest = floor(abs(true) + 0.5)  # a half away from zero, either way alike
            t = max(-bound, min(bound, nearest if true >= 0 else -nearest))
            side = 0 if true < t else 1 if true == t else 2
            parts[t][side] += chance / len(depths)
    return {t: Chance(*p) for t, p in parts.items()}


def _running_counts(decks: int, seen: int) -> dict[int, float]:
    """The chance of each Hi-Lo running count after `seen` cards of a fresh shoe: `low`
    cards (+1) and `high` (-1) out of 20 per deck each, the rest of the `seen` neutral."""
    tagged, neutral = 20 * decks, 12 * decks

    def log_choose(n: int, k: int) -> float:
        return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)

    whole = log_choose(2 * tagged + neutral, seen)
    out: dict[int, float] = {}
    for low in range(min(tagged, seen) + 1):
        first = max(0, seen - low - neutral)
        for high in range(first, min(tagged, seen - low) + 1):
            ways = log_choose(tagged, low) + log_choose(tagged, high)
            ways += log_choose(neutral, seen - low - high)
            out[low - high] = out.get(low - high, 0.0) + exp(ways - whole)
    return out


def cell_gain(
    rules: Rules,
    results: Iterable[UpCardResult],
    hands: Iterable[Hand],
    up: str,
    play: str,
    basic: str,
) -> float:
    """What playing `play` instead of `basic` on the chart cell (its two-card `hands`,
    against `up`) adds to a round's EV per initial bet, on the cards `results` analysed."""
    result = next((r for r in results if label(r.up) == up), None)
    if result is None:
        return 0.0  # no such up card left
    counts = result.solver.counts
    up_chance = (counts[result.up] + 1) / (sum(counts) + 1)
    gain = 0.0
    for hand in hands:
        values = result.values.get(hand)
        if values is None or play not in values or basic not in values:
            continue
        difference = values[play] - values[basic]
        if SPLIT in (play, basic) and hand == (TEN, TEN) and rules.split is Split.SAME_RANK:
            difference *= result.solver.one_rank_chance()  # unequal tens do not split
        gain += deal_chance(counts, *hand) * difference
    return up_chance * gain


def insurance_gain(composition: Comp) -> float:
    """What taking insurance adds to a round's EV per initial bet on these unseen cards:
    the chance of an ace up times the insurance's EV (a ten under it pays 2:1)."""
    size = sum(composition)
    ten = composition[TEN] / (size - 1)
    return composition[ACE] / size * INSURANCE_STAKE * (3 * ten - 1)


def worth(chances: Mapping[int, Chance], gains: Mapping[int, float], index: int, up: bool) -> float:
    """The EV in percent of the bet (per 100 rounds, in bets) an index adds: its gain at
    each whole true count where it applies (from `index` up, or down), times the chance."""
    total = 0.0
    for t, chance in chances.items():
        if t == index:
            part = chance.at + (chance.above if up else chance.below)
        else:
            part = chance.total if (t > index) is up else 0.0
        total += part * gains[t]
    return 100 * total
