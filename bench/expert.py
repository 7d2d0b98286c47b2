"""The `expert` level: hint latency over real rounds of `european` and `casino` shoes dealt
from fresh to the cut card, and the time of a bet with four `expert` AI boxes.

Each hint is what the hint route computes: the unseen composition from the shoe and the
round's face-down card, then the EV of every legal action (`expert_values`), in one
process whose memos persist from decision to decision (as in a warm function). The user
box sits at a random box among AI boxes of random levels and plays the `expert` hint.
A bet with four `expert` boxes is timed as the round's deal plus every decision of four
boxes played by the `expert` policy, each on the unseen cards of its moment (an upper
bound on one request: the AI boxes after the user's play at the user's last action).

The analysis kernel against the Python analysis (`kernel_against_python`): the CPU time
of the `expert` hint on the same decisions, replayed in the same run on each path from
cold memos, and of grading one decision (`grading.grade`: the `hard` and `expert` values)
on each. CPU time, not wall time: five engineers share these two cores.

BENCH_EXPERT_DECISIONS (default 1000 per table), BENCH_EXPERT_BETS (default 200) and
BENCH_EXPERT_COMPARED (default 500 per table) shorten the runs."""

import os
import random
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal

from blackjack.actions import Action
from blackjack.count import public_cards, unseen
from blackjack.grading import grade
from blackjack.round import Round
from blackjack.rules import TABLES, Table
from blackjack.shoe import Shoe
from blackjack.strategy import native, solvers
from blackjack.strategy.advisor import best_of, expert_values
from blackjack.strategy.dealer import Comp
from blackjack.turn import PlayerView

LEVELS = ("easy", "medium", "hard")


def _shoe(table: Table, rng: random.Random, nonce: int) -> Shoe:
    rules = table.rules
    return Shoe.shuffle(
        f"{rng.getrandbits(256):064x}", "bench", nonce, rules.decks, rules.cut_default
    )


def _unseen_now(round_: Round) -> Comp:
    face_down = round_.dealer[1 : 1 + round_.hidden]
    return unseen(round_.rules.decks, public_cards(round_.shoe, face_down))


def _figures(ms: list[float]) -> str:
    ms = sorted(ms)
    return (
        f"median {statistics.median(ms):.1f} ms, p90 {ms[int(0.9 * len(ms))]:.1f} ms, "
        f"p99 {ms[int(0.99 * len(ms))]:.1f} ms, max {ms[-1]:.1f} ms, n {len(ms)}"
    )


def _load() -> str:
    """The machine's load: on two shared cores the tail of these figures follows it."""
    return f"; load average {os.getloadavg()[0]:.1f}"


def hint_latency(table: Table, decisions: int, seed: int) -> tuple[list[float], int]:
    """Milliseconds of each `expert` hint of the user's; the shoes dealt."""
    rng = random.Random(seed)
    times: list[float] = []
    shoes = 0
    while len(times) < decisions:
        shoe = _shoe(table, rng, shoes)
        shoes += 1
        while not shoe.cut_card_out and len(times) < decisions:
            box = rng.randrange(table.boxes)
            ai = {
                b: rng.choice(LEVELS) for b in range(table.boxes) if b != box and rng.random() < 0.6
            }
            round_ = Round.deal(table, shoe, {box: Decimal(table.min_bet)}, ai)
            while (view := round_.player_view()) is not None:
                start = time.perf_counter()
                values = expert_values(view, _unseen_now(round_))
                times.append(1000 * (time.perf_counter() - start))
                assert values is not None
                round_.act(best_of(values))
    return times, shoes


def four_expert_boxes(table: Table, bets: int, seed: int) -> list[float]:
    """Milliseconds of the deal and every decision of four `expert` boxes, per round."""
    rng = random.Random(seed)
    times: list[float] = []
    stakes = {box: Decimal(table.min_bet) for box in range(4)}
    nonce = 0
    while len(times) < bets:
        shoe = _shoe(table, rng, nonce)
        nonce += 1
        while not shoe.cut_card_out and len(times) < bets:
            start = time.perf_counter()
            round_ = Round.deal(table, shoe, stakes)
            while (view := round_.player_view()) is not None:
                values = expert_values(view, _unseen_now(round_))
                assert values is not None
                round_.act(best_of(values))
            times.append(1000 * (time.perf_counter() - start))
    return times


Decision = tuple[PlayerView, Comp, Action]  # the view, its unseen cards, the move taken


