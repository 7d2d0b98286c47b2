"""Drills (API.md "Drills"): a hand's cell, what it may do first, the cards a drill takes,
its grade from the shipped strategy card, dealing a cell, and the Leitner schedule."""

import random
from decimal import ROUND_HALF_EVEN, Decimal

import pytest

from bench.drills import heavy_schedule
from blackjack.actions import Action
from blackjack.cards import RANKS, SUITS, TEN_RANKS, hand_value
from blackjack.drills import (
    Cell,
    CellProgress,
    InvalidHand,
    Schedule,
    Section,
    cell_of,
    cells,
    check_cards,
    deal,
    grade,
    legal_actions,
    section_cells,
)
from blackjack.errors import IllegalAction
from blackjack.rules import TABLES
from blackjack.strategy import strategy_card
from blackjack.strategy.advisor import rank
from blackjack.strategy.card import hand_key

HARD, SOFT, PAIRS = Section.HARD, Section.SOFT, Section.PAIRS
STEP = Decimal("0.0001")
H, S, D, P, R = Action.HIT, Action.STAND, Action.DOUBLE, Action.SPLIT, Action.SURRENDER


def cell(section: Section, row: str, up: str) -> Cell:
    return Cell(section, row, up)


# ---- cells ------------------------------------------------------------------------------


@pytest.mark.parametrize("table", TABLES)
def test_every_table_has_the_330_cells_of_its_chart_in_chart_order(table: str) -> None:
    chart = strategy_card(table)["chart"]
    expected = [
        Cell(Section(section), row, up)
        for section in ("hard", "soft", "pairs")
        for row, ups in chart[section].items()
        for up in ups
    ]
    assert list(cells(table)) == expected and len(expected) == 330
    assert cells(table)[0] == cell(HARD, "5", "2") and cells(table)[-1] == cell(PAIRS, "A", "A")
    assert section_cells(table, SOFT) == tuple(c for c in expected if c.section is SOFT)
    assert section_cells(table, None) == cells(table)


@pytest.mark.parametrize(
    ("cards", "up", "expected"),
    [
        ("2S 3H", "7D", cell(HARD, "5", "7")),
        ("9C TD", "AS", cell(HARD, "19", "A")),
        ("QH 6S", "KD", cell(HARD, "16", "T")),
        ("AS 7D", "6C", cell(SOFT, "18", "6")),
        ("2D AH", "JC", cell(SOFT, "13", "T")),
        ("9S AC", "9D", cell(SOFT, "20", "9")),
        ("8S 8H", "TD", cell(PAIRS, "8", "T")),
        ("AS AD", "AH", cell(PAIRS, "A", "A")),
        ("KS KH", "5C", cell(PAIRS, "T", "5")),
        ("2C 2D", "3S", cell(PAIRS, "2", "3")),
    ],
)
@pytest.mark.parametrize("table", TABLES)
def test_a_hand_has_the_cell_the_chart_places_it_in(
    table: str, cards: str, up: str, expected: Cell
) -> None:
    assert cell_of(TABLES[table], cards.split(), up) == expected


@pytest.mark.parametrize("table", ["classic", "casino", "european"])
def test_two_unequal_tens_are_the_t_pair_where_a_pair_is_of_one_value(table: str) -> None:
    assert cell_of(TABLES[table], ["KS", "QH"], "5D") == cell(PAIRS, "T", "5")


def test_k_q_at_bicycle_has_no_cell() -> None:
    with pytest.raises(InvalidHand, match="no cell") as refused:
        cell_of(TABLES["bicycle"], ["KS", "QH"], "5D")
    assert refused.value.code == "validation_error"  # the edge's 422
    assert cell_of(TABLES["bicycle"], ["QS", "QH"], "5D") == cell(PAIRS, "T", "5")


@pytest.mark.parametrize("table", TABLES)
@pytest.mark.parametrize("cards", [["AS", "KD"], ["TH", "AC"], ["AD", "JS"]])
def test_naturals_have_no_cell(table: str, cards: list[str]) -> None:
    with pytest.raises(InvalidHand, match="natural"):
        cell_of(TABLES[table], cards, "9C")


