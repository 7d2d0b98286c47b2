"""The analysis against published exact figures (player EV per initial bet, 3:2), known
strategy cells, and its own building blocks."""

import dataclasses
import itertools
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blackjack.rules import TABLES, Peek, Rules
from blackjack.strategy import strategy_card
from blackjack.strategy.analysis import (
    EMPTY,
    of_ranks,
    reference_solver,
    split_hand_counts,
    stand_dominated,
)
from blackjack.strategy.card import UpCardResult, analyse, chart, player_ev
from blackjack.strategy.dealer import TEN, total

EUROPEAN = TABLES["european"].rules
# 6 decks, S17, double any two, DAS, split to 4, no resplit of aces, dealer peeks.
SIX_DECKS_PEEK = dataclasses.replace(EUROPEAN, peek=Peek.ACE_AND_TEN)
# The same without peek, the dealer's natural taking all: `european` itself.
SIX_DECKS_NO_PEEK = EUROPEAN
# 1 deck, S17, double on 9-11 only, one split, no DAS, peek: `bicycle` with splits by value
# (a ten pair is never split, so same rank or same value gives the same figure).
ONE_DECK = dataclasses.replace(TABLES["bicycle"].rules, split=TABLES["casino"].rules.split)
# 4 decks, S17, hit and stand only, ordinary payouts, peek.
HIT_STAND_ONLY = dataclasses.replace(
    TABLES["classic"].rules,
    peek=Peek.ACE_AND_TEN,
    natural_paid_at_deal=False,
    any_21_pays_3_2=False,
)


@cache
def results(rules: Rules) -> list[UpCardResult]:
    return analyse(rules)


@pytest.mark.no_cover
@pytest.mark.parametrize(
    ("rules", "published"),
    [
        (SIX_DECKS_PEEK, -0.403),
        (SIX_DECKS_NO_PEEK, -0.514),
        (ONE_DECK, -0.112),
        (HIT_STAND_ONLY, -2.304),
    ],
    ids=["6d-peek", "6d-no-peek", "1d-d9-11", "4d-hit-stand"],
)
def test_house_edge_matches_published_figures(rules: Rules, published: float) -> None:
    ours = 100 * player_ev(rules, results(rules))
    assert ours == pytest.approx(published, abs=0.01)


@pytest.mark.no_cover
def test_known_cells_with_peek() -> None:
    cells = chart(results(SIX_DECKS_PEEK))
    assert cells["hard"]["11"]["A"] == "hit"
    assert cells["hard"]["11"]["T"] == "double"
    assert cells["pairs"]["A"]["A"] == "split"
    assert cells["pairs"]["8"]["T"] == "split"
    assert cells["soft"]["18"]["2"] == "stand"
    assert cells["hard"]["9"]["2"] == "hit"


def test_known_cells_without_peek() -> None:
    cells = chart(results(SIX_DECKS_NO_PEEK))
    assert cells["hard"]["11"]["T"] == "hit"
    assert cells["pairs"]["A"]["A"] == "hit"
    assert cells["pairs"]["8"]["T"] == "hit"
    assert cells["soft"]["18"]["2"] == "stand"


def test_every_table_has_its_own_figure() -> None:
    figures = {t: strategy_card(t)["player_ev"] for t in TABLES}  # shipped = fresh: test_card
    # classic pays 3:2 on any 21 at once: the player is favoured; the others favour the house.
    assert figures["classic"] > 0
    assert all(figures[t] < 0 for t in ("bicycle", "casino", "european"))
    # Early surrender and resplit aces make casino better than european.
    assert figures["casino"] > figures["european"]


hands = st.lists(st.integers(0, 9), min_size=2, max_size=6).map(lambda r: of_ranks(*r))


@settings(max_examples=40, deadline=None)
@given(hand=hands, up=st.integers(0, 9))
def test_hitting_dominates_where_the_solver_skips_standing(hand: tuple[int, ...], up: int) -> None:
    s = reference_solver(EUROPEAN, up)
    if total(hand)[0] > 21 or not stand_dominated(hand):
        return
    assert s.hit(EMPTY, hand) >= s.stand(EMPTY, hand) - 1e-12


def test_split_hand_counts() -> None:
    # One split only: two hands, each pairing again with probability q.
    assert split_hand_counts(0.1, 2, 2) == pytest.approx((1.8, 0.2))
    # Never pairing: two ordinary hands, whatever the limit.
    assert split_hand_counts(0.0, 2, 4) == pytest.approx((2.0, 0.0))
    # Up to three hands: the expected number of hands is 2 + P(at least one resplit).
    q = 0.25
    other, pair = split_hand_counts(q, 2, 3)
    assert other + pair == pytest.approx(2 + (1 - (1 - q) ** 2))


@pytest.mark.parametrize("up", range(10))
def test_a_split_ten_pair_at_bicycle_draws_each_of_the_13_ranks(up: int) -> None:
    # Bicycle splits once (no resplit), so a split ten pair is two hands, each a ten and
    # a second card of one of the 13 ranks, four of each in its one deck (less the pair
    # and the up card). A king that draws a queen makes a 20 like any other.
    rules = TABLES["bicycle"].rules
    assert rules.max_hands == 2 and rules.decks == 1
    s = reference_solver(rules, up)
    split = s.split(TEN)
    left = {rank: 4 - (rank == up) for rank in range(13)}  # ranks: A..9, then T, J, Q, K
    left[9] -= 2
    after = of_ranks(TEN)  # each hand lacks its sibling's ten
    values = [
        max(s.split_hand_options(TEN, after, of_ranks(TEN, min(rank, TEN))).values())
        for rank in range(13)
    ]
    expected = 2 * sum(n * v for n, v in zip(left.values(), values, strict=True))
    assert split == pytest.approx(expected / sum(left.values()), abs=1e-12)


@pytest.mark.parametrize("decks", [1, 2])
@pytest.mark.parametrize("up", [0, 5, 9])
def test_two_tens_are_of_one_rank_as_often_as_the_shoes_cards_say(decks: int, up: int) -> None:
    """The share of ten pairs a `same_rank` table splits, counted card by card: every two
    ten-value cards of the shoe less the up card (a king, where it is a ten)."""
    rules = dataclasses.replace(TABLES["bicycle"].rules, decks=decks)
    tens = [rank for rank in "TJQK" for _ in range(4 * decks)]
    if up == TEN:
        tens.remove("K")
    pairs = list(itertools.permutations(tens, 2))
    one_rank = sum(a == b for a, b in pairs) / len(pairs)
    assert reference_solver(rules, up).one_rank_chance() == pytest.approx(one_rank, abs=1e-15)


def test_insurance_is_never_worth_it_off_the_top() -> None:
    for rules in (TABLES["casino"].rules, TABLES["bicycle"].rules):
        s = reference_solver(rules, 0)
        for first in range(10):
            for second in range(10):
                b = s.natural_chance(of_ranks(first, second))
                assert 3 * b - 1 < 0  # a 2:1 bet on a ten in the hole loses
