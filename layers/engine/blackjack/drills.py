"""Drills (API.md "Drills"): first decisions of dealt two-card hands, graded by the shipped
strategy card and scheduled in Leitner boxes per chart cell.

A hand's *cell* is where the table's chart places it: `pairs` for two cards of one value
(at `same_rank` tables the `T` pair is two cards of one rank, so two unequal ten-value cards
have no cell), else `soft` or `hard` by its total; naturals have no cell (no decision).
Every table's chart has the same 330 cells (15 hard rows, 8 soft, 10 pairs, by 10 up cards),
and every cell can be dealt at every table.

Grading reads the shipped card through the trainer's `grade` (no analysis at request time):
the EV of each legal action, the best (ties: the simplest play), and the loss rounded to
four decimals; an answer is right when its loss is under 0.0005 (the trainer's `MISTAKE`).

Index drills (`Section.INDICES`) practise the table's index plays (`strategy.indices`): each
index is a cell of its own (its row names the chart cell, "hard 16", or "insurance"; its
`direction` which of the cell's indices), dealt at a true count within 3 of the index and
graded by the `counter` player's action at that count, its EVs on the unseen cards at that
count (`grade_index`). They follow the chart's cells (`schedule_cells`), on the same
schedule.

The schedule (`Schedule`) holds only the answered cells: each one's box (0 to 4), its
attempts and right answers; the cells marked wrong (box 0 once answered) in the order they
were last answered; and the cell answered last. `packed` stores it in a few bytes a cell
(see there): it lives in one DynamoDB item per user and table, which must stay under 2 KB
(2 write units an answer). Randomness comes from a `random.Random` the caller passes.
"""

import functools
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal
from enum import StrEnum
from typing import TYPE_CHECKING

from .actions import Action, Phase
from .cards import RANKS, SUITS, Card, hand_value, is_ten, points
from .errors import GameError, IllegalAction
from .grading import LOSS_STEP, MISTAKE, best_and_loss
from .rules import TABLES, Peek, Split, Table
from .turn import PlayerView, may_split, play_actions

if TYPE_CHECKING:  # the analysis stays out of cold starts: it loads on first use
    from .strategy.indices import Index

TOP_BOX = 4  # boxes 0 to 4
# The first byte of a packed schedule: its layout. 1: its bitmap covers the chart's cells
# only (stored before index drills); 2: every cell of `schedule_cells`.
PACK_FORMAT = 2
CHART_ONLY_FORMAT = 1
NEAR = 3  # an index drill's true count is drawn within this of the index


class InvalidHand(GameError):
    """Cards that are not card codes, a hand with no cell, or more copies of a card than
    the table's decks hold."""

    code = "validation_error"


class Section(StrEnum):
    HARD = "hard"
    SOFT = "soft"
    PAIRS = "pairs"
    INDICES = "indices"  # the index plays: after the chart's sections


@dataclass(frozen=True, slots=True)
class Cell:
    section: Section
    # The chart's row label: a total, or a pair's rank ("2".."9", "T", "A"); an index
    # cell's: its chart section and row ("hard 16", "pairs T"), or "insurance".
    row: str
    up: str  # the up card's label: "2".."9", "T", "A"
    direction: str | None = None  # an index cell's `Direction` (its value)


@dataclass(frozen=True, slots=True)
class CellProgress:
    """How far a cell is learnt: its Leitner box (0: missed or new) and its answers."""

    box: int = 0
    attempts: int = 0
    correct: int = 0


@dataclass(frozen=True, slots=True)
class Graded:
    """An answer graded: `ev` holds each legal action's EV, in the order a round lists the
    actions; `loss` is per unit bet, four decimals."""

    cell: Cell
    action: Action
    best: Action
    loss: Decimal
    ev: dict[Action, float]
    right: bool


# ---- cells ------------------------------------------------------------------------------


@functools.cache
def cells(table_id: str) -> tuple[Cell, ...]:
    """The table's chart cells in chart order: hard, soft, pairs; rows and up cards as the
    shipped chart orders them."""
    # On first use: the records import the schedule, and most functions never grade.
    from .strategy import strategy_card

    chart = strategy_card(table_id)["chart"]
    return tuple(
        Cell(Section(section), row, up)
        for section, rows in chart.items()
        for row, ups in rows.items()
        for up in ups
    )


