"""The strategy card's `variance` (blackjack.variance): the shipped figures are what the
analysis computes, its first moment is the card's `player_ev`, and a simulation of the
`hard` player at a fresh shoe finds the same variance within its standard error."""

from __future__ import annotations

import dataclasses
import math
import statistics

import pytest

from blackjack import variance
from blackjack.rules import TABLES
from blackjack.strategy import native, strategy_card

ROUNDS = 200_000
BATCHES = 20  # the standard error of a variance needs its spread: 20 batches give it
TOLERANCE_SE = 4.0

needs_kernel = pytest.mark.skipif(
    native.library() is None, reason="the Python analysis takes half a minute a table"
)


@needs_kernel
def test_the_shipped_variances_are_the_analysis(capsys: pytest.CaptureFixture[str]) -> None:
    assert variance.main(["--check"]) == 0, capsys.readouterr().err


@needs_kernel
@pytest.mark.parametrize("table", list(TABLES))
def test_the_first_moment_is_the_strategy_cards_player_ev(table: str) -> None:
    mean, _ = variance.moments(table)
    assert 100 * mean == pytest.approx(strategy_card(table)["player_ev"], abs=2e-6)


@pytest.mark.no_cover
@needs_kernel
@pytest.mark.parametrize("table", list(TABLES))
def test_a_simulation_at_a_fresh_shoe_finds_the_same_variance(table: str) -> None:
    from simulator import fast
    from simulator.tables import P_CUT, compile_table

    compiled = compile_table(TABLES[table], "hard")
    params = compiled.params.copy()
    params[P_CUT] = -1  # a fresh shoe every round: the variance of the card's shoe
    compiled = dataclasses.replace(compiled, params=params)
    size = ROUNDS // BATCHES
    batches = []
    for batch in range(BATCHES):
        total, squares = fast.run(compiled, size, seed=7_000 + batch)
        batches.append(squares / size - (total / size) ** 2)
    simulated = statistics.fmean(batches)
    se = statistics.stdev(batches) / math.sqrt(BATCHES)
    mean, square = variance.moments(table)
    exact = square - mean * mean
    assert abs(simulated - exact) <= TOLERANCE_SE * se, (table, simulated, exact, se)
    assert float(variance.variance(table)) == round(exact, 4)
