"""The dealer's final outcome with exact removal, for many player compositions at once.

A composition is a tuple of ten counts indexed by rank: 0 is the ace, 1..8 the ranks 2..9,
9 every ten-value card. Removal matters only through these counts.

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
entry, with compositions grouped by the player's total.

Two implementations of that contraction. `_contract` keeps each table as dictionaries and
sums in the order the shipped data (strategy cards, `hits.py`) was computed in: the
analysis and `hard` use it, and `generate --check` finds the data unchanged to the bit.
`_contract_dense` (the `expert` level, whose pool changes every round, so nothing is
shipped) keeps each table as a list over every key of its stage and does each step as a
few list operations run in C; on the big trees of low hands it is about three times
faster, and it agrees with `_contract` to rounding (1e-15).
"""

import operator
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import groupby
from operator import itemgetter

from ..cards import best_total

Comp = tuple[int, ...]

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


def falling(n: int, k: int) -> int:
    product = 1
    for i in range(k):
        product *= n - i
    return product


@cache
def _falling_table(n: int) -> tuple[tuple[int, ...], ...]:
    """ff(n - a, k) for a in 0..n and k in 0..21 (a dealer never draws more cards)."""
    rows = []
    for a in range(n + 1):
        row = [1]
        for k in range(1, 22):
            row.append(row[-1] * (n - a - k + 1))
        rows.append(tuple(row))
    return tuple(rows)


@cache
def _inverse_falling(size: int) -> dict[tuple[int, int], float]:
    """1 / ff(size - s, m) for s player cards gone and m dealer cards drawn."""
    return {
        (s, m): 1.0 / falling(size - s, m)
        for s in range(size + 1)
        for m in range(22)
        if m <= size - s
    }


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
    counts: Comp,
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
        factors = _falling_table(counts[rank])
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
                row = factors[a]
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
    inverse = _inverse_falling(sum(counts))
    back = [order.index(r) for r in range(RANKS)]
    result: dict[Comp, float] = {}
    for ordered, by_m in tables.items():
        s = sum(ordered)
        comp = tuple(ordered[i] for i in back)
        result[comp] = sum(weight * inverse[(s, cards[m])] for m, weight in by_m.items())
    return result


Gather = Callable[[Sequence[float]], Sequence[float]]


def _gatherer(indices: list[int]) -> Gather:
    """Picks `indices` from a sequence, in C (itemgetter of one index returns no tuple)."""
    if len(indices) == 1:
        (only,) = indices
        return lambda values: (values[only],)
    return itemgetter(*indices)


@dataclass(frozen=True)
class _DenseStage:
    """One rank of `_contract_dense`: each key's count of that rank (`first`), and how
    the keys of the next stage sum the current ones: `layers[l]` picks the l-th key of
    every next key that has more than l of them; next keys are numbered by how many
    keys they sum, most first, so those of layer l are the first `sizes[l]`. `rest_of`
    is each key's next key."""

    first: list[int]
    layers: list[Gather]
    sizes: list[int]
    rest_of: list[int]


class _DenseLayout:
    """`_stages` for `_contract_dense`, built from the finals a sum weighs (a stand on 21
    weighs a tenth of the finals a stand on 16 does: the tables are that much
    shorter)."""

    def __init__(self, finals: list[Comp]) -> None:
        ids, self.starts = _start_keys(finals)
        self.width = len(ids)
        self.stages: list[_DenseStage] = []
        for _ in _ORDER:
            groups: dict[tuple[int, ...], list[int]] = defaultdict(list)
            for key, i in ids.items():
                groups[key[1:]].append(i)
            rests = sorted(groups, key=lambda rest: -len(groups[rest]))
            following = {rest: i for i, rest in enumerate(rests)}
            rest_of = [0] * len(ids)
            for rest, members in groups.items():
                for i in members:
                    rest_of[i] = following[rest]
            layers = [
                [groups[rest][depth] for rest in rests if len(groups[rest]) > depth]
                for depth in range(len(groups[rests[0]]))
            ]
            self.stages.append(
                _DenseStage(
                    [key[0] for key in ids],
                    [_gatherer(layer) for layer in layers],
                    [len(layer) for layer in layers],
                    rest_of,
                )
            )
            ids = following
        cards = [key[0] for key in ids]  # each last key's number of dealer cards
        # Each key of the last stage but one: its count of the last rank, and m.
        before, last = self.stages[-2:]
        self.closing_keys = [(last.first[i], cards[last.rest_of[i]]) for i in before.rest_of]


@lru_cache(maxsize=128)
def _dense_layout(up: int, hits_soft_17: bool, used: tuple[int, ...]) -> _DenseLayout:
    """The layout of the finals `used` (indices in `dealer_finals`): a few per up card,
    one per player total and natural loss."""
    finals = dealer_finals(up, hits_soft_17)
    return _DenseLayout([finals[i][0] for i in used])


