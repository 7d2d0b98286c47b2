"""The variance (`blackjack.variance`) asks the solver for the dealer's chances: by the
Python reference (`UpCardSolver.dealer`, the fallback) a round's moments are the
kernel's. The shipped figures are checked in tests/integration/test_edge_variance.py."""

import pytest

from blackjack import variance
from blackjack.strategy import native
from blackjack.strategy.analysis import UpCardSolver
from blackjack.strategy.card import deal_chance, two_card_hands
from blackjack.strategy.dealer import add

from .helpers import needs_kernel


@needs_kernel
@pytest.mark.parametrize("up", [5, 9])  # bicycle peeks under a ten, not under a 6
def test_the_python_reference_gives_the_kernels_moments(up: int) -> None:
    table = variance._Analysis("bicycle")
    pool = add(table.full, up, -1)
    by_kernel = variance._UpCard(table, up, native.KernelSolver(table.rules, up, pool=pool))
    by_reference = variance._UpCard(table, up, UpCardSolver(table.rules, up, pool=pool))
    for hand in two_card_hands():
        if deal_chance(pool, *hand) > 0:
            expected = by_kernel.dealt(hand)
            assert by_reference.dealt(hand) == pytest.approx(expected, abs=1e-12), hand
