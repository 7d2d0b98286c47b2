"""One user at several tables at once (issue 43): the share of requests answered 409
`conflict` when each table plays its own rounds from a thread of its own, one request at a
time per table, so that no request races another at its table. A write that loses only to
another table's change of the player item plays again (`GameService._play`), so the
target is 0 %. In-process, on moto: what counts is which writes lose, not their time.
The units a round costs are `bench.cost`'s (a write that wins first time costs the same
as before; one that lost reads and writes once more)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from .backend import moto_backend

TABLES = ("classic", "bicycle", "casino", "european")
ROUNDS = 15  # a table's rounds per run


@contextmanager
def atomic_moto_writes() -> Iterator[None]:
    """moto checks a write's condition and stores the item in two steps that threads may
    interleave (two writes expecting one revision can both land); DynamoDB does both at
    once. A lock around moto's put makes it so."""
    from moto.dynamodb.models import DynamoDBBackend

    put, lock = DynamoDBBackend.put_item, threading.Lock()

    def atomic_put(*args: Any, **kwargs: Any) -> Any:
        with lock:
            return put(*args, **kwargs)

    DynamoDBBackend.put_item = atomic_put  # type: ignore[method-assign]
    try:
        yield
    finally:
        DynamoDBBackend.put_item = put  # type: ignore[method-assign]


def play_at_once(account_id: str, tables: int, rounds: int = ROUNDS) -> tuple[int, int]:
    """`rounds` rounds at each of the first `tables` tables, a thread a table, by a user
    who exists (the stand player's moves): the requests made, and those answered 409
    `conflict`."""
    from blackjack_service import factories
    from blackjack_service.errors import Conflict
    from blackjack_service.identity import Identity
    from blackjack_service.models import ActionRequest, StartRoundRequest

    identity = Identity(account_id, "Nick" + account_id[:8])
    game = factories.game()
    a_bet = StartRoundRequest.model_validate({"bets": [{"box": 0, "amount": 10}]})
    counts = {"requests": 0, "conflicts": 0}
    lock = threading.Lock()

    def request(call: Any, *args: Any) -> Any:
        try:
            return call(*args)
        except Conflict:
            with lock:
                counts["conflicts"] += 1
            return None
        finally:
            with lock:
                counts["requests"] += 1

    failed: list[BaseException] = []

    def play(table: str) -> None:
        try:
            play_rounds(table)
        except BaseException as error:  # raised again once every table is done
            failed.append(error)

    def play_rounds(table: str) -> None:
        for _ in range(rounds):
            outcome = request(game.start_round, identity, table, a_bet)
            while outcome is not None and outcome.round["status"] != "settled":
                legal = outcome.round["legal_actions"]
                move = {"action": "stand" if "stand" in legal else legal[0]}
                action = ActionRequest.model_validate(move)
                outcome = request(game.act, identity, table, action, outcome.version)

    for table in TABLES[:tables]:  # the first looks, one by one: each commits a shoe
        game.seat(identity, table)
    threads = [threading.Thread(target=play, args=(table,)) for table in TABLES[:tables]]
    with atomic_moto_writes():
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if failed:
        raise failed[0]
    return counts["requests"], counts["conflicts"]


def main() -> None:
    with moto_backend():
        from blackjack_service import factories
        from blackjack_service.models import RegisterRequest

        for tables in (1, 2, 4):
            login = f"tables{tables}"
            register = {"login": login, "nick": login, "password": "password1"}
            factories.accounts().register(RegisterRequest.model_validate(register))
            requests, conflicts = play_at_once(login, tables)
            share = 100 * conflicts / requests
            print(f"{tables} table(s): {conflicts} of {requests} requests 409, {share:.1f} %")
    print("units a round: see bench.cost (unchanged when no write loses)")


if __name__ == "__main__":
    main()