@functools.cache
def index_cells(table_id: str) -> tuple[Cell, ...]:
    """The table's index cells, in the order of its shipped indices (chart order,
    insurance last)."""
    from .strategy.indices import INSURANCE, table_indices

    return tuple(
        Cell(
            Section.INDICES,
            INSURANCE if i.section == INSURANCE else f"{i.section} {i.row}",
            i.up,
            i.direction.value,
        )
        for i in table_indices(table_id)
    )


@functools.cache
def schedule_cells(table_id: str) -> tuple[Cell, ...]:
    """Every cell a schedule may hold, in API.md's order: the chart's, then the indices."""
    return cells(table_id) + index_cells(table_id)


@functools.cache
def _index(table_id: str) -> dict[Cell, int]:
    """Each cell's place in `schedule_cells` (how a packed schedule names it)."""
    return {cell: i for i, cell in enumerate(schedule_cells(table_id))}


def section_cells(table_id: str, section: Section | None) -> tuple[Cell, ...]:
    """The table's cells of a section (None: the chart's, API.md's `any`), in order."""
    if section is Section.INDICES:
        return index_cells(table_id)
    return tuple(cell for cell in cells(table_id) if section is None or cell.section is section)


def label(card: Card) -> str:
    """The chart's label of a card's rank (or of a rank): "T" for every ten-value card."""
    return "T" if is_ten(card) else card[0]


def check_cards(table: Table, cards: Sequence[Card], up_card: Card) -> None:
    """Two cards and an up card, each a card code, no card more often than the decks hold."""
    if len(cards) != 2:
        raise InvalidHand(f"a drill is a two-card hand, not {len(cards)} cards")
    for card in (*cards, up_card):
        if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
            raise InvalidHand(f"{card!r} is not a card code (rank of {RANKS}, suit of {SUITS})")
    decks = table.rules.decks
    for card, copies in Counter((*cards, up_card)).items():
        if copies > decks:
            raise InvalidHand(f"{table.id} deals from {decks} deck(s): {card} {copies} times")


def cell_of(table: Table, cards: Sequence[Card], up_card: Card) -> Cell:
    """The chart cell of a valid hand (see `check_cards`); `InvalidHand` where none is."""
    first, second = cards
    total, soft = hand_value(cards)
    if total == 21:
        raise InvalidHand("a natural has no decision to drill")
    if points(first) == points(second):
        if table.rules.split is Split.SAME_RANK and first[0] != second[0]:
            raise InvalidHand(f"at {table.id} the T pair is two cards of one rank: no cell")
        return Cell(Section.PAIRS, label(first), label(up_card))
    return Cell(Section.SOFT if soft else Section.HARD, str(total), label(up_card))


def legal_actions(table: Table, cards: Sequence[Card], up_card: Card) -> tuple[Action, ...]:
    """What the table allows as the first decision of the hand."""
    rules = table.rules
    can_split = may_split(rules, cards, hands_in_box=1, split_hand=False)
    return play_actions(rules, cards, up_card=up_card, split_hand=False, can_split=can_split)


def grade(table: Table, cards: Sequence[Card], up_card: Card, action: Action) -> Graded:
    """The answer `action` on the hand, graded by the shipped strategy card."""
    check_cards(table, cards, up_card)
    cell = cell_of(table, cards, up_card)
    legal = legal_actions(table, cards, up_card)
    if action not in legal:
        allowed = ", ".join(legal)
        raise IllegalAction(f"{action} is not a first decision of this hand here: {allowed}")
    view = PlayerView(
        rules=table.rules,
        phase=Phase.PLAYER_TURN,
        cards=tuple(cards),
        up_card=up_card,
        legal_actions=legal,
        hands_in_box=1,
        split_hand=False,
    )
    from .strategy import action_values  # on first use, as the trainer's `grade` does

    values = action_values(view)
    assert values is not None  # a first decision always has actions
    best, loss = best_and_loss(values, action)
    ev = {legal_action: values[legal_action] for legal_action in legal}
    return Graded(cell, action, best, loss, ev, right=loss < MISTAKE)


# ---- index drills -----------------------------------------------------------------------

