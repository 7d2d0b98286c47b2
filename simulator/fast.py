"""The fast path: whole rounds in compiled code (Numba), one user box per round, real shoes.

Each chunk owns a shoe of 13 ranks per suit shuffled by Fisher-Yates with its own
xorshift generator, reshuffled at the cut card (after the round in which the card at the
cut index came out) or every round, as the table says. The round follows RULES.md: the
deal, `classic`'s natural paid at once, the dealer's check under an ace or a ten where
the table peeks, play hand by hand (splits insert the new hand right after, a hand takes
its second card when its turn comes), the dealer's natural taking all that is staked
where it is not checked, and the dealer drawing only while some hand waits. Insurance and
even money are never taken (no AI level takes them). The policy comes as arrays
(`tables.py`); nothing here calls Python.
"""

import numpy as np
import numpy.typing as npt
from numba import njit, prange

from .tables import (
    DOUBLE,
    HIT,
    P_ACES_ONE_CARD,
    P_ANY21,
    P_CUT,
    P_DECKS,
    P_H17,
    P_HOLE,
    P_MAX_HANDS,
    P_PAID_AT_DEAL,
    P_PEEK,
    P_RESPLIT_ACES,
    P_SPLIT_RULE,
    SPLIT,
    STAND,
    SURRENDER,
    Compiled,
)

PLAYING, STANDING, BUST, SURRENDERED, PAID = range(5)
_MULTIPLIER = np.uint64(2685821657736338717)


