"""The engine path: every round through `blackjack.round.Round`, from real shoes of
`Shoe.shuffle` with random seeds, the user's box (the table's minimum bet) played by the
chosen AI policy. It proves the state machine; `fast.py` must agree with it."""

import random
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from decimal import Decimal

from blackjack.players import POLICIES
from blackjack.round import Round
from blackjack.rules import TABLES, Shuffle
from blackjack.shoe import Shoe


def warm(table_id: str, level: str) -> None:
    """Fill the hard player's memo with the table's whole analysis, once per process."""
    if level == "hard":
        from blackjack.strategy.card import analyse

        analyse(TABLES[table_id].rules)


def play(table_id: str, level: str, rounds: int, seed: int) -> tuple[float, float]:
    """Play `rounds` rounds on fresh shoes from `seed`; the sum and the sum of squares of
    the user's net per bet."""
    table = TABLES[table_id]
    rules = table.rules
    policy = POLICIES[level]
    rng = random.Random(seed)
    bet = Decimal(table.min_bet)
    shoe: Shoe | None = None
    total = 0.0
    squares = 0.0
    for index in range(rounds):
        if shoe is None or rules.shuffle is Shuffle.EVERY_ROUND or shoe.cut_card_out:
            shoe = Shoe.shuffle(
                f"{rng.getrandbits(256):064x}",
                "simulator",
                index + 1,
                rules.decks,
                rules.cut_default,
            )
        round_ = Round.deal(table, shoe, {0: bet})
        while (view := round_.player_view()) is not None:
            round_.act(policy(view))
        net = round_.net
        assert net is not None
        result = float(net / bet)
        total += result
        squares += result * result
    return total, squares


def run(
    table_id: str,
    level: str,
    rounds: int,
    seed: int,
    workers: int = 2,
    chunk: int = 20_000,
    on_chunk: Callable[[int], None] | None = None,
) -> tuple[float, float]:
    """`rounds` rounds in chunks over `workers` processes."""
    sizes = [chunk] * (rounds // chunk) + ([rounds % chunk] if rounds % chunk else [])
    total = 0.0
    squares = 0.0
    if workers <= 1:
        warm(table_id, level)
        for i, size in enumerate(sizes):
            s, q = play(table_id, level, size, seed * 1_000_003 + i)
            total, squares = total + s, squares + q
            if on_chunk:
                on_chunk(size)
        return total, squares
    with ProcessPoolExecutor(workers, initializer=warm, initargs=(table_id, level)) as pool:
        futures = [
            (size, pool.submit(play, table_id, level, size, seed * 1_000_003 + i))
            for i, size in enumerate(sizes)
        ]
        for size, future in futures:
            s, q = future.result()
            total, squares = total + s, squares + q
            if on_chunk:
                on_chunk(size)
    return total, squares
