"""Shared tables (rooms): several users at one table, in turn (RULES.md, "Shared tables").

A room is one item (`Room`): its seats, the next round's bets, its shoe, and the round in
play as its bets and moves, which the engine replays as it replays a table's round (the
same `Round`, graded the same way). Every change is one conditional write of the room, or
one transaction with the player items whose balances it moves (`Store.write_room`): a
stake leaves its owner's balance when it is staked, and the write that settles a round
pays every participant, counts their stats and files their history item, so a round is
paid and filed exactly once. A decision or a betting window nobody answers is answered
by the deadline queue (`answer_deadline`), scheduled before the write that sets it: a
message whose write lost, or whose decision was answered, names a deadline the room no
longer has and does nothing.
"""

from __future__ import annotations

import hashlib
import random
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Literal, Protocol

from blackjack import count, fairness
from blackjack.actions import Action, Move, Phase
from blackjack.errors import BetOutOfLimits
from blackjack.grading import Replaying
from blackjack.money import to_json
from blackjack.round import Round, check_boxes, owner_player
from blackjack.rules import TABLES, Shuffle
from blackjack.views import dealt_view

from . import idempotency, shoes
from .errors import (
    AlreadyBet,
    BoxTaken,
    Conflict,
    IdempotencyKeyReused,
    InsufficientFunds,
    NoRound,
    NotFound,
    NotSeated,
    NotYourTurn,
    RoundInProgress,
    StaleVersion,
    TooManyRooms,
    ValidationFailed,
)
from .game import (
    Played,
    count_json,
    exact,
    hint_of,
    round_api_view,
    round_id_of,
    settlement_stats,
    timestamp,
)
from .idempotency import RequestKey
from .identity import Identity
from .models import ROOM_TABLES, CreateRoomRequest, RoomBetRequest
from .records import (
    Player,
    RetryKey,
    Room,
    RoomShoe,
    RoomUser,
    RoundRecord,
    SettledRound,
    room_codec,
)
from .shoes import FairShoes, SeedSource, SystemSeeds
from .store import RoomWrite, Store

ROOMS_PER_USER = 3
SIT_OUTS = 5  # rounds in a row without a bet or a pass that unseat a user
LISTED = 50
_LOBBY_READ = 100  # rooms of a table's lobby read to list the free ones
# A change that lost a race reads again and plays again, after a pause of random length
# (longer after each loss): the room's other users write between.
_WRITE_ATTEMPTS = 16
_RETRY_PAUSE_S = 0.01
_LONGEST_PAUSE = 8
RoomPhase = Literal["waiting", "betting", "insurance", "player_turn", "settled"]


class DeadlineQueue(Protocol):
    def schedule(self, room_id: str, version: int, due_ms: int) -> None: ...


class _NothingToDo(Exception):
    """A deadline's message that finds the room moved on."""


@dataclass(slots=True)
class _Change:
    """A change of a room under way: the room as it becomes, the player items it reads
    (at the revisions read) and those it changes, the history items of a round it settles,
    its lobby entry, and the round it played (for the cards it dealt)."""

    store: Store
    room: Room
    room_id: str
    read: dict[str, Player] = field(default_factory=dict)
    changed: dict[str, Player] = field(default_factory=dict)
    history: dict[str, SettledRound] = field(default_factory=dict)
    lobby: Literal["add", "remove"] | None = None
    shoes: dict[str, RoomShoe] = field(default_factory=dict)  # committed or retired, by id
    dealt: list[dict[str, Any]] = field(default_factory=list)
    round_: Round | None = None

    def player(self, account_id: str) -> Player:
        """The user's player item as this change has it."""
        if account_id in self.changed:
            return self.changed[account_id]
        if account_id not in self.read:
            self.read[account_id] = self.store.existing_player(account_id)
        return self.read[account_id]

    def read_all(self, account_ids: list[str]) -> None:
        """The player items of these users, those not read yet in one read."""
        unread = [a for a in account_ids if a not in self.read and a not in self.changed]
        if unread:
            self.read |= self.store.get_players(unread)

    def book(self, account_id: str, change: Decimal, **fields: Any) -> Player:
        """The user's balance moved by `change` (a stake is negative), and other fields."""
        player = self.player(account_id)
        if -change > player.balance:
            raise InsufficientFunds(f"the stake is {-change}, the balance {player.balance}")
        self.changed[account_id] = replace(
            player,
            revision=(player.revision or 0) + 1,
            balance=exact(player.balance + change),
            **fields,
        )
        return self.changed[account_id]


