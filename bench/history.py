"""What a history read costs as the history grows (issue 43): the DynamoDB calls and the
in-process time of a page of the whole history, a page of one table's, a round found by
id, and a made-up round and shoe id, for a user with 100 rounds and with 10,000. The
target is the same within 1.5 times (O(page), not O(history)). In-process, on DynamoDB Local
(moto reads a user's every item at each query, so its time grows with the history
whatever the keys).

The worst case is measured: the table asked for was played only in the history's first
shoe, and the made-up ids name that shoe's time, so a read that filtered or scanned would
cross the whole history after it."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from .backend import CallCounter
from .cost import dynamodb_local

SIZES = (100, 10_000)
TABLES = ("bicycle", "casino", "european", "classic")  # bicycle: the first shoe's alone
ROUNDS_A_SHOE = 40
TARGET_RATIO = 1.5
SAMPLES = 5


def file_history(account_id: str, rounds: int, start_ms: int) -> list[str]:
    """The user's history made of `rounds` settled rounds, a shoe of `ROUNDS_A_SHOE` at a
    time at each table in turn (bicycle only first), from a round filed at each table:
    the round ids, first settled first. (The seats' last rounds stay in them.)"""
    from blackjack_service import factories
    from blackjack_service.records import SettledRound

    store = factories.store()
    played = {
        stored.table: stored
        for _, stored in store.list_rounds(account_id, None, 100, None)
        if isinstance(stored, SettledRound)
    }
    for sk in store.account_items(account_id):
        if sk.startswith("HISTORY#"):  # the history begins with the rounds made here
            store.delete(account_id, sk)
    round_ids: list[str] = []
    for shoe_number in range(-(-rounds // ROUNDS_A_SHOE)):
        table = TABLES[0] if shoe_number == 0 else TABLES[1 + shoe_number % 3]
        template = played[table]
        committed_at = start_ms + shoe_number * ROUNDS_A_SHOE * 1000
        shoe = replace(template.shoe, committed_at=committed_at)
        for number in range(1, min(ROUNDS_A_SHOE, rounds - len(round_ids)) + 1):
            round_id = f"{shoe.shoe_id}-{number}"
            record = replace(template.round, number=number, settled_at=committed_at + number)
            settled = replace(template, round_id=round_id, shoe=shoe, round=record)
            store.put_round(account_id, settled)
            round_ids.append(round_id)
    return round_ids


def measure(rounds: int) -> dict[str, tuple[int, float]]:
    """Per read: the DynamoDB calls it made and its median time (s) over `SAMPLES`."""
    with dynamodb_local():
        from blackjack_service import factories
        from blackjack_service.identity import Identity
        from blackjack_service.models import RegisterRequest

        login = "history1"
        identity = Identity(login=login, nick="bench")
        factories.accounts().register(
            RegisterRequest(login=login, nick="bench", password="password1")
        )
        for table in TABLES:
            play_one_round(identity, table)
        start_ms = int(time.time() * 1000) - (rounds + 1) * 1000 * 2
        round_ids = file_history(login, rounds, start_ms)
        made_up_shoe = f"{start_ms + 1:011x}" + "0" * 21
        game, shoes = factories.game(), factories.shoes()
        reads: dict[str, Callable[[], Any]] = {
            "?limit=1": lambda: game.history(identity, None, 1, None),
            "?table=bicycle&limit=1": lambda: game.history(identity, "bicycle", 1, None),
            "the first shoe's round": lambda: game.round(identity, round_ids[20]),
            "a made-up round id": lambda: _not_found(game.round, identity, made_up_shoe + "-7"),
            "a made-up shoe id": lambda: _not_found(shoes.shoe, identity, made_up_shoe),
        }
        counter = CallCounter()
        factories.store().client.meta.events.register("before-call.dynamodb", counter)
        figures = {}
        for name, read in reads.items():
            calls, seconds = [], []
            for _ in range(SAMPLES):
                counter.take()
                began = time.perf_counter()
                read()
                seconds.append(time.perf_counter() - began)
                calls.append(len(counter.take()))
            figures[name] = (max(calls), statistics.median(seconds))
        return figures


def play_one_round(identity: Any, table: str) -> None:
    """A round at the table, filed by the next bet (whose round is played out too)."""
    from blackjack_service import factories
    from blackjack_service.models import ActionRequest, StartRoundRequest

    game = factories.game()
    game.seat(identity, table)
    a_bet = StartRoundRequest.model_validate({"bets": [{"box": 0, "amount": 10}]})
    for _ in range(2):
        round_ = game.start_round(identity, table, a_bet).round
        while round_["status"] != "settled":
            legal = round_["legal_actions"]
            action = "stand" if "stand" in legal else "decline_insurance"
            request = ActionRequest.model_validate({"action": action})
            round_ = game.act(identity, table, request, None).round


def _not_found(read: Callable[..., Any], *args: Any) -> None:
    from blackjack_service.errors import NotFound

    try:
        read(*args)
    except NotFound:
        return
    raise AssertionError("a made-up id was found")


def by_size() -> Iterator[tuple[int, dict[str, tuple[int, float]]]]:
    for rounds in SIZES:
        yield rounds, measure(rounds)


def main() -> None:
    small, large = (figures for _, figures in by_size())
    print(
        "History reads, DynamoDB calls and median ms (DynamoDB Local), "
        f"{SIZES[0]} vs {SIZES[1]} rounds:"
    )
    print(f"  {'read':<24} {'calls':>11} {'ms':>15}  target: within {TARGET_RATIO}x")
    missed = []
    for name, (calls, seconds) in small.items():
        more_calls, more_seconds = large[name]
        ratio = max(more_calls / calls, more_seconds / seconds)
        verdict = "ok" if ratio <= TARGET_RATIO else "MISSED"
        if verdict == "MISSED":
            missed.append(name)
        print(
            f"  {name:<24} {calls:>5} {more_calls:>5} "
            f"{seconds * 1000:>7.1f} {more_seconds * 1000:>7.1f}  {ratio:.2f}x {verdict}"
        )
    print(f"  targets missed: {', '.join(missed) or 'none'}")


if __name__ == "__main__":
    main()
