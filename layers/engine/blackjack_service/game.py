"""The game at a user's seats: table views, rounds, actions, hints, history and shoes.

Pure of AWS: it reads and writes only through `Store`, and every request is one read of
profile and seat and (at most) one atomic write. The engine plays; this module decides
what to store and what to show.

Seeds: the service takes a `SeedSource`. The deployed functions build the service with
`SystemSeeds` (the operating system's generator, FAIRNESS.md) and nothing in the
environment, a request or the table can change that; a test that needs a known shoe builds
its own `GameService` with its own source, in its own process.
"""

import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Protocol, TypeVar

from blackjack import fairness
from blackjack.actions import Phase, Result
from blackjack.errors import BetOutOfLimits
from blackjack.grading import grade
from blackjack.money import to_json
from blackjack.players import action_values, decide
from blackjack.round import Round
from blackjack.rules import TABLES, Shuffle, Table
from blackjack.shoe import Shoe
from blackjack.views import round_view

from .errors import (
    InsufficientFunds,
    NoRound,
    NotFound,
    RoundInProgress,
    ShoeNotCommitted,
    StaleState,
    Unauthorized,
    ValidationFailed,
)
from .identity import Identity
from .models import ActionRequest, StartRoundRequest
from .records import (
    Page,
    Play,
    Profile,
    Seat,
    SettledRound,
    ShoeRecord,
    Stats,
)
from .store import Store

_V = TypeVar("_V")
_WON = {Result.WIN, Result.BLACKJACK, Result.EVEN_MONEY}
_LOST = {Result.LOSE, Result.SURRENDER}


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
class Step:
    """A bet or an action played on the seat's round, not yet written: the round after it,
    and what the user had staked and got back before it (the write books the difference)."""

    identity: Identity
    profile: Profile
    seat: Seat  # as read: the write expects its version
    round_: Round
    round_id: str
    shoe: ShoeRecord  # the seat's shoe after the step
    reason: str  # the ledger's: "bet" or the action
    started: bool  # a bet: the round starts
    staked_before: Decimal = Decimal(0)
    change_before: Decimal = Decimal(0)  # the wallet's change so far: returned - staked


