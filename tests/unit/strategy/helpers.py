"""A plain recursion over the dealer's draws, the oracle the contracted dealer
probabilities (test_dealer), the kernel's (test_native) and hints (test_hints) are
checked against;
and the mark of the tests that need the analysis kernel (fractional counts, the kernel
against the Python)."""

from functools import cache

import pytest

from blackjack.strategy import native
from blackjack.strategy.dealer import BUST, NATURAL, OUTCOMES, RANKS, Comp, Counts

needs_kernel = pytest.mark.skipif(
    native.library() is None, reason="the analysis kernel is not built: `make` builds it"
)


def brute_force(counts: Counts, up: int, removed: Comp, h17: bool = False) -> list[float]:
    """P(outcome) by drawing card after card from what is left."""
    left = [n - r for n, r in zip(counts, removed, strict=True)]

    @cache
    def play(drawn: tuple[int, ...], hard: int, aces: bool, cards: int) -> tuple[float, ...]:
        soft = aces and hard + 10 <= 21
        best = hard + 10 if soft else hard
        out = [0.0] * OUTCOMES
        if cards == 1 and best == 21:
            out[NATURAL] = 1.0
            return tuple(out)
        if best > 21:
            out[BUST] = 1.0
            return tuple(out)
        if best >= 17 and not (h17 and soft and best == 17):
            out[best - 17] = 1.0
            return tuple(out)
        remaining = sum(left) - sum(drawn)
        for rank in range(RANKS):
            n = left[rank] - drawn[rank]
            if n <= 0:
                continue
            more = (*drawn[:rank], drawn[rank] + 1, *drawn[rank + 1 :])
            child = play(more, hard + rank + 1, aces or rank == 0, cards + 1)
            for i in range(OUTCOMES):
                out[i] += n / remaining * child[i]
        return tuple(out)

    return list(play((0,) * RANKS, up + 1, up == 0, 0))