@pytest.mark.parametrize("table", TABLES)
def test_every_hand_of_the_card_has_a_cell_of_the_chart_and_every_cell_a_hand(
    table: str,
) -> None:
    """Each pair of ranks (ten-value ranks apart) against each up card: a natural, K+Q at
    a same-rank table, or a hand whose cell is one of the chart's, valued by the card."""
    ev = strategy_card(table)["ev"]
    reached = set()
    for i, first in enumerate(RANKS):
        for second in RANKS[i:]:
            cards = [first + "S", second + "H"]
            for up in "23456789TA":
                try:
                    found = cell_of(TABLES[table], cards, up + "D")
                except InvalidHand:
                    unequal_tens = first != second and {first, second} <= TEN_RANKS
                    natural = hand_value(cards).total == 21
                    assert natural or (table == "bicycle" and unequal_tens)
                    continue
                assert found in cells(table)
                assert up in ev[hand_key(rank(cards[0]), rank(cards[1]))]
                reached.add(found)
    assert reached == set(cells(table))


# ---- legality ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("table", "cards", "up", "expected"),
    [
        ("classic", "8S 8H", "TD", (H, S)),  # hit or stand only
        ("bicycle", "8S 8H", "TD", (H, S, P)),  # double on 9, 10, 11 only
        ("bicycle", "5S 5H", "6D", (H, S, D, P)),
        ("bicycle", "AS 8H", "6D", (H, S)),  # a soft 19 is not 9-11
        ("casino", "8S 8H", "TD", (H, S, D, P, R)),
        ("casino", "8S 8H", "AD", (H, S, D, P)),  # early surrender, not against an ace
        ("casino", "KS QH", "6D", (H, S, D, P, R)),  # two of one value split
        ("european", "8S 8H", "TD", (H, S, D, P)),  # no surrender
        ("european", "9S 7H", "2D", (H, S, D)),
    ],
)
def test_the_first_decisions_a_table_allows(
    table: str, cards: str, up: str, expected: tuple[Action, ...]
) -> None:
    assert legal_actions(TABLES[table], cards.split(), up) == expected


@pytest.mark.parametrize(
    ("table", "action"),
    [("classic", D), ("classic", P), ("european", R), ("bicycle", D), ("casino", Action.INSURANCE)],
)
def test_an_action_the_hand_may_not_take_is_illegal(table: str, action: Action) -> None:
    up = "AD" if action is R else "TD"
    with pytest.raises(IllegalAction) as refused:
        grade(TABLES[table], ["8S", "8H"] if action is not R else ["9S", "7H"], up, action)
    assert refused.value.code == "illegal_action"  # the edge's 409


# ---- cards ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "up"),
    [
        (["1S", "8H"], "TD"),
        (["8S", "8X"], "TD"),
        (["8s", "8H"], "TD"),
        (["10S", "8H"], "TD"),
        (["8S", ""], "TD"),
        (["8S", "8H"], "T"),
        (["8S", "8H"], "TDD"),
        (["8S"], "TD"),
        (["8S", "8H", "2C"], "TD"),
        ([], "TD"),
    ],
)
def test_cards_that_are_not_card_codes_of_a_two_card_hand_are_refused(
    cards: list[str], up: str
) -> None:
    with pytest.raises(InvalidHand) as refused:
        grade(TABLES["casino"], cards, up, H)
    assert refused.value.code == "validation_error"


def test_no_more_copies_of_a_card_than_the_decks_hold_the_up_card_counted() -> None:
    bicycle, casino = TABLES["bicycle"], TABLES["casino"]
    for cards, up in ((["8S", "8S"], "2C"), (["8S", "8H"], "8S"), (["KD", "5C"], "KD")):
        with pytest.raises(InvalidHand, match="1 deck"):
            check_cards(bicycle, cards, up)
        check_cards(casino, cards, up)  # six decks
    check_cards(casino, ["8S", "8S"], "8S")
    check_cards(bicycle, ["8S", "8H"], "8D")


# ---- grading ----------------------------------------------------------------------------


@pytest.mark.parametrize("table", TABLES)
def test_every_hand_may_take_the_actions_the_card_values_graded_by_their_ev(table: str) -> None:
    ev = strategy_card(table)["ev"]
    rng = random.Random(5)
    for each in cells(table):
        cards, up = deal(TABLES[table], each, rng)
        values = ev[hand_key(rank(cards[0]), rank(cards[1]))][each.up]
        best = max(values, key=values.__getitem__)
        legal = legal_actions(TABLES[table], cards, up)
        assert set(legal) == set(values)
        for action in legal:
            graded = grade(TABLES[table], cards, up, action)
            assert graded.cell == each and graded.action is action
            assert {a.value: v for a, v in graded.ev.items()} == values
            assert values[graded.best] == values[best]
            loss = Decimal(values[best] - values[action]).quantize(STEP, ROUND_HALF_EVEN)
            assert graded.loss == loss
            assert graded.right is (loss < Decimal("0.0005"))


