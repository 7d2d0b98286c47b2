"""Strategy figures: the analysis against published anchors, each table's house edge, the
time of a six-deck two-card table (the Python analysis, which computes the shipped data),
the analysis kernel (the card of a composition, and the `expert` hint and the grading of
one decision by the kernel and by the Python analysis on the same decisions: see
`bench.expert`), the first-hint latency of every hand of three or four cards against every
up card (the worst case is the target: under 50 ms), and the simulator (fast path hands
per second, 10 million `european` hands and one million rounds through the state machine
against the analysis).

BENCH_FAST_ROUNDS and BENCH_ENGINE_ROUNDS shorten the simulations, BENCH_EXPERT_COMPARED
(default 300) the kernel's comparison."""

import dataclasses
import itertools
import os
import statistics
import time

from blackjack.actions import Action, Phase
from blackjack.rules import TABLES, Peek, Rules
from blackjack.strategy import action_values, analysis, dealer, native, solvers, strategy_card
from blackjack.strategy.card import analyse, card_at, player_ev
from blackjack.turn import PlayerView

from .expert import kernel_against_python

EUROPEAN = TABLES["european"].rules
RANK_NAMES = "".join(analysis.card_of(rank)[0] for rank in range(10))  # the ranks as letters
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
    solvers.forget()
    analysis.split_hand_counts.cache_clear()
    dealer.dealer_finals.cache_clear()
    dealer.total.cache_clear()
    dealer._falling_row.cache_clear()
    dealer._inverse_falling.cache_clear()
    native._finals.cache_clear()
    native._split_table.cache_clear()


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


def kernel() -> None:
    """A six-deck table's card by the kernel (`card_at` at a fresh shoe: what
    `six_deck_time` computes in Python), and the kernel against Python on `expert` hints."""
    if native.library() is None:
        print("analysis kernel: not built (make builds it)")
        return
    cpu = []
    for _ in range(3):
        _cold()
        start = time.process_time()
        card_at(EUROPEAN, analysis.shoe_counts(EUROPEAN.decks))
        cpu.append(1000 * (time.process_time() - start))
    print(
        f"the card of a composition by the kernel (european, a fresh six-deck shoe, from "
        f"nothing, 3 runs): CPU best {min(cpu):.0f} ms, median {statistics.median(cpu):.0f} ms "
        f"(load average {os.getloadavg()[0]:.1f})",
        flush=True,
    )
    kernel_against_python("european", int(os.environ.get("BENCH_EXPERT_COMPARED", 300)), 200)


def hint_hands(rules: Rules, up: int) -> list[tuple[int, ...]]:
    """Every hand of three or four cards a hint may be asked for against `up`: the shoe
    holds it, it is under 21, and some order of its cards got there (no natural, no 21
    before the last card)."""
    counts = list(analysis.shoe_counts(rules.decks))
    counts[up] -= 1
    hands = []
    for size in (3, 4):
        for ranks in itertools.combinations_with_replacement(range(dealer.RANKS), size):
            comp = analysis.of_ranks(*ranks)
            if any(comp[r] > counts[r] for r in range(dealer.RANKS)):
                continue
            if dealer.total(comp)[0] >= 21:
                continue
            for order in sorted(set(itertools.permutations(ranks))):
                if all(dealer.total(analysis.of_ranks(*order[:k]))[0] < 21 for k in (2, 3)):
                    hands.append(order)
                    break
    return hands


def hint_view(rules: Rules, up: int, order: tuple[int, ...]) -> PlayerView:
    """The view of a hand of these ranks (in this order) against `up`, hit or stand."""
    cards = tuple(RANK_NAMES[r] + "SHDC"[i % 4] for i, r in enumerate(order))
    legal = (Action.HIT, Action.STAND)
    return PlayerView(rules, Phase.PLAYER_TURN, cards, RANK_NAMES[up] + "D", legal, 1, False)


def _first_hint(view: PlayerView) -> tuple[float, float]:
    """Wall and CPU milliseconds of a hint from a fresh state."""
    _cold()
    start, start_cpu = time.perf_counter(), time.process_time()
    action_values(view)
    return 1000 * (time.perf_counter() - start), 1000 * (time.process_time() - start_cpu)


def hint_latency() -> None:
    """The first hint of every reachable 3- and 4-card hand against every up card, each
    from a fresh state (every memo and the shipped data forgotten, as in a new process).
    The machine is shared, so the 20 slowest are measured 3 times more: the worst of their
    best times is the figure that noise does not inflate."""
    for table_id, table in TABLES.items():
        first: list[tuple[float, str, PlayerView]] = []
        cpu: list[float] = []
        again: list[float] = []
        for up in range(dealer.RANKS):
            for order in hint_hands(table.rules, up):
                view = hint_view(table.rules, up, order)
                wall_ms, cpu_ms = _first_hint(view)
                name = f"{''.join(card[0] for card in view.cards)} v {RANK_NAMES[up]}"
                first.append((wall_ms, name, view))
                cpu.append(cpu_ms)
                start = time.perf_counter()
                action_values(view)
                again.append(1000 * (time.perf_counter() - start))
        first.sort(key=lambda entry: entry[0])
        times = [ms for ms, _, _ in first]
        retried = [
            (min([ms, *(_first_hint(view)[0] for _ in range(3))]), name)
            for ms, name, view in first[-20:]
        ]
        worst, worst_name = max(retried)
        print(
            f"first hint, {table_id:9} {len(first)} hands of 3-4 cards x up cards, each from "
            f"a fresh state: median {statistics.median(times):.1f} ms, "
            f"p90 {times[int(0.9 * len(times))]:.1f} ms, max {times[-1]:.1f} ms "
            f"({first[-1][1]}; CPU max {max(cpu):.1f} ms); slowest 20 best of 4: max "
            f"{worst:.1f} ms ({worst_name}); asked again: median "
            f"{statistics.median(again):.2f} ms (target < 50 ms; load average "
            f"{os.getloadavg()[0]:.1f})",
            flush=True,
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
    kernel()
    hint_latency()
    simulations()


if __name__ == "__main__":
    main()
