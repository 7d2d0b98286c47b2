"""Shared tables under many writers, for the tests of test_room_truth: users of one room
driving the rooms service on moto, a request that dies right before or right after one of
its DynamoDB calls while another user's request runs there, and the checks of RULES.md's
"Money" and of every room round's history after each step."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from blackjack.actions import Action
from blackjack.errors import GameError
from blackjack.fairness import room_client_seed, shuffled_shoe
from blackjack.round import owner_player
from blackjack_service import factories
from blackjack_service.errors import ServiceError
from blackjack_service.game import GameService
from blackjack_service.idempotency import RequestKey
from blackjack_service.identity import Identity
from blackjack_service.models import CreateRoomRequest, RoomBetRequest
from blackjack_service.records import Player
from blackjack_service.rooms import RoomService, _replay

from .helpers import START, create_table
from .seeds import CLIENT_SEED, FixedSeeds
from .test_history_filing import Filings
from .test_history_interleavings import Killed
from .test_rooms import Deadlines

TABLE = "casino"
# The refusals a room request may answer (API.md): its 409s, and the 4xx of a bet or an
# action as at a table. Never `conflict`: no test here makes a request lose 16 races.
REFUSALS = frozenset(
    {
        "box_taken",
        "not_seated",
        "not_your_turn",
        "already_bet",
        "round_in_progress",
        "no_round",
        "insufficient_funds",
        "illegal_action",
        "bet_out_of_limits",
        "validation_error",
    }
)
# The kinds of request of the random interleavings: bets and passes, the answer of the
# user asked (`turn`), any user's action (`act`, mostly out of turn), boxes taken and
# left, hints and the deadline queue's delivery (the clock past every deadline).
KINDS = ("bet", "pass", "turn", "act", "take", "leave", "hint", "deadline")
_logins = itertools.count()


class Clock:
    """The rooms' time: still, until a test moves it past a deadline."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def room_seed(users: int, wanted: Callable[[list[str]], bool]) -> str:
    """The first counter server seed whose room shoe (every seated user's seed the tests'
    one, FAIRNESS.md) satisfies `wanted`."""
    client_seed = room_client_seed([CLIENT_SEED] * users)
    for counter in itertools.count():
        seed = f"{counter:064x}"
        if wanted(shuffled_shoe(seed, client_seed, 1, 6)):
            return seed
    raise AssertionError("unreachable")


@dataclass
class Outcome:
    """What a request came to: `answered` (its room view), `refused` (a 4xx's code) or
    `killed` (its process died at a call)."""

    fate: str
    code: str | None = None
    view: dict[str, Any] | None = None


class Crash:
    """The request under test dies right before (or right after) its DynamoDB call `at`
    (the first is 1); the calls of a request run meanwhile (`aside`) do not count."""

    def __init__(self, at: int, after: bool) -> None:
        self.at, self.after = at, after
        self.fired = False
        self._calls = 0
        self._aside = False
        self._event = "after-call.dynamodb" if after else "before-call.dynamodb"

    def __enter__(self) -> Crash:
        factories.store().client.meta.events.register(self._event, self._hook)
        return self

    def __exit__(self, *_: object) -> None:
        factories.store().client.meta.events.unregister(self._event, self._hook)

    @contextmanager
    def aside(self) -> Iterator[None]:
        self._aside = True
        try:
            yield
        finally:
            self._aside = False

    def _hook(self, **_: Any) -> None:
        if self._aside or self.fired:
            return
        self._calls += 1
        if self._calls == self.at:
            self.fired = True
            raise Killed


