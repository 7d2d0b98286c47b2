"""The contracted dealer probabilities against a plain recursion over the dealer's draws."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackjack.strategy.analysis import of_ranks
from blackjack.strategy.dealer import (
    BUST,
    NATURAL,
    OUTCOMES,
    RANKS,
    Comp,
    add,
    dealer_finals,
    payoffs,
    stand_values,
    total,
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
    shipped_order=st.booleans(),
)
def test_stand_values_match_a_plain_recursion(
    up: int,
    removed: list[Comp],
    decks: int,
    player_total: int,
    natural_loss: float,
    h17: bool,
    shipped_order: bool,
) -> None:
    # Both contractions: the one the shipped data was summed with and the dense one.
    counts = shoe_without(decks, up)
    feasible = {c for c in removed if all(c[r] <= counts[r] for r in range(RANKS))}
    got = stand_values(
        counts, up, h17, {player_total: feasible}, natural_loss, shipped_order=shipped_order
    )
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


@pytest.mark.parametrize(("up", "h17"), [(1, False), (3, True), (0, True), (9, False)])
def test_the_dense_contraction_agrees_with_the_shipped_order_over_a_whole_tree(
    up: int, h17: bool
) -> None:
    # Hundreds of compositions sharing prefixes, from a shoe short of many small cards
    # (the big trees of the `expert` level): every branch of the dense walk is taken.
    counts = (9, 14, 11, 20, 7, 18, 22, 16, 5, 80)
    hands: dict[int, set[Comp]] = {}

    def grow(hand: Comp, lowest: int) -> None:
        points, _ = total(hand)
        if points > 21:
            return
        hands.setdefault(max(points, 16), set()).add(hand)
        for rank in range(lowest, RANKS):
            if hand[rank] < counts[rank]:
                grow(add(hand, rank), rank)

    grow(of_ranks(1, 1), 0)
    assert sum(map(len, hands.values())) > 1000
    shipped = stand_values(counts, up, h17, hands, 1.0)
    dense = stand_values(counts, up, h17, hands, 1.0, shipped_order=False)
    assert dense.keys() == shipped.keys()
    for key, value in shipped.items():
        assert dense[key] == pytest.approx(value, abs=1e-13)
