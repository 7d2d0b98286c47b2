"""The dealer's final outcome with exact removal, for many player compositions at once.

A composition is a tuple of ten counts indexed by rank: 0 is the ace, 1..8 the ranks 2..9,
9 every ten-value card. Removal matters only through these counts. The shoe's counts may
be real numbers (an index generator's average shoe): every chance below is then the same
rational function of the counts as at whole ones, a falling factorial of a real count
included, so a rank of fractional count can give any number of cards (kernel.h).

For one up card, the dealer's play is a set of *final multisets* K of drawn cards (hole card
and hits): every K has one outcome (a total of 17..21, bust, or a natural) and a number
c(K) of orders in which the dealer can draw it without stopping early. Every order of K
is equally likely, so with the player's cards R removed from a shoe of counts n (N cards):

    P(K | R) = c(K) * prod_r ff(n_r - R_r, k_r) / ff(N - |R|, |K|)

where ff is the falling factorial. The sum over K for thousands of compositions R is the
hot spot of the analysis; done naively it costs |R| x |K| products. The product is
separable by rank, so the sum is contracted one rank at a time (a sum-product over a table
keyed by the player's counts of the ranks already contracted and the dealer's counts of
the others), which shares the work between compositions with common counts. The player's
stand value is a weighted sum of outcome probabilities, so only one scalar is carried per
entry, with compositions grouped by the player's total; the dealer's chances of each
outcome (`outcome_chances`) are the same contraction, one outcome at a time.

This is the Python reference (the analysis kernel, `native`, is the fast path): its sums
come in a fixed order, so `generate --check` finds the shipped data unchanged to the bit.
"""

import math
import operator
from collections import defaultdict
from collections.abc import Iterable
from functools import cache

from ..cards import best_total

Comp = tuple[int, ...]
Counts = tuple[float, ...]  # a shoe's counts by rank: whole, or real (an average shoe)

ACE = 0
TEN = 9
RANKS = 10
BUST = 5
NATURAL = 6
OUTCOMES = 7  # dealer totals 17..21 are outcomes 0..4

# Contract the ten-value rank first and the ace last: ranks with few cards in any player
# hand keep the table small (measured on a full analysis and on single hints: two to three
# times faster than the ace first).
_ORDER = (9, 8, 7, 6, 5, 4, 3, 2, 1, 0)


def value(rank: int) -> int:
    """The points of a rank with an ace counted 1."""
    return rank + 1


@cache
def total(hand: Comp) -> tuple[int, bool]:
    """The best total of a hand and whether it is soft (memoised: the solver asks often)."""
    return best_total(sum((rank + 1) * count for rank, count in enumerate(hand)), hand[ACE] > 0)


def add(comp: Comp, rank: int, count: int = 1) -> Comp:
    return (*comp[:rank], comp[rank] + count, *comp[rank + 1 :])


def falling(n: float, k: int) -> float:
    product: float = 1
    for i in range(k):
        product *= n - i
    return product


def capacity(counts: Counts) -> Counts:
    """The most cards of each rank a composition removed from `counts` may hold: a whole
    count's own, any number of a fractional count's (its falling factorials are never 0)."""
    return tuple(n if n == int(n) else math.inf for n in counts)


@cache
def _falling_row(n: float, a: int) -> tuple[float, ...]:
    """ff(n - a, k) for k in 0..21 (a dealer never draws more cards), in the kernel's
    order of products."""
    row: list[float] = [1]
    for k in range(1, 22):
        row.append(row[-1] * ((n - a) - (k - 1)))
    return tuple(row)


@cache
def _inverse_falling(rest: float) -> tuple[float, ...]:
    """1 / ff(rest, m) for m in 0..21, 0 where ff is 0 (more cards than a whole shoe
    holds: their chance is 0 too)."""
    return tuple(0.0 if f == 0 else 1.0 / f for f in (falling(rest, m) for m in range(22)))


