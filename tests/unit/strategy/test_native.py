"""The analysis kernel (native.py, layers/engine/native/kernel.c) against the Python
analysis it replaces, which stays the reference: the same values to 1e-12 on random
compositions, hands and up cards at every table, fractional counts, the fallback when the
library does not load, and the card of a composition (`card_at`)."""

import logging
import math
import os
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from blackjack import drills
from blackjack.actions import Action, Phase
from blackjack.rules import TABLES, Rules, Split
from blackjack.strategy import native, solvers
from blackjack.strategy.advisor import expert_values
from blackjack.strategy.analysis import EMPTY, UpCardSolver, merge, of_ranks, shoe_counts
from blackjack.strategy.card import card_at, strategy_card
from blackjack.strategy.dealer import RANKS, Comp, add, total
from blackjack.turn import PlayerView

from .helpers import brute_force, needs_kernel

TOLERANCE = 1e-12
# (composition, hand, up card) cases over the four tables: `make test` checks the same
# 2,500 on every run, `make fuzz` 10,000 (KERNEL_CASES).
CASES = int(os.environ.get("KERNEL_CASES", "2500"))
HANDS_PER_POOL = 100  # hands drawn per composition (their values share one batch)
DEALER_EVERY = 250  # one case in this many also checks the dealer's chances by brute force
CARDS = "A23456789T"


def random_pool(rng: random.Random, rules: Rules, up: int) -> Comp:
    """A shoe less its up card and a random share of its cards, dealt at random: from a
    fresh shoe to its last few cards. Small pools keep the Python reference fast, and
    empty ranks and near-empty shoes are where the two could part."""
    cards = [rank for rank, n in enumerate(add(shoe_counts(rules.decks), up, -1)) for _ in range(n)]
    rng.shuffle(cards)
    kept = cards[: max(12, int(len(cards) * rng.choice((0.05, 0.1, 0.2, 0.3, 0.6, 1.0))))]
    return tuple(kept.count(rank) for rank in range(RANKS))


def random_hand(rng: random.Random, pool: Comp, big_pool: bool) -> Comp | None:
    """Two to four cards the pool holds, under 21; from a big pool not a small total
    (whose tree would make the reference slow: the kernel's trees are tested on small
    pools and by the card of a fresh shoe, `test_the_card_of_a_fresh_shoe_...`)."""
    ranks = [rng.randrange(RANKS) for _ in range(rng.choice((2, 2, 3, 4)))]
    hand = of_ranks(*ranks)
    points = total(hand)[0]
    if any(map(int.__gt__, hand, pool)) or points >= 21 or (big_pool and points < 12):
        return None
    return hand


def pair_of(hand: Comp) -> int | None:
    return next((r for r in range(RANKS) if hand[r] == 2), None) if sum(hand) == 2 else None


def sibling_of(hand: Comp) -> Comp:
    """What a split hand of these two cards lacks besides them: its pair's other card."""
    return of_ranks(next(r for r in range(RANKS) if hand[r]))


def values(s: UpCardSolver, rules: Rules, hand: Comp) -> Iterator[tuple[str, float]]:
    """Everything a hint or a grade asks the solver about one hand."""
    yield "stand", s.stand(EMPTY, hand)
    yield "hit", s.hit(EMPTY, hand)
    yield "double", s.double(EMPTY, hand)
    yield "surrender", s.surrender(EMPTY, hand)
    pair = pair_of(hand)
    if pair is not None and rules.split is not Split.NONE:
        for hands in range(1, rules.max_hands):
            yield f"split from {hands}", s.split(pair, EMPTY, hands)
    if sum(hand) == 2 and rules.split is not Split.NONE:
        sibling = sibling_of(hand)
        if all(a <= b for a, b in zip(merge(sibling, hand), s.counts, strict=True)):
            yield "split hand stand", s.stand(sibling, hand)
            yield "split hand hit", s.hit(sibling, hand)
            yield "split hand double", s.double(sibling, hand)


def prepare(s: UpCardSolver, rules: Rules, hands: list[Comp]) -> None:
    """One batch for every value `values` asks of these hands: the reference's cost is
    per contraction, whatever its size (this is what keeps the test fast)."""
    roots: list[Comp] = []
    shallow: list[tuple[Comp, Comp]] = []
    for hand in hands:
        pair = pair_of(hand) if rules.split is not Split.NONE else None
        more, pairs = s.decision_roots(hand, True, pair)
        roots += more
        shallow += pairs
        if sum(hand) == 2 and rules.split is not Split.NONE:
            sibling = sibling_of(hand)
            if all(a <= b for a, b in zip(merge(sibling, hand), s.counts, strict=True)):
                after = [add(hand, r) for r, _ in s.draw(merge(sibling, hand))]
                roots += after
                shallow += [(sibling, hand), *((sibling, h) for h in after)]
    s.prepare(roots, shallow)


