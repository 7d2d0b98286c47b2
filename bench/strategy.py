"""Strategy figures: the analysis against published anchors, each table's house edge, the
time of a six-deck two-card table, hint latency for hands of three or more cards, and the
simulator (fast path hands per second, 10 million `european` hands and one million rounds
through the state machine against the analysis).

BENCH_FAST_ROUNDS and BENCH_ENGINE_ROUNDS shorten the simulations."""

import dataclasses
import os
import random
import statistics
import time
from decimal import Decimal

from blackjack.players import PlayerView, action_values, medium
from blackjack.round import Round
from blackjack.rules import TABLES, Peek, Rules
from blackjack.shoe import Shoe
from blackjack.strategy import analysis, dealer, strategy_card
from blackjack.strategy.card import analyse, player_ev

EUROPEAN = TABLES["european"].rules
ANCHORS: list[tuple[str, Rules, float]] = [
    (
        "6 decks S17 DOA DAS SPL4 NRSA, peek",
        dataclasses.replace(EUROPEAN, peek=Peek.ACE_AND_TEN),
        -0.403,
    ),
    ("6 decks, no peek, natural takes all", EUROPEAN, -0.514),
    (
        "1 deck S17 D9-11 one split NDAS, peek",
        dataclasses.replace(TABLES["bicycle"].rules, split=TABLES["casino"].rules.split),
        -0.112,
    ),
    (
        "4 decks S17 hit/stand only, peek",
        dataclasses.replace(
            TABLES["classic"].rules,
            peek=Peek.ACE_AND_TEN,
            natural_paid_at_deal=False,
            any_21_pays_3_2=False,
        ),
        -2.304,
    ),
]


def _cold() -> None:
    """Forget every memo: the next analysis starts from nothing."""
    analysis.solver.cache_clear()
    analysis.split_hand_counts.cache_clear()
    dealer.dealer_finals.cache_clear()
    dealer.total.cache_clear()
    dealer._falling_table.cache_clear()
    dealer._inverse_falling.cache_clear()


def anchors() -> None:
    print("analysis vs published (player EV per initial bet, %):")
    for name, rules, published in ANCHORS:
        _cold()
        start = time.perf_counter()
        ours = 100 * player_ev(rules, analyse(rules))
        seconds = time.perf_counter() - start
        print(
            f"  {name:40} published {published:+.3f}  ours {ours:+.4f}  "
            f"diff {ours - published:+.4f} pp  ({seconds:.1f} s)"
        )


def house_edges() -> None:
    print("each table, hard player at a fresh shoe (player EV, %):")
    for table_id in TABLES:
        print(f"  {table_id:9} {strategy_card(table_id)['player_ev']:+.4f}")


def six_deck_time() -> None:
    wall = []
    cpu = []
    for _ in range(3):
        _cold()
        start, start_cpu = time.perf_counter(), time.process_time()
        analyse(EUROPEAN)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    print(
        f"six-deck two-card table (european, from nothing, 3 runs): wall best "
        f"{min(wall):.2f} s, median {statistics.median(wall):.2f} s; CPU best {min(cpu):.2f} s "
        f"(target < 10 s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )


def hint_latency() -> None:
    rng = random.Random(7)
    for table_id in ("european", "bicycle"):
        table = TABLES[table_id]
        views: list[PlayerView] = []
        nonce = 0
        while len(views) < 60:
            nonce += 1
            shoe = Shoe.shuffle(f"{rng.getrandbits(256):064x}", "bench", nonce, table.rules.decks)
            round_ = Round.deal(table, shoe, {0: Decimal(table.min_bet)})
            while (view := round_.player_view()) is not None:
                if len(view.cards) >= 3 or view.split_hand:
                    views.append(view)
                round_.act(medium(view))
        _cold()
        action_values(views[0])  # the dealer's tables for the process, once
        cold = []
        warm = []
        for view in views:
            analysis.solver.cache_clear()  # each hint as the first one of its up card
            start = time.perf_counter()
            action_values(view)
            cold.append(1000 * (time.perf_counter() - start))
            start = time.perf_counter()
            action_values(view)
            warm.append(1000 * (time.perf_counter() - start))
        cold.sort()
        print(
            f"hint latency, {table_id}, {len(views)} hands of 3+ cards or split, first of "
            f"their up card: median {statistics.median(cold):.1f} ms, "
            f"p90 {cold[int(0.9 * len(cold))]:.1f} ms, max {cold[-1]:.1f} ms; "
            f"asked again: median {statistics.median(warm):.2f} ms"
        )


def simulations() -> None:
    from simulator.cli import simulate

    fast_rounds = int(os.environ.get("BENCH_FAST_ROUNDS", 10_000_000))
    engine_rounds = int(os.environ.get("BENCH_ENGINE_ROUNDS", 1_000_000))
    report = simulate("european", "hard", fast_rounds, seed=11, progress=False)
    print("fast path:\n  " + report.text().replace("\n", "\n  "))
    report = simulate("european", "hard", engine_rounds, engine=True, seed=13, progress=False)
    print("engine path:\n  " + report.text().replace("\n", "\n  "))


def main() -> None:
    anchors()
    house_edges()
    six_deck_time()
    hint_latency()
    simulations()


if __name__ == "__main__":
    main()
