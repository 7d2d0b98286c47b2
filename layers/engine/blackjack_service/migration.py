"""The one-off move of the items stored under earlier keys to today's (issues 33, 39, 43):

    python -m blackjack_service.migration [--table NAME]

(the table from `TABLE_NAME` otherwise; AWS credentials, region and endpoint as boto3 reads
them, so `AWS_ENDPOINT_URL_DYNAMODB` points it at DynamoDB Local).

It runs right after the deploy whose code reads only today's keys. Per account (one
consistent query of its items), in this order:

0. The player item and the drills items whose write counter is stored unnamed (`version`,
   before the word meant one thing): each put with it as its `revision`, on condition that
   the stored one is still at that count (a request that wrote first renamed it). Until
   then, the account's requests are answered 503.
1. A profile that holds a balance and has no player item (stored before the player item,
   with a seat item `SEAT#<table>` per table): the player item, made of them, on
   condition that there is none. Until then the account's requests are answered 503.
2. A seat whose round is stored whole (a snapshot, as rounds were stored before they were
   their bets and moves): the round as its bets and the user's decisions, which replay to
   the same cards, in one write of the player item that expects the revision it read (a
   request that wrote first makes it read again). Until then, 503 too.
3. The shoes whose ids hold no commit time (committed before it was kept, some with a
   shoe item `SHOE#<shoe_id>`): where their rounds are filed, and the seeds of those retired
   before the player item, in the account's one `OLD_SHOES` item, put if there is none.
4. The settled rounds filed under their ids (`ROUND#<round_id>`, found by the index the
   table no longer has): each put under its history position, if nothing is there, then
   its old item deleted. The rounds settled before the player item keep their public
   views (they hold what a player saw, not the bets and moves a replay needs).
5. The settled rounds filed under their history position alone (`HISTORY#<position>`,
   before the history had a stream per table and its rooms): each put under its stream's
   key (`store.history_sk`), then its old item deleted.
6. The shoe and seat items, moved by then, deleted.
7. The shoes of the rooms the account's rounds were dealt in (`store.RoomShoe`, one item
   a shoe for every account), each put unless it is there: retired when the room dealt
   from a later one (the next the account played, or the room's shoe now), in play if it
   is the room's shoe now.

Each write is conditional or writes what is there already, so a run is idempotent, and a
run that died anywhere is finished by running it again: a round whose history item was put
and whose old item was not deleted is read once (nothing reads the old keys), and is moved
again as it is. Balances and counters are in the player item, which only 0, 1 and 2 write.
What stays: the profiles' old balance and counters, and the ledger entries (`LEDGER#…`),
which nothing reads.
"""

import argparse
import json
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal
from typing import Any

from blackjack.actions import Action, Move
from blackjack.round import USER, Round
from blackjack.rules import TABLES, Table

from .errors import Conflict
from .records import (
    UNNAMED_REVISION,
    ExpertCode,
    OldShoe,
    OldShoes,
    Player,
    RoomShoe,
    RoundRecord,
    Seat,
    SettledRound,
    ShoeRecord,
    Stats,
    committed_at_of,
    history_position,
    player_codec,
    revision_of,
    seat_codec,
    settled_codec,
)
from .shoes import engine_shoe
from .store import DRILLS, HISTORY, PLAYER, PROFILE, Store, history_sk, until_written

OLD_ROUND, OLD_SHOE, OLD_SEAT = "ROUND#", "SHOE#", "SEAT#"
_AI = "ai:"  # how a snapshot names an AI player: and its level


@dataclass(frozen=True, slots=True)
class Moved:
    """What a run did: the accounts it looked at, and those it moved something of."""

    accounts: int = 0
    moved: int = 0


def migrate(store: Store, report: Callable[[str], None] = print) -> Moved:
    """Move every account's items stored under earlier keys; `report` says how far it got
    after each page of the scan."""
    done = Moved()
    for account_ids in store.account_ids():
        for account_id in account_ids:
            moved = move_account(store, account_id)
            done = Moved(done.accounts + 1, done.moved + moved)
        report(f"{done.accounts} accounts: {done.moved} moved")
    return done