@pytest.mark.no_cover
@needs_kernel
def test_the_kernel_values_what_the_python_analysis_does() -> None:
    rng = random.Random(31)
    tables = list(TABLES.values())
    cases = compared = 0
    worst = 0.0
    start = time.perf_counter()
    while cases < CASES:
        rules = tables[cases % len(tables)].rules
        up = rng.randrange(RANKS)
        pool = random_pool(rng, rules, up)
        big = sum(pool) > 60
        drawn = (random_hand(rng, pool, big) for _ in range(HANDS_PER_POOL))
        hands = sorted({h for h in drawn if h is not None})  # distinct cases
        reference = UpCardSolver(rules, up, pool=pool)
        prepare(reference, rules, hands)
        kernel = native.KernelSolver(rules, up, pool=pool)
        for hand in hands:
            cases += 1
            expected = dict(values(reference, rules, hand))
            for name, value in values(kernel, rules, hand):
                compared += 1
                worst = max(worst, abs(value - expected[name]))
                assert value == pytest.approx(expected[name], abs=TOLERANCE), (
                    rules,
                    up,
                    pool,
                    hand,
                    name,
                )
            if cases % DEALER_EVERY == 0:  # the plain recursion is slow: a sample
                oracle = brute_force(pool, up, hand, rules.dealer_hits_soft_17)
                for got, want in zip(kernel.dealer(hand), oracle, strict=True):
                    assert got == pytest.approx(want, abs=TOLERANCE)
    seconds = time.perf_counter() - start
    print(f"{cases} cases, {compared} values: max difference {worst:.2e} in {seconds:.1f} s")


@needs_kernel
@pytest.mark.parametrize("table", list(TABLES))
def test_a_fresh_shoe_is_the_python_solvers_at_every_up_card(table: str) -> None:
    """No pool: the full shoe less the up card, a same-rank split estimating its tens of
    one rank from the decks (`UpCardSolver.split`)."""
    rules = TABLES[table].rules
    for up in (0, 5, 9):
        reference = UpCardSolver(rules, up)
        kernel = native.KernelSolver(rules, up)
        for hand in (of_ranks(9, 9), of_ranks(9, 6), of_ranks(0, 7)):
            expected = dict(values(reference, rules, hand))
            for name, value in values(kernel, rules, hand):
                assert value == pytest.approx(expected[name], abs=TOLERANCE), (up, hand, name)


@needs_kernel
@pytest.mark.parametrize("up", [0, 1, 5, 9])
def test_fractional_counts_draw_as_whole_ones_do(up: int) -> None:
    """With every count above what the dealer can draw of it, the chances are those of a
    card-by-card draw, fractional counts and all."""
    rng = random.Random(up)
    pool = tuple(rng.uniform(12, 30) for _ in range(RANKS))
    kernel = native.KernelSolver(TABLES["european"].rules, up, pool=pool)
    for removed in (EMPTY, of_ranks(9, 6), of_ranks(0, 0, 1, 2)):
        chances = kernel.dealer(removed)
        assert math.fsum(chances) == pytest.approx(1.0, abs=TOLERANCE)
        for got, want in zip(chances, brute_force(pool, up, removed), strict=True):
            assert got == pytest.approx(want, abs=TOLERANCE)


@needs_kernel
def test_values_are_continuous_in_the_counts() -> None:
    """A fractional pool near a whole one values a hand near what the whole one does."""
    rules = TABLES["casino"].rules
    pool = add(shoe_counts(6), 5, -1)
    nudged = tuple(n + 1e-7 * (rank % 3) for rank, n in enumerate(pool))
    whole = native.KernelSolver(rules, 5, pool=pool)
    near = native.KernelSolver(rules, 5, pool=nudged)
    for hand in (of_ranks(9, 2), of_ranks(0, 5), of_ranks(7, 7)):
        for (name, a), (_, b) in zip(
            values(whole, rules, hand), values(near, rules, hand), strict=True
        ):
            assert a == pytest.approx(b, abs=1e-5), (hand, name)


def view(rules: Rules, cards: str, up: str, legal: tuple[Action, ...]) -> PlayerView:
    return PlayerView(
        rules, Phase.PLAYER_TURN, tuple(c + "S" for c in cards), up + "D", legal, 1, False
    )


@needs_kernel
def test_hints_are_the_same_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """`expert_values` by the kernel and by the Python analysis (BLACKJACK_ANALYSIS)."""
    rng = random.Random(7)
    asked = []
    for _ in range(40):
        rules = TABLES[rng.choice(("european", "casino", "bicycle"))].rules
        up = rng.randrange(RANKS)
        pool = random_pool(rng, rules, up)
        hand = random_hand(rng, pool, big_pool=True)
        if hand is None:
            continue
        cards = "".join(CARDS[r] * n for r, n in enumerate(hand))
        legal = (Action.HIT, Action.STAND) + ((Action.DOUBLE,) if len(cards) == 2 else ())
        unseen = tuple(map(int.__sub__, pool, hand))
        asked.append((view(rules, cards, CARDS[up], legal), unseen))
    by_kernel = [expert_values(v, unseen) for v, unseen in asked]
    monkeypatch.setenv(native.FORCE_PYTHON, "python")
    assert native.library() is None
    by_python = [expert_values(v, unseen) for v, unseen in asked]
    assert type(solvers.kept_solver(asked[0][0].rules, 0, asked[0][1])) is UpCardSolver
    for (v, _), k, p in zip(asked, by_kernel, by_python, strict=True):
        assert k is not None and p is not None and k.keys() == p.keys()
        for action in k:
            assert k[action] == pytest.approx(p[action], abs=TOLERANCE), (v, action)


