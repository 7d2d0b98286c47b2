"""Engine throughput: complete rounds per second at each table with a `medium` player."""

import time
from decimal import Decimal

from blackjack.actions import Phase
from blackjack.fairness import new_client_seed, new_server_seed
from blackjack.players import medium
from blackjack.round import Round
from blackjack.rules import TABLES, Table
from blackjack.shoe import Shoe


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


def main() -> None:
    for table in TABLES.values():
        rate, rounds = rounds_per_second(table)
        print(f"engine  {table.id:<9} {rate:>9,.0f} rounds/s  (one medium box, {rounds:,} rounds)")


if __name__ == "__main__":
    main()
