"""The contracted dealer probabilities (the Python reference's) against a plain recursion
over the dealer's draws."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackjack.rules import TABLES
from blackjack.strategy.analysis import UpCardSolver, of_ranks
from blackjack.strategy.dealer import (
    BUST,
    NATURAL,
    OUTCOMES,
    RANKS,
    Comp,
    dealer_finals,
    outcome_chances,
    payoffs,
    stand_values,
)

from .helpers import brute_force


def shoe_without(decks: int, up: int) -> Comp:
    counts = [4 * decks] * 9 + [16 * decks]
    counts[up] -= 1
    return tuple(counts)


compositions = st.lists(st.integers(0, 3), min_size=RANKS, max_size=RANKS).map(tuple)


@settings(max_examples=40, deadline=None)
@given(
    up=st.integers(0, 9),
    removed=st.lists(compositions, min_size=1, max_size=4),
    decks=st.sampled_from([1, 2, 6]),
    player_total=st.sampled_from([16, 17, 18, 19, 20, 21]),
    natural_loss=st.sampled_from([0.0, 1.0]),
    h17=st.booleans(),
)
def test_stand_values_match_a_plain_recursion(
    up: int,
    removed: list[Comp],
    decks: int,
    player_total: int,
    natural_loss: float,
    h17: bool,
) -> None:
    counts = shoe_without(decks, up)
    feasible = {c for c in removed if all(c[r] <= counts[r] for r in range(RANKS))}
    got = stand_values(counts, up, h17, {player_total: feasible}, natural_loss)
    row = payoffs(player_total, natural_loss)
    for comp in feasible:
        probabilities = brute_force(counts, up, comp, h17)
        expected = sum(p * w for p, w in zip(probabilities, row, strict=True))
        assert got[(comp, player_total)] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("h17", [False, True])
@pytest.mark.parametrize("up", range(10))
def test_outcomes_sum_to_one_and_match_for_a_full_shoe(up: int, h17: bool) -> None:
    counts = shoe_without(1, up)
    probabilities = brute_force(counts, up, (0,) * RANKS, h17)
    assert sum(probabilities) == pytest.approx(1.0)
    # Bust chance as a stand value: standing on 16 wins only when the dealer busts.
    got = stand_values(counts, up, h17, {16: {(0,) * RANKS}}, 1.0)
    assert got[((0,) * RANKS, 16)] == pytest.approx(2 * probabilities[BUST] - 1)


def test_dealer_finals_count_every_order() -> None:
    # Up ten: the orders of each final multiset add up to the number of draw sequences.
    finals = dealer_finals(9, False)
    assert {outcome for _, outcome, _ in finals} == set(range(OUTCOMES))
    assert all(orders >= 1 for _, _, orders in finals)
    natural = [f for f in finals if f[1] == NATURAL]
    assert natural == [((1,) + (0,) * 9, NATURAL, 1)]


@settings(max_examples=30, deadline=None)
@given(
    up=st.integers(0, 9),
    removed=st.lists(compositions, min_size=1, max_size=4),
    decks=st.sampled_from([1, 2, 6]),
    h17=st.booleans(),
)
def test_outcome_chances_match_a_plain_recursion(
    up: int, removed: list[Comp], decks: int, h17: bool
) -> None:
    # Those the shoe cannot hold are left out, as `stand_values` leaves them out.
    counts = shoe_without(decks, up)
    got = outcome_chances(counts, up, h17, removed)
    assert got.keys() == {c for c in removed if all(c[r] <= counts[r] for r in range(RANKS))}
    for comp, chances in got.items():
        for p, want in zip(chances, brute_force(counts, up, comp, h17), strict=True):
            assert p == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize(("table", "up"), [("bicycle", 0), ("european", 1), ("casino", 9)])
def test_the_reference_solvers_dealer_is_its_pools(table: str, up: int) -> None:
    """`UpCardSolver.dealer` (the solver interface the variance uses), before and after
    a batch of stand values, which its first miss computes with it."""
    rules = TABLES[table].rules
    s = UpCardSolver(rules, up)
    hands = [of_ranks(9, 6), of_ranks(0, 1, 4), of_ranks(2, 2)]
    first = s.dealer(hands[0])
    s.prepare(hands)
    for hand in hands:
        chances = s.dealer(hand)
        assert sum(chances) == pytest.approx(1.0, abs=1e-12)
        want = brute_force(s.counts, up, hand, rules.dealer_hits_soft_17)
        assert chances == pytest.approx(want, abs=1e-12)
    assert s.dealer(hands[0]) == first
    with pytest.raises(ValueError, match="cannot hold"):
        s.dealer(of_ranks(*[0] * 25))  # more aces than six decks hold