def move_account(store: Store, account_id: str) -> bool:
    """Move the account's items stored under earlier keys; whether there were any."""
    items = store.account_items(account_id)
    renamed = [
        store.put_revision_named(account_id, sk, item)
        for sk, item in items.items()
        if (sk == PLAYER or sk.startswith(DRILLS)) and UNNAMED_REVISION in item
    ]
    if renamed:  # a request may have written the item since: read what is there now
        items = store.account_items(account_id)
    moved = _move_player(store, account_id, items) or any(renamed)
    if moved:  # its seats' shoes are among those to find
        items = store.account_items(account_id)
    filed = (OLD_ROUND, HISTORY)
    history = {_position(sk, item): item for sk, item in items.items() if sk.startswith(filed)}
    shoes = _old_shoes(items, history)
    if shoes:
        moved |= store.put_old_shoes(account_id, OldShoes(shoes))
    for sk, item in items.items():
        if sk.startswith(OLD_ROUND) or _unstreamed(sk):
            position = _position(sk, item)
            attributes = (
                _history_attributes(item)
                if sk.startswith(OLD_ROUND)
                else {name: value for name, value in item.items() if name not in ("pk", "sk")}
            )
            in_room = "room" in attributes
            store.put_new(account_id, history_sk(item["table"], in_room, position), attributes)
            store.delete(account_id, sk)
            moved = True
    for sk in items:
        if sk.startswith((OLD_SHOE, OLD_SEAT)):
            store.delete(account_id, sk)
            moved = True
    for shoe_id, shoe in _room_shoes(store, history.values()).items():
        moved |= store.put_room_shoe(shoe_id, shoe)
    return moved


def _room_shoes(store: Store, history: Iterable[Mapping[str, Any]]) -> dict[str, RoomShoe]:
    """The shoes of the rooms these history items were dealt in, by id: each retired at
    the latest when its room's next shoe (of those) was committed, or its room's shoe now."""
    by_room: dict[tuple[str, str], set[str]] = {}
    for item in history:
        if "room" in item:
            stored = settled_codec.from_attributes(item)
            if isinstance(stored, SettledRound):
                by_room.setdefault((item["room"], item["table"]), set()).add(stored.shoe.shoe_id)
    shoes: dict[str, RoomShoe] = {}
    for (room_id, table), shoe_ids in by_room.items():
        room = store.get_room(room_id)
        dealt = sorted(shoe_ids)  # an id begins with its commit time
        later = [*dealt[1:], None if room is None else room.shoe.shoe_id]
        for shoe_id, next_id in zip(dealt, later, strict=True):
            retired_at = None if next_id in (None, shoe_id) else committed_at_of(next_id)
            shoes[shoe_id] = RoomShoe(room_id, table, retired_at)
    return shoes


# ---- the player item ------------------------------------------------------------------


def _move_player(store: Store, account_id: str, items: Mapping[str, Mapping[str, Any]]) -> bool:
    """Steps 1 and 2; whether this wrote the player item."""
    if PLAYER not in items:
        profile = items.get(PROFILE)
        if profile is None or "balance" not in profile:
            return False
        try:
            store.put_player(account_id, player_of(profile, items), expected_revision=None)
        except Conflict:
            return False  # another run put it first
        return True

    def replayed(stored: Mapping[str, Any]) -> bool:
        player = _replayed_player(stored, items)
        if player is None:
            return False
        store.put_player(account_id, player, expected_revision=revision_of(stored))
        return True

    def read_again() -> Mapping[str, Any]:
        return store.account_items(account_id)[PLAYER]

    return until_written(items[PLAYER], replayed, read_again)