@dataclass
class Room:
    """One room and its users (alice at box 0, the next user at box 1, ...), the service
    they all call (one clock, one deadline queue) and what the tests saw settle."""

    users: list[Identity]
    service: RoomService
    deadlines: Deadlines
    clock: Clock
    room_id: str = ""
    # Each settled round as its participants saw it when it settled: by round id, each
    # owner's boxes and net.
    settled: dict[str, dict[str, tuple[Any, Any]]] = field(default_factory=dict)
    version: int = 0
    _keys: Iterator[int] = field(default_factory=itertools.count)
    _looked: set[tuple[str, int]] = field(default_factory=set)  # rounds settled, kept
    _checked: Any = None  # the room's version and the player items' when last checked

    @classmethod
    def open(cls, users: int, server_seed: str | None = None, **room: Any) -> Room:
        """A room in an empty game table (moto copies every table for each transaction:
        one that grows case after case makes each one slower)."""
        store = factories.store()
        store.client.delete_table(TableName=store.table_name)
        create_table(store.table_name)
        number = next(_logins)
        identities = [Identity(f"u{number}x{i}", f"nick{number}x{i}") for i in range(users)]
        for identity in identities:
            store.put_player(
                identity.account_id, Player(revision=1, balance=START), expected_revision=None
            )
        clock, deadlines = Clock(), Deadlines()
        seeds = FixedSeeds([server_seed] if server_seed else [])
        opened = cls(identities, RoomService(store, deadlines, seeds, clock), deadlines, clock)
        request = CreateRoomRequest.model_validate({"table": TABLE, "boxes": [0], **room})
        opened.room_id = opened.service.create(identities[0], request).view["room_id"]
        for box, identity in enumerate(identities[1:], start=1):
            opened.service.take(identity, opened.room_id, [box])
        return opened

    # ---- requests: each returns a callable that sends it (again, with its key) ----------

    def key(self, body: Any) -> RequestKey:
        return RequestKey.of(["room", self.room_id], f"key-{next(self._keys)}", body)

    def bet(self, user: int, bets: dict[int, int]) -> Callable[[], Any]:
        body = {"bets": [{"box": box, "amount": amount} for box, amount in bets.items()]}
        request, key = RoomBetRequest.model_validate(body), self.key(body)
        return lambda: self.service.bet(self.users[user], self.room_id, request, key)

    def act(self, user: int, action: str, if_match: int | None = None) -> Callable[[], Any]:
        key = self.key({"action": action})
        return lambda: self.service.act(
            self.users[user], self.room_id, Action(action), None, if_match, key
        )

    def take(self, user: int, boxes: list[int]) -> Callable[[], Any]:
        key = self.key({"boxes": boxes})
        return lambda: self.service.take(self.users[user], self.room_id, boxes, key)

    def leave(self, user: int) -> Callable[[], Any]:
        return lambda: self.service.leave(self.users[user], self.room_id)

    def hint(self, user: int) -> Callable[[], Any]:
        return lambda: self.service.hint(self.users[user], self.room_id, "medium")

    def deadline(self) -> Callable[[], Any]:
        """The deadline queue's messages delivered now: a delivery that dies leaves every
        message of it to be delivered again (as SQS does), those answered included."""
        sent = list(self.deadlines.sent)

        def deliver() -> int:
            try:
                return self.deadlines.fire(self.service)
            except Killed:
                self.deadlines.sent = sent + self.deadlines.sent
                raise

        return deliver

    def request(self, user: int, kind: str, choice: int) -> Callable[[], Any]:
        """A user's request of a kind (KINDS), as the room stands now; `choice` picks its
        amount, box or action."""
        room = self.stored()
        if kind == "deadline":
            self.clock.now += 61
            return self.deadline()
        if kind == "turn" and room.in_play:  # the user asked answers
            round_ = _replay(room, graded=False)[0]
            assert round_.turn is not None and room.round is not None
            owner = room.round.owners[round_.turn[0].index]
            legal = sorted(_legal(round_))
            actor = next(i for i, u in enumerate(self.users) if u.account_id == owner)
            return self.act(actor, legal[choice % len(legal)])
        account = self.users[user].account_id
        boxes = sorted(box for box, owner in room.seats.items() if owner == account)
        if kind == "bet":
            amount = (10, 20, 50, 500)[choice % 4]
            return self.bet(user, dict.fromkeys(boxes or [choice % 5], amount))
        if kind == "pass":
            return self.bet(user, {})
        if kind == "take":
            return self.take(user, [choice % 5])
        if kind == "leave":
            return self.leave(user)
        if kind == "hint":
            return self.hint(user)
        return self.act(user, ("stand", "hit", "double")[choice % 3])  # in turn or not

    def run(self, request: Callable[[], Any]) -> Outcome:
        """A request sent; the room as it left it is looked at (rounds settled, version)."""
        outcome = _send(request)
        self.look()
        return outcome

    def at_call(
        self, request: Callable[[], Any], crash: Crash | None, races: list[tuple[int, Any]]
    ) -> Outcome:
        """`request` sent with another user's requests run just before its calls given
        (Filings), dying where `crash` says."""

        def aside(race: Callable[[], Any]) -> Callable[[], Outcome]:
            def run() -> Outcome:
                if crash is None:
                    return self.run(race)
                with crash.aside():
                    return self.run(race)

            return run

        with Filings([(at, aside(race)) for at, race in races]):
            if crash is None:
                outcome = _send(request)
            else:
                with crash:
                    outcome = _send(request)
        self.look()
        return outcome

    # ---- the truth --------------------------------------------------------------------

    def stored(self) -> Any:
        room = factories.store().get_room(self.room_id)
        assert room is not None
        return room

    def look(self) -> None:
        """The room's version only grows, a box has one owner who is seated, and a round
        that has settled is kept as each of its owners sees it now."""
        room = self.stored()
        assert room.version >= self.version, (room.version, self.version)
        self.version = room.version
        assert set(room.seats.values()) <= set(room.users)
        # A deadline is pending while a window is open or a decision asked (API.md), only
        assert (room.deadline is not None) == (room.in_play or bool(room.bets)), room
        players = factories.store().get_players(room.users)
        assert all(self.room_id in players[account].rooms for account in room.users)
        record = room.round
        if record is None or record.settled_at is None:
            return
        settled = (room.shoe_of_round().shoe_id, record.number)
        if settled in self._looked:
            return
        self._looked.add(settled)
        round_id: str | None = None
        seen: dict[str, tuple[Any, Any]] = {}
        for owner in sorted(set(record.owners.values())):
            view = self.service.view(Identity(owner, owner), self.room_id).view["round"]
            round_id = view["round_id"]
            seen[owner] = (view["boxes"], view["net"])
        assert round_id is not None
        self.settled.setdefault(round_id, seen)

    def assert_truth(self) -> None:
        """RULES.md's "Money" for every user: the balance is 10,000 plus the nets of their
        history less their stakes in play (bets taken, the round in play's); each room round
        they had a box in is in their history once, with `room_id`, as it settled."""
        store = factories.store()
        room = self.stored()
        players = store.get_players(identity.account_id for identity in self.users)
        # Money and history change only with a player item: as checked, if none has.
        checked = (room.version, {account: p.revision for account, p in players.items()})
        if checked == self._checked:
            return
        self._checked = checked
        in_play = None if not room.in_play else _replay(room, graded=False)[0]
        for identity in self.users:
            account = identity.account_id
            player = players[account]
            history = _history(GameService(store), identity)
            ids = [round_["round_id"] for round_ in history]
            assert len(set(ids)) == len(ids), f"a round twice in {account}'s history: {ids}"
            nets = sum((Decimal(str(round_["net"])) for round_ in history), Decimal(0))
            bets = sum(
                (bet for box, bet in room.bets.items() if room.seats.get(box) == account),
                Decimal(0),
            )
            staked = Decimal(0) if in_play is None else in_play.staked(owner_player(account))
            assert player.balance == START + nets - bets - staked, (
                account,
                player.balance,
                nets,
                bets,
                staked,
            )
            assert player.stats.rounds == len(history)
            filed = {round_["round_id"]: round_ for round_ in history}
            played = {
                round_id: seen[account]
                for round_id, seen in self.settled.items()
                if account in seen
            }
            assert set(filed) == set(played), (account, sorted(filed), sorted(played))
            for round_id, (boxes, net) in played.items():
                assert filed[round_id]["room_id"] == self.room_id
                assert (filed[round_id]["boxes"], filed[round_id]["net"]) == (boxes, net)

    def play_out(self) -> None:
        """Every round in play answered as the deadlines would (stand, decline insurance),
        a betting window closed by its deadline; the truth checked at each step."""
        for _ in range(50):
            room = self.stored()
            if room.in_play:
                round_ = _replay(room, graded=False)[0]
                assert round_.turn is not None
                owner = room.round.owners[round_.turn[0].index]
                user = next(i for i, u in enumerate(self.users) if u.account_id == owner)
                action = "decline_insurance" if "decline_insurance" in _legal(round_) else "stand"
                outcome = self.run(self.act(user, action))
                assert outcome.fate == "answered", outcome
            elif room.bets or self.deadlines.sent:
                self.clock.now += 61
                self.run(self.deadline())
            else:
                break
            self.assert_truth()
        assert not self.stored().in_play and not self.stored().bets


def _send(request: Callable[[], Any]) -> Outcome:
    try:
        answer = request()
    except Killed:
        return Outcome("killed")
    except (GameError, ServiceError) as error:
        assert error.code in REFUSALS, f"{error.code}: {error}"
        return Outcome("refused", code=error.code)
    return Outcome("answered", view=getattr(answer, "view", None))


def _legal(round_: Any) -> set[str]:
    return {action.value for action in round_.legal_actions()}


def _history(game: GameService, identity: Identity) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = []
    before = None
    while True:
        page = game.history(identity, None, 100, before)
        rounds += page.rounds
        if page.next_position is None:
            return rounds
        before = page.next_position
