"""The one-off move of the accounts stored before the player item into it (issue 33):

    python -m blackjack_service.migration [--table NAME]

(the table from `TABLE_NAME` otherwise; AWS credentials, region and endpoint as boto3 reads
them, so `AWS_ENDPOINT_URL_DYNAMODB` points it at DynamoDB Local).

Before the player item, an account's balance and counters were in its profile and each
table's seat was an item of its own (`SEAT#<table>`, see `legacy`). For every profile that
holds a balance and has no player item, this puts the player item made of the profile and
its seats, conditional on there being none. That one write is the whole move of an
account, so a run is idempotent, and a run that died anywhere is finished by running it
again. It runs right after the deploy whose code reads only player items; until it has
moved an account, that account's requests are answered 503 (`NotMigrated`).

What stays as it was: the profiles' old balance and counters (nothing reads them, and
the code deployed while this runs may), and the old history items, shoes and seats,
which `legacy` reads. A seat's round stored then keeps its snapshot, which its moves play
on until the next bet at the table replaces it.
"""

import argparse
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from .errors import Conflict
from .legacy import LegacySeat
from .records import Player, RoundRecord, Seat, ShoeRecord, Stats
from .store import Store


@dataclass(frozen=True, slots=True)
class Moved:
    """What a run did: the accounts it moved, and those that had their player item."""

    moved: int = 0
    had_one: int = 0


def migrate(store: Store, report: Callable[[str], None] = print) -> Moved:
    """Move every account stored before the player item; `report` says how far it got
    after each page of the scan."""
    done = Moved()
    for logins in store.logins_stored_before_player_item():
        for account_id in logins:
            moved = move_account(store, account_id)
            done = Moved(done.moved + moved, done.had_one + (not moved))
        report(f"{done.moved + done.had_one} accounts: {done.moved} moved, {done.had_one} had one")
    return done


def move_account(store: Store, account_id: str) -> bool:
    """Put the account's player item, made of its profile and seats, unless it has one;
    whether this put it."""
    profile, has_player, seats = store.get_stored_before_player_item(account_id)
    if profile is None or has_player:
        return False
    try:
        store.put_player(account_id, player_of(profile, seats), expected_revision=None)
    except Conflict:
        return False  # another run, or the account's own first request, put it first
    return True


def player_of(profile: Mapping[str, Any], seats: Mapping[str, LegacySeat]) -> Player:
    """The player item of a profile and its seats as they were stored."""
    balance = Decimal(profile["balance"])
    return Player(
        revision=1,
        balance=balance,
        stats=Stats.from_counters(profile),
        seats={table: _seat_of(old, balance) for table, old in seats.items()},
    )


def _seat_of(old: LegacySeat, balance: Decimal) -> Seat:
    snapshot = old.shoe.snapshot
    shoe = ShoeRecord(
        stored_id=old.shoe.shoe_id,
        server_seed=snapshot["server_seed"],
        client_seed=snapshot["client_seed"],
        nonce=int(snapshot["nonce"]),
        cut_index=snapshot["cut_index"],
        position=int(snapshot["position"]) if old.shoe.in_play else 0,
        rounds=len(old.shoe.rounds),
    )
    round_ = None
    if old.round_snapshot is not None and old.round_id is not None:
        number = old.shoe.rounds.index(old.round_id) + 1 if old.round_id in old.shoe.rounds else 0
        round_ = RoundRecord(
            number=number,
            version=old.version,
            start=shoe.position,  # the snapshot has dealt up to here: its moves go on from it
            started_at=_ms(old.round_started_at),
            bets={},
            balances=[balance],
            settled_at=_ms(old.round_settled_at),
            round_id=old.round_id,
            # The round's cards are in its snapshot; its shoe id too, as its shoe may be retired.
            snapshot={**old.round_snapshot, "shoe_id": old.round_shoe_id or old.shoe.shoe_id},
        )
    return Seat(version=old.version, shoe=shoe, round=round_)


def _ms(moment: str | None) -> int | None:
    """Epoch milliseconds of an RFC 3339 time; None where none was stored."""
    if moment is None:
        return None
    return int(datetime.fromisoformat(moment.replace("Z", "+00:00")).timestamp() * 1000)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m blackjack_service.migration",
        description="Move the accounts stored before the player item into it.",
    )
    parser.add_argument("--table", default=os.environ.get("TABLE_NAME"), help="the table")
    table = parser.parse_args(argv).table
    if not table:
        parser.error("give --table, or set TABLE_NAME")
    done = migrate(Store(table))
    print(f"done: {done.moved} accounts moved, {done.had_one} had their player item")


if __name__ == "__main__":
    main()
