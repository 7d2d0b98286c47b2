"""The game at a user's seats: table views, rounds, actions, hints, history and shoes.

Pure of AWS: it reads and writes only through `Store`. Everything a bet or an action
changes (the balance, the counters, the seat with its shoe and round, the keys that
replay) is in the player's one item, so every request is one read of it and (at most)
one conditional write; a request that settles a round first puts the round's history
item. The engine plays; this module decides what to store and what to show.

A round is stored as its bets and the user's moves, a shoe as its seeds: every view is
the engine's replay of them (a shuffle and a round take well under a millisecond), so
the seat stays small and a retried request is answered exactly as it first was.

Seeds: the service takes a `SeedSource`. The deployed functions build the service with
`SystemSeeds` (the operating system's generator, FAIRNESS.md) and nothing in the
environment, a request or the table can change that; a test that needs a known shoe builds
its own `GameService` with its own source, in its own process.
"""

import functools
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from blackjack import count, fairness
from blackjack.actions import Move, Phase, Result
from blackjack.cards import Card
from blackjack.errors import BetOutOfLimits
from blackjack.grading import Replaying
from blackjack.money import ZERO, to_json
from blackjack.players import advice
from blackjack.round import Round
from blackjack.rules import TABLES, Shuffle, Table
from blackjack.shoe import Shoe
from blackjack.snapshots import round_from_snapshot
from blackjack.views import dealt_view, round_view

from . import idempotency
from .errors import (
    Conflict,
    IdempotencyKeyReused,
    InsufficientFunds,
    NoRound,
    NotFound,
    RoundInProgress,
    ShoeNotCommitted,
    StaleState,
    Unauthorized,
    ValidationFailed,
)
from .idempotency import RequestKey
from .identity import Identity
from .models import ROUND_ID_PATTERN, SHOE_ID_PATTERN, ActionRequest, StartRoundRequest
from .records import (
    Page,
    Player,
    RetryKey,
    RoundRecord,
    Seat,
    SettledRound,
    ShoeState,
    Stats,
)
from .store import Store

if TYPE_CHECKING:
    from .legacy import LegacyShoe

_V = TypeVar("_V")
_WON = {Result.WIN, Result.BLACKJACK, Result.EVEN_MONEY}
_LOST = {Result.LOSE, Result.SURRENDER}
_ONE = Decimal(1)
_WRITE_ATTEMPTS = 4  # a write that lost only to the user's requests at other tables retries
# An id that cannot be ours is 404 without a read (a long one is more than a key holds).
_SHOE_ID = re.compile(SHOE_ID_PATTERN)
_ROUND_ID = re.compile(ROUND_ID_PATTERN)


class SeedSource(Protocol):
    def server_seed(self) -> str: ...

    def client_seed(self) -> str: ...


class SystemSeeds:
    """The production source: the operating system's secure generator."""

    def server_seed(self) -> str:
        return fairness.new_server_seed()

    def client_seed(self) -> str:
        return fairness.new_client_seed()


@dataclass(frozen=True, slots=True)
class Outcome:
    """A round view after a bet or an action, and what it means for the metrics."""

    view: dict[str, Any]
    version: int
    started: bool
    house_net: Decimal | None  # the house's gain on the user's boxes once settled


