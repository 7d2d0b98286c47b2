"""The shipped index plays (RULES.md, "Index plays"): each one read off the charts at the
true counts as the definition says, and shaped as API.md says (test_generate: equal to a
fresh computation)."""

import dataclasses
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from blackjack.rules import TABLES, Insurance, Split
from blackjack.strategy import strategy_card
from blackjack.strategy.card import card_at, label
from blackjack.strategy.dealer import ACE, RANKS, TEN
from blackjack.strategy.indices import (
    TRUE_COUNTS,
    Direction,
    composition_at,
    decks_unseen,
    indices_by_cell,
    indices_document,
    insurance_index,
    table_indices,
    unseen_at,
)

from .helpers import needs_kernel


@cache
def _charts(table_id: str) -> dict[int, Any]:
    rules = TABLES[table_id].rules
    return {t: card_at(rules, composition_at(rules, t))["chart"] for t in TRUE_COUNTS}


def test_the_unseen_cards_at_a_true_count() -> None:
    rules = TABLES["casino"].rules
    assert decks_unseen(rules) == 3
    assert decks_unseen(TABLES["classic"].rules) == 2
    assert decks_unseen(TABLES["bicycle"].rules) == 1
    at_plus_5 = unseen_at(rules, 5)
    x = Fraction(3 * 5, 10)
    assert at_plus_5 == (12 + x, *(12 - x,) * 5, 12, 12, 12, 48 + 4 * x)
    assert sum(at_plus_5) == 52 * 3
    # Hi-Lo over the cards taken away: t running per d decks.
    removed = [a - b for a, b in zip(unseen_at(rules, 0), at_plus_5, strict=True)]
    running = sum(removed[1:6]) - removed[0] - removed[9]
    assert running / 3 == 5


@pytest.mark.parametrize("table_id", list(TABLES))
def test_the_insurance_index_is_where_a_ten_beats_one_in_three(table_id: str) -> None:
    rules = TABLES[table_id].rules
    entries = [i for i in table_indices(table_id) if i.section == "insurance"]
    if rules.insurance is Insurance.NONE:
        assert entries == []
        return
    (entry,) = entries
    assert entry == table_indices(table_id)[-1]  # insurance last
    t = insurance_index(rules)
    assert entry.index == t and t is not None
    for s in (t - 1, t):
        counts = unseen_at(rules, s)
        assert (counts[9] / (sum(counts) - 1) > Fraction(1, 3)) is (s == t)


@needs_kernel
@pytest.mark.parametrize("table_id", list(TABLES))
def test_every_cell_follows_the_definition(table_id: str) -> None:
    """Each cell's indices, and only those, by the definition read literally."""
    basic = strategy_card(table_id)["chart"]
    charts = _charts(table_id)
    by_cell = indices_by_cell(table_id)
    for section, rows in basic.items():
        for row, ups in rows.items():
            for up, card in ups.items():
                found = {i.direction: i for i in by_cell.get((section, row, up), ())}
                for direction, ends in (
                    (Direction.UP, range(10, -11, -1)),
                    (Direction.DOWN, TRUE_COUNTS),
                ):
                    play = charts[ends[0]][section][row][up]
                    if play == card:
                        assert direction not in found
                        continue
                    entry = found[direction]
                    assert (entry.basic, entry.play) == (card, play)
                    held = [t for t in ends if entry.applies(t)]
                    assert all(charts[t][section][row][up] == play for t in held)
                    beyond = entry.index - 1 if direction is Direction.UP else entry.index + 1
                    if beyond in TRUE_COUNTS:
                        assert charts[beyond][section][row][up] != play


@pytest.mark.parametrize("table_id", list(TABLES))
def test_document_shape(table_id: str) -> None:
    document = indices_document(table_id)
    assert list(document) == ["table", "system", "decks_unseen", "indices", "worth", "edge"]
    assert len(document["worth"]) == len(document["indices"])
    assert document["table"] == table_id and document["system"] == "hi_lo"
    assert [e["true_count"] for e in document["edge"]] == list(TRUE_COUNTS)
    edges = [e["edge"] for e in document["edge"]]
    if table_id != "classic":  # where a 21 of three cards pays 3:2, small cards help too
        assert edges == sorted(edges)  # a higher count, a better shoe
    assert all(round(e, 4) == e for e in edges)
    order = [
        (s, row, up)
        for s, rows in strategy_card(table_id)["chart"].items()
        for row, ups in rows.items()
        for up in ups
    ]
    cells = [
        (i["section"], i["row"], i["up"])
        for i in document["indices"]
        if i["section"] != "insurance"
    ]
    assert cells == sorted(cells, key=order.index)
    for entry in document["indices"]:
        assert list(entry) == ["section", "row", "up", "basic", "play", "index", "direction"]
        assert entry["index"] in TRUE_COUNTS
        assert entry["basic"] != entry["play"]


def test_unknown_table() -> None:
    with pytest.raises(KeyError):
        indices_document("nowhere")


# Issue 43: bicycle's edge at +7..+10 by an independent analysis of RULES.md's model, in
# which only a pair of one rank splits (K+K, not K+Q).
INDEPENDENT_BICYCLE_EDGE = {7: 3.0862, 8: 3.5176, 9: 3.9387, 10: 4.3496}


def test_bicycles_edge_by_true_count_is_the_independent_analysiss() -> None:
    edge = {e["true_count"]: e["edge"] for e in indices_document("bicycle")["edge"]}
    for t, figure in INDEPENDENT_BICYCLE_EDGE.items():
        assert edge[t] == pytest.approx(figure, abs=0.0005), t


@needs_kernel
@pytest.mark.parametrize("t", [0, 8])
def test_at_bicycle_two_unequal_tens_give_up_their_split(t: int) -> None:
    """The edge at t where every two tens split (the same rules by value) less bicycle's
    is, summed over the up cards, the chance of two tens against it, times the share of
    them of unequal ranks (a quarter of the tens of each rank: with `a` of each, 3a of
    the other 4a - 1), times what splitting gains over the best other play (the card's
    EVs, at a peek table times the chance of no dealer natural)."""
    rules = TABLES["bicycle"].rules
    assert rules.split is Split.SAME_RANK
    composition = composition_at(rules, t)
    card = card_at(rules, composition)
    by_value = card_at(dataclasses.replace(rules, split=Split.SAME_VALUE), composition)
    size = sum(composition)
    a = composition[TEN] / 4
    gain = 0.0
    for up in range(RANKS):
        tens = composition[TEN] - (up == TEN)
        two_tens = tens * (tens - 1) / ((size - 1) * (size - 2))
        ev = card["ev"]["T,T"][label(up)]
        best_other = max(value for action, value in ev.items() if action != "split")
        need = {ACE: TEN, TEN: ACE}.get(up)
        no_natural = 1.0
        if need is not None:  # the dealer peeks: the card's EVs are given no natural
            no_natural -= (composition[need] - 2 * (need == TEN)) / (size - 3)
        unequal = 3 * a / (4 * a - 1)
        share = composition[up] / size * two_tens * unequal
        gain += share * max(0.0, ev["split"] - best_other) * no_natural
    assert by_value["player_ev"] - card["player_ev"] == pytest.approx(100 * gain, abs=3e-6)
    assert (gain > 0.001) is (t == 8)