@dataclass(frozen=True, slots=True)
class Outcome:
    """A round view after a bet or an action, and what it means for the metrics."""

    view: dict[str, Any]
    version: int
    started: bool
    house_net: Decimal | None  # the house's gain on the user's boxes once settled


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
        profile, seat = self._load(identity, table)
        if seat is None:
            seat = Seat(table=table.id, version=1, shoe=self._commit_shoe(table, nonce=1))
            self.store.create_seat(identity.key, seat)  # Conflict if a concurrent view won
        view = {
            "table": table.as_dict(),
            "balance": to_json(profile.balance),
            "shoe": _shoe_view(seat.shoe),
            "round": self._seat_round_view(table, seat, profile.balance),
        }
        return view, seat.version

    def hint(self, identity: Identity, table_id: str, level: str) -> dict[str, Any]:
        table = _table(table_id)
        _, seat = self._load(identity, table)
        round_ = _round_in_play(table, seat)
        view = round_.player_view()
        assert view is not None  # a round in play always asks someone
        values = action_values(view) if level == "hard" else None
        return {
            "action": decide(level, view).value,
            "level": level,
            "ev": None if values is None else {str(a): v for a, v in values.items()},
        }

    def history(
        self, identity: Identity, table: str | None, limit: int, before: str | None
    ) -> Page:
        """A page of settled rounds, last first; `before` (a history position) continues one."""
        if table is not None and table not in TABLES:
            raise ValidationFailed(f"unknown table {table!r}; tables: {', '.join(TABLES)}")
        page = self.store.list_rounds(identity.key, table, limit, before)
        if not page.rounds:
            self._profile(identity)  # a login that does not exist has no rounds: 401, not []
        return replace(page, rounds=[_stored(view) for view in page.rounds])

    def round(self, identity: Identity, round_id: str) -> dict[str, Any]:
        view = self.store.get_round(identity.key, round_id)
        if view is not None:
            return _stored(view)
        try:  # a round still in play lives in its seat
            profile, seats = self.store.get_profile_and_seats(identity.key, list(TABLES))
        except LookupError as error:
            raise Unauthorized("this account no longer exists") from error
        for seat in seats.values():
            if seat.round_id == round_id:
                found = self._seat_round_view(TABLES[seat.table], seat, profile.balance)
                if found is not None:
                    return found
        raise NotFound(f"no round {round_id}")

    def shoe(self, identity: Identity, shoe_id: str) -> dict[str, Any]:
        record = self.store.get_shoe(identity.key, shoe_id)
        if record is None:
            self._profile(identity)  # 401 rather than 404 for a login that does not exist
            raise NotFound(f"no shoe {shoe_id}")
        state = record.state
        table = TABLES[record.table]
        cut = state["cut_index"]
        if cut is None and not record.in_play and not record.retired:
            cut = _default_cut_index(table)
        return {
            "shoe_id": record.shoe_id,
            "table": record.table,
            "server_seed_hash": record.server_seed_hash,
            "client_seed": state["client_seed"],
            "nonce": state["nonce"],
            "decks": state["decks"],
            "cut_index": cut,
            "retired": record.retired,
            "server_seed": state["server_seed"] if record.retired else None,
            "cards": _unpack(record.dealt) if record.retired and record.dealt is not None else None,
            "rounds": record.rounds,
        }

    # ---- writes -----------------------------------------------------------------------

    def start_round(self, identity: Identity, table_id: str, request: StartRoundRequest) -> Outcome:
        table = _table(table_id)
        profile, seat = self._load(identity, table)
        if seat is None:  # its first shoe's hash must be seen before any bet (FAIRNESS.md)
            raise ShoeNotCommitted(f"view the table first: GET /v1/tables/{table.id}")
        if seat.round_state is not None and seat.round_state["phase"] != Phase.SETTLED:
            raise RoundInProgress("finish the round in play first")
        bets = _distinct({bet.box: bet.amount for bet in request.bets}, len(request.bets))
        ai = _distinct({seat_.box: seat_.level for seat_ in request.ai}, len(request.ai))
        shoe = self._shoe_for_round(table, seat.shoe, request)
        round_ = Round.deal(table, shoe, bets, ai)  # BetOutOfLimits
        round_id = uuid.uuid4().hex
        return self._commit(
            Step(
                identity=identity,
                profile=profile,
                seat=seat,
                round_=round_,
                round_id=round_id,
                shoe=_in_play(seat.shoe, shoe, rounds=[*seat.shoe.rounds, round_id]),
                reason="bet",
                started=True,
            )
        )

    def act(
        self,
        identity: Identity,
        table_id: str,
        request: ActionRequest,
        expected_version: int | None,
    ) -> Outcome:
        """The action on the round in play, if the seat is at `expected_version` (None: at
        any version)."""
        table = _table(table_id)
        profile, seat = self._load(identity, table)
        if expected_version is not None and seat is not None and expected_version != seat.version:
            raise StaleState(f"the round is at version {seat.version}")
        round_ = _round_in_play(table, seat)
        assert seat is not None and seat.round_id is not None
        staked_before, change_before = round_.user_staked, round_.user_returned - round_.user_staked
        round_.act(request.action, request.amount, grader=grade)  # IllegalAction, InvalidAmount
        return self._commit(
            Step(
                identity=identity,
                profile=profile,
                seat=seat,
                round_=round_,
                round_id=seat.round_id,
                shoe=_in_play(seat.shoe, round_.shoe, rounds=seat.shoe.rounds),
                reason=str(request.action),
                started=False,
                staked_before=staked_before,
                change_before=change_before,
            )
        )

    # ---- the common write -------------------------------------------------------------

    def _commit(self, step: Step) -> Outcome:
        """Turn the step into one atomic write, refusing (before writing) a stake the
        balance cannot cover."""
        round_, seat, table, shoe = step.round_, step.seat, step.round_.table, step.shoe
        stake = round_.user_staked - step.staked_before
        if stake > step.profile.balance:
            raise InsufficientFunds(f"the stake is {stake}, the balance {step.profile.balance}")
        wallet_change = round_.user_returned - round_.user_staked - step.change_before
        now = self.clock()
        net = round_.net
        new_seat = Seat(
            table=table.id,
            version=seat.version + 1,
            shoe=shoe,
            round_id=step.round_id,
            round_shoe_id=shoe.shoe_id,
            round_state=round_.to_state(),
            round_started_at=_timestamp(now) if step.started else seat.round_started_at,
            round_settled_at=None if net is None else _timestamp(now),
        )
        view = _full_view(round_, new_seat, step.profile.balance + wallet_change)
        shoes = [shoe] if step.started else []
        stats = settled = None
        if net is not None:
            stats = _settlement_stats(round_, net)
            settled = SettledRound(
                round_id=step.round_id,
                table=table.id,
                view=view,
                settled_at_us=int(now * 1_000_000),
            )
            if table.rules.shuffle is Shuffle.EVERY_ROUND or round_.shoe.cut_card_out:
                dealt = "".join(round_.shoe.dealt)
                retired = replace(shoe, in_play=False, retired=True, dealt=dealt)
                new_seat.shoe = self._commit_shoe(table, nonce=round_.shoe.nonce + 1)
                shoes = [retired, new_seat.shoe]
        self.store.apply_play(
            Play(
                login=step.identity.key,
                seat=new_seat,
                expected_version=seat.version,
                wallet_change=wallet_change,
                stake=stake,
                reason=step.reason,
                round_id=step.round_id,
                stats=stats,
                settled=settled,
                shoes=shoes,
            )
        )
        return Outcome(
            view=view,
            version=new_seat.version,
            started=step.started,
            house_net=None if net is None else -net,
        )

    # ---- helpers ----------------------------------------------------------------------

    def _load(self, identity: Identity, table: Table) -> tuple[Profile, Seat | None]:
        try:
            return self.store.get_profile_and_seat(identity.key, table.id)
        except LookupError as error:
            raise Unauthorized("this account no longer exists") from error

    def _profile(self, identity: Identity) -> Profile:
        profile = self.store.get_profile(identity.key)
        if profile is None:
            raise Unauthorized("this account no longer exists")
        return profile

    def _commit_shoe(self, table: Table, nonce: int) -> ShoeRecord:
        """The next shoe's commitment: its server seed fixed (and hashed), not shuffled."""
        server_seed = self.seeds.server_seed()
        return ShoeRecord(
            shoe_id=uuid.uuid4().hex,
            table=table.id,
            state={
                "server_seed": server_seed,
                "client_seed": self.seeds.client_seed(),
                "nonce": nonce,
                "decks": table.rules.decks,
                "cut_index": None,
                "cards": "",
                "position": 0,
            },
            server_seed_hash=fairness.seed_hash(server_seed),
        )

    def _shoe_for_round(self, table: Table, shoe: ShoeRecord, request: StartRoundRequest) -> Shoe:
        """The shoe in play, or the committed one shuffled with the player's seed and cut."""
        if shoe.in_play:
            if request.client_seed is not None or request.cut is not None:
                raise ValidationFailed(
                    "client_seed and cut are allowed only on the round that starts a new shoe"
                )
            return Shoe.from_state(shoe.state)
        rules = table.rules
        if request.cut is not None:
            if rules.cut_range is None:
                raise ValidationFailed(f"the player does not place the cut at {table.id}")
            low, high = rules.cut_range
            if not low <= request.cut <= high:
                raise ValidationFailed(f"cut is from {low} to {high}")
        cut = request.cut if request.cut is not None else rules.cut_default
        state = shoe.state
        return Shoe.shuffle(
            state["server_seed"],
            request.client_seed or state["client_seed"],
            int(state["nonce"]),
            rules.decks,
            cut if rules.shuffle is Shuffle.CUT_CARD else None,
        )

    @staticmethod
    def _seat_round_view(table: Table, seat: Seat, balance: Decimal) -> dict[str, Any] | None:
        if seat.round_state is None or seat.round_id is None:
            return None
        round_ = Round.from_state(seat.round_state, table, Shoe.from_state(seat.shoe.state))
        return _full_view(round_, seat, balance)