@dataclass(frozen=True, slots=True)
class _Played:
    """A round replayed from its records, or played on by a request: the engine's round,
    its record, the shoe it is dealt from, and what the user had staked and got back
    before the request (the write books the difference)."""

    round_: Round
    record: RoundRecord
    shoe: ShoeState  # its seeds; the round starts at `record.start`
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
        self.seeds: SeedSource = seeds or SystemSeeds()
        self.clock = clock

    # ---- reads ------------------------------------------------------------------------

    def table_view(self, identity: Identity, table_id: str) -> tuple[dict[str, Any], int]:
        """The user's seat; the first view commits the table's first shoe."""
        table = _table(table_id)
        player = self._player(identity)
        seat = player.seats.get(table.id)
        if seat is None:
            player = self._first_view(identity, table, player)
            seat = player.seats[table.id]
        played = None if seat.round is None else _replay(table, seat.shoe_of_round(), seat.round)
        view = {
            "table": table.as_dict(),
            "balance": to_json(player.balance),
            "shoe": {**_shoe_view(table, seat.shoe), "count": _count(table, seat, played)},
            "round": None if played is None else _view(played, player.balance),
        }
        return view, seat.version

    def hint(self, identity: Identity, table_id: str, level: str) -> dict[str, Any]:
        table = _table(table_id)
        round_ = _in_play(table, self._player(identity).seats.get(table.id), graded=False).round_
        view = round_.player_view()
        assert view is not None  # a round in play always asks someone
        action, values = advice(level, view, round_.unseen())
        return {
            "action": action.value,
            "level": level,
            "ev": None if values is None else {str(a): v for a, v in values.items()},
            "count": _count_view(round_.count()),
        }

    def history(
        self, identity: Identity, table: str | None, limit: int, before: str | None
    ) -> Page:
        """A page of settled rounds, last first; `before` (a history position) continues one."""
        if table is not None and table not in TABLES:
            raise ValidationFailed(f"unknown table {table!r}; tables: {', '.join(TABLES)}")
        page = self.store.list_rounds(identity.key, table, limit, before)
        player = self._player(identity)  # a login that does not exist has no rounds: 401
        views = (self._settled_view(player, stored) for stored in page.rounds)
        return replace(page, rounds=[view for view in views if view is not None])

    def round(self, identity: Identity, round_id: str) -> dict[str, Any]:
        if not _ROUND_ID.fullmatch(round_id):
            raise NotFound(f"no round {round_id}")
        player = self._player(identity)
        for table_id, seat in player.seats.items():
            record = seat.round
            if record is None or (record.snapshot is not None and _is_settled(record)):
                continue  # a round settled before the player item: its stored view is it
            if _round_id(seat.shoe_of_round(), record) == round_id:
                played = _replay(TABLES[table_id], seat.shoe_of_round(), record)
                return _view(played, None if played.settled else player.balance)
        stored = self.store.get_round(identity.key, round_id)
        view = None if stored is None else self._settled_view(player, stored)
        if view is None:
            raise NotFound(f"no round {round_id}")
        return view

    def shoe(self, identity: Identity, shoe_id: str) -> dict[str, Any]:
        if not _SHOE_ID.fullmatch(shoe_id):
            raise NotFound(f"no shoe {shoe_id}")
        player = self._player(identity)
        for table_id, seat in player.seats.items():
            if seat.shoe.shoe_id == shoe_id:
                return self._shoe_record_view(identity, TABLES[table_id], seat.shoe, None)
            if seat.round_shoe is not None and seat.round_shoe.shoe_id == shoe_id:
                retired = seat.round_shoe
                return self._shoe_record_view(identity, TABLES[table_id], retired, retired.position)
        settled = self.store.rounds_of_shoe(identity.key, shoe_id)
        if settled:
            return self._retired_view(identity, settled[-1])
        old, _ = self.store.get_legacy_shoe(identity.key, shoe_id)
        if old is None:
            raise NotFound(f"no shoe {shoe_id}")
        if old.in_play and old.rounds:  # it may have retired after its last round
            final = self.store.get_round(identity.key, old.rounds[-1])
            if isinstance(final, SettledRound) and final.shoe.shoe_id == shoe_id:
                return self._retired_view(identity, final)
        return _legacy_shoe_view(old)

    # ---- writes -----------------------------------------------------------------------

    def start_round(
        self,
        identity: Identity,
        table_id: str,
        request: StartRoundRequest,
        key: RequestKey | None = None,
    ) -> Outcome:
        table = _table(table_id)

        def bet(seat: Seat | None, now_ms: int) -> _Played:
            if seat is None:  # its first shoe's hash must be seen before any bet (FAIRNESS.md)
                raise ShoeNotCommitted(f"view the table first: GET /v1/tables/{table.id}")
            if seat.round is not None and not _is_settled(seat.round):
                raise RoundInProgress("finish the round in play first")
            bets = _distinct({bet.box: bet.amount for bet in request.bets}, len(request.bets))
            ai = _distinct({seat_.box: seat_.level for seat_ in request.ai}, len(request.ai))
            shoe = self._shoe_for_round(table, seat.shoe, request)
            round_ = Round.deal(table, _shoe(table, shoe), bets, ai)  # BetOutOfLimits
            record = RoundRecord(
                number=shoe.rounds + 1,
                version=seat.version + 1,
                start=shoe.position,
                started_at=now_ms,
                bets=dict(bets),
                ai=dict(ai),
            )
            return _Played(round_, record, shoe)

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

        def move(seat: Seat | None, now_ms: int) -> _Played:
            if (
                expected_version is not None
                and seat is not None
                and expected_version != seat.version
            ):
                raise StaleState(f"the round is at version {seat.version}")
            played = _in_play(table, seat, graded=True)
            round_, grader = played.round_, played.grader
            staked, change = round_.user_staked, round_.user_returned - round_.user_staked
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
        step: Callable[[Seat | None, int], _Played],
    ) -> Outcome:
        """Play `step` on the seat and write the result as one conditional write of the
        player item, or answer a retried key as it was first answered. A write that lost
        only to the user's requests at other tables is played again on what they wrote."""
        player = self._player(identity)
        for attempt in range(_WRITE_ATTEMPTS):
            now = self.clock()
            if key is not None:
                replayed = self._replay(identity, table, player, key, now)
                if replayed is not None:
                    return replayed
            seat = player.seats.get(table.id)
            played = step(seat, int(now * 1000))
            assert seat is not None  # a step refuses a table with no seat
            try:
                return self._write(identity, table, player, seat, played, key, now)
            except Conflict:
                fresh = self._player(identity)
                moved_on = fresh.seats.get(table.id) != seat
                retried = (
                    key is not None
                    and idempotency.entry_of(fresh.keys.get(table.id, []), key, now) is not None
                )
                if attempt + 1 == _WRITE_ATTEMPTS or (moved_on and not retried):
                    raise
                player = fresh
        raise AssertionError("unreachable")

    def _write(
        self,
        identity: Identity,
        table: Table,
        player: Player,
        seat: Seat,
        played: _Played,
        key: RequestKey | None,
        now: float,
    ) -> Outcome:
        round_, record = played.round_, played.record
        stake = round_.user_staked - played.staked_before
        if stake > player.balance:
            raise InsufficientFunds(f"the stake is {stake}, the balance {player.balance}")
        change = round_.user_returned - round_.user_staked - played.change_before
        balance = _exact(player.balance + change)
        now_ms = int(now * 1000)
        record = replace(record, balances=[*record.balances, balance])
        rounds = max(played.shoe.rounds, record.number)
        shoe = replace(played.shoe, position=round_.shoe.position, rounds=rounds)
        round_shoe = None
        settled = None
        stats = player.stats
        net = round_.net
        if net is not None:
            record = replace(record, settled_at=now_ms)
            stats = stats.plus(_settlement_stats(round_, net))
            settled = SettledRound(
                round_id=_round_id(played.shoe, record),
                table=table.id,
                shoe=played.shoe,
                round=record,
                net=net,
                end=round_.shoe.position,
            )
            if table.rules.shuffle is Shuffle.EVERY_ROUND or round_.shoe.cut_card_out:
                round_shoe, shoe = shoe, self._commit_shoe(table, nonce=shoe.nonce + 1)
        new_seat = Seat(
            version=record.version + len(record.moves),
            shoe=shoe,
            round=record,
            round_shoe=round_shoe,
        )
        keys = _kept_keys(player, now)
        if key is not None:
            entry = RetryKey(key.key, key.body, new_seat.version, int(now // 60))
            keys[table.id] = idempotency.adding(keys.get(table.id, []), entry)
        new_player = Player(
            version=(player.version or 0) + 1,
            balance=balance,
            stats=stats,
            seats={**player.seats, table.id: new_seat},
            keys=keys,
        )
        writer = None
        if settled is not None:
            # The history item first, if the round has none: once the player item says the
            # round settled, its history item exists, whatever stops this request after.
            writer = self.store.add_round(identity.key, settled)
        try:
            self.store.put_player(identity.key, new_player, expected_version=player.version)
        except Conflict:
            if settled is not None and writer is not None:
                self.store.withdraw_round(identity.key, settled.round_id, writer)
            raise
        if settled is not None and writer is None:
            # An item was there: one that a request losing this race, or one stopped between
            # its two writes, left. This write won: its round is the round.
            self.store.put_round(identity.key, settled)
        view = _view(replace(played, record=record), balance, answer=True)
        return Outcome(
            view=view,
            version=new_seat.version,
            started=not record.moves,
            house_net=None if net is None else -net,
        )

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
        played = _replay(table, shoe, record, steps)
        balance = record.balances[steps]
        view = _view(played, balance, answer=True)
        return Outcome(view=view, version=entry.version, started=False, house_net=None)

    def _settled_at(self, identity: Identity, table: Table, entry: RetryKey) -> SettledRound:
        """The settled round at the table that the keyed request was part of: the first one
        that settled since the request whose versions include its answer's."""
        since_us = entry.minute * 60 * 1_000_000
        for stored in self.store.rounds_since(identity.key, table.id, since_us):
            if (
                stored.round.version
                <= entry.version
                <= stored.round.version + len(stored.round.moves)
            ):
                return stored
        # Its history item is put before the write that kept the key: only an index that
        # has not caught up yet misses it.
        raise Conflict("the first answer to this Idempotency-Key is not readable yet; retry")

    # ---- helpers ----------------------------------------------------------------------

    def _player(self, identity: Identity) -> Player:
        player = self.store.load_player(identity.key)
        if player is None:
            raise Unauthorized("this account no longer exists")
        return player

    def _first_view(self, identity: Identity, table: Table, player: Player) -> Player:
        """The player with a seat at the table: its first shoe committed and written. A
        concurrent request's write is read again; its seat, if it made one, is the seat."""
        for _ in range(_WRITE_ATTEMPTS):
            seat = Seat(version=1, shoe=self._commit_shoe(table, nonce=1))
            seated = replace(
                player,
                version=(player.version or 0) + 1,
                seats={**player.seats, table.id: seat},
                keys=_kept_keys(player, self.clock()),
            )
            try:
                self.store.put_player(identity.key, seated, expected_version=player.version)
                return seated
            except Conflict:
                player = self._player(identity)
                if table.id in player.seats:
                    return player
        raise Conflict("lost a race with concurrent requests; read the table again")

    def _commit_shoe(self, table: Table, nonce: int) -> ShoeState:
        """The next shoe's commitment: its server seed fixed (and hashed), not shuffled."""
        return ShoeState(
            server_seed=self.seeds.server_seed(),
            client_seed=self.seeds.client_seed(),
            nonce=nonce,
        )

    @staticmethod
    def _shoe_for_round(table: Table, shoe: ShoeState, request: StartRoundRequest) -> ShoeState:
        """The shoe in play, or the committed one with the player's seed and cut."""
        if shoe.position > 0:
            if request.client_seed is not None or request.cut is not None:
                raise ValidationFailed(
                    "client_seed and cut are allowed only on the round that starts a new shoe"
                )
            return shoe
        rules = table.rules
        if request.cut is not None:
            if rules.cut_range is None:
                raise ValidationFailed(f"the player does not place the cut at {table.id}")
            low, high = rules.cut_range
            if not low <= request.cut <= high:
                raise ValidationFailed(f"cut is from {low} to {high}")
        cut = request.cut if request.cut is not None else rules.cut_default
        return replace(
            shoe,
            client_seed=request.client_seed or shoe.client_seed,
            cut_index=(
                fairness.cut_index(rules.decks, cut)
                if rules.shuffle is Shuffle.CUT_CARD and cut is not None
                else None
            ),
        )

    def _settled_view(
        self, player: Player, stored: SettledRound | dict[str, Any]
    ) -> dict[str, Any] | None:
        """A history item's view, or None for no round of the history. The player item
        is the truth: a round the seat holds is shown as the seat has it (one still in
        play is no history yet), and one it never recorded was not played."""
        if not isinstance(stored, SettledRound):
            return stored
        seat = player.seats.get(stored.table)
        if seat and seat.round and _round_id(seat.shoe_of_round(), seat.round) == stored.round_id:
            played = _replay(TABLES[stored.table], seat.shoe_of_round(), seat.round)
            return _view(played, None) if played.settled else None
        if (
            seat
            and stored.shoe.shoe_id == seat.shoe.shoe_id
            and stored.round.number > seat.shoe.rounds
        ):
            return None  # a round the seat never recorded: its request's write did not land
        return _view(_replay(TABLES[stored.table], stored.shoe, stored.round), None)

    def _retired_view(self, identity: Identity, last: SettledRound) -> dict[str, Any]:
        """A retired shoe, from its last round's history item."""
        state = replace(last.shoe, rounds=last.round.number)
        return self._shoe_record_view(identity, TABLES[last.table], state, last.end)

    def _shoe_record_view(
        self, identity: Identity, table: Table, state: ShoeState, retired_at: int | None
    ) -> dict[str, Any]:
        """A shoe of the player item or the history; `retired_at`: the position it was
        retired at (None: committed or in play)."""
        retired = retired_at is not None
        cut = state.cut_index
        if cut is None and state.position == 0 and not retired:
            cut = _default_cut_index(table)
        cards = None
        if retired:
            cards = _cards(state.server_seed, state.client_seed, state.nonce, table.rules.decks)
        return {
            "shoe_id": state.shoe_id,
            "table": table.id,
            "server_seed_hash": fairness.seed_hash(state.server_seed),
            "client_seed": state.client_seed,
            "nonce": state.nonce,
            "decks": table.rules.decks,
            "cut_index": cut,
            "retired": retired,
            "server_seed": state.server_seed if retired else None,
            "cards": None if cards is None else list(cards[:retired_at]),
            "rounds": self._shoe_rounds(identity, table, state),
        }

    def _shoe_rounds(self, identity: Identity, table: Table, state: ShoeState) -> list[str]:
        """The shoe's round ids: `<shoe_id>-<n>`, after those of the rounds dealt before the
        player item existed (in its old items: the seat's copy of the shoe is the latest)."""
        old_shoe, old_seat = self.store.get_legacy_shoe(identity.key, state.shoe_id, table.id)
        if old_seat is not None and old_seat.shoe.shoe_id == state.shoe_id:
            old_shoe = old_seat.shoe
        before = [] if old_shoe is None else old_shoe.rounds
        numbered = range(len(before) + 1, state.rounds + 1)
        return [*before, *(f"{state.shoe_id}-{n}" for n in numbered)]


# ---- replays and views ----------------------------------------------------------------


@functools.lru_cache(maxsize=64)
def _cards(server_seed: str, client_seed: str, nonce: int, decks: int) -> tuple[Card, ...]:
    return tuple(fairness.shuffled_shoe(server_seed, client_seed, nonce, decks))


def _shoe(table: Table, state: ShoeState, position: int | None = None) -> Shoe:
    """The engine's shoe of a stored one, at `position` (default: as far as it has dealt)."""
    decks = table.rules.decks
    return Shoe(
        server_seed=state.server_seed,
        client_seed=state.client_seed,
        nonce=state.nonce,
        decks=decks,
        cut_index=state.cut_index,
        cards=list(_cards(state.server_seed, state.client_seed, state.nonce, decks)),
        position=state.position if position is None else position,
    )


def _replay(
    table: Table,
    shoe: ShoeState,
    record: RoundRecord,
    steps: int | None = None,
    graded: bool = True,
) -> _Played:
    """The round of `record` after its bet and its first `steps` moves (default: all),
    each of the user's decisions graded unless told not to."""
    moves = record.moves if steps is None else record.moves[:steps]
    grader = Replaying(record.expert[: len(moves)]) if graded else None
    dealt_from = _shoe(table, shoe, record.start)
    if record.snapshot is not None:  # stored before the player item: moves play on its snapshot
        round_ = round_from_snapshot(record.snapshot, table, dealt_from)
        for move in moves:
            round_.act(move.action, move.amount, grader=grader)
    else:
        round_ = Round.replay(table, dealt_from, record.bets, record.ai, moves, grader=grader)
    shown = replace(
        record,
        moves=list(moves),
        balances=record.balances[: len(moves) + 1],
        expert=record.expert[: len(moves)],
    )
    return _Played(round_, shown, shoe, grader=grader)


def seat_round(table: Table, seat: Seat) -> Round | None:
    """The seat's current or last round, replayed."""
    return None if seat.round is None else _replay(table, seat.shoe_of_round(), seat.round).round_


def _in_play(table: Table, seat: Seat | None, graded: bool) -> _Played:
    if seat is not None and seat.round is not None and not _is_settled(seat.round):
        return _replay(table, seat.shoe_of_round(), seat.round, graded=graded)
    raise NoRound("no round in play at this table; place a bet")


def _is_settled(record: RoundRecord) -> bool:
    if record.settled_at is not None:
        return True
    # A round stored before the player item, and before the round times, says so itself.
    return record.snapshot is not None and record.snapshot["phase"] == Phase.SETTLED


def _round_id(shoe: ShoeState, record: RoundRecord) -> str:
    return record.round_id or f"{shoe.shoe_id}-{record.number}"


def _view(played: _Played, balance: Decimal | None, answer: bool = False) -> dict[str, Any]:
    """The round view of API.md: the engine's, with what the service keeps about it. The
    balance is the one after the round's last step shown, unless given. The answer to a
    bet or an action (`answer`) shows what it did to the cards; other views, nothing."""
    record, snapshot = played.record, played.record.snapshot
    return {
        "round_id": _round_id(played.shoe, record),
        "shoe_id": played.shoe.shoe_id if snapshot is None else snapshot["shoe_id"],
        "version": record.version + len(record.moves),
        "started_at": _timestamp(record.started_at),
        "settled_at": _timestamp(record.settled_at) if played.settled else None,
        **round_view(played.round_),
        "dealt": dealt_view(played.round_) if answer else [],
        "balance": to_json(record.balances[-1] if balance is None else balance),
    }


def _timestamp(epoch_ms: int | None) -> str | None:
    """UTC, RFC 3339 with milliseconds (API.md)."""
    if epoch_ms is None:
        return None
    moment = datetime.fromtimestamp(epoch_ms / 1000, UTC).isoformat(timespec="milliseconds")
    return moment.replace("+00:00", "Z")


def _shoe_view(table: Table, shoe: ShoeState) -> dict[str, Any]:
    decks = table.rules.decks
    return {
        "shoe_id": shoe.shoe_id,
        "server_seed_hash": fairness.seed_hash(shoe.server_seed),
        "client_seed": shoe.client_seed,
        "nonce": shoe.nonce,
        "decks": decks,
        "cards_remaining": 52 * decks - shoe.position,
        "cut_card_out": shoe.cut_index is not None and shoe.position > shoe.cut_index,
    }


def _count(table: Table, seat: Seat, played: "_Played | None") -> dict[str, Any]:
    """The count of the seat's shoe (API.md): over the round in play's public cards and
    its shoe's earlier rounds, or over all the shoe has dealt."""
    if played is not None and not played.settled:
        return _count_view(played.round_.count())
    shoe = _shoe(table, seat.shoe)
    return _count_view(count.hi_lo(table.rules.decks, count.public_cards(shoe)))


def _count_view(counted: dict[str, Any]) -> dict[str, Any]:
    return {**counted, "true": to_json(counted["true"])}


def _legacy_shoe_view(shoe: "LegacyShoe") -> dict[str, Any]:
    """A shoe retired before the player item, as its item has it."""
    state = shoe.state
    return {
        "shoe_id": shoe.shoe_id,
        "table": shoe.table,
        "server_seed_hash": shoe.server_seed_hash,
        "client_seed": state["client_seed"],
        "nonce": state["nonce"],
        "decks": state["decks"],
        "cut_index": state["cut_index"],
        "retired": shoe.retired,
        "server_seed": state["server_seed"] if shoe.retired else None,
        "cards": _unpack(shoe.dealt) if shoe.retired and shoe.dealt is not None else None,
        "rounds": shoe.rounds,
    }


def _default_cut_index(table: Table) -> int | None:
    rules = table.rules
    if rules.shuffle is not Shuffle.CUT_CARD or rules.cut_default is None:
        return None
    return fairness.cut_index(rules.decks, rules.cut_default)


def _table(table_id: str) -> Table:
    table = TABLES.get(table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    return table


def _kept_keys(player: Player, now: float) -> dict[str, list[RetryKey]]:
    """The keys still within their 24 hours, by table."""
    kept = {table: idempotency.kept(keys, now) for table, keys in player.keys.items()}
    return {table: keys for table, keys in kept.items() if keys}


def _settlement_stats(round_: Round, net: Decimal) -> Stats:
    """What a settled round adds to the user's stats, the trainer's counters included."""
    user_boxes = [box for box in round_.boxes if box.is_user]
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
    return stats


def _distinct(by_box: dict[int, _V], given: int) -> dict[int, _V]:
    if len(by_box) != given:
        raise BetOutOfLimits("a box can be taken only once")
    return by_box


def _exact(amount: Decimal) -> Decimal:
    """The amount without trailing zeros (10, not 10.0: the item stores it as written)."""
    return amount.quantize(_ONE) if amount == amount.to_integral_value() else amount.normalize()


def _unpack(cards: str) -> list[str]:
    return [cards[i : i + 2] for i in range(0, len(cards), 2)]