_INSURANCE_ACTIONS: tuple[Action, ...] = (Action.INSURANCE, Action.DECLINE_INSURANCE)


def _chart_cell_of(cell: Cell) -> Cell:
    """The chart cell an index cell (not insurance's) is of."""
    section, row = cell.row.split(" ")
    return Cell(Section(section), row, cell.up)


def index_of(table_id: str, cell: Cell) -> "Index":
    """The index play of an index cell."""
    from .strategy.indices import INSURANCE, indices_by_cell, insurance_play

    if cell.row == INSURANCE:
        found = insurance_play(TABLES[table_id].rules)
        assert found is not None  # the cell is one of `cells`
        return found
    chart = _chart_cell_of(cell)
    return next(
        i
        for i in indices_by_cell(table_id)[(chart.section.value, chart.row, chart.up)]
        if i.direction.value == cell.direction
    )


def deal_index(
    table: Table, cell: Cell, rng: random.Random
) -> tuple[tuple[Card, Card], Card, tuple[Action, ...], int]:
    """An index cell dealt: a hand of its chart cell (for insurance: of any chart cell
    against an ace, never a natural), its legal actions, and a true count drawn within
    `NEAR` of the index and within -10 to +10."""
    from .strategy.indices import INSURANCE, TRUE_COUNTS

    index = index_of(table.id, cell)
    low, high = max(TRUE_COUNTS[0], index.index - NEAR), min(TRUE_COUNTS[-1], index.index + NEAR)
    true_count = rng.randint(low, high)
    if cell.row == INSURANCE:
        against_ace = [c for c in section_cells(table.id, None) if c.up == "A"]
        cards, up_card = deal(table, rng.choice(against_ace), rng)
        return cards, up_card, _INSURANCE_ACTIONS, true_count
    cards, up_card = deal(table, _chart_cell_of(cell), rng)
    return cards, up_card, legal_actions(table, cards, up_card), true_count


def grade_index(
    table: Table, cards: Sequence[Card], up_card: Card, action: Action, true_count: int
) -> Graded:
    """The answer `action` on the hand at `true_count`, an index drill: `best` is the
    `counter`'s action there, `ev` each legal action's EV on the unseen cards at that count
    (`strategy.indices.unseen_at`), right when it is the counter's. An insurance answer
    drills the insurance index; any other the index of the hand's chart cell nearest the
    count. `InvalidHand` for a count outside -10 to +10 or a hand whose cell has none."""
    from .players import counter_at
    from .strategy.indices import TRUE_COUNTS, indices_by_cell, insurance_play

    check_cards(table, cards, up_card)
    if true_count not in TRUE_COUNTS:
        raise InvalidHand(f"a true count is from -10 to +10, not {true_count}")
    rules = table.rules
    if action in _INSURANCE_ACTIONS:
        index = insurance_play(rules)
        if index is None:
            raise InvalidHand(f"{table.id} offers no insurance: no insurance index")
        if label(up_card) != "A" or hand_value(cards).total == 21:
            raise InvalidHand("insurance is drilled on a hand that is not a natural, ace up")
        phase, legal, row = Phase.INSURANCE, _INSURANCE_ACTIONS, index.section
    else:
        chart = cell_of(table, cards, up_card)
        found = indices_by_cell(table.id).get((chart.section.value, chart.row, chart.up))
        if not found:
            raise InvalidHand(f"{chart.section} {chart.row} against {chart.up}: no index play")
        index = min(found, key=lambda i: abs(i.index - true_count))
        phase, legal = Phase.PLAYER_TURN, legal_actions(table, cards, up_card)
        row = f"{chart.section} {chart.row}"
    if action not in legal:
        allowed = ", ".join(legal)
        raise IllegalAction(f"{action} is not a first decision of this hand here: {allowed}")
    view = PlayerView(rules, phase, tuple(cards), up_card, legal, 1, False)
    best, _ = counter_at(view, Decimal(true_count))
    ev = _values_at(table, cards, up_card, legal, true_count)
    loss = Decimal(ev[best] - ev[action]).quantize(LOSS_STEP, ROUND_HALF_EVEN)
    cell = Cell(Section.INDICES, row, label(up_card), index.direction.value)
    return Graded(cell, action, best, loss, ev, right=action is best)