def player_of(profile: Mapping[str, Any], items: Mapping[str, Mapping[str, Any]]) -> Player:
    """The player item of a profile and its seat items as they were stored."""
    balance = Decimal(profile["balance"])
    seats = (item for sk, item in items.items() if sk.startswith(OLD_SEAT))
    return Player(
        revision=1,
        balance=balance,
        stats=Stats.from_counters(profile),
        seats={item["table"]: _seat_of(item, balance, items) for item in seats},
    )


def _seat_of(
    item: Mapping[str, Any], balance: Decimal, items: Mapping[str, Mapping[str, Any]]
) -> Seat:
    """A seat item as it was stored (`state`: its shoe, and its round whole) as a seat."""
    document = json.loads(item["state"])
    shoe = _shoe_record(document["shoe"], retired=False)
    seat = Seat(version=int(item["version"]), shoe=shoe)
    snapshot, round_id = document.get("round"), document.get("round_id")
    if snapshot is None or round_id is None:
        return seat
    round_ = RoundRecord(
        number=0,
        version=seat.version,
        start=shoe.position,  # the snapshot has dealt up to here
        started_at=_ms(document.get("round_started_at")),
        bets={},
        balances=[balance],
        settled_at=_ms(document.get("round_settled_at")),
        round_id=round_id,
    )
    shoe_id = document.get("round_shoe_id") or shoe.shoe_id
    return _replayable(item["table"], seat, round_, snapshot | {"shoe_id": shoe_id}, items)


def _replayed_player(
    stored: Mapping[str, Any], items: Mapping[str, Mapping[str, Any]]
) -> Player | None:
    """The player item with its seats' whole rounds as bets and moves; None when it has none."""
    attributes, changed = dict(stored), False
    for name, value in stored.items():
        kind, _, table = name.partition("_")
        if kind != "seat" or not table:
            continue
        document = json.loads(value)
        snapshot = (document.get("round") or {}).pop("snapshot", None)
        if snapshot is None:
            continue
        seat = seat_codec.load(document)
        assert seat.round is not None
        moved = _replayable(table, seat, seat.round, snapshot, items)
        attributes[name] = seat_codec.document(moved)
        changed = True
    if not changed:
        return None
    player = player_codec.from_attributes(attributes)
    return replace(player, revision=(player.revision or 0) + 1)


def _replayable(
    table_id: str,
    seat: Seat,
    record: RoundRecord,
    snapshot: Mapping[str, Any],
    items: Mapping[str, Mapping[str, Any]],
) -> Seat:
    """The seat with its round, stored whole as `snapshot` with the moves since in
    `record`, as its bets and the user's moves: the decisions the snapshot keeps, in the
    order the round asked them (insurance first, then hand by hand), and the moves since.
    The snapshot had dealt to `record.start` of the seat's shoe, or to where the shoe it
    was dealt from retired. Raises ValueError when they do not replay to its cards."""
    table = TABLES[table_id]
    shoe_id = snapshot["shoe_id"]
    shoe, dealt_to = seat.shoe, record.start
    if shoe_id != shoe.shoe_id:  # dealt from a shoe retired since: its item has its seeds
        shoe = _shoe_record(json.loads(items[OLD_SHOE + shoe_id]["state"]), retired=True)
        dealt_to = shoe.position
    old_rounds = _old_round_ids(shoe_id, items)
    boxes = snapshot["boxes"]
    dealt = len(snapshot["dealer"]) + sum(len(h["cards"]) for b in boxes for h in b["hands"])
    start = dealt_to - dealt // 2
    users = [box for box in boxes if box["player"] == USER]
    asked = [
        (box, decision)
        for box in users
        for decision in box["hands"][0].get("decisions", ())
        if decision["kind"] == "insurance"
    ] + [
        (box, decision)
        for box in users
        for hand in box["hands"]
        for decision in hand.get("decisions", ())
        if decision["kind"] != "insurance"
    ]
    moves = [
        Move(Action(d["action"]), Decimal(box["insurance"]) if d["action"] == "insurance" else None)
        for box, d in asked
    ]
    expert: list[ExpertCode] = [
        (Action(d.get("expert_best", d["best"])), Decimal(d.get("expert_loss", d["loss"])))
        for _, d in asked
    ]
    replayed = replace(
        record,
        number=old_rounds.index(record.round_id) + 1 if record.round_id in old_rounds else 0,
        version=record.version - len(moves),
        start=start,
        bets={int(box["box"]): Decimal(box["bet"]) for box in users},
        ai={int(b["box"]): b["player"].removeprefix(_AI) for b in boxes if b["player"] != USER},
        moves=[*moves, *record.moves],
        expert=[*expert, *record.expert],
        balances=[record.balances[0]] * len(moves) + record.balances,
        settled_at=record.settled_at or _settled_at(record.round_id, items),
    )
    _check(table, shoe, replayed, len(moves), snapshot)
    if shoe is seat.shoe:
        return replace(seat, round=replayed)
    return replace(seat, round=replayed, round_shoe=shoe)


