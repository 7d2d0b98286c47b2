"""Engine throughput: complete rounds per second at each table with a `medium` player, and
the time to save and load a round with a six-deck shoe (as the store does: JSON)."""

import json
import time
from decimal import Decimal

from blackjack.actions import Phase
from blackjack.fairness import new_client_seed, new_server_seed
from blackjack.players import medium
from blackjack.round import Round
from blackjack.rules import TABLES, Table
from blackjack.shoe import Shoe
from blackjack.snapshots import (
    round_from_snapshot,
    round_snapshot,
    shoe_from_snapshot,
    shoe_snapshot,
)


def new_shoe(table: Table, nonce: int) -> Shoe:
    rules = table.rules
    return Shoe.shuffle(new_server_seed(), new_client_seed(), nonce, rules.decks, rules.cut_default)


def rounds_per_second(table: Table, seconds: float = 1.5) -> tuple[float, int]:
    """Rounds played by one `medium` box for `seconds`, reshuffling as the table does."""
    bet = {0: Decimal(table.min_bet)}
    shoe = new_shoe(table, 1)
    rounds = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(200):
            round_ = Round.deal(table, shoe, bet)
            while round_.phase is not Phase.SETTLED:
                view = round_.player_view()
                assert view is not None
                round_.act(medium(view))
            rounds += 1
            if shoe.cut_index is None or shoe.cut_card_out:
                shoe = new_shoe(table, rounds)
    return rounds / (time.perf_counter() - start), rounds


def save_and_load_microseconds(repeat: int = 5000) -> tuple[float, float, int]:
    table = TABLES["european"]
    shoe = new_shoe(table, 1)
    round_ = Round.deal(table, shoe, {0: Decimal(100), 2: Decimal(50)}, {1: "medium"})
    snapshot = {"shoe": shoe_snapshot(shoe), "round": round_snapshot(round_)}
    start = time.perf_counter()
    for _ in range(repeat):
        saved = json.dumps({"shoe": shoe_snapshot(shoe), "round": round_snapshot(round_)})
    save = (time.perf_counter() - start) / repeat * 1e6
    start = time.perf_counter()
    for _ in range(repeat):
        loaded = json.loads(saved)
        round_from_snapshot(loaded["round"], table, shoe_from_snapshot(loaded["shoe"]))
    load = (time.perf_counter() - start) / repeat * 1e6
    return save, load, len(json.dumps(snapshot))


def main() -> None:
    for table in TABLES.values():
        rate, rounds = rounds_per_second(table)
        print(f"engine  {table.id:<9} {rate:>9,.0f} rounds/s  (one medium box, {rounds:,} rounds)")
    save, load, size = save_and_load_microseconds()
    print(
        f"engine  round state with a six-deck shoe: save {save:.1f} µs, load {load:.1f} µs, "
        f"{size:,} bytes of JSON (target: under 200 µs each)"
    )


if __name__ == "__main__":
    main()
