"""`python -m simulator`: play N rounds at a table with an AI level and compare the
player's EV with the analysis (fast path by default, `--engine` through the state
machine)."""

import argparse
import math
import time
from dataclasses import dataclass

from blackjack.players import LEVELS
from blackjack.rules import TABLES
from blackjack.strategy import strategy_card

from .progress import Progress


@dataclass(frozen=True)
class Report:
    table: str
    level: str
    mode: str
    rounds: int
    ev: float  # per initial bet
    se: float
    seconds: float
    predicted: float  # per initial bet: the analysis's optimal play at a fresh shoe

    @property
    def hands_per_second(self) -> float:
        return self.rounds / self.seconds if self.seconds > 0 else math.inf

    @property
    def z(self) -> float:
        """The difference from the analysis in standard errors."""
        return (self.ev - self.predicted) / self.se if self.se > 0 else 0.0

    @property
    def flagged(self) -> bool:
        """Only the `hard` player is predicted by the analysis."""
        return self.level == "hard" and abs(self.z) > 3

    def text(self) -> str:
        lines = [
            f"table {self.table}, level {self.level}, {self.mode} mode, {self.rounds:,} rounds",
            f"player EV per initial bet  {100 * self.ev:+.4f}%  (SE {100 * self.se:.4f}%)",
            f"analysis, best play        {100 * self.predicted:+.4f}%",
            f"difference                 {self.z:+.2f} SE"
            + (
                "  ** MORE THAN 3 SE **"
                if self.flagged
                else ("  ok" if self.level == "hard" else "  (the analysis plays hard)")
            ),
            f"hands per second           {self.hands_per_second:,.0f}  ({self.seconds:.1f} s)",
        ]
        return "\n".join(lines)


def simulate(
    table: str,
    level: str,
    rounds: int,
    *,
    engine: bool = False,
    seed: int = 1,
    workers: int = 2,
    progress: bool = True,
) -> Report:
    """Play and report; the set-up (policy tables, compilation, warm-up) is not timed."""
    bar = Progress(rounds, f"{table} {level}", progress)
    if engine:
        from . import engine as path

        start = time.perf_counter()
        total, squares = path.run(table, level, rounds, seed, workers, on_chunk=bar.advance)
        seconds = time.perf_counter() - start
    else:
        from . import fast
        from .tables import compile_table

        compiled = compile_table(TABLES[table], level)
        fast.run(compiled, 1000, seed=0, chunks=workers)  # compile (or load the cache)
        bar.restart()
        start = time.perf_counter()
        total = squares = 0.0
        step = max(1_000_000, rounds // 50)
        done = 0
        batch = 0
        while done < rounds:
            size = min(step, rounds - done)
            s, q = fast.run(compiled, size, seed * 7919 + batch, chunks=workers)
            total, squares = total + s, squares + q
            done += size
            batch += 1
            bar.advance(size)
        seconds = time.perf_counter() - start
    bar.close()
    ev = total / rounds
    variance = max(squares / rounds - ev * ev, 0.0)
    se = math.sqrt(variance / rounds) if rounds > 1 else math.inf
    predicted = strategy_card(table)["player_ev"] / 100
    return Report(table, level, "engine" if engine else "fast", rounds, ev, se, seconds, predicted)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m simulator", description=__doc__)
    parser.add_argument("--table", choices=list(TABLES), default="european")
    parser.add_argument("--level", choices=list(LEVELS), default="hard")
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--engine", action="store_true", help="through the round state machine")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="processes or threads")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    report = simulate(
        args.table,
        args.level,
        args.rounds,
        engine=args.engine,
        seed=args.seed,
        workers=args.workers,
        progress=not args.no_progress,
    )
    print(report.text())
    return 1 if report.flagged else 0