@cache
def dealer_finals(up: int, hits_soft_17: bool) -> tuple[tuple[Comp, int, int], ...]:
    """Every final multiset of the dealer's drawn cards for an up card, with its outcome
    and its number of valid drawing orders. Independent of the shoe: impossible draws get a
    zero falling factorial later.

    Built card count by card count over multisets (the orders of a multiset are the sum of
    those of the multisets one card short that do not stop), not order by order: a first
    hint pays for it, and this is several times faster. The finals come in the order in
    which a depth-first walk over the ranks would first meet them (their least valid
    order), which fixes the order of the sums downstream and so every value to the bit."""
    start = (value(up), up == ACE)  # hard total, holds an ace
    level: dict[Comp, tuple[int, tuple[int, ...], int, bool]] = {(0,) * RANKS: (1, (), *start)}
    finals: list[tuple[tuple[int, ...], Comp, int, int]] = []
    cards = 0
    while level:
        cards += 1
        following: dict[Comp, tuple[int, tuple[int, ...], int, bool]] = {}
        for drawn, (orders, least, hard, aces) in level.items():
            for rank in range(RANKS):
                more = add(drawn, rank)
                sequence = (*least, rank)
                seen = following.get(more)
                if seen is not None:
                    following[more] = (seen[0] + orders, min(seen[1], sequence), *seen[2:])
                else:
                    following[more] = (orders, sequence, hard + rank + 1, aces or rank == ACE)
        level = {}
        for drawn, (orders, least, hard, aces) in following.items():
            best, soft = best_total(hard, aces)
            if cards == 1 and best == 21:
                finals.append((least, drawn, NATURAL, orders))
            elif best > 21:
                finals.append((least, drawn, BUST, orders))
            elif best >= 17 and not (hits_soft_17 and soft and best == 17):
                finals.append((least, drawn, best - 17, orders))
            else:
                level[drawn] = (orders, least, hard, aces)
    finals.sort()
    return tuple((drawn, outcome, orders) for _, drawn, outcome, orders in finals)


def _start_keys(finals: list[Comp]) -> tuple[dict[tuple[int, ...], int], list[int]]:
    """The key of each final at the start of a contraction (its counts in `_ORDER`, then
    its number of cards), numbered in order of first appearance; each final's number."""
    ids: dict[tuple[int, ...], int] = {}
    starts = [
        ids.setdefault((*(drawn[r] for r in _ORDER), sum(drawn)), len(ids)) for drawn in finals
    ]
    return ids, starts


@cache
def _stages(
    up: int, hits_soft_17: bool
) -> tuple[list[int], list[tuple[list[int], list[int]]], list[int]]:
    """The keys of `_contract`'s tables as small integers, fixed by the dealer's finals:
    each final's key at the start; per stage, each key's count of the rank contracted
    there and the key of the rest; at the end, each key's number of dealer cards. Integer
    keys hash at once where a tuple of counts is hashed again at every lookup."""
    ids, starts = _start_keys([drawn for drawn, _, _ in dealer_finals(up, hits_soft_17)])
    stages = []
    for _ in _ORDER:
        following: dict[tuple[int, ...], int] = {}
        counts = [0] * len(ids)
        rests = [0] * len(ids)
        for key, i in ids.items():
            counts[i] = key[0]
            rests[i] = following.setdefault(key[1:], len(following))
        stages.append((counts, rests))
        ids = following
    return starts, stages, [key[0] for key in ids]


def _contract(  # noqa: C901 -- the inner loop of every analysis, kept whole for speed
    counts: Counts,
    up: int,
    hits_soft_17: bool,
    finals: Iterable[tuple[int, float]],
    comps: list[Comp],
) -> dict[Comp, float]:
    """sum_K weight(K) * P(K | R) for every composition R in `comps` (all feasible);
    `finals` are (index in `dealer_finals`, weight).

    The table maps the player's counts of the ranks contracted so far (a prefix of some
    wanted R) to the dealer's counts of the other ranks, then the number of dealer cards
    m (as a key of `_stages`), with the summed weight."""
    order = _ORDER
    starts, stages, cards = _stages(up, hits_soft_17)
    tables: dict[tuple[int, ...], dict[int, float]] = {(): defaultdict(float)}
    for index, weight in finals:
        tables[()][starts[index]] += weight
    for stage, rank in enumerate(order):
        # The player's counts of this rank that extend each prefix to a wanted R:
        # nothing else is ever computed.
        extend: dict[tuple[int, ...], set[int]] = defaultdict(set)
        for comp in comps:
            extend[tuple(comp[r] for r in order[:stage])].add(comp[rank])
        n = counts[rank]
        first, rest_of = stages[stage]
        new: dict[tuple[int, ...], dict[int, float]] = {}
        for prefix, suffixes in tables.items():
            options = extend.get(prefix)
            if not options:
                continue
            by_count: dict[int, dict[int, float]] = defaultdict(dict)
            for suffix, weight in suffixes.items():
                by_count[first[suffix]][rest_of[suffix]] = weight
            for a in options:
                row = _falling_row(n, a)
                target: dict[int, float] = {}
                get = target.get
                for k, rests in by_count.items():
                    factor = row[k]
                    if factor:
                        for rest, weight in rests.items():
                            target[rest] = get(rest, 0.0) + weight * factor
                if target:
                    new[(*prefix, a)] = target
        tables = new
    size = sum(counts)
    back = [order.index(r) for r in range(RANKS)]
    result: dict[Comp, float] = {}
    for ordered, by_m in tables.items():
        inverse = _inverse_falling(size - sum(ordered))
        comp = tuple(ordered[i] for i in back)
        result[comp] = sum(weight * inverse[cards[m]] for m, weight in by_m.items())
    return result