def _values_at(
    table: Table, cards: Sequence[Card], up_card: Card, legal: Sequence[Action], t: int
) -> dict[Action, float]:
    """Each legal action's EV on the unseen cards at true count `t`: the card of that
    composition's (`card_at`) for a first decision; insurance as the hint values it
    (`strategy.advisor`: half the bet paying 2:1 on a ten in the hole), on that composition
    less the ace and the hand."""
    from .strategy.card import hand_key
    from .strategy.indices import unseen_at

    first, second = (points(card) - 1 for card in cards)
    values = _ev_at(table.id, t)[hand_key(first, second)][label(up_card)]
    if Action.INSURANCE not in legal:
        return {action: values[action.value] for action in legal}
    pool = list(unseen_at(table.rules, t))
    for rank in (0, first, second):  # the up ace and the hand
        pool[rank] -= 1
    b = float(pool[9] / sum(pool))  # a ten in the hole: the dealer's natural
    best = max(values.values())
    decline = (1.0 - b) * best - b if table.rules.peek is not Peek.NONE else best
    return {Action.INSURANCE: decline + 0.5 * (3.0 * b - 1.0), Action.DECLINE_INSURANCE: decline}


@functools.cache
def _ev_at(table_id: str, t: int) -> dict[str, dict[str, dict[str, float]]]:
    """The `ev` of the card at true count `t`'s unseen cards (computed once per process:
    about a tenth of a second at six decks)."""
    from .strategy.card import card_at
    from .strategy.indices import composition_at

    rules = TABLES[table_id].rules
    ev: dict[str, dict[str, dict[str, float]]] = card_at(rules, composition_at(rules, t))["ev"]
    return ev


# ---- dealing a cell ---------------------------------------------------------------------


@functools.cache
def _hands_of(table_id: str) -> dict[tuple[Section, str], tuple[tuple[str, str], ...]]:
    """The two ranks of every hand of each chart row (ten-value ranks apart)."""
    table = TABLES[table_id]
    rows: dict[tuple[Section, str], list[tuple[str, str]]] = {}
    for i, first in enumerate(RANKS):
        for second in RANKS[i:]:
            try:
                cell = cell_of(table, (first + "S", second + "H"), "2C")
            except InvalidHand:  # a natural, or no cell at this table
                continue
            rows.setdefault((cell.section, cell.row), []).append((first, second))
    return {row: tuple(hands) for row, hands in rows.items()}