@lru_cache(maxsize=256)
def _inverse_row(left: int) -> list[float]:
    """1 / ff(left, m) for m in 0..21, 0 where m > left: a key of more dealer cards than
    are left has a zero factor of some rank, so its inverse is never needed."""
    return [1.0 / falling(left, m) if m <= left else 0.0 for m in range(22)]


def _contract_dense(
    counts: Comp,
    up: int,
    hits_soft_17: bool,
    finals: list[tuple[int, float]],
    comps: list[Comp],
) -> dict[Comp, float]:
    """`_contract`'s sums by the same contraction, each table a list over all the keys
    of its stage: every step is a handful of list operations done in C (`map`,
    `itemgetter`) instead of a dictionary update per entry. The sums come in another
    order, so the last bits differ from `_contract`'s, whose order the shipped data was
    computed in."""
    layout = _dense_layout(up, hits_soft_17, tuple(index for index, _ in finals))
    stages = layout.stages
    size = sum(counts)
    weights = [0.0] * layout.width
    for start, (_, weight) in zip(layout.starts, finals, strict=True):
        weights[start] += weight
    closing = len(_ORDER) - 2  # the stage that ends each sum: the last two ranks at once
    final_rank = _ORDER[-1]
    result: dict[Comp, float] = {}
    rows: dict[tuple[int, int], list[float]] = {}
    factor_lists: dict[tuple[int, int], Sequence[float]] = {}

    def factors(stage: int, a: int) -> Sequence[float]:
        """ff(n - a, k) as a float for each key of a stage, n the pool's count of the
        stage's rank and k the key's (the float a product with the integer would use)."""
        found = factor_lists.get((stage, a))
        if found is None:
            row = [float(f) for f in _falling_table(counts[_ORDER[stage]])[a]]
            found = factor_lists[(stage, a)] = _gatherer(stages[stage].first)(row)
        return found

    def row_of(a: int, s: int) -> list[float]:
        """Per key of the closing stage: the last rank's factor (its player count `a`)
        times 1 / ff(N - s, m), s the player's cards and m the dealer's."""
        row = rows.get((a, s))
        if row is None:
            factor = [float(f) for f in _falling_table(counts[final_rank])[a]]
            inverses = _inverse_row(size - s)
            row = rows[(a, s)] = [factor[k] * inverses[m] for k, m in layout.closing_keys]
        return row

    def descend(stage: int, table: list[float], group: list[Comp], held: int) -> None:
        step = stages[stage]
        # `group` is sorted in `_ORDER`: the compositions of each count are contiguous.
        for a, run in groupby(group, key=itemgetter(_ORDER[stage])):
            members = list(run)
            scaled = list(map(operator.mul, table, factors(stage, a)))
            if stage == closing:
                # Few keys are left and many compositions: one sum per composition.
                for comp in members:
                    last = comp[final_rank]
                    result[comp] = sum(map(operator.mul, scaled, row_of(last, held + a + last)))
                continue
            new = list(step.layers[0](scaled))
            for gather, width in zip(step.layers[1:], step.sizes[1:], strict=True):
                new[:width] = map(operator.add, new, gather(scaled))
            descend(stage + 1, new, members, held + a)

    descend(0, weights, sorted(comps, key=itemgetter(*_ORDER)), 0)
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
    counts: Comp,
    up: int,
    hits_soft_17: bool,
    wanted: dict[int, set[Comp]],
    natural_loss: float,
    shipped_order: bool = True,
) -> dict[tuple[Comp, int], float]:
    """The expected result of standing, per unit, for each player total and removed
    composition in `wanted` (totals 16 or less grouped as 16: they lose to every dealer
    total). `counts` is the shoe without the up card. A dealer natural costs the player
    `natural_loss` (1 when it takes the stake, 0 when the analysis is conditioned on the
    dealer having checked for one and the natural outcome is left out of the sum).
    `shipped_order` sums as the shipped data was computed, bit for bit (`_contract`);
    otherwise faster (`_contract_dense`), equal to rounding."""
    result: dict[tuple[Comp, int], float] = {}
    for player_total, comps in wanted.items():
        feasible = [c for c in comps if all(map(operator.le, c, counts))]
        if not feasible:
            continue
        offset, weighted = _weights(up, hits_soft_17, player_total, natural_loss)
        contract = _contract if shipped_order else _contract_dense
        sums = contract(counts, up, hits_soft_17, weighted, feasible)
        for comp in feasible:
            result[(comp, player_total)] = offset + sums.get(comp, 0.0)
    return result