def test_a_graded_answer_says_the_best_play_and_what_the_answer_gave_up() -> None:
    ev = strategy_card("casino")["ev"]["8,8"]["T"]
    graded = grade(TABLES["casino"], ["8S", "8H"], "TD", H)
    assert graded.best is R and not graded.right
    assert graded.loss == Decimal(str(round(ev["surrender"] - ev["hit"], 4)))
    assert list(graded.ev) == [H, S, D, P, R]  # the order a round lists them
    right = grade(TABLES["casino"], ["8S", "8H"], "TD", R)
    assert right.right and right.loss == 0


def test_a_ten_valued_hand_reads_the_cards_t() -> None:
    ev = strategy_card("bicycle")["ev"]["6,T"]["T"]
    graded = grade(TABLES["bicycle"], ["KS", "6H"], "QD", S)
    assert graded.cell == cell(HARD, "16", "T")
    assert {a.value: v for a, v in graded.ev.items()} == ev


# ---- dealing ----------------------------------------------------------------------------


@pytest.mark.parametrize("table", TABLES)
def test_a_cell_is_dealt_as_a_hand_of_that_cell_with_cards_the_decks_hold(table: str) -> None:
    rng = random.Random(7)
    suits = set()
    for each in cells(table):
        for _ in range(4):
            cards, up = deal(TABLES[table], each, rng)
            check_cards(TABLES[table], cards, up)  # at bicycle: three distinct cards
            assert cell_of(TABLES[table], cards, up) == each
            suits |= {card[1] for card in (*cards, up)}
    assert suits == set(SUITS)


def test_dealing_is_deterministic_for_a_seeded_generator_and_varies_with_the_seed() -> None:
    soft_17 = cell(SOFT, "17", "6")
    deals = [deal(TABLES["casino"], soft_17, random.Random(seed)) for seed in range(40)]
    assert deals == [deal(TABLES["casino"], soft_17, random.Random(seed)) for seed in range(40)]
    assert len(set(deals)) > 20
    hard_12 = cell(HARD, "12", "T")
    ranks = {
        tuple(sorted(c[0] for c in deal(TABLES["european"], hard_12, random.Random(seed))[0]))
        for seed in range(200)
    }
    assert {("2", "T"), ("3", "9"), ("4", "8"), ("5", "7")} <= {
        tuple(sorted("T" if r in "JQK" else r for r in pair)) for pair in ranks
    }


# ---- the schedule -----------------------------------------------------------------------


def answered(schedule: Schedule, *answers: tuple[Cell, bool]) -> Schedule:
    for each, right in answers:
        schedule = schedule.answer(each, right)
    return schedule


X = cell(PAIRS, "8", "T")
Y = cell(HARD, "16", "T")
Z = cell(SOFT, "18", "9")


def test_a_cell_never_answered_is_in_box_0() -> None:
    assert Schedule().progress_of(X) == CellProgress(box=0, attempts=0, correct=0)


def test_a_right_answer_moves_the_cell_up_one_box_to_at_most_4() -> None:
    schedule = Schedule()
    for box in (1, 2, 3, 4, 4, 4):
        schedule = schedule.answer(X, True)
        assert schedule.progress_of(X).box == box
    assert schedule.progress_of(X) == CellProgress(box=4, attempts=6, correct=6)
    assert schedule.missed == () and schedule.last == X


def test_a_wrong_answer_sends_the_cell_back_to_box_0_marked_until_answered_right() -> None:
    schedule = answered(Schedule(), (X, True), (X, True), (X, True), (X, False))
    assert schedule.progress_of(X) == CellProgress(box=0, attempts=4, correct=3)
    assert schedule.missed == (X,)
    schedule = schedule.answer(X, False)
    assert schedule.missed == (X,) and schedule.progress_of(X) == CellProgress(0, 5, 3)
    schedule = schedule.answer(X, True)
    assert schedule.missed == () and schedule.progress_of(X) == CellProgress(1, 6, 4)


def test_the_first_drill_is_any_cell_at_random() -> None:
    drawn = {Schedule().draw(cells("casino"), random.Random(seed)) for seed in range(50)}
    assert len(drawn) > 40 and drawn <= set(cells("casino"))