def _check(
    table: Table, shoe: ShoeRecord, record: RoundRecord, moves: int, snapshot: Mapping[str, Any]
) -> None:
    """Raise ValueError unless the record's bets and first `moves` moves replay to the
    snapshot's cards and phase."""
    round_ = Round.replay(
        table,
        engine_shoe(table, shoe, record.start),
        record.bets,
        record.ai,
        record.moves[:moves],
    )
    replayed = [round_.phase.value, "".join(round_.dealer)]
    replayed += ["".join(hand.cards) for box in round_.boxes for hand in box.hands]
    stored = [snapshot["phase"], snapshot["dealer"]]
    stored += [hand["cards"] for box in snapshot["boxes"] for hand in box["hands"]]
    if replayed != stored:
        raise ValueError(f"round {record.round_id} does not replay from its bets and decisions")


def _settled_at(round_id: str | None, items: Mapping[str, Mapping[str, Any]]) -> int | None:
    """When a round stored before the round times settled (epoch ms), from its history
    item's position; None for one in play."""
    item = items.get(OLD_ROUND + str(round_id))
    if item is None:
        return None
    return int(_position(OLD_ROUND, item)[:16]) // 1000


# ---- shoes and history ------------------------------------------------------------------


def _shoe_record(document: Mapping[str, Any], retired: bool) -> ShoeRecord:
    """A shoe item's document (`state`: its seeds and how far it dealt) as a shoe record:
    dealt up to there when in play or `retired`, else committed."""
    snapshot = document["state"]
    dealt = retired or document["in_play"]
    return ShoeRecord(
        stored_id=document["shoe_id"],
        server_seed=snapshot["server_seed"],
        client_seed=snapshot["client_seed"],
        nonce=int(snapshot["nonce"]),
        cut_index=snapshot["cut_index"],
        position=int(snapshot["position"]) if dealt else 0,
        rounds=len(document["rounds"]),
    )


def _old_round_ids(shoe_id: str, items: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The ids of a shoe's rounds dealt before the player item (its seat's copy of the
    shoe is the latest)."""
    copies = [json.loads(item["state"]) for sk, item in items.items() if sk.startswith(OLD_SEAT)]
    for document in [*(c["shoe"] for c in copies), *_shoe_documents(items)]:
        if document["shoe_id"] == shoe_id:
            return list(document["rounds"])
    return []


def _shoe_documents(items: Mapping[str, Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [json.loads(item["state"]) for sk, item in items.items() if sk.startswith(OLD_SHOE)]


def _old_shoes(
    items: Mapping[str, Mapping[str, Any]], history: Mapping[str, Mapping[str, Any]]
) -> dict[str, OldShoe]:
    """The account's shoes whose ids hold no commit time: those of the shoe items, and
    those of its seats and history items committed before commit times were kept. Each is
    filed from its first round's history position (from the start when none is filed)."""
    since: dict[str, str] = {}
    tables: dict[str, str] = {}
    for position, item in sorted(history.items()):
        stored = settled_codec.from_attributes(item)
        shoe_id = stored.shoe.shoe_id if isinstance(stored, SettledRound) else stored["shoe_id"]
        since.setdefault(shoe_id, history_position(int(position[:16]), ""))
        if isinstance(stored, SettledRound) and stored.shoe.committed_at is None:
            tables[shoe_id] = stored.table
    player = items.get(PLAYER)
    for name, value in () if player is None else player.items():
        kind, _, table = name.partition("_")
        if kind == "seat" and table:
            document = json.loads(value)
            (document.get("round") or {}).pop("snapshot", None)
            seat = seat_codec.load(document)
            for shoe in (seat.shoe, seat.round_shoe):
                if shoe is not None and shoe.committed_at is None:
                    tables[shoe.shoe_id] = table
    shoes = {
        shoe_id: OldShoe(table=table, since=since.get(shoe_id, history_position(0, "")))
        for shoe_id, table in tables.items()
    }
    for document in _shoe_documents(items):
        shoe_id = document["shoe_id"]
        retired = document["retired"]
        shoes[shoe_id] = OldShoe(
            table=document["table"],
            since=since.get(shoe_id, history_position(0, "")),
            rounds=_old_round_ids(shoe_id, items),
            retired=_retired_shoe(document) if retired else None,
        )
    return dict(sorted(shoes.items()))


