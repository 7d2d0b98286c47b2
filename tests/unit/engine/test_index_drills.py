"""Index drills (API.md "Drills", `section=indices`): one cell per shipped index play, dealt
at a true count within 3 of it, graded by the `counter`'s action at that count (the
shipped indices read literally) with the EVs of the card at that count's unseen cards; on
the same schedule, packed with the chart's cells (schedules packed before them still read)."""

import random
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache
from typing import Any

import pytest

from blackjack.actions import Action
from blackjack.drills import (
    CHART_ONLY_FORMAT,
    Cell,
    CellProgress,
    InvalidHand,
    Schedule,
    Section,
    _varint,
    cell_of,
    cells,
    deal_index,
    grade_index,
    index_cells,
    schedule_cells,
    section_cells,
)
from blackjack.rules import TABLES
from blackjack.strategy import strategy_card
from blackjack.strategy.card import card_at, hand_key
from blackjack.strategy.indices import composition_at, indices_document
from tests.traced import TABLES_ONE_TRACED

INSURANCE = ("insurance", "decline_insurance")


@cache
def _document(table: str) -> dict[str, Any]:
    return indices_document(table)


def _row(entry: dict[str, Any]) -> str:
    """An index's drill row: "hard 16", or "insurance"."""
    section = entry["section"]
    return section if section == "insurance" else f"{section} {entry['row']}"


def _entry(table: str, cell: Cell) -> dict[str, Any]:
    return next(
        e
        for e in _document(table)["indices"]
        if (_row(e), e["up"], e["direction"]) == (cell.row, cell.up, cell.direction)
    )


@cache
def _ev_at(table: str, t: int) -> dict[str, Any]:
    rules = TABLES[table].rules
    ev: dict[str, Any] = card_at(rules, composition_at(rules, t))["ev"]
    return ev


def _counter(table: str, chart: Cell | None, true_count: int) -> str:
    """The counter's first decision by the shipped card and indices, read literally."""
    if chart is None:  # insurance
        (entry,) = [e for e in _document(table)["indices"] if e["section"] == "insurance"]
        return "insurance" if true_count >= entry["index"] else "decline_insurance"
    action: str = strategy_card(table)["chart"][chart.section][chart.row][chart.up]
    for e in _document(table)["indices"]:
        if (e["section"], e["row"], e["up"]) == (chart.section, chart.row, chart.up):
            up_from = e["direction"] == "at_or_above"
            if true_count >= e["index"] if up_from else true_count <= e["index"]:
                action = e["play"]
    return action


@pytest.mark.parametrize("table", TABLES)
def test_each_index_is_a_cell_after_the_charts(table: str) -> None:
    found = index_cells(table)
    assert len(found) == len(_document(table)["indices"])
    assert all(c.section is Section.INDICES for c in found)
    assert section_cells(table, Section.INDICES) == found
    assert section_cells(table, None) == cells(table)  # `any`: the chart's
    assert schedule_cells(table) == cells(table) + found
    for cell, entry in zip(found, _document(table)["indices"], strict=True):
        row = (
            "insurance" if entry["section"] == "insurance" else f"{entry['section']} {entry['row']}"
        )
        assert (cell.row, cell.up, cell.direction) == (row, entry["up"], entry["direction"])


@pytest.mark.parametrize("table", TABLES_ONE_TRACED)
def test_every_index_cell_is_dealt_near_its_index_and_graded_as_the_counter_plays(
    table: str,
) -> None:
    rng = random.Random(34)
    for cell in index_cells(table):
        entry = _entry(table, cell)
        for _ in range(3):
            cards, up, legal, t = deal_index(TABLES[table], cell, rng)
            assert abs(t - entry["index"]) <= 3 and -10 <= t <= 10
            if cell.row == "insurance":
                assert up[0] == "A" and [a.value for a in legal] == list(INSURANCE)
                chart = None
            else:
                chart = cell_of(TABLES[table], cards, up)
                assert f"{chart.section} {chart.row}" == cell.row and chart.up == cell.up
            best = _counter(table, chart, t)
            ev_card = _ev_at(table, t)
            for action in legal:
                graded = grade_index(TABLES[table], cards, up, action, t)
                assert graded.best.value == best and graded.right is (action.value == best)
                assert set(graded.ev) == set(legal)
                loss = Decimal(graded.ev[graded.best] - graded.ev[action])
                assert graded.loss == loss.quantize(Decimal("0.0001"), ROUND_HALF_EVEN)
                assert graded.cell.section is Section.INDICES and graded.cell.row == cell.row
                if chart is not None:
                    key = hand_key(*(_rank(c) for c in cards))
                    assert graded.ev[action] == ev_card[key][chart.up][action.value]


def _rank(card: str) -> int:
    return 0 if card[0] == "A" else 9 if card[0] in "TJQK" else int(card[0]) - 1


def test_bad_index_answers() -> None:
    casino, european = TABLES["casino"], TABLES["european"]
    with pytest.raises(InvalidHand):
        grade_index(casino, ["TS", "6H"], "TD", Action.HIT, 11)
    with pytest.raises(InvalidHand):
        grade_index(casino, ["TS", "6H"], "TD", Action.HIT, -11)
    with pytest.raises(InvalidHand):  # hard 19 against a 2: no index
        grade_index(casino, ["TS", "9H"], "2D", Action.STAND, 0)
    with pytest.raises(InvalidHand):  # no insurance at european
        grade_index(european, ["TS", "6H"], "AD", Action.INSURANCE, 5)
    with pytest.raises(InvalidHand):  # a natural is not drilled
        grade_index(casino, ["TS", "AH"], "AD", Action.INSURANCE, 5)
    with pytest.raises(InvalidHand):  # insurance against a ten
        grade_index(casino, ["TS", "6H"], "TD", Action.INSURANCE, 5)


def test_a_schedule_with_index_cells_packs_and_one_packed_before_them_reads() -> None:
    table = "casino"
    index_cell = index_cells(table)[5]
    chart_cell = cells(table)[7]
    schedule = Schedule().answer(chart_cell, False).answer(index_cell, True)
    assert Schedule.unpacked(table, schedule.packed(table)) == schedule
    # The chart-only layout: a bitmap over the 330 chart cells.
    old = Schedule({chart_cell: CellProgress(0, 1, 0)}, (chart_cell,), chart_cell)
    bitmap = bytearray((len(cells(table)) + 7) // 8)
    bitmap[7 // 8] |= 1 << 7 % 8
    packed = (
        bytes([CHART_ONLY_FORMAT]) + _varint(8) + bitmap + _varint(1) + _varint(1 << 3) + _varint(7)
    )
    assert Schedule.unpacked(table, packed) == old