@njit(cache=True)
def _next(state: npt.NDArray[np.uint64]) -> np.uint64:
    """xorshift64*: one 64-bit word."""
    x: np.uint64 = state[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    state[0] = x
    return x * _MULTIPLIER


@njit(cache=True)
def _below(state: npt.NDArray[np.uint64], m: int) -> int:
    return int((_next(state) >> np.uint64(11)) % np.uint64(m))


@njit(cache=True)
def _value(rank: int) -> int:
    return 9 if rank > 9 else rank


@njit(cache=True)
def _natural(a: int, b: int) -> bool:
    va = _value(a)
    vb = _value(b)
    return (va == 0 and vb == 9) or (va == 9 and vb == 0)


@njit(cache=True)
def play_round(  # noqa: C901 -- a numba kernel: one function, one compiled loop
    shoe: npt.NDArray[np.int64],
    pos: int,
    params: npt.NDArray[np.int64],
    next_id: npt.NDArray[np.int32],
    totals: npt.NDArray[np.int32],
    cards: npt.NDArray[np.int32],
    plain: npt.NDArray[np.int8],
    split: npt.NDArray[np.int8],
    resplit: npt.NDArray[np.int8],
    start: npt.NDArray[np.int32],
) -> tuple[float, int]:
    """One round dealt from `shoe` (ranks 0..12) at `pos`: the user's result per bet and
    the position after it."""
    hid = np.empty(8, dtype=np.int64)
    pair_of = np.empty(8, dtype=np.int64)
    first = np.empty(8, dtype=np.int64)
    second = np.empty(8, dtype=np.int64)
    stake = np.empty(8, dtype=np.float64)
    status = np.empty(8, dtype=np.int64)
    peek = params[P_PEEK] == 1
    hole_card = params[P_HOLE] == 1
    any21 = params[P_ANY21] == 1
    split_rule = params[P_SPLIT_RULE]
    max_hands = params[P_MAX_HANDS]
    p1 = shoe[pos]
    up = shoe[pos + 1]
    p2 = shoe[pos + 2]
    pos += 3
    hole = -1
    if hole_card:
        hole = shoe[pos]
        pos += 1
    upv = _value(up)
    natural = _natural(p1, p2)
    result = 0.0
    if natural and params[P_PAID_AT_DEAL] == 1:
        result = 1.5
    elif peek and (upv == 0 or upv == 9) and _natural(up, hole):
        result = 0.0 if natural else -1.0
    elif natural:
        dealer_natural = False
        if hole_card:
            dealer_natural = _natural(up, hole)
        elif upv == 0 or upv == 9:
            dealer_natural = _natural(up, shoe[pos])
            pos += 1
        result = 0.0 if dealer_natural else 1.5
    else:
        hands = 1
        hid[0] = next_id[start[_value(p1)], _value(p2)]
        pair_of[0] = -1
        first[0] = p1
        second[0] = p2
        stake[0] = 1.0
        status[0] = PLAYING
        h = 0
        while h < hands:
            if cards[hid[h]] == 1:  # a split hand takes its second card now
                c = shoe[pos]
                pos += 1
                hid[h] = next_id[hid[h], _value(c)]
                second[h] = c
            while status[h] == PLAYING:
                hand = hid[h]
                if totals[hand] == 21:
                    status[h] = PAID if any21 and cards[hand] >= 3 else STANDING
                    break
                pair = pair_of[h]
                two = cards[hand] == 2
                same = False
                if two and split_rule == 1:
                    same = first[h] == second[h]
                elif two and split_rule == 2:
                    same = _value(first[h]) == _value(second[h])
                can_split = same and hands < max_hands
                if can_split and pair == 0 and params[P_RESPLIT_ACES] == 0:
                    can_split = False
                if pair < 0:
                    action = plain[upv, hand, 1 if can_split else 0]
                elif can_split:
                    action = resplit[upv, pair, hands]
                elif cards[hand] <= 3:
                    action = split[upv, pair, hand]
                else:
                    action = plain[upv, hand, 0]
                if action == STAND:
                    status[h] = STANDING
                elif action in (HIT, DOUBLE):
                    if action == DOUBLE:
                        stake[h] = 2.0
                    c = shoe[pos]
                    pos += 1
                    more = next_id[hand, _value(c)]
                    if more < 0:
                        status[h] = BUST
                    else:
                        hid[h] = more
                        if action == DOUBLE:
                            status[h] = PAID if any21 and totals[more] == 21 else STANDING
                elif action == SPLIT:
                    value = _value(first[h])
                    for k in range(hands, h + 1, -1):
                        hid[k] = hid[k - 1]
                        pair_of[k] = pair_of[k - 1]
                        first[k] = first[k - 1]
                        second[k] = second[k - 1]
                        stake[k] = stake[k - 1]
                        status[k] = status[k - 1]
                    hands += 1
                    hid[h + 1] = start[value]
                    pair_of[h + 1] = value
                    first[h + 1] = second[h]
                    stake[h + 1] = 1.0
                    status[h + 1] = PLAYING
                    pair_of[h] = value
                    c = shoe[pos]
                    pos += 1
                    hid[h] = next_id[start[value], _value(c)]
                    second[h] = c
                    if value == 0 and params[P_ACES_ONE_CARD] == 1:
                        # A split ace stands on its one card, unless it may split again.
                        resplittable = (
                            _value(c) == 0 and hands < max_hands and params[P_RESPLIT_ACES] == 1
                        )
                        if not resplittable:
                            status[h] = STANDING
                elif action == SURRENDER:
                    status[h] = SURRENDERED
                else:  # no answer stored for a state that should not occur
                    status[h] = STANDING
            if pair_of[h] == 0 and params[P_ACES_ONE_CARD] == 1 and status[h] == PLAYING:
                status[h] = STANDING
            h += 1
        waiting = False
        for k in range(hands):
            if status[k] == STANDING:
                waiting = True
        dealer_natural = False
        dealer_total = 0
        if waiting:
            if hole_card:
                second_card = hole
            else:
                second_card = shoe[pos]
                pos += 1
            dealer_natural = _natural(up, second_card)
            hard = upv + 1 + _value(second_card) + 1
            aces = upv == 0 or _value(second_card) == 0
            while True:
                soft = aces and hard + 10 <= 21
                best = hard + 10 if soft else hard
                if best > 17 or (best == 17 and not (soft and params[P_H17] == 1)):
                    break
                c = shoe[pos]
                pos += 1
                hard += _value(c) + 1
                aces = aces or _value(c) == 0
            dealer_total = hard + 10 if aces and hard + 10 <= 21 else hard
        for k in range(hands):
            if status[k] == BUST:
                result -= stake[k]
            elif status[k] == SURRENDERED:
                result -= 0.5
            elif status[k] == PAID:
                result += 1.5 * stake[k]
            elif dealer_natural:
                result -= stake[k]
            elif dealer_total > 21 or totals[hid[k]] > dealer_total:
                result += stake[k]
            elif totals[hid[k]] < dealer_total:
                result -= stake[k]
    return result, pos


@njit(cache=True)
def play(
    rounds: int,
    seed: int,
    params: npt.NDArray[np.int64],
    next_id: npt.NDArray[np.int32],
    totals: npt.NDArray[np.int32],
    cards: npt.NDArray[np.int32],
    plain: npt.NDArray[np.int8],
    split: npt.NDArray[np.int8],
    resplit: npt.NDArray[np.int8],
    start: npt.NDArray[np.int32],
) -> tuple[float, float]:
    """Play `rounds` rounds; the sum and the sum of squares of the results per bet."""
    decks = params[P_DECKS]
    size = 52 * decks
    cut = params[P_CUT]
    shoe = np.empty(size, dtype=np.int64)
    for i in range(size):
        shoe[i] = i % 13
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(1)
    for _ in range(8):
        _next(state)
    pos = size
    total_sum = 0.0
    total_squares = 0.0
    for _ in range(rounds):
        if cut < 0:
            # A fresh shoe every round: only the cards a round can use need shuffling
            # (forward Fisher-Yates over the first positions; no round comes near 80).
            for i in range(min(size, 80)):
                j = i + _below(state, size - i)
                shoe[i], shoe[j] = shoe[j], shoe[i]
            pos = 0
        elif pos > cut or size - pos < 40:
            for i in range(size - 1, 0, -1):
                j = _below(state, i + 1)
                shoe[i], shoe[j] = shoe[j], shoe[i]
            pos = 0
        result, pos = play_round(
            shoe, pos, params, next_id, totals, cards, plain, split, resplit, start
        )
        total_sum += result
        total_squares += result * result
    return total_sum, total_squares


@njit(cache=True, parallel=True)
def play_parallel(
    rounds: npt.NDArray[np.int64],
    seeds: npt.NDArray[np.int64],
    params: npt.NDArray[np.int64],
    next_id: npt.NDArray[np.int32],
    totals: npt.NDArray[np.int32],
    cards: npt.NDArray[np.int32],
    plain: npt.NDArray[np.int8],
    split: npt.NDArray[np.int8],
    resplit: npt.NDArray[np.int8],
    start: npt.NDArray[np.int32],
) -> npt.NDArray[np.float64]:
    """One chunk per entry of `rounds`, in parallel: rows of (sum, sum of squares)."""
    out = np.zeros((len(rounds), 2))
    for i in prange(len(rounds)):
        s, q = play(
            rounds[i], seeds[i], params, next_id, totals, cards, plain, split, resplit, start
        )
        out[i, 0] = s
        out[i, 1] = q
    return out


def run(compiled: Compiled, rounds: int, seed: int, chunks: int = 2) -> tuple[float, float]:
    """Play `rounds` rounds split into `chunks` parallel chunks with seeds from `seed`."""
    sizes = np.full(chunks, rounds // chunks, dtype=np.int64)
    sizes[: rounds % chunks] += 1
    seeds = np.arange(chunks, dtype=np.int64) + seed * 1_000_003
    out = play_parallel(
        sizes,
        seeds,
        compiled.params,
        compiled.next_id,
        compiled.totals,
        compiled.cards,
        compiled.plain,
        compiled.split,
        compiled.resplit,
        compiled.start,
    )
    return float(out[:, 0].sum()), float(out[:, 1].sum())


def play_cards(compiled: Compiled, ranks: npt.NDArray[np.int64]) -> float:
    """One round from a given card order (ranks 0..12): for checks against the engine."""
    result, _ = play_round(
        ranks,
        0,
        compiled.params,
        compiled.next_id,
        compiled.totals,
        compiled.cards,
        compiled.plain,
        compiled.split,
        compiled.resplit,
        compiled.start,
    )
    return float(result)