def _in_play(record: ShoeRecord, shoe: Shoe, rounds: list[str]) -> ShoeRecord:
    """The seat's shoe record after a request dealt from it (still in play)."""
    return replace(record, state=shoe.to_state(), rounds=rounds, in_play=True)


def _table(table_id: str) -> Table:
    table = TABLES.get(table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    return table


def _round_in_play(table: Table, seat: Seat | None) -> Round:
    if seat is None or seat.round_state is None or seat.round_state["phase"] == Phase.SETTLED:
        raise NoRound("no round in play at this table; place a bet")
    return Round.from_state(seat.round_state, table, Shoe.from_state(seat.shoe.state))


def _full_view(round_: Round, seat: Seat, balance: Decimal) -> dict[str, Any]:
    """The round view of API.md: the engine's, with what the service keeps about it."""
    return {
        "round_id": seat.round_id,
        "shoe_id": seat.round_shoe_id or seat.shoe.shoe_id,
        "version": seat.version,
        "started_at": seat.round_started_at,
        "settled_at": seat.round_settled_at,
        **round_view(round_),
        "balance": to_json(balance),
    }


def _stored(view: dict[str, Any]) -> dict[str, Any]:
    """A settled round's stored view; one stored before the trainer gains its fields."""
    view.setdefault("started_at", None)
    view.setdefault("settled_at", None)
    for box in view["boxes"]:
        for hand in box["hands"]:
            hand.setdefault("decisions", [])
    return view


def _timestamp(seconds: float) -> str:
    """UTC, RFC 3339 with milliseconds (API.md)."""
    moment = datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")
    return moment.replace("+00:00", "Z")


def _shoe_view(shoe: ShoeRecord) -> dict[str, Any]:
    state = shoe.state
    decks = int(state["decks"])
    in_play = Shoe.from_state(state) if shoe.in_play else None
    return {
        "shoe_id": shoe.shoe_id,
        "server_seed_hash": shoe.server_seed_hash,
        "client_seed": state["client_seed"],
        "nonce": state["nonce"],
        "decks": decks,
        "cards_remaining": 52 * decks if in_play is None else in_play.cards_remaining,
        "cut_card_out": False if in_play is None else in_play.cut_card_out,
    }


def _default_cut_index(table: Table) -> int | None:
    rules = table.rules
    if rules.shuffle is not Shuffle.CUT_CARD or rules.cut_default is None:
        return None
    return fairness.cut_index(rules.decks, rules.cut_default)


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
    return stats


def _distinct(by_box: dict[int, _V], given: int) -> dict[int, _V]:
    if len(by_box) != given:
        raise BetOutOfLimits("a box can be taken only once")
    return by_box


def _unpack(cards: str) -> list[str]:
    return [cards[i : i + 2] for i in range(0, len(cards), 2)]