def test_the_next_drill_is_never_the_cell_answered_last() -> None:
    # X is alone in the lowest box, and marked wrong: still not drawn right after.
    everything = {each: CellProgress(box=2, attempts=2, correct=2) for each in cells("european")}
    schedule = Schedule(everything).answer(X, False)
    for seed in range(30):
        assert schedule.draw(cells("european"), random.Random(seed)) != X
    # ... whose box-2 cells are drawn at random.
    assert schedule.draw(cells("european"), random.Random(1)) in everything


def test_the_next_drill_is_of_the_lowest_box_that_has_any_within_the_section() -> None:
    hard = section_cells("casino", HARD)
    boxes = {
        each: CellProgress(box=1 + i % 3, attempts=5, correct=5) for i, each in enumerate(hard)
    }
    schedule = Schedule(boxes)  # every soft and pair cell never answered: box 0
    for seed in range(40):
        drawn = schedule.draw(hard, random.Random(seed))
        assert drawn in hard and schedule.progress_of(drawn).box == 1
    assert schedule.draw(cells("casino"), random.Random(0)) not in hard


def test_in_box_0_the_cells_marked_wrong_come_first_the_one_answered_longest_ago_first() -> None:
    schedule = answered(Schedule(), (Z, False), (X, False), (Y, True), (Y, True))
    for seed in range(20):
        assert schedule.draw(cells("casino"), random.Random(seed)) == Z
    schedule = schedule.answer(Z, False)  # answered again: now the latest of the marked
    assert schedule.missed == (X, Z)
    assert schedule.draw(cells("casino"), random.Random(0)) == X


def test_otherwise_any_cell_of_that_box_at_random() -> None:
    schedule = answered(Schedule(), (X, True), (Y, False), (Y, True))  # nothing marked wrong
    drawn = {schedule.draw(cells("casino"), random.Random(seed)) for seed in range(40)}
    assert len(drawn) > 30 and not drawn & {X, Y}  # box 0: the cells never answered


def drill(schedule: Schedule, rng: random.Random, section: Section | None = None) -> Cell:
    return schedule.draw(section_cells("casino", section), rng)


@pytest.mark.parametrize("between_right", [True, False])
def test_a_missed_cell_comes_back_at_the_next_drill_but_one(between_right: bool) -> None:
    rng = random.Random(11)
    schedule = answered(Schedule(), *((c, True) for c in cells("casino")[:40]))
    missed = drill(schedule, rng)
    schedule = schedule.answer(missed, False)
    between = drill(schedule, rng)
    assert between != missed
    schedule = schedule.answer(between, between_right)
    assert drill(schedule, rng) == missed


def test_a_missed_cell_waits_behind_the_cells_marked_wrong_before_it() -> None:
    rng = random.Random(13)
    w = cell(HARD, "12", "2")
    schedule = answered(Schedule(), (Z, False), (w, False), (X, False))
    assert drill(schedule, rng) == Z
    schedule = schedule.answer(Z, True)
    assert drill(schedule, rng) == w
    schedule = schedule.answer(w, True)
    assert drill(schedule, rng) == X


def test_a_missed_cell_comes_back_only_in_its_section() -> None:
    rng = random.Random(17)
    schedule = answered(Schedule(), (X, False), (Y, True))  # X is a pair
    for _ in range(10):
        assert drill(schedule, rng, SOFT) != X
    assert drill(schedule, rng, PAIRS) == X


# ---- packed -----------------------------------------------------------------------------


def test_a_packed_schedule_unpacks_to_itself() -> None:
    rng = random.Random(19)
    schedule = Schedule()
    assert Schedule.unpacked("casino", schedule.packed("casino")) == schedule
    for _ in range(2000):
        each = rng.choice(cells("casino"))
        schedule = schedule.answer(each, rng.random() < 0.7)
        if rng.random() < 0.05:
            assert Schedule.unpacked("casino", schedule.packed("casino")) == schedule
    assert Schedule.unpacked("casino", schedule.packed("casino")) == schedule
    huge = Schedule({X: CellProgress(4, 10**9, 10**9 - 123456)}, (), X)
    assert Schedule.unpacked("casino", huge.packed("casino")) == huge


def test_a_schedule_of_every_cell_answered_a_thousand_times_packs_in_about_a_kb() -> None:
    schedule = heavy_schedule("bicycle", random.Random(23))
    size = len(schedule.packed("bicycle"))
    print(f"\n330 cells x 1000 answers, 10 marked wrong: {size} bytes packed")
    assert Schedule.unpacked("bicycle", schedule.packed("bicycle")) == schedule
    assert size <= 1100