def deal(table: Table, cell: Cell, rng: random.Random) -> tuple[tuple[Card, Card], Card]:
    """A hand and an up card of the cell, as a fresh shoe of the table deals them given the
    cell: the up card's rank at random (its ten-value ranks are equally many), the hand's
    ranks by how many ways the shoe left deals each, every suit by the copies left."""
    decks = table.rules.decks
    left = Counter(dict.fromkeys(RANKS, 4 * decks))
    copies = Counter({rank + suit: decks for rank in RANKS for suit in SUITS})

    def draw(rank: str) -> Card:
        suits = [rank + suit for suit in SUITS]
        card = rng.choices(suits, weights=[copies[card] for card in suits])[0]
        copies[card] -= 1
        left[rank] -= 1
        return card

    up_card = draw(rng.choice([rank for rank in RANKS if label(rank) == cell.up]))
    hands = _hands_of(table.id)[(cell.section, cell.row)]
    ways = [left[a] * (left[b] - 1) // 2 if a == b else left[a] * left[b] for a, b in hands]
    first, second = rng.choices(hands, weights=ways)[0]
    cards = [draw(first), draw(second)]
    rng.shuffle(cards)
    return (cards[0], cards[1]), up_card


# ---- the schedule -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Schedule:
    """A user's Leitner boxes at one table. A cell never answered is in box 0; a right
    answer moves its cell up one box (at most 4), a wrong one back to box 0, marked wrong
    until it is answered right."""

    answered: dict[Cell, CellProgress] = field(default_factory=dict)
    missed: tuple[Cell, ...] = ()  # the cells marked wrong, answered longest ago first
    last: Cell | None = None  # the cell answered last

    def progress_of(self, cell: Cell) -> CellProgress:
        return self.answered.get(cell, CellProgress())

    def answer(self, cell: Cell, right: bool) -> "Schedule":
        """The schedule after an answer on `cell`."""
        before = self.progress_of(cell)
        box = min(before.box + 1, TOP_BOX) if right else 0
        progress = CellProgress(box, before.attempts + 1, before.correct + right)
        missed = tuple(c for c in self.missed if c != cell) + (() if right else (cell,))
        return Schedule({**self.answered, cell: progress}, missed, cell)

    def draw(self, candidates: Sequence[Cell], rng: random.Random) -> Cell:
        """The next cell to drill among `candidates` (a section's cells): of the lowest box
        that has any, never the cell answered last; in box 0 the cells marked wrong first,
        the one answered longest ago first; otherwise any cell of that box at random."""
        pool = [cell for cell in candidates if cell != self.last]
        lowest = min(self.progress_of(cell).box for cell in pool)
        if lowest == 0:
            waiting = set(pool)
            for cell in self.missed:
                if cell in waiting:
                    return cell
        return rng.choice([cell for cell in pool if self.progress_of(cell).box == lowest])

    def progress(self, table_id: str) -> Iterator[tuple[Cell, CellProgress]]:
        """The answered cells in chart order, then the index cells."""
        for cell in schedule_cells(table_id):
            if cell in self.answered:
                yield cell, self.answered[cell]

    # ---- packed: a few bytes a cell -----------------------------------------------------

    def packed(self, table_id: str) -> bytes:
        """The layout byte; the cell answered last (its index in chart order plus one, 0 for
        none); a bitmap of the answered cells; each answered cell's progress in chart order
        (`pack_progress`); then the indices of the cells marked wrong, in their order (how
        many there are is the number of answered cells in box 0). Numbers are varints: a
        cell answered under 128 times takes 2 bytes, under 16384 times 3 or 4."""
        order, index = schedule_cells(table_id), _index(table_id)
        out = bytearray([PACK_FORMAT])
        out += _varint(0 if self.last is None else index[self.last] + 1)
        bitmap = bytearray((len(order) + 7) // 8)
        for cell in self.answered:
            bitmap[index[cell] // 8] |= 1 << index[cell] % 8
        out += bitmap
        for _, progress in self.progress(table_id):
            out += pack_progress(progress)
        for cell in self.missed:
            out += _varint(index[cell])
        return bytes(out)

    @classmethod
    def unpacked(cls, table_id: str, data: bytes) -> "Schedule":
        # A schedule packed before index drills covers the chart's cells, which come
        # first in `schedule_cells`: its indices are the same.
        if data[0] not in (PACK_FORMAT, CHART_ONLY_FORMAT):
            raise ValueError(f"unknown schedule layout {data[0]}")
        order = schedule_cells(table_id) if data[0] == PACK_FORMAT else cells(table_id)
        last, at = _read_varint(data, 1)
        bitmap, at = data[at : at + (len(order) + 7) // 8], at + (len(order) + 7) // 8
        answered: dict[Cell, CellProgress] = {}
        for i, cell in enumerate(order):
            if bitmap[i // 8] >> i % 8 & 1:
                answered[cell], at = unpack_progress(data, at)
        missed = []
        for _ in range(sum(progress.box == 0 for progress in answered.values())):
            i, at = _read_varint(data, at)
            missed.append(order[i])
        return cls(answered, tuple(missed), None if last == 0 else order[last - 1])


def pack_progress(progress: CellProgress) -> bytes:
    """A cell's progress as two varints: its attempts, then its wrong answers times 8 plus its
    box (a cell the user has learnt has few wrong answers: one byte)."""
    wrong = progress.attempts - progress.correct
    return _varint(progress.attempts) + _varint(wrong << 3 | progress.box)


def unpack_progress(data: bytes, at: int) -> tuple[CellProgress, int]:
    """The progress packed at `at`, and where the bytes after it start."""
    attempts, at = _read_varint(data, at)
    wrong_box, at = _read_varint(data, at)
    return CellProgress(wrong_box & 7, attempts, attempts - (wrong_box >> 3)), at


def _varint(value: int) -> bytes:
    """`value` (0 or more) seven bits a byte, low bits first, the top bit saying more follow."""
    out = bytearray()
    while value >= 0x80:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _read_varint(data: bytes, at: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7