def decisions(table: Table, count: int, seed: int) -> list[Decision]:
    """The user's decisions of `hint_latency`'s rounds, each with what it was asked on."""
    rng = random.Random(seed)
    taken: list[Decision] = []
    shoes = 0
    while len(taken) < count:
        shoe = _shoe(table, rng, shoes)
        shoes += 1
        while not shoe.cut_card_out and len(taken) < count:
            box = rng.randrange(table.boxes)
            ai = {
                b: rng.choice(LEVELS) for b in range(table.boxes) if b != box and rng.random() < 0.6
            }
            round_ = Round.deal(table, shoe, {box: Decimal(table.min_bet)}, ai)
            while (view := round_.player_view()) is not None:
                seen = _unseen_now(round_)
                values = expert_values(view, seen)
                assert values is not None
                taken.append((view, seen, best_of(values)))
                round_.act(taken[-1][2])
    return taken


@contextmanager
def analysis(path: str) -> Iterator[None]:
    """The kernel's analysis or the Python one, from cold memos (the library stays
    loaded: a warm function's)."""
    before = os.environ.pop(native.FORCE_PYTHON, None)
    if path == "python":
        os.environ[native.FORCE_PYTHON] = "python"
    solvers.forget()
    try:
        yield
    finally:
        os.environ.pop(native.FORCE_PYTHON, None)
        if before is not None:
            os.environ[native.FORCE_PYTHON] = before


def _cpu_ms(run: Callable[[Decision], object], taken: list[Decision]) -> list[float]:
    times = []
    for decision in taken:
        start = time.process_time()
        run(decision)
        times.append(1000 * (time.process_time() - start))
    return times


def _hint(decision: Decision) -> object:
    view, seen, _ = decision
    return expert_values(view, seen)


def _grade(decision: Decision) -> object:
    view, seen, action = decision
    return grade(view, action, seen)


def kernel_against_python(table_id: str, count: int, seed: int) -> None:
    """The `expert` hint and the grading of one decision, by each path on the same
    decisions (in order, as a warm function meets them: a hand's solver is reused)."""
    if native.library() is None:
        print("expert  kernel against Python: the kernel is not built (make builds it)")
        return
    taken = decisions(TABLES[table_id], count, seed)
    hint: dict[str, list[float]] = {}
    graded: dict[str, list[float]] = {}
    for path in ("kernel", "python"):
        with analysis(path):
            hint[path] = sorted(_cpu_ms(_hint, taken))
        with analysis(path):
            graded[path] = _cpu_ms(_grade, taken)

    def median(path: str) -> float:
        return statistics.median(hint[path])

    def p99(path: str) -> float:
        return hint[path][int(0.99 * len(hint[path]))]

    print(
        f"expert  hint CPU, {table_id:9} kernel: median {median('kernel'):.2f} ms, "
        f"p99 {p99('kernel'):.2f} ms; Python: median {median('python'):.2f} ms, "
        f"p99 {p99('python'):.1f} ms; Python / kernel: {median('python') / median('kernel'):.0f}x "
        f"at the median, {p99('python') / p99('kernel'):.0f}x at p99, n {len(taken)} "
        f"(target: kernel median <= 0.5 ms, p99 <= 10 ms, >= 15x at p99){_load()}",
        flush=True,
    )
    kernel_mean, python_mean = (statistics.fmean(graded[p]) for p in ("kernel", "python"))
    print(
        f"grading one decision CPU, {table_id:9} kernel: mean {kernel_mean:.2f} ms; Python: "
        f"mean {python_mean:.2f} ms ({python_mean / kernel_mean:.0f}x; target: kernel mean "
        f"<= 1 ms){_load()}",
        flush=True,
    )


def main() -> None:
    decisions = int(os.environ.get("BENCH_EXPERT_DECISIONS", 1000))
    bets = int(os.environ.get("BENCH_EXPERT_BETS", 200))
    every: list[float] = []
    for seed, table_id in enumerate(("european", "casino")):
        times, shoes = hint_latency(TABLES[table_id], decisions, seed)
        every += times
        print(f"expert  hint, {table_id:9} ({shoes} shoes): {_figures(times)}{_load()}", flush=True)
    print(f"expert  hint, both tables: {_figures(every)} (target: median < 20 ms, p99 < 100 ms)")
    compared = int(os.environ.get("BENCH_EXPERT_COMPARED", 500))
    for seed, table_id in enumerate(("european", "casino")):
        kernel_against_python(table_id, compared, 100 + seed)
    times = four_expert_boxes(TABLES["casino"], bets, 7)
    print(
        f"expert  bet with four expert boxes (casino, deal and all their decisions): "
        f"{_figures(times)} (target: p99 < 300 ms){_load()}"
    )


if __name__ == "__main__":
    main()
