"""A table's Hi-Lo index plays and its edge by true count (RULES.md, "Index plays"):
computed by `build_indices` from the card of each true count's unseen cards (`card_at`),
shipped as JSON in `data/` (the answer of API.md's `GET /v1/tables/{id}/indices`), read
lazily by `table_indices`. The `counter` player and the index drills read them here.

The unseen cards at true count t are a fixed average shoe, not a shoe dealt down: `d`
decks' worth (half the table's, at least one), the low ranks thinned and the high ranks
thickened by the same `x = t·d/10` each. So every index is the same figure whatever the
penetration, as a counter's memorised index is.
"""

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from functools import cache
from itertools import takewhile
from pathlib import Path
from typing import Any

from ..actions import Action
from ..cards import Card, hand_value, points
from ..rules import TABLES, Insurance, Rules, Split
from ..turn import PlayerView
from .card import (
    DATA,
    UpCardResult,
    analysis_at,
    card_of,
    chart_rows,
    shipped_document,
    strategy_card,
    table_of,
)
from .dealer import ACE, TEN, Comp
from .worth import cell_gain, insurance_gain, true_count_chances, worth

SYSTEM = "hi_lo"  # the count the indices are for: `count.SYSTEM` (a layer above)
TRUE_COUNTS = range(-10, 11)  # the true counts an index may take, and the edge's
LOW_RANKS = range(1, 6)  # 2..6 by rank index (the ace is 0): Hi-Lo's +1 cards
INSURANCE = "insurance"  # the insurance index's section and row
INSURANCE_UP = "A"
EDGE_DIGITS = 4
WORTH_DIGITS = 6  # bets per 100 rounds


class Direction(StrEnum):
    UP = "at_or_above"  # found from +10 down: the play holds from the index up
    DOWN = "at_or_below"  # found from -10 up: the play holds from the index down


@dataclass(frozen=True, slots=True)
class Index:
    """One index play of API.md: a chart cell (or insurance), the card's action there,
    the index's action and the true count from which it holds."""

    section: str
    row: str
    up: str
    basic: Action
    play: Action
    index: int
    direction: Direction

    def applies(self, true_count: Decimal | int) -> bool:
        if self.direction is Direction.UP:
            return true_count >= self.index
        return true_count <= self.index

    def as_dict(self) -> dict[str, Any]:
        return {
            name: str(value) if isinstance(value, StrEnum) else value
            for name, value in asdict(self).items()
        }


