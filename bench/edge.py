"""`GET /v1/tables/{table_id}/edge` at 6 decks mid-shoe: the CPU time of the route's
service call (`EdgeService.edge`: the seat's replay, its public cards and count, perfect
play's EV on the unseen cards, the Kelly bet) on seats whose shoe has dealt a quarter to
three quarters of its cards (its shuffle included), each shoe new, so that no memo of the
analysis is reused. The player item comes from memory, not DynamoDB: its read is the
backend bench's figure.

The target, once the analysis is native: p99 at most 150 ms. CPU time, not wall time:
several engineers share these two cores. BENCH_EDGE_SAMPLES (default 60 per table) and
BENCH_EDGE_PYTHON (default 3 per table, 0 to skip) size the runs; the second times the
Python analysis (`BLACKJACK_ANALYSIS=python`) on the same kind of seats."""

import os
import random
import statistics
import time
from decimal import Decimal
from typing import cast

from blackjack.rules import TABLES
from blackjack.strategy import native
from blackjack_service import edge
from blackjack_service.edge import EdgeService
from blackjack_service.identity import Identity
from blackjack_service.records import Player, Seat, ShoeRecord
from blackjack_service.store import Store

_USER = Identity(login="bench1", nick="bench1")


class _Memory:
    """The one read the route makes: the player item."""

    def __init__(self, player: Player) -> None:
        self.player = player

    def existing_player(self, account_id: str) -> Player:
        return self.player


def _seat(table_id: str, rng: random.Random) -> Player:
    decks = TABLES[table_id].rules.decks
    seed = f"{rng.getrandbits(256):064x}"
    size = 52 * decks
    position = rng.randrange(size // 4, 3 * size // 4 + 1)
    shoe = ShoeRecord(server_seed=seed, client_seed="bench", nonce=1, position=position)
    seat = Seat(version=1, shoe=shoe)
    return Player(revision=1, balance=Decimal(10000), seats={table_id: seat})


def _cpu_ms(table_id: str, samples: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    times = []
    for _ in range(samples):
        player = _seat(table_id, rng)
        service = EdgeService(cast(Store, _Memory(player)))
        edge._edge_at.cache_clear()  # every seat a new composition, as between real rounds
        start = time.process_time()
        service.edge(_USER, table_id)
        times.append(1000 * (time.process_time() - start))
    return times


def _figures(ms: list[float]) -> str:
    ms = sorted(ms)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
    return f"median {statistics.median(ms):.0f} ms, p99 {p99:.0f} ms, max {ms[-1]:.0f} ms"


def main() -> None:
    samples = int(os.environ.get("BENCH_EDGE_SAMPLES", "60"))
    python_samples = int(os.environ.get("BENCH_EDGE_PYTHON", "3"))
    path = "kernel" if native.library() is not None else "Python analysis"
    for table_id in ("european", "casino"):
        _cpu_ms(table_id, 1, seed=0)  # imports, the dealer's finals: a cold start's
        ms = _cpu_ms(table_id, samples, seed=1)
        load = os.getloadavg()[0]
        print(
            f"edge {table_id:8} 6 decks mid-shoe, {path}: CPU {_figures(ms)}, n {len(ms)} "
            f"(target p99 150 ms); load average {load:.1f}",
            flush=True,
        )
        if python_samples and native.library() is not None:
            os.environ[native.FORCE_PYTHON] = "python"
            try:
                ms = _cpu_ms(table_id, python_samples, seed=2)
            finally:
                del os.environ[native.FORCE_PYTHON]
            print(
                f"edge {table_id:8} 6 decks mid-shoe, Python analysis: CPU {_figures(ms)}, "
                f"n {len(ms)}",
                flush=True,
            )


if __name__ == "__main__":
    main()