def _retired_shoe(document: Mapping[str, Any]) -> ShoeRecord:
    """A shoe retired before the player item, at the position it was retired at: what it
    dealt (its cards are its seeds' shuffle)."""
    record = _shoe_record(document, retired=True)
    return replace(record, position=len(document["dealt"]) // 2)


def _position(sk: str, item: Mapping[str, Any]) -> str:
    """A history item's position: its key's, or, for one filed under its round id, the
    index's, at the millisecond (as a seat's settled round is filed when the next bet puts
    it: at the same key)."""
    if _unstreamed(sk):
        return sk.removeprefix(HISTORY)
    if sk.startswith(HISTORY):
        return sk.removeprefix(HISTORY).partition("#")[2]
    settled_us, _, round_id = str(item["gsi1sk"]).partition("#")
    return history_position(int(settled_us) // 1000 * 1000, round_id)


def _unstreamed(sk: str) -> bool:
    """Whether a key is a history item's filed under its position alone (no stream)."""
    return sk.startswith(HISTORY) and sk.removeprefix(HISTORY)[:1].isdigit()


def _history_attributes(item: Mapping[str, Any]) -> dict[str, Any]:
    """An item filed under its round id as a history item: a settled round as it is, a
    view as API.md reads it (one stored before the trainer gains its fields has them:
    its decisions' grades against perfect play and the counter's and the chart's plays
    as `hard` graded them, and a decision graded before any of them reads as `best`)."""
    if "round" in item:
        return {"table": item["table"], "round": item["round"]}
    view: dict[str, Any] = json.loads(item["view"])
    view.setdefault("started_at", None)
    view.setdefault("settled_at", None)
    view.setdefault("dealt", [])
    for box in view["boxes"]:
        for hand in box["hands"]:
            for decision in hand.setdefault("decisions", []):
                decision.setdefault("expert_best", decision["best"])
                decision.setdefault("expert_loss", decision["loss"])
                decision.setdefault("counter_best", decision["best"])
                decision.setdefault("medium_best", decision["best"])
    return {"table": item["table"], "view": json.dumps(view, separators=(",", ":"))}


def _ms(moment: str | None) -> int | None:
    """Epoch milliseconds of an RFC 3339 time; None where none was stored."""
    if moment is None:
        return None
    return int(datetime.fromisoformat(moment.replace("Z", "+00:00")).timestamp() * 1000)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m blackjack_service.migration",
        description="Move the items stored under earlier keys to today's.",
    )
    parser.add_argument("--table", default=os.environ.get("TABLE_NAME"), help="the table")
    table = parser.parse_args(argv).table
    if not table:
        parser.error("give --table, or set TABLE_NAME")
    done = migrate(Store(table))
    print(f"done: {done.accounts} accounts, {done.moved} moved")


if __name__ == "__main__":
    main()