def decks_unseen(rules: Rules) -> int:
    """`d`: half the table's decks, at least one (its tables have 1, 4 or 6)."""
    return max(1, rules.decks // 2)


def unseen_at(rules: Rules, true_count: int) -> tuple[Fraction, ...]:
    """The unseen cards at `true_count`, by rank (the ace first, every ten-value card as
    one rank), exactly: each low rank `x` fewer, each high rank (four ten ranks, the ace)
    `x` more, `x = t·d/10`."""
    d = decks_unseen(rules)
    x = Fraction(true_count * d, 10)
    counts = [Fraction(4 * d)] * TEN + [Fraction(16 * d)]
    for rank in LOW_RANKS:
        counts[rank] -= x
    counts[ACE] += x
    counts[TEN] += 4 * x
    return tuple(counts)


def composition_at(rules: Rules, true_count: int) -> Comp:
    """`unseen_at` as the analysis takes it (floats: exact for these tenths)."""
    return tuple(float(n) for n in unseen_at(rules, true_count))  # type: ignore[misc]


def insurance_index(rules: Rules) -> int | None:
    """The smallest true count at which a ten is more than a third of the unseen cards
    less the dealer's ace; None if none from -10 to +10."""
    for t in TRUE_COUNTS:
        counts = unseen_at(rules, t)
        if counts[TEN] / (sum(counts) - 1) > Fraction(1, 3):
            return t
    return None


Chart = Mapping[str, Mapping[str, Mapping[str, str]]]


def _cells(chart: Chart) -> list[tuple[str, str, str]]:
    return [(s, row, up) for s, rows in chart.items() for row, ups in rows.items() for up in ups]


def find_indices(basic: Chart, charts: Mapping[int, Chart]) -> list[Index]:
    """The index plays of `basic` (the strategy card's chart) given the chart at each true
    count, in chart order: per cell the index going up, then the one going down."""
    out = []
    for section, row, up in _cells(basic):
        card = basic[section][row][up]
        best = {t: charts[t].get(section, {}).get(row, {}).get(up) for t in TRUE_COUNTS}
        for direction, step in ((Direction.UP, -1), (Direction.DOWN, 1)):
            inwards = TRUE_COUNTS[::step]  # from +10 down, or from -10 up
            play = best[inwards[0]]
            if play is None or play == card:
                continue
            held = sum(1 for _ in takewhile(play.__eq__, (best[t] for t in inwards)))
            index = inwards[held - 1]  # the last true count of the run from the end
            out.append(Index(section, row, up, Action(card), Action(play), index, direction))
    return out


def build_indices(table_id: str) -> dict[str, Any]:
    """The answer of `GET /v1/tables/{id}/indices`, computed afresh: a card per true count,
    and what each index is worth (`worth`)."""
    rules = TABLES[table_id].rules
    results = {t: analysis_at(rules, composition_at(rules, t)) for t in TRUE_COUNTS}
    cards = {t: card_of(rules, r) for t, r in results.items()}
    indices = find_indices(
        strategy_card(table_id)["chart"], {t: c["chart"] for t, c in cards.items()}
    )
    insurance = insurance_index(rules) if rules.insurance is not Insurance.NONE else None
    if insurance is not None:
        indices.append(
            Index(
                INSURANCE,
                INSURANCE,
                INSURANCE_UP,
                Action.DECLINE_INSURANCE,
                Action.INSURANCE,
                insurance,
                Direction.UP,
            )
        )
    return {
        "table": table_id,
        "system": SYSTEM,
        "decks_unseen": decks_unseen(rules),
        "indices": [index.as_dict() for index in indices],
        "worth": [round(_worth(rules, results, index), WORTH_DIGITS) for index in indices],
        "edge": [
            {"true_count": t, "edge": round(cards[t]["player_ev"], EDGE_DIGITS)}
            for t in TRUE_COUNTS
        ],
    }


def _worth(rules: Rules, results: Mapping[int, list[UpCardResult]], index: Index) -> float:
    """What `index` adds per 100 rounds, in bets: its gain at each true count (on that
    count's unseen cards) over the true counts a shoe of the table deals."""
    if index.section == INSURANCE:
        gains = {t: insurance_gain(composition_at(rules, t)) for t in TRUE_COUNTS}
    else:
        hands = chart_rows()[index.section][index.row]
        gains = {
            t: cell_gain(rules, results[t], hands, index.up, index.play, index.basic)
            for t in TRUE_COUNTS
        }
    chances = true_count_chances(rules, TRUE_COUNTS[-1])
    return worth(chances, gains, index.index, index.direction is Direction.UP)


def indices_path(table_id: str) -> Path:
    return DATA / f"{table_id}.indices.json"


def indices_document(table_id: str) -> dict[str, Any]:
    """The shipped indices of a table (a fresh copy); KeyError for an unknown table."""
    return shipped_document(table_id, indices_path(table_id))


@cache
def table_indices(table_id: str) -> tuple[Index, ...]:
    """The shipped index plays of a table, in chart order, insurance last."""
    return tuple(
        Index(
            e["section"],
            e["row"],
            e["up"],
            Action(e["basic"]),
            Action(e["play"]),
            e["index"],
            Direction(e["direction"]),
        )
        for e in indices_document(table_id)["indices"]
    )


@cache
def indices_by_cell(table_id: str) -> dict[tuple[str, str, str], tuple[Index, ...]]:
    """The index plays of each cell (section, row, up) that has any."""
    out: dict[tuple[str, str, str], tuple[Index, ...]] = {}
    for index in table_indices(table_id):
        key = (index.section, index.row, index.up)
        out[key] = (*out.get(key, ()), index)
    return out


Cell = tuple[str, str, str]  # a chart cell: section, row, up card


def _label(card: Card) -> str:
    value = points(card)
    return "A" if value == 1 else "T" if value == 10 else str(value)


def chart_cell(view: PlayerView) -> Cell | None:
    """The chart cell the `counter` reads a hand by (RULES.md, "AI levels"): its pair row
    for a two-card pair (of one rank at `same_rank` tables), else its hard or soft total
    whatever its number of cards; None where the chart has no row (hard 20, soft 21)."""
    up = _label(view.up_card)
    cards = view.cards
    one_rank = view.rules.split is not Split.SAME_RANK or cards[0][0] == cards[-1][0]
    if len(cards) == 2 and _label(cards[0]) == _label(cards[1]) and one_rank:
        return "pairs", _label(cards[0]), up
    total, soft = hand_value(cards)
    section = "soft" if soft else "hard"
    rows = strategy_card_chart(view.rules)
    if rows is None or str(total) not in rows[section]:
        return None
    return section, str(total), up


@cache
def _shipped_chart(table_id: str) -> Chart:
    chart: Chart = strategy_card(table_id)["chart"]
    return chart


def strategy_card_chart(rules: Rules) -> Chart | None:
    """The shipped card's chart of the table with these rules (None: no table has them)."""
    table_id = table_of(rules)
    return None if table_id is None else _shipped_chart(table_id)


def counted_play(view: PlayerView, true_count: Decimal) -> tuple[Action, Index | None] | None:
    """The chart's action for the hand of `view` at `true_count`, and the index play that
    replaced the card's there (None where none applies); None where the hand has no cell
    or its table no shipped card. Whether that action is legal is the player's concern."""
    table_id = table_of(view.rules)
    cell = chart_cell(view)
    if table_id is None or cell is None:
        return None
    section, row, up = cell
    action, applied = Action(_shipped_chart(table_id)[section][row][up]), None
    for index in indices_by_cell(table_id).get(cell, ()):
        if index.applies(true_count):
            action, applied = index.play, index
    return action, applied


def insurance_play(rules: Rules) -> Index | None:
    """The insurance index of the table with these rules, if it has one."""
    table_id = table_of(rules)
    if table_id is None:
        return None
    return next((i for i in table_indices(table_id) if i.section == INSURANCE), None)
