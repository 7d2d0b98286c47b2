"""What each index play is worth to a counter (API.md, the indices' `worth`): the true counts
a table deals, exactly, and the ranking they make: the plays a counter meets often and
gains most on first, as published rankings (the Illustrious 18) have them."""

import statistics
from collections import Counter
from fractions import Fraction
from itertools import combinations
from typing import Any

import pytest

from blackjack.rules import TABLES
from blackjack.strategy.indices import TRUE_COUNTS, indices_document
from blackjack.strategy.worth import Chance, _running_counts, true_count_chances, worth
from tests.traced import TABLES_ONE_TRACED

BOUND = TRUE_COUNTS[-1]


def _valued(table_id: str) -> list[dict[str, Any]]:
    """The table's index plays, each with its `worth`."""
    document = indices_document(table_id)
    return [{**e, "worth": w} for e, w in zip(document["indices"], document["worth"], strict=True)]


def _ranked(table_id: str) -> list[dict[str, Any]]:
    return sorted(_valued(table_id), key=lambda e: -e["worth"])


def test_running_counts_are_exact() -> None:
    """The running count of three cards of one deck, against every three cards counted."""
    tags = [1] * 20 + [-1] * 20 + [0] * 12
    counted = Counter(sum(three) for three in combinations(tags, 3))
    whole = sum(counted.values())
    for running, chance in _running_counts(1, 3).items():
        assert chance == pytest.approx(float(Fraction(counted[running], whole)), abs=1e-12)
    assert set(_running_counts(1, 3)) == set(counted)


@pytest.mark.parametrize("table_id", TABLES_ONE_TRACED)
def test_the_true_counts_of_a_table_are_a_distribution(table_id: str) -> None:
    chances = true_count_chances(TABLES[table_id].rules, BOUND)
    assert list(chances) == list(TRUE_COUNTS)
    assert sum(c.total for c in chances.values()) == pytest.approx(1.0)
    for t in TRUE_COUNTS:  # Hi-Lo is balanced: as likely up as down
        assert chances[t].total == pytest.approx(chances[-t].total, abs=1e-9)


def test_a_fresh_four_deck_shoe_never_counts_past_three_quarters() -> None:
    """At `classic` (four decks, shuffled every round) the round's three cards alone make
    the count: at most 3 x 52/205 = 0.76, so no index beyond 0 ever applies there, and
    every play is worth nothing."""
    chances = true_count_chances(TABLES["classic"].rules, BOUND)
    assert chances[1] == Chance(below=chances[1].below) and chances[1].below > 0
    assert all(chances[t].total == 0 for t in TRUE_COUNTS if abs(t) > 1)
    assert set(indices_document("classic")["worth"]) == {0}


def test_a_shoe_dealt_down_counts_further() -> None:
    """`bicycle`'s round counts three cards of one deck (at most 3 x 52/49 = 3.18);
    `casino`'s shoe is dealt down to its cut card first."""
    six = true_count_chances(TABLES["casino"].rules, BOUND)
    one = true_count_chances(TABLES["bicycle"].rules, BOUND)
    assert sum(six[t].total for t in TRUE_COUNTS if abs(t) > 3) > 0.1
    assert sum(one[t].total for t in TRUE_COUNTS if abs(t) > 3) == 0


def test_worth_weighs_the_gains_where_the_index_applies() -> None:
    chances = {-1: Chance(0.25, 0, 0), 0: Chance(0.1, 0.2, 0.15), 1: Chance(0, 0, 0.3)}
    gains = {-1: 1.0, 0: 2.0, 1: 4.0}
    assert worth(chances, gains, 0, up=True) == pytest.approx(100 * (0.35 * 2 + 0.3 * 4))
    assert worth(chances, gains, 0, up=False) == pytest.approx(100 * (0.25 + 0.3 * 2))
    assert worth(chances, gains, 2, up=True) == 0


@pytest.mark.parametrize("table_id", ["casino", "european"])
def test_at_a_six_deck_table_plays_far_out_rank_last(table_id: str) -> None:
    """An index at +-9 or +-10 applies in a few shoes in a hundred: every one is worth less
    than the median play at 0 to +-3, and none is among the first 18."""
    document = _valued(table_id)
    far = [e["worth"] for e in document if abs(e["index"]) >= 9]
    near = [e["worth"] for e in document if abs(e["index"]) <= 3]
    assert far and near
    assert max(far) < statistics.median(near)
    assert all(abs(e["index"]) <= 5 for e in _ranked(table_id)[:18])
    assert all(e["worth"] >= 0 for e in document)


def test_insurance_and_16_v_10_lead_as_published_rankings_have_them() -> None:
    """Insurance leads the Illustrious 18 and 16 v 10 follows: here insurance is among
    the first three at `casino` (which offers it), 16 v 10 among the first three at
    `european` (where the card hits it; `casino` surrenders it early)."""
    casino = [(e["section"], e["up"]) for e in _ranked("casino")]
    assert ("insurance", "A") in casino[:3]
    european = [(e["row"], e["up"], e["play"]) for e in _ranked("european")]
    assert ("16", "T", "stand") in european[:3]
