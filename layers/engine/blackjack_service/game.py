"""The game at a user's seats: the seat, its rounds, actions, hints and history.

Pure of AWS: it reads and writes only through `Store`. Everything a bet or an action
changes (the balance, the counters, the seat with its shoe and round, the keys that
replay) is in the player's one item, so every request is one read of it and (at most)
one conditional write; a request that settles a round first puts the round's history
item. The engine plays; this module decides what to store and what to show.

A round is stored as its bets and the user's moves, a shoe as its seeds: every round
shown is the engine's replay of them (a shuffle and a round take well under a
millisecond), so the seat stays small and a retried request is answered exactly as it
first was. The shoes themselves, their commitments and seeds, are `shoes.py`'s.
"""

import itertools
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, TypeVar

from blackjack import count
from blackjack.actions import Move, Phase, Result
from blackjack.errors import BetOutOfLimits
from blackjack.grading import Replaying
from blackjack.money import ZERO, to_json
from blackjack.players import COUNTER, advice, counter_play
from blackjack.round import Round, owner_player
from blackjack.rules import TABLES, Shuffle, Table
from blackjack.views import dealt_view, round_view

from . import idempotency, shoes
from .errors import (
    Conflict,
    IdempotencyKeyReused,
    InsufficientFunds,
    NoRound,
    NotFound,
    RoundInProgress,
    ShoeNotCommitted,
    StaleVersion,
    ValidationFailed,
)
from .idempotency import RequestKey
from .identity import Identity
from .models import ROUND_ID_PATTERN, ActionRequest, StartRoundRequest
from .records import (
    Page,
    Player,
    RetryKey,
    RoundRecord,
    Seat,
    SettledRound,
    ShoeRecord,
    Stats,
)
from .shoes import FairShoes, SeedSource, SystemSeeds
from .store import Store, until_written

_V = TypeVar("_V")
_WON = {Result.WIN, Result.BLACKJACK, Result.EVEN_MONEY}
_LOST = {Result.LOSE, Result.SURRENDER}
_ONE = Decimal(1)
# Writes a bet or an action tries while it loses only to the user's other tables (each
# one of those lands, so the user's own pace bounds them), and the pause before the n-th
# read again: up to min(n, 8) times this, at random (some 1.3 s at most in all).
_TABLE_WRITE_ATTEMPTS = 32
_RETRY_PAUSE_S = 0.01
_LONGEST_PAUSE = 8
# An id that cannot be ours is 404 without a read (a long one is more than a key holds).
_ROUND_ID = re.compile(ROUND_ID_PATTERN)


@dataclass(frozen=True, slots=True)
class Outcome:
    """The round after a bet or an action, and what it means for the metrics."""

    round: dict[str, Any]
    version: int
    started: bool
    house_net: Decimal | None  # the house's gain on the user's boxes once settled


@dataclass(frozen=True, slots=True)
class Played:
    """A round replayed from its records, or played on by a request: the engine's round,
    its record, the shoe it is dealt from, and what the user had staked and got back
    before the request (the write books the difference)."""

    round_: Round
    record: RoundRecord
    shoe: ShoeRecord  # its seeds; the round starts at `record.start`
    grader: Replaying | None = None  # what graded it: a move played on goes through it
    staked_before: Decimal = ZERO
    change_before: Decimal = ZERO  # returned - staked

    @property
    def settled(self) -> bool:
        return self.round_.phase is Phase.SETTLED


