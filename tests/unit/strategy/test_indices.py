"""The shipped index plays (RULES.md, "Index plays"): each one read off the charts at the
true counts as the definition says, and shaped as API.md says (test_generate: equal to a
fresh computation)."""

from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from blackjack.rules import TABLES, Insurance
from blackjack.strategy import strategy_card
from blackjack.strategy.card import card_at
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
    assert list(document) == ["table", "system", "decks_unseen", "indices", "edge"]
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