@dataclass(frozen=True, slots=True)
class RoomAnswer:
    view: dict[str, Any]
    version: int


class RoomService:
    def __init__(
        self,
        store: Store,
        deadlines: DeadlineQueue,
        seeds: SeedSource | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.deadlines = deadlines
        self.seeds = seeds or SystemSeeds()
        self.shoes = FairShoes(store, self.seeds)
        self.clock = clock

    # ---- reads ------------------------------------------------------------------------

    def view(self, identity: Identity, room_id: str) -> RoomAnswer:
        room = self._room(room_id)
        player = self.store.existing_player(identity.account_id)
        return RoomAnswer(_view(room_id, room, identity.account_id, player.balance), room.version)

    def rooms(self, table_id: str | None) -> list[dict[str, Any]]:
        """The rooms with a free box and a seated user, the last active first."""
        if table_id is not None and table_id not in ROOM_TABLES:
            raise ValidationFailed(f"rooms are at {', '.join(ROOM_TABLES)}")
        found = self.store.lobby([table_id] if table_id else ROOM_TABLES, _LOBBY_READ)
        open_rooms = [
            (room_id, room)
            for room_id, room in found.items()
            if room.users and len(room.seats) < TABLES[room.table].boxes
        ]
        open_rooms.sort(key=lambda pair: pair[1].active_at, reverse=True)
        return [_summary(room_id, room) for room_id, room in open_rooms[:LISTED]]

    def hint(self, identity: Identity, room_id: str, level: str) -> dict[str, Any]:
        room = self._room(room_id)
        round_ = _in_play(room, graded=False)
        _check_turn(room, round_, identity.account_id)
        return hint_of(round_, level)

    def watcher_view(self, old: Mapping[str, Any] | None, new: Mapping[str, Any]) -> dict[str, Any]:
        """The view every watcher gets of a change, from the room item's images: what the
        change dealt, and nothing of any one user's."""
        room_id = str(new["pk"]).removeprefix("ROOM#")
        before = None if old is None else room_codec.from_attributes(old)
        room = room_codec.from_attributes(new)
        return _view(room_id, room, None, None, dealt=_dealt_since(before, room))

    # ---- changes ----------------------------------------------------------------------

    def create(
        self, identity: Identity, request: CreateRoomRequest, key: RequestKey | None = None
    ) -> RoomAnswer:
        now = self.clock()
        room_id = secrets.token_hex(16)
        if key is not None:  # the room a keyed request makes is named by the key: a retry
            named = _named_room(identity.account_id, key)  # finds it
            made = self.store.get_room(named)
            if made is None:
                room_id = named
            else:  # made by the key's first request (or, if it is too old, a new room)
                replayed = self._replayed(named, made, identity, key, now)
                if replayed is not None:
                    return replayed
        room = Room(
            version=0,
            table=request.table,
            name=request.name or identity.nick,
            turn_seconds=request.turn_seconds,
            betting_seconds=request.betting_seconds,
            active_at=int(now * 1000),
            shoe=self.shoes.commit(1, int(now * 1000)),
        )

        def make(change: _Change) -> None:
            change.lobby = "add"
            change.shoes[room.shoe.shoe_id] = RoomShoe(change.room_id, room.table)
            if request.boxes:
                self._take(change, room_id, identity, request.boxes)

        return self._write(room_id, identity, key, make, new=room)

    def take(
        self, identity: Identity, room_id: str, boxes: list[int], key: RequestKey | None = None
    ) -> RoomAnswer:
        return self._write(
            room_id, identity, key, lambda change: self._take(change, room_id, identity, boxes)
        )

    def leave(self, identity: Identity, room_id: str, key: RequestKey | None = None) -> RoomAnswer:
        def leave(change: _Change) -> None:
            room, account = change.room, identity.account_id
            if account not in room.users:
                raise NotSeated("you have no box in this room")
            refund = sum(
                (amount for box, amount in room.bets.items() if room.seats[box] == account),
                Decimal(0),
            )
            player = change.player(account)
            rooms = [other for other in player.rooms if other != room_id]
            change.book(account, refund, rooms=rooms)
            change.room = replace(
                room,
                seats={box: owner for box, owner in room.seats.items() if owner != account},
                users={other: user for other, user in room.users.items() if other != account},
                bets={box: bet for box, bet in room.bets.items() if room.seats[box] != account},
                passed=[other for other in room.passed if other != account],
            )
            if not change.room.users:
                change.lobby = "remove"
            if change.room.in_play:  # the leaver's decisions are answered at once
                self._play(change, None, None)
            elif not change.room.bets:  # no bet left: no window either
                change.room = replace(change.room, deadline=None)
            else:
                self._deal_if_all_in(change)

        return self._write(room_id, identity, key, leave)

    def bet(
        self,
        identity: Identity,
        room_id: str,
        request: RoomBetRequest,
        key: RequestKey | None = None,
    ) -> RoomAnswer:
        def bet(change: _Change) -> None:
            room, account = change.room, identity.account_id
            if room.in_play:
                raise RoundInProgress("wait for the round in play to settle")
            if account not in room.users:
                raise NotSeated("take a box first")
            if account in room.passed or account in (room.seats[box] for box in room.bets):
                raise AlreadyBet("you have bet (or passed) for this round")
            bets = {bet.box: bet.amount for bet in request.bets}
            if len(bets) != len(request.bets):
                raise BetOutOfLimits("a box can be taken only once")
            for box in bets:
                if room.seats.get(box) != account:
                    raise NotSeated(f"box {box} is not yours")
            if bets:
                check_boxes(TABLES[room.table], bets, {})
            user = room.users[account]
            seed = request.client_seed if user.seed is None and room.shoe.position == 0 else None
            if bets:
                change.book(account, -sum(bets.values(), Decimal(0)))
            opens = bool(bets) and not room.bets
            change.room = replace(
                room,
                bets={**room.bets, **bets},
                passed=room.passed if bets else [*room.passed, account],
                users={**room.users, account: replace(user, seed=seed or user.seed, sat_out=0)},
                deadline=self._due(room.betting_seconds) if opens else room.deadline,
            )
            self._deal_if_all_in(change)

        return self._write(room_id, identity, key, bet)

    def act(
        self,
        identity: Identity,
        room_id: str,
        action: Action,
        amount: Decimal | None,
        expected_version: int | None,
        key: RequestKey | None = None,
    ) -> RoomAnswer:
        def act(change: _Change) -> None:
            room = change.room
            if expected_version is not None and expected_version != room.version:
                raise StaleVersion(f"the room is at version {room.version}")
            round_ = _in_play(room, graded=False)
            _check_turn(room, round_, identity.account_id)
            self._play(change, action, amount)

        return self._write(room_id, identity, key, act)

    def answer_deadline(self, room_id: str, version: int) -> None:
        """The service's answer to a deadline: the betting window closes (the deal), or the
        decision asked is answered `stand` (`decline_insurance`), if the room's deadline is
        still the one the change at `version` set; else nothing."""

        def answer(change: _Change) -> None:
            room = change.room
            if room.asked != version or room.deadline is None:
                raise _NothingToDo()
            if room.deadline > self.clock() * 1000:  # early: wait for the rest
                self.deadlines.schedule(room_id, version, room.deadline)
                raise _NothingToDo()
            if room.in_play:
                round_ = _in_play(room, graded=False)
                self._play(change, _default_answer(round_), None)
            elif room.bets:
                self._deal(change)
            else:
                raise _NothingToDo()

        try:
            self._write(room_id, None, None, answer)
        except (_NothingToDo, NotFound):
            return

    # ---- steps ------------------------------------------------------------------------

    def _take(self, change: _Change, room_id: str, identity: Identity, boxes: list[int]) -> None:
        room, account = change.room, identity.account_id
        table = TABLES[room.table]
        if len(set(boxes)) != len(boxes) or not all(0 <= box < table.boxes for box in boxes):
            raise ValidationFailed(f"the {table.id} table has boxes 0 to {table.boxes - 1}")
        taken = [box for box in boxes if box in room.seats]
        if any(room.seats[box] != account for box in taken):
            raise BoxTaken(f"box {taken[0]} is another user's")
        if account not in room.users:
            player = change.player(account)
            rooms = self._rooms_sat_in(player, account, room_id)
            if len(rooms) >= ROOMS_PER_USER:
                raise TooManyRooms(f"you sit in {ROOMS_PER_USER} rooms; leave one first")
            change.book(account, Decimal(0), rooms=[*rooms, room_id])
        users = {**room.users}
        users.setdefault(account, RoomUser(nick=identity.nick))
        change.room = replace(
            room, seats={**room.seats, **dict.fromkeys(boxes, account)}, users=users
        )

    def _rooms_sat_in(self, player: Player, account: str, room_id: str) -> list[str]:
        """The other rooms the user still has a box in: those the player item lists, less
        those that unseated them since (read only when they would make too many)."""
        others = [other for other in player.rooms if other != room_id]
        if len(others) < ROOMS_PER_USER:
            return others
        return [
            other
            for other in others
            if (room := self.store.get_room(other)) is not None and account in room.users
        ]

    def _deal_if_all_in(self, change: _Change) -> None:
        """Deal once every seated user has bet or passed; forget a round all passed."""
        room = change.room
        acted = set(room.passed) | {room.seats[box] for box in room.bets}
        if room.in_play or not room.users or not set(room.users) <= acted:
            return
        if room.bets:
            self._deal(change)
        else:
            change.room = replace(room, passed=[], deadline=None)

    def _deal(self, change: _Change) -> None:
        """The next round dealt from the bets taken; who neither bet nor passed sits out."""
        room, now_ms = change.room, int(self.clock() * 1000)
        table = TABLES[room.table]
        acted = set(room.passed) | {room.seats[box] for box in room.bets}
        shoe, seeds = room.shoe, room.seeds
        if shoe.position == 0:  # the shoe's first deal fixes its client seed
            first_boxes: dict[str, int] = {}
            for box, owner in sorted(room.seats.items()):
                first_boxes.setdefault(owner, box)
            seeds = {
                box: room.users[owner].seed or self.seeds.client_seed()
                for owner, box in first_boxes.items()
            }
            client_seed = fairness.room_client_seed([seeds[box] for box in sorted(seeds)])
            shoe = shoes.for_first_round(table, shoe, client_seed, None)
        owners = {box: room.seats[box] for box in room.bets}
        record = RoundRecord(
            number=shoe.rounds + 1,
            version=room.version + 1,
            start=shoe.position,
            started_at=now_ms,
            bets=dict(room.bets),
            owners=owners,
            nicks={box: room.users[owner].nick for box, owner in owners.items()},
        )
        users = {
            owner: user if owner in acted else replace(user, sat_out=user.sat_out + 1)
            for owner, user in room.users.items()
        }
        gone = {owner for owner, user in users.items() if user.sat_out >= SIT_OUTS}
        change.room = replace(
            room,
            shoe=shoe,
            seeds=seeds,
            round=record,
            round_shoe=None,
            bets={},
            passed=[],
            users={owner: user for owner, user in users.items() if owner not in gone},
            seats={box: owner for box, owner in room.seats.items() if owner not in gone},
        )
        round_ = Round.deal(
            table, shoes.engine_shoe(table, shoe), record.bets, owners=record.owners
        )
        change.dealt = dealt_view(round_)
        self._played(change, round_, Replaying([]))

    def _play(self, change: _Change, action: Action | None, amount: Decimal | None) -> None:
        """The decision asked answered (`action`; None: no decision but a departed
        owner's), then every decision of owners who left answered at once."""
        room = change.room
        round_, grader = _replay(room)
        staked = {owner: round_.staked(owner_player(owner)) for owner in _owners(room)}
        moves = room.round.moves if room.round else []
        change.dealt = []
        while True:
            if action is None:
                turn = round_.turn
                if turn is None or _owner(room, turn[0].index) in room.users:
                    break
                action = _default_answer(round_)
            round_.act(action, amount, grader=grader)
            change.dealt += dealt_view(round_)
            moves = [*moves, Move(action, amount)]
            action, amount = None, None
        assert room.round is not None
        if len(moves) == len(room.round.moves):
            return  # nobody's decision to answer now
        change.room = replace(room, round=replace(room.round, moves=moves, expert=grader.expert))
        for owner, before in staked.items():
            stake = round_.staked(owner_player(owner)) - before
            if stake:
                change.book(owner, -stake)
        self._played(change, round_, grader)

    def _played(self, change: _Change, round_: Round, grader: Replaying) -> None:
        """The room after a play: its shoe dealt on, the next decision's deadline, or the
        round settled, paid and filed (and the shoe retired where it is due)."""
        room, now_ms = change.room, int(self.clock() * 1000)
        assert room.round is not None
        table = TABLES[room.table]
        dealt_on = replace(
            room.shoe,
            position=round_.shoe.position,
            rounds=max(room.shoe.rounds, room.round.number),
        )
        change.round_ = round_
        if round_.phase is not Phase.SETTLED:
            # an owner who left is answered at once, even at the deal
            turn = round_.turn
            if turn is not None and _owner(room, turn[0].index) not in room.users:
                change.room = replace(room, shoe=dealt_on)
                dealt = change.dealt
                self._play(change, None, None)
                change.dealt = dealt + change.dealt
                return
            change.room = replace(room, shoe=dealt_on, deadline=self._due(room.turn_seconds))
            return
        record = replace(room.round, expert=grader.expert, settled_at=now_ms)
        room_id = change.room_id
        change.read_all(_owners(room))
        for owner in _owners(room):
            player = owner_player(owner)
            net = round_.net_of(player)
            assert net is not None
            paid = change.book(
                owner,
                round_.returned(player),
                stats=change.player(owner).stats.plus(settlement_stats(round_, net, player)),
            )
            change.history[owner] = SettledRound(
                round_id=round_id_of(dealt_on, record),
                table=table.id,
                shoe=dealt_on,
                round=replace(record, balances=[paid.balance]),
                net=net,
                end=dealt_on.position,
                room=room_id,
            )
        shoe, round_shoe, users = dealt_on, None, room.users
        if table.rules.shuffle is Shuffle.EVERY_ROUND or round_.shoe.cut_card_out:
            round_shoe, shoe = dealt_on, self.shoes.commit(dealt_on.nonce + 1, now_ms)
            change.shoes[dealt_on.shoe_id] = RoomShoe(room_id, table.id, retired_at=now_ms)
            change.shoes[shoe.shoe_id] = RoomShoe(room_id, table.id)
            users = {owner: replace(user, seed=None) for owner, user in users.items()}
        change.room = replace(
            room,
            shoe=shoe,
            round_shoe=round_shoe,
            round=record,
            users=users,
            seeds={} if round_shoe else room.seeds,
            deadline=None,
        )

    # ---- the write --------------------------------------------------------------------

    def _write(
        self,
        room_id: str,
        identity: Identity | None,
        key: RequestKey | None,
        step: Callable[[_Change], None],
        new: Room | None = None,
    ) -> RoomAnswer:
        """`step` on the room read, written as one conditional write (or transaction); a
        write that lost a race plays again on what won. A keyed retry gets the room as it
        is now, without acting again."""
        account = None if identity is None else identity.account_id
        kept = None if key is None or account is None else _kept_key(account, key)
        for attempt in range(1, _WRITE_ATTEMPTS + 1):
            room = new if new is not None else self._room(room_id)
            now = self.clock()
            if key is not None and identity is not None:
                replayed = self._replayed(room_id, room, identity, key, now)
                if replayed is not None:
                    return replayed
            change = _Change(self.store, room, room_id)
            step(change)
            changed = change.room
            keys = idempotency.kept(changed.keys, now)
            if kept is not None:
                entry = RetryKey(kept.digest, kept.body, room.version + 1, int(now // 60))
                keys = idempotency.adding(keys, entry)
            changed = replace(
                changed, version=room.version + 1, active_at=int(now * 1000), keys=keys
            )
            # A change that sets a deadline schedules its answer (before it is written: a
            # message whose write lost finds no such deadline); others keep the one asked.
            due = changed.deadline
            if due is not None and due != room.deadline:
                changed = replace(changed, asked=changed.version)
                self.deadlines.schedule(room_id, changed.version, due)
            try:
                self.store.write_room(
                    RoomWrite(
                        room_id=room_id,
                        room=changed,
                        expected_version=None if new is not None else room.version,
                        players={
                            owner: (player, change.read[owner].revision)
                            for owner, player in change.changed.items()
                        },
                        history=change.history,
                        lobby=change.lobby,
                        shoes=change.shoes,
                    )
                )
            except Conflict:
                if attempt == _WRITE_ATTEMPTS or new is not None:
                    raise
                time.sleep(random.uniform(0, _RETRY_PAUSE_S * min(attempt, _LONGEST_PAUSE)))
                continue
            return self._answer(room_id, changed, account, change)
        raise AssertionError("the last attempt raises")

    def _replayed(
        self, room_id: str, room: Room, identity: Identity, key: RequestKey, now: float
    ) -> RoomAnswer | None:
        """The answer to a keyed retry (the room as it is now), if the room keeps its key."""
        kept = _kept_key(identity.account_id, key)
        entry = idempotency.entry_of(room.keys, kept, now)
        if entry is not None and entry.body != kept.body:
            raise IdempotencyKeyReused("this Idempotency-Key was sent with another body")
        return None if entry is None else self._answer(room_id, room, identity.account_id, None)

    def _answer(
        self, room_id: str, room: Room, account: str | None, change: _Change | None
    ) -> RoomAnswer:
        balance = None
        if account is not None:
            player = change.player(account) if change else self.store.existing_player(account)
            balance = player.balance
        dealt = change.dealt if change else []
        return RoomAnswer(_view(room_id, room, account, balance, dealt=dealt), room.version)

    def _room(self, room_id: str) -> Room:
        room = self.store.get_room(room_id) if _is_room_id(room_id) else None
        if room is None:
            raise NotFound(f"no room {room_id}")
        return room

    def _due(self, seconds: int) -> int:
        return int(self.clock() * 1000) + seconds * 1000


# ---- replays and views ------------------------------------------------------------------


def _is_room_id(room_id: str) -> bool:
    return len(room_id) == 32 and all(c in "0123456789abcdef" for c in room_id)


def _kept_key(account_id: str, key: RequestKey) -> RequestKey:
    """The key as the room keeps it: its digest made the caller's own."""
    digest = hashlib.blake2b(account_id.encode() + key.digest, digest_size=len(key.digest))
    return RequestKey(digest=digest.digest(), body=key.body)


def _named_room(account_id: str, key: RequestKey) -> str:
    """The id of the room a keyed `POST /v1/rooms` makes."""
    named = hashlib.blake2b(account_id.encode() + key.digest, digest_size=16, person=b"room")
    return named.hexdigest()


def _replay(room: Room, graded: bool = True) -> tuple[Round, Replaying]:
    """The room's round as played so far, graded unless told not to."""
    assert room.round is not None
    record, table = room.round, TABLES[room.table]
    grader = Replaying(record.expert[: len(record.moves)] if graded else [])
    dealt_from = shoes.engine_shoe(table, room.shoe_of_round(), record.start)
    round_ = Round.replay(
        table,
        dealt_from,
        record.bets,
        {},
        record.moves,
        grader=grader if graded else None,
        owners=record.owners,
    )
    return round_, grader


def _in_play(room: Room, graded: bool) -> Round:
    if not room.in_play:
        raise NoRound("no round in play in this room; bet first")
    return _replay(room, graded)[0]


def _owner(room: Room, box: int) -> str:
    assert room.round is not None
    return room.round.owners[box]


def _owners(room: Room) -> list[str]:
    assert room.round is not None
    return sorted(set(room.round.owners.values()))


def _check_turn(room: Room, round_: Round, account_id: str) -> None:
    turn = round_.turn
    if turn is None or _owner(room, turn[0].index) != account_id:
        raise NotYourTurn("the decision asked is another user's")


def _default_answer(round_: Round) -> Action:
    return Action.DECLINE_INSURANCE if round_.phase is Phase.INSURANCE else Action.STAND


def _phase(room: Room, round_: Round | None) -> RoomPhase:
    if round_ is not None and room.in_play:
        return "insurance" if round_.phase is Phase.INSURANCE else "player_turn"
    if room.bets:
        return "betting"
    return "waiting" if room.round is None else "settled"


def _dealt_since(before: Room | None, room: Room) -> list[dict[str, Any]]:
    """What the change from `before` to `room` dealt: the deal, then each move since."""
    if room.round is None:
        return []
    record = room.round
    same_round = (
        before is not None
        and before.round is not None
        and before.round.number == record.number
        and before.shoe_of_round().shoe_id == room.shoe_of_round().shoe_id
    )
    done = len(before.round.moves) if same_round and before and before.round else None
    if done == len(record.moves):
        return []
    table = TABLES[room.table]
    shoe = shoes.engine_shoe(table, room.shoe_of_round(), record.start)
    round_ = Round.deal(table, shoe, record.bets, owners=record.owners)
    dealt = dealt_view(round_) if done is None else []
    for number, move in enumerate(record.moves):
        round_.act(move.action, move.amount)
        if done is None or number >= done:
            dealt += dealt_view(round_)
    return dealt


def _view(
    room_id: str,
    room: Room,
    viewer: str | None,
    balance: Decimal | None,
    dealt: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The room view of API.md as `viewer` (an account id) sees it; None: as every watcher
    does (no one's `you`, decisions, net or balance)."""
    table = TABLES[room.table]
    round_view, round_ = None, None
    if room.round is not None:
        round_, grader = _replay(room)
        played = Played(round_, room.round, room.shoe_of_round(), grader=grader)
        mine = viewer is not None and viewer in room.round.owners.values()
        round_view = round_api_view(
            played, balance if mine else None, room_id=room_id, viewer=viewer
        )
        round_view["version"] = room.version
        round_view["dealt"] = dealt or []
        if not mine or viewer is None:
            round_view["balance"] = None
        if viewer is None:
            for key in ("net", "balance"):
                round_view.pop(key)
            for box in round_view["boxes"]:
                for hand in box["hands"]:
                    hand.pop("decisions")
    shoe_view = shoes.seat_shoe(table, room.shoe)
    if room.shoe.position == 0:
        shoe_view["client_seed"] = None
    in_play = round_ is not None and room.in_play
    counted = (
        round_.count()
        if in_play and round_ is not None
        else count.hi_lo(table.rules.decks, count.public_cards(shoes.engine_shoe(table, room.shoe)))
    )
    nicks = {owner: user.nick for owner, user in room.users.items()}
    return {
        "room_id": room_id,
        "table": room.table,
        "name": room.name,
        "version": room.version,
        "phase": _phase(room, round_),
        "turn_seconds": room.turn_seconds,
        "betting_seconds": room.betting_seconds,
        "deadline": timestamp(room.deadline),
        "seats": [
            {"box": box, "nick": nicks[owner], "you": owner == viewer}
            for box, owner in sorted(room.seats.items())
        ],
        "bets": [{"box": box, "amount": to_json(bet)} for box, bet in sorted(room.bets.items())],
        "passed": [nicks[owner] for owner in room.passed if owner in nicks],
        "shoe": {
            **shoe_view,
            "seeds": [
                {"box": box, "client_seed": seed} for box, seed in sorted(room.seeds.items())
            ],
            "count": count_json(counted),
        },
        "round": round_view,
        "legal_actions": [] if round_view is None else round_view["legal_actions"],
    }


def _summary(room_id: str, room: Room) -> dict[str, Any]:
    return {
        "room_id": room_id,
        "table": room.table,
        "name": room.name,
        "players": len(room.users),
        "free_boxes": TABLES[room.table].boxes - len(room.seats),
        "phase": _phase(room, _replay(room, graded=False)[0] if room.in_play else None),
    }