class GameService:
    def __init__(
        self,
        store: Store,
        seeds: SeedSource | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.shoes = FairShoes(store, seeds or SystemSeeds())
        self.clock = clock

    # ---- reads ------------------------------------------------------------------------

    def seat(self, identity: Identity, table_id: str) -> tuple[dict[str, Any], int]:
        """The user's seat and its version; the first look at a table commits its first shoe."""
        table = _table(table_id)
        player = self.store.existing_player(identity.account_id)
        seat = player.seats.get(table.id)
        if seat is None:
            player = self._seated(identity, table, player)
            seat = player.seats[table.id]
        played = None if seat.round is None else replay(table, seat.shoe_of_round(), seat.round)
        answer = {
            "table": table.as_dict(),
            "balance": to_json(player.balance),
            "shoe": {**shoes.seat_shoe(table, seat.shoe), "count": _count(table, seat, played)},
            "round": None if played is None else round_api_view(played, player.balance),
        }
        return answer, seat.version

    def hint(self, identity: Identity, table_id: str, level: str) -> dict[str, Any]:
        table = _table(table_id)
        round_ = _in_play(
            table, self.store.existing_player(identity.account_id).seats.get(table.id), graded=False
        ).round_
        return hint_of(round_, level)

    def history(
        self, identity: Identity, table_id: str | None, limit: int, before: str | None
    ) -> Page:
        """A page of settled rounds, last first; `before` (a history position) continues one.
        The seats' settled rounds that may have no history item yet, and the history items:
        one more than the page of each tells whether another page follows.

        The player item is read first. A round settled before the read began is then in a
        seat (the outbox) or already filed, and a round filed meanwhile was in its seat when
        the player item was read: either way one of the two reads has it, and a round in
        both is one round (its position is its settle time and id)."""
        if table_id is not None and table_id not in TABLES:
            raise ValidationFailed(f"unknown table {table_id!r}; tables: {', '.join(TABLES)}")
        # a login that does not exist has no rounds: 401
        player = self.store.existing_player(identity.account_id)
        listed = self.store.list_rounds(
            identity.account_id, table_id, limit + 1, before, seated=player.seats.keys()
        )
        held = (
            _settled_round(TABLES[seat_table], seat)
            for seat_table, seat in player.seats.items()
            if table_id in (None, seat_table) and _awaiting_history(seat)
        )
        unlisted = {s.position: s for s in held if before is None or s.position < before}
        merged = sorted((dict(listed) | unlisted).items(), reverse=True)
        page = merged[:limit]
        shown = (self._history_round(identity.account_id, player, stored) for _, stored in page)
        return Page(
            rounds=[round_ for round_ in shown if round_ is not None],
            next_position=page[-1][0] if len(merged) > limit else None,
        )

    def round(self, identity: Identity, round_id: str) -> dict[str, Any]:
        if not _ROUND_ID.fullmatch(round_id):
            raise NotFound(f"no round {round_id}")
        player = self.store.existing_player(identity.account_id)
        for table_id, seat in player.seats.items():
            record = seat.round
            if record is not None and round_id_of(seat.shoe_of_round(), record) == round_id:
                played = replay(TABLES[table_id], seat.shoe_of_round(), record)
                return round_api_view(played, None if played.settled else player.balance)
        stored = self.store.get_round(identity.account_id, round_id)
        shown = None if stored is None else self._history_round(identity.account_id, player, stored)
        if shown is None:
            raise NotFound(f"no round {round_id}")
        return shown

    # ---- writes -----------------------------------------------------------------------

    def start_round(
        self,
        identity: Identity,
        table_id: str,
        request: StartRoundRequest,
        key: RequestKey | None = None,
    ) -> Outcome:
        table = _table(table_id)

        def bet(seat: Seat | None, now_ms: int) -> Played:
            if seat is None:  # its first shoe's hash must be seen before any bet (FAIRNESS.md)
                raise ShoeNotCommitted(f"look at the table first: GET /v1/tables/{table.id}")
            if seat.round is not None and seat.round.settled_at is None:
                raise RoundInProgress("finish the round in play first")
            bets = _distinct({bet.box: bet.amount for bet in request.bets}, len(request.bets))
            ai = _distinct({ai_box.box: ai_box.level for ai_box in request.ai}, len(request.ai))
            shoe = shoes.for_first_round(table, seat.shoe, request.client_seed, request.cut)
            round_ = Round.deal(table, shoes.engine_shoe(table, shoe), bets, ai)  # BetOutOfLimits
            record = RoundRecord(
                number=shoe.rounds + 1,
                version=seat.version + 1,
                start=shoe.position,
                started_at=now_ms,
                bets=dict(bets),
                ai=dict(ai),
            )
            return Played(round_, record, shoe)

        return self._play(identity, table, key, bet)

    def act(
        self,
        identity: Identity,
        table_id: str,
        request: ActionRequest,
        expected_version: int | None,
        key: RequestKey | None = None,
    ) -> Outcome:
        """The action on the round in play, if the seat is at `expected_version` (None: at
        any version)."""
        table = _table(table_id)

        def move(seat: Seat | None, now_ms: int) -> Played:
            if (
                expected_version is not None
                and seat is not None
                and expected_version != seat.version
            ):
                raise StaleVersion(f"the round is at version {seat.version}")
            played = _in_play(table, seat, graded=True)
            round_, grader = played.round_, played.grader
            staked, change = round_.staked(), round_.returned() - round_.staked()
            round_.act(request.action, request.amount, grader=grader)  # IllegalAction, ...
            moves = [*played.record.moves, Move(request.action, request.amount)]
            assert grader is not None
            record = replace(played.record, moves=moves, expert=grader.expert)
            return replace(played, record=record, staked_before=staked, change_before=change)

        return self._play(identity, table, key, move)

    # ---- the common write -------------------------------------------------------------

    def _play(
        self,
        identity: Identity,
        table: Table,
        key: RequestKey | None,
        step: Callable[[Seat | None, int], Played],
    ) -> Outcome:
        """Play `step` on the seat and write the result as one conditional write of the
        player item, or answer a retried key as it was first answered. A write that lost
        only to the user's requests at other tables is played again on what they wrote."""

        def play(player: Player) -> Outcome:
            now = self.clock()
            if key is not None:
                replayed = self._replay(identity, table, player, key, now)
                if replayed is not None:
                    return replayed
            seat = player.seats.get(table.id)
            played = step(seat, int(now * 1000))
            assert seat is not None  # a step refuses a table with no seat
            return self._write(identity, table, player, seat, played, key, now)

        def other_tables_only(lost_on: Player, fresh: Player) -> bool:
            """Whether what won moved only other tables, or was this request's own retry."""
            moved_on = fresh.seats.get(table.id) != lost_on.seats.get(table.id)
            retried = (
                key is not None
                and idempotency.entry_of(fresh.keys.get(table.id, []), key, self.clock())
                is not None
            )
            return not moved_on or retried

        def read() -> Player:
            return self.store.existing_player(identity.account_id)

        lost = itertools.count(1)

        def read_again() -> Player:
            # The other tables' requests go on meanwhile: a pause of random length, longer
            # after each loss, lets this one read and write between theirs.
            time.sleep(random.uniform(0, _RETRY_PAUSE_S * min(next(lost), _LONGEST_PAUSE)))
            return read()

        return until_written(
            read(), play, read_again, retry=other_tables_only, attempts=_TABLE_WRITE_ATTEMPTS
        )

    def _write(
        self,
        identity: Identity,
        table: Table,
        player: Player,
        seat: Seat,
        played: Played,
        key: RequestKey | None,
        now: float,
    ) -> Outcome:
        """One conditional write of the player item with what `played` did; a bet first
        files the settled round it replaces at the seat."""
        balance = _balance_after(player, played)
        played, new_seat = self._seat_after(played, balance, int(now * 1000))
        net = played.round_.net
        stats = (
            player.stats if net is None else player.stats.plus(settlement_stats(played.round_, net))
        )
        new_player = Player(
            revision=(player.revision or 0) + 1,
            balance=balance,
            stats=stats,
            seats={**player.seats, table.id: new_seat},
            keys=_keys_after(player, table, key, new_seat.version, now),
        )
        if not played.record.moves and _awaiting_history(seat):
            # The bet replaces the seat's settled round, so its history item comes first:
            # made from the seat alone, it is the same whoever puts it, and true even if
            # this write then loses.
            self.store.put_round(identity.account_id, _settled_round(table, seat))
        self.store.put_player(identity.account_id, new_player, expected_revision=player.revision)
        return Outcome(
            round=round_api_view(played, balance, answer=True),
            version=new_seat.version,
            started=not played.record.moves,
            house_net=None if net is None else -net,
        )

    def _seat_after(self, played: Played, balance: Decimal, now_ms: int) -> tuple[Played, Seat]:
        """The round's record with the balance it leaves, and the seat that holds it: its
        shoe dealt on, and retired for a fresh one once a round settles at the cut card
        (or at a table that shuffles every round). The settled round stays the seat's
        round, which is its history until the next bet at the table files it (see
        `_awaiting_history`)."""
        round_, table = played.round_, played.round_.table
        record = replace(played.record, balances=[*played.record.balances, balance])
        rounds = max(played.shoe.rounds, record.number)
        shoe = replace(played.shoe, position=round_.shoe.position, rounds=rounds)
        round_shoe = None
        if round_.net is not None:
            record = replace(record, settled_at=now_ms)
            if table.rules.shuffle is Shuffle.EVERY_ROUND or round_.shoe.cut_card_out:
                round_shoe, shoe = shoe, self.shoes.commit(shoe.nonce + 1, now_ms)
        seat = Seat(
            version=record.version + len(record.moves),
            shoe=shoe,
            round=record,
            round_shoe=round_shoe,
        )
        return replace(played, record=record), seat

    # ---- retries ----------------------------------------------------------------------

    def _replay(
        self, identity: Identity, table: Table, player: Player, key: RequestKey, now: float
    ) -> Outcome | None:
        """The first answer to a key the user sent at this table, or None for a new key."""
        entry = idempotency.entry_of(player.keys.get(table.id, []), key, now)
        if entry is None:
            return None
        if entry.body != key.body:
            raise IdempotencyKeyReused("this Idempotency-Key was sent with another body")
        seat = player.seats[table.id]
        record, shoe = seat.round, seat.shoe_of_round()
        if record is None or entry.version < record.version:
            settled = self._settled_at(identity, table, entry)
            record, shoe = settled.round, settled.shoe
        steps = entry.version - record.version
        played = replay(table, shoe, record, steps)
        balance = record.balances[steps]
        shown = round_api_view(played, balance, answer=True)
        return Outcome(round=shown, version=entry.version, started=False, house_net=None)

    def _settled_at(self, identity: Identity, table: Table, entry: RetryKey) -> SettledRound:
        """The settled round at the table that the keyed request was part of: the first one
        that settled since the request whose versions include its answer's."""
        since_us = entry.minute * 60 * 1_000_000
        for stored in self.store.rounds_since(identity.account_id, table.id, since_us):
            if (
                stored.round.version
                <= entry.version
                <= stored.round.version + len(stored.round.moves)
            ):
                return stored
        # Its history item is put before the write that kept the key, and read strongly
        # consistent: this is not reached unless the table lost it.
        raise Conflict("the first answer to this Idempotency-Key is not readable yet; retry")

    # ---- helpers ----------------------------------------------------------------------

    def _seated(self, identity: Identity, table: Table, player: Player) -> Player:
        """The player with a seat at the table: its first shoe committed and written. A
        concurrent request's write is read again; its seat, if it made one, is the seat."""

        def seat(player: Player) -> Player:
            if table.id in player.seats:
                return player
            now = self.clock()
            first = Seat(version=1, shoe=self.shoes.commit(1, int(now * 1000)))
            seated = replace(
                player,
                revision=(player.revision or 0) + 1,
                seats={**player.seats, table.id: first},
                keys=_kept_keys(player, now),
            )
            self.store.put_player(identity.account_id, seated, expected_revision=player.revision)
            return seated

        return until_written(player, seat, lambda: self.store.existing_player(identity.account_id))

    def _history_round(
        self, account_id: str, player: Player, stored: SettledRound | dict[str, Any]
    ) -> dict[str, Any] | None:
        """A history item's round as the player sees it, or None for no round of the
        history. The player item is the truth: a round the seat holds is shown as the seat
        has it (one still in play is no history yet), and one it never recorded was not
        played (items that requests put before their write, as they did before the seat
        was the outbox, can be such)."""
        if not isinstance(stored, SettledRound):
            return {"room_id": None, **stored}  # a view of before rooms
        if stored.room is not None:  # filed by the write that settled it: always played
            played = replay(TABLES[stored.table], stored.shoe, stored.round)
            return round_api_view(played, None, room_id=stored.room, viewer=account_id)
        seat = player.seats.get(stored.table)
        if seat and seat.round and round_id_of(seat.shoe_of_round(), seat.round) == stored.round_id:
            played = replay(TABLES[stored.table], seat.shoe_of_round(), seat.round)
            return round_api_view(played, None) if played.settled else None
        if (
            seat
            and stored.shoe.shoe_id == seat.shoe.shoe_id
            and stored.round.number > seat.shoe.rounds
        ):
            return None  # a round the seat never recorded: its request's write did not land
        return round_api_view(replay(TABLES[stored.table], stored.shoe, stored.round), None)


# ---- replays and rounds shown ---------------------------------------------------------


def replay(
    table: Table,
    shoe: ShoeRecord,
    record: RoundRecord,
    steps: int | None = None,
    graded: bool = True,
) -> Played:
    """The round of `record` after its bet and its first `steps` moves (default: all),
    each of the user's decisions graded unless told not to."""
    moves = record.moves if steps is None else record.moves[:steps]
    grader = Replaying(record.expert[: len(moves)]) if graded else None
    dealt_from = shoes.engine_shoe(table, shoe, record.start)
    round_ = Round.replay(
        table, dealt_from, record.bets, record.ai, moves, grader=grader, owners=record.owners
    )
    shown = replace(
        record,
        moves=list(moves),
        balances=record.balances[: len(moves) + 1],
        expert=record.expert[: len(moves)],
    )
    return Played(round_, shown, shoe, grader=grader)


def hint_of(round_: Round, level: str) -> dict[str, Any]:
    """What `level` would do at the decision the round asks (API.md, the hint)."""
    view = round_.player_view()
    assert view is not None  # a round in play always asks someone
    unseen = round_.unseen()
    action, values = advice(level, view, unseen)
    index = counter_play(view, unseen)[1] if level == COUNTER else None
    return {
        "action": action.value,
        "level": level,
        "ev": None if values is None else {str(a): v for a, v in values.items()},
        "count": count_json(round_.count()),
        "index": None if index is None else index.as_dict(),
    }


def seat_round(table: Table, seat: Seat) -> Round | None:
    """The seat's current or last round, replayed."""
    return None if seat.round is None else replay(table, seat.shoe_of_round(), seat.round).round_


def _in_play(table: Table, seat: Seat | None, graded: bool) -> Played:
    if seat is not None and seat.round is not None and seat.round.settled_at is None:
        return replay(table, seat.shoe_of_round(), seat.round, graded=graded)
    raise NoRound("no round in play at this table; place a bet")


def _awaiting_history(seat: Seat | None) -> bool:
    """Whether the seat's round settled and may have no history item yet. The player item
    is the truth: the write that settles a round writes nothing else, the round stays the
    seat's, and every read shows it as history; the bet that replaces it puts its history
    item first. The seat is thus the outbox of its table's last settled round."""
    return seat is not None and seat.round is not None and seat.round.settled_at is not None


def _settled_round(table: Table, seat: Seat) -> SettledRound:
    """The seat's settled round as its history item holds it, made from the seat alone:
    any request that puts it puts the same bytes."""
    assert seat.round is not None
    record, shoe = seat.round, seat.shoe_of_round()
    net = replay(table, shoe, record).round_.net
    assert net is not None
    round_id = round_id_of(shoe, record)
    return SettledRound(round_id, table.id, shoe, record, net, end=shoe.position)


def round_id_of(shoe: ShoeRecord, record: RoundRecord) -> str:
    return record.round_id or f"{shoe.shoe_id}-{record.number}"


def round_api_view(
    played: Played,
    balance: Decimal | None,
    answer: bool = False,
    room_id: str | None = None,
    viewer: str | None = None,
) -> dict[str, Any]:
    """The round of API.md: the engine's view of it, with what the service keeps about
    it. The balance is the one after the round's last step shown, unless given. The answer
    to a bet or an action (`answer`) shows what it did to the cards; others, nothing. A
    room's round (`room_id`) is shown to one user (`viewer`, an account id; None: to a
    watcher): owners by nick, decisions and the net only on the viewer's boxes."""
    record = played.record
    view = {
        "round_id": round_id_of(played.shoe, record),
        "room_id": room_id,
        "shoe_id": played.shoe.shoe_id,
        "version": record.version + len(record.moves),
        "started_at": timestamp(record.started_at),
        "settled_at": timestamp(record.settled_at) if played.settled else None,
        **round_view(played.round_),
        "dealt": dealt_view(played.round_) if answer else [],
        "balance": to_json(balance if balance is not None else record.balances[-1])
        if balance is not None or record.balances
        else None,
    }
    if record.owners:
        _shown_to(view, played.round_, record, viewer)
    return view


def _shown_to(view: dict[str, Any], round_: Round, record: RoundRecord, viewer: str | None) -> None:
    """A room round's view as `viewer` sees it (see `round_api_view`)."""
    for box in view["boxes"]:
        owner = record.owners.get(box["box"])
        box["player"] = owner_player(record.nicks.get(box["box"], ""))
        if owner is None or owner != viewer:
            for hand in box["hands"]:
                hand["decisions"] = []
    mine = viewer is not None and viewer in record.owners.values()
    net = round_.net_of(owner_player(viewer)) if mine and viewer else None
    view["net"] = None if net is None else to_json(net)
    turn = round_.turn
    if turn is None or record.owners.get(turn[0].index) != viewer:
        view["legal_actions"] = []


def timestamp(epoch_ms: int | None) -> str | None:
    """UTC, RFC 3339 with milliseconds (API.md)."""
    if epoch_ms is None:
        return None
    moment = datetime.fromtimestamp(epoch_ms / 1000, UTC).isoformat(timespec="milliseconds")
    return moment.replace("+00:00", "Z")


def _count(table: Table, seat: Seat, played: "Played | None") -> dict[str, Any]:
    """The count of the seat's shoe (API.md): over the round in play's public cards and
    its shoe's earlier rounds, or over all the shoe has dealt."""
    if played is not None and not played.settled:
        return count_json(played.round_.count())
    shoe = shoes.engine_shoe(table, seat.shoe)
    return count_json(count.hi_lo(table.rules.decks, count.public_cards(shoe)))


def count_json(counted: dict[str, Any]) -> dict[str, Any]:
    return {**counted, "true": to_json(counted["true"])}


def _table(table_id: str) -> Table:
    table = TABLES.get(table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    return table


def _balance_after(player: Player, played: Played) -> Decimal:
    """The balance once the request's step is booked: what it staked, and what it paid."""
    round_ = played.round_
    stake = round_.staked() - played.staked_before
    if stake > player.balance:
        raise InsufficientFunds(f"the stake is {stake}, the balance {player.balance}")
    change = round_.returned() - round_.staked() - played.change_before
    return exact(player.balance + change)


def _keys_after(
    player: Player, table: Table, key: RequestKey | None, version: int, now: float
) -> dict[str, list[RetryKey]]:
    """The keys still kept, with the request's own (its answer is the seat at `version`)."""
    keys = _kept_keys(player, now)
    if key is not None:
        entry = RetryKey(key.digest, key.body, version, int(now // 60))
        keys[table.id] = idempotency.adding(keys.get(table.id, []), entry)
    return keys


def _kept_keys(player: Player, now: float) -> dict[str, list[RetryKey]]:
    """The keys still within their 24 hours, by table."""
    kept = {
        table_id: idempotency.kept(retry_keys, now) for table_id, retry_keys in player.keys.items()
    }
    return {table_id: retry_keys for table_id, retry_keys in kept.items() if retry_keys}


def settlement_stats(round_: Round, net: Decimal, player: str | None = None) -> Stats:
    """What a settled round adds to the user's (or one owner's) stats, the trainer's
    counters included."""
    user_boxes = list(round_.boxes_of(player))
    results = [hand.result for box in user_boxes for hand in box.hands]
    stats = Stats(
        rounds=1,
        hands_won=sum(result in _WON for result in results),
        hands_lost=sum(result in _LOST for result in results),
        hands_pushed=sum(result is Result.PUSH for result in results),
        net=net,
    )
    for box in user_boxes:
        for decision in (decision for hand in box.hands for decision in hand.decisions):
            grades = stats.by_kind[decision.kind]
            grades.decisions += 1
            grades.mistakes += decision.mistake
            grades.ev_lost += decision.loss * box.bet  # per unit of the original bet
            expert = stats.expert
            expert.expert_mistakes += decision.expert_mistake
            expert.expert_ev_lost += decision.expert_loss * box.bet
            expert.deviations += decision.deviation
            expert.deviations_taken += (
                decision.deviation and decision.action is decision.expert_best
            )
            stats.counter.index_spots += decision.index_spot
            stats.counter.index_spots_taken += decision.index_taken
    return stats


def _distinct(by_box: dict[int, _V], given: int) -> dict[int, _V]:
    if len(by_box) != given:
        raise BetOutOfLimits("a box can be taken only once")
    return by_box


def exact(amount: Decimal) -> Decimal:
    """The amount without trailing zeros (10, not 10.0: the item stores it as written)."""
    return amount.quantize(_ONE) if amount == amount.to_integral_value() else amount.normalize()