def test_a_library_that_does_not_load_logs_one_line_and_python_runs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(native, "LIBRARY", tmp_path / "_kernel.so")  # nothing there
    native._loaded.cache_clear()
    try:
        with caplog.at_level(logging.WARNING, logger=native.__name__):
            assert native.library() is None
            assert native.library() is None  # asked again: loaded once, logged once
        assert [r.getMessage().split(":")[0] for r in caplog.records] == [
            "analysis kernel not loaded, the Python analysis runs"
        ]
        rules = TABLES["european"].rules
        unseen = add(shoe_counts(6), 9, -1)
        assert type(solvers.solver(rules, 9, unseen)) is UpCardSolver
        hint = expert_values(view(rules, "T6", "T", (Action.HIT, Action.STAND)), unseen)
        assert hint is not None and set(hint) == {Action.HIT, Action.STAND}
    finally:
        native._loaded.cache_clear()


@needs_kernel
@pytest.mark.parametrize("table", list(TABLES))
def test_the_card_of_a_fresh_shoe_is_the_shipped_card(table: str) -> None:
    rules = TABLES[table].rules
    card = card_at(rules, shoe_counts(rules.decks))
    shipped = strategy_card(table)
    assert card["chart"] == shipped["chart"]
    assert card["player_ev"] == pytest.approx(shipped["player_ev"], abs=1e-6)
    assert card["ev"].keys() == shipped["ev"].keys()
    for hand, row in shipped["ev"].items():
        assert card["ev"][hand].keys() == row.keys()
        for up, options in row.items():
            assert card["ev"][hand][up] == pytest.approx(options, abs=1e-8), (hand, up)


@needs_kernel
def test_the_card_of_a_part_dealt_shoe_is_the_same_on_both_paths(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One deck less eleven small cards: rich in tens, a better edge than a full deck's."""
    rules = TABLES["bicycle"].rules
    low = of_ranks(1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6)
    composition = tuple(map(int.__sub__, shoe_counts(1), low))
    by_kernel = card_at(rules, composition)
    monkeypatch.setenv(native.FORCE_PYTHON, "python")
    by_python = card_at(rules, composition)
    assert by_kernel["chart"] == by_python["chart"]
    assert by_kernel["player_ev"] == pytest.approx(by_python["player_ev"], abs=1e-6)
    for hand, row in by_python["ev"].items():
        for up, options in row.items():
            assert by_kernel["ev"][hand][up] == pytest.approx(options, abs=1e-8), (hand, up)
    assert by_kernel["player_ev"] > strategy_card("bicycle")["player_ev"] + 1.0


@needs_kernel
def test_the_card_of_a_fractional_composition() -> None:
    """An average shoe: fractional counts between two whole ones give an edge between."""
    rules = TABLES["european"].rules
    full = shoe_counts(6)
    rich = add(full, 1, -8)  # eight 3s gone
    between = tuple((a + b) / 2 for a, b in zip(full, rich, strict=True))
    edges = [card_at(rules, c)["player_ev"] for c in (full, between, rich)]
    assert edges[0] < edges[1] < edges[2]


@needs_kernel
def test_an_index_drill_is_graded_the_same_on_both_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    """The unseen cards at a true count have fractional counts (3.4 of each small rank at
    +6 at bicycle: the falling factorials of a hand or a dealer draw of four 2s go
    negative): the Python reference grades an index drill there as the kernel does."""
    table = TABLES["bicycle"]
    asked = [
        (("KS", "KH"), "5D", Action.STAND),  # pairs T against a 5: split from +6
        (("KS", "KH"), "5D", Action.SPLIT),
        (("TS", "6H"), "TD", Action.HIT),  # hard 16 against a ten: stand from +4
        (("9S", "9H"), "AD", Action.STAND),
    ]

    def graded() -> list[drills.Graded]:
        drills._ev_at.cache_clear()  # the card at a true count, kept per process
        return [drills.grade_index(table, cards, up, action, 6) for cards, up, action in asked]

    by_kernel = graded()
    monkeypatch.setenv(native.FORCE_PYTHON, "python")
    try:
        by_python = graded()
    finally:
        drills._ev_at.cache_clear()
    for question, k, p in zip(asked, by_kernel, by_python, strict=True):
        assert (k.cell, k.best, k.right, k.loss) == (p.cell, p.best, p.right, p.loss), question
        assert k.ev.keys() == p.ev.keys()
        for action, value in k.ev.items():
            assert value == pytest.approx(p.ev[action], abs=1e-8), (question, action)