@cache
def _outcome_weights(up: int, hits_soft_17: bool) -> tuple[list[tuple[int, float]], ...]:
    """Per dealer outcome, its finals (index in `dealer_finals`) weighted by their orders."""
    by_outcome: tuple[list[tuple[int, float]], ...] = tuple([] for _ in range(OUTCOMES))
    for index, (_, outcome, orders) in enumerate(dealer_finals(up, hits_soft_17)):
        by_outcome[outcome].append((index, float(orders)))
    return by_outcome


def outcome_chances(
    counts: Counts, up: int, hits_soft_17: bool, comps: Iterable[Comp]
) -> dict[Comp, list[float]]:
    """The dealer's chance of each outcome (17..21, bust, natural) with each composition
    of `comps` the shoe can hold removed from `counts` (the shoe without the up card): one
    contraction per outcome, all compositions at once."""
    most = capacity(counts)
    feasible = [c for c in set(comps) if all(map(operator.le, c, most))]
    result = {comp: [0.0] * OUTCOMES for comp in feasible}
    for outcome, weighted in enumerate(_outcome_weights(up, hits_soft_17)):
        for comp, chance in _contract(counts, up, hits_soft_17, weighted, feasible).items():
            result[comp][outcome] = chance
    return result


def payoffs(player_total: int, natural_loss: float) -> list[float]:
    """What standing on `player_total` wins per unit against each dealer outcome."""
    row = [0.0] * OUTCOMES
    for outcome in range(5):
        dealer = 17 + outcome
        row[outcome] = (player_total > dealer) - (player_total < dealer)
    row[BUST] = 1.0
    row[NATURAL] = -natural_loss
    return row


@cache
def _weights(
    up: int, hits_soft_17: bool, player_total: int, natural_loss: float
) -> tuple[float, list[tuple[int, float]]]:
    """The constant and the (final, weight) pairs of a stand on `player_total`: the stand
    value is the constant plus the weighted sum of the finals' probabilities."""
    finals = dealer_finals(up, hits_soft_17)
    row = payoffs(player_total, natural_loss)
    # Subtract the constant that zeroes the most dealer finals: probabilities sum to one,
    # so the constant comes back exactly and the contraction carries fewer terms.
    frequency = [0] * OUTCOMES
    for _, outcome, _ in finals:
        frequency[outcome] += 1
    offset = max(
        (-1.0, 0.0, 1.0),
        key=lambda c: sum(f for o, f in enumerate(frequency) if row[o] == c),
    )
    weighted = [
        (index, (row[outcome] - offset) * orders)
        for index, (_, outcome, orders) in enumerate(finals)
        if row[outcome] != offset
    ]
    return offset, weighted


def stand_values(
    counts: Counts,
    up: int,
    hits_soft_17: bool,
    wanted: dict[int, set[Comp]],
    natural_loss: float,
) -> dict[tuple[Comp, int], float]:
    """The expected result of standing, per unit, for each player total and removed
    composition in `wanted` (totals 16 or less grouped as 16: they lose to every dealer
    total). `counts` is the shoe without the up card. A dealer natural costs the player
    `natural_loss` (1 when it takes the stake, 0 when the analysis is conditioned on the
    dealer having checked for one and the natural outcome is left out of the sum)."""
    result: dict[tuple[Comp, int], float] = {}
    most = capacity(counts)
    for player_total, comps in wanted.items():
        feasible = [c for c in comps if all(map(operator.le, c, most))]
        if not feasible:
            continue
        offset, weighted = _weights(up, hits_soft_17, player_total, natural_loss)
        sums = _contract(counts, up, hits_soft_17, weighted, feasible)
        for comp in feasible:
            result[(comp, player_total)] = offset + sums.get(comp, 0.0)
    return result
