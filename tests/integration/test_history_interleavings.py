"""History is the truth under any interleaving and any crash (issue 30): two to four
requests race at one seat, and every DynamoDB call they make is a point where the
scheduler picks which request goes on, and where it may kill one: before its call is sent,
or after the call landed (a process that died with its write done, as a Lambda that hits
its Timeout there does). At every step, and after every client has retried its keys:
the balance is 10,000 plus the nets of the history (and what the round in play holds),
each settled round is in the history once and as it was answered, and a key's replays
are identical."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING, Any, cast

import pytest

from blackjack.actions import Phase
from blackjack.errors import GameError
from blackjack.rules import TABLES
from blackjack_service import factories
from blackjack_service.errors import ServiceError
from blackjack_service.game import GameService, Outcome, seat_round
from blackjack_service.idempotency import RequestKey
from blackjack_service.identity import Identity
from blackjack_service.models import ActionRequest, StartRoundRequest
from blackjack_service.records import Player
from blackjack_service.store import Store
from tests.traced import first_traced

from .helpers import START

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

INTERLEAVINGS = 200
ACTIONS = ("stand", "hit", "double", "hit", "stand")
# The client's calls a request makes: each one is a point where the scheduler steps in.
REFUSED = (GameError, ServiceError)  # a 4xx: the request changed nothing
CALLS = frozenset(("get_item", "put_item", "batch_get_item", "query", "update_item"))


class Killed(BaseException):
    """The request's process died here: nothing after this point of it runs."""


class Scheduler:
    """Runs requests in threads, one at a time: a request stops at each DynamoDB call (and
    at its start) until the scheduler, at random, lets it make that call, or kills it."""

    def __init__(self, rng: random.Random, kills: int, check: Callable[[], None]) -> None:
        self._rng, self._kills, self._check = rng, kills, check
        self._turn = threading.Condition()
        self._waiting: set[int] = set()
        self._running: int | None = None
        self._fate: dict[int, str] = {}
        self._local = threading.local()

    def gate(self) -> str:
        """Wait for this request's turn; its fate: `go`, `kill before` or `kill after`."""
        me: int = self._local.index
        with self._turn:
            self._waiting.add(me)
            self._running = None
            self._turn.notify_all()
            self._turn.wait_for(lambda: self._running == me)
            return self._fate.pop(me)

    def run(self, requests: list[Callable[[], Outcome]]) -> list[tuple[str, Any]]:
        results: list[tuple[str, Any]] = [("unrun", None)] * len(requests)
        done: set[int] = set()

        def body(index: int) -> None:
            self._local.index = index
            try:
                self.gate()
                results[index] = ("answered", requests[index]())
            except Killed:
                results[index] = ("killed", None)
            except REFUSED as error:
                results[index] = ("refused", error.code)
            except Exception as error:  # a 5xx: the test fails on it below
                results[index] = ("crashed", error)
            finally:
                with self._turn:
                    done.add(index)
                    self._running = None
                    self._turn.notify_all()

        threads = [threading.Thread(target=body, args=(i,)) for i in range(len(requests))]
        for thread in threads:
            thread.start()
        with self._turn:
            while len(done) < len(requests):
                self._turn.wait_for(
                    lambda: (
                        self._running is None and len(self._waiting) + len(done) == len(requests)
                    )
                )
                if not self._waiting:
                    break
                self._check()  # every request is stopped: the table is as a reader finds it
                chosen = self._rng.choice(sorted(self._waiting))
                fate = "go"
                if self._kills and self._rng.random() < 0.15:
                    self._kills -= 1
                    fate = self._rng.choice(("kill before", "kill after"))
                self._waiting.discard(chosen)
                self._fate[chosen] = fate
                self._running = chosen
                self._turn.notify_all()
        for thread in threads:
            thread.join()
        return results


class GatedClient:
    """A DynamoDB client whose every call waits for the scheduler, and dies where told."""

    def __init__(self, client: Any, scheduler: Scheduler) -> None:
        self._client, self._scheduler = client, scheduler

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._client, name)
        if name not in CALLS:
            return call

        def gated(**params: Any) -> Any:
            fate = self._scheduler.gate()
            if fate == "kill before":
                raise Killed
            try:
                return call(**params)
            finally:
                if fate == "kill after":
                    raise Killed  # the call landed; its caller never knows

        return gated


class RandomSeeds:
    """Shoes from the interleaving's own generator: random, and the same on every run."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def server_seed(self) -> str:
        return f"{self._rng.getrandbits(256):064x}"

    def client_seed(self) -> str:
        return f"{self._rng.getrandbits(64):016x}"


@dataclass
class Request:
    """One request a client sends, and sends again with its key until it is answered."""

    kind: str  # "bet" or an action
    body: dict[str, Any]
    key: RequestKey | None
    if_match: int | None = None

    def send(self, game: GameService, identity: Identity, table: str) -> Outcome:
        if self.kind == "bet":
            return game.start_round(
                identity, table, StartRoundRequest.model_validate(self.body), self.key
            )
        action = ActionRequest.model_validate(self.body)
        return game.act(identity, table, action, self.if_match, self.key)


def _random_requests(rng: random.Random, table: str, version: int) -> list[Request]:
    requests: list[Request] = []
    for number in range(rng.randint(2, 4)):
        if requests and rng.random() < 0.25:  # the same key sent again while its first runs
            requests.append(rng.choice(requests))
            continue
        body: dict[str, Any]
        if rng.random() < 0.3:
            kind, body = "bet", {"bets": [{"box": 0, "amount": rng.choice((10, 100, 250))}]}
            route = ["POST", "/v1/tables/{table_id}/rounds", {"table_id": table}]
        else:
            kind = rng.choice(ACTIONS)
            body = {"action": kind}
            route = ["POST", "/v1/tables/{table_id}/round/actions", {"table_id": table}]
        key = RequestKey.of(route, f"key-{number}", body) if rng.random() < 0.8 else None
        if_match = version if kind != "bet" and rng.random() < 0.5 else None
        requests.append(Request(kind, body, key, if_match))
    return requests


def _bet(amount: int) -> StartRoundRequest:
    return StartRoundRequest.model_validate({"bets": [{"box": 0, "amount": amount}]})


def _play_out(game: GameService, identity: Identity, table: str) -> None:
    """Stand (or decline insurance) until the seat's round settles."""
    while True:
        seat = game.store.existing_player(identity.account_id).seats[table]
        round_ = seat_round(TABLES[table], seat)
        if round_ is None or round_.phase is Phase.SETTLED:
            return
        legal = {action.value for action in round_.legal_actions()}
        action = "stand" if "stand" in legal else "decline_insurance"
        game.act(identity, table, ActionRequest.model_validate({"action": action}), None)


def _history(game: GameService, identity: Identity) -> list[dict[str, Any]]:
    rounds: list[dict[str, Any]] = []
    before = None
    while True:  # pages of 3: the seats' rounds merge with the items across page ends
        page = game.history(identity, None, 3, before)
        rounds += page.rounds
        if page.next_position is None:
            return rounds
        before = page.next_position


def _assert_truth(store: Store, game: GameService, identity: Identity) -> None:
    player = store.load_player(identity.account_id)
    assert player is not None
    history = _history(game, identity)
    ids = [round_["round_id"] for round_ in history]
    assert len(set(ids)) == len(ids), f"a round twice in the history: {ids}"
    in_play = Decimal(0)
    for table_id, seat in player.seats.items():
        round_ = seat_round(TABLES[table_id], seat)
        if round_ is not None and round_.phase is not Phase.SETTLED:
            in_play += round_.returned() - round_.staked()
    nets = sum((Decimal(str(round_["net"])) for round_ in history), Decimal(0))
    assert player.balance == START + nets + in_play, (player.balance, nets, in_play)
    assert player.stats.rounds == len(history)


def _shown(round_: dict[str, Any]) -> dict[str, Any]:
    """A round as the history shows it: an answer's `dealt` is that answer's own."""
    return {**round_, "dealt": []}


@pytest.mark.parametrize("seed", first_traced(range(INTERLEAVINGS), traced=20))
def test_history_is_the_truth_whatever_dies_when(aws: None, seed: int) -> None:
    """Each interleaving in an empty moto account: moto's query reads every item of the
    table, so one account filled by 200 of them made the last ones ten times slower."""
    rng = random.Random(seed)
    table = rng.choice(sorted(TABLES))
    identity = Identity(login=f"racer{seed}", nick="racer")
    plain = factories.store()
    plain.put_player(identity.account_id, Player(revision=1, balance=START), expected_revision=None)
    game = GameService(plain, seeds=RandomSeeds(rng))
    game.seat(identity, table)
    for _ in range(rng.randint(0, 2)):  # rounds before: the last one settled or in play
        _play_out(game, identity, table)
        game.start_round(identity, table, _bet(10))
    version = game.seat(identity, table)[1]

    def check() -> None:
        _assert_truth(plain, game, identity)

    scheduler = Scheduler(rng, kills=rng.randint(0, 2), check=check)
    racing = GameService(
        Store(plain.table_name, cast("DynamoDBClient", GatedClient(plain.client, scheduler))),
        seeds=RandomSeeds(rng),
    )
    requests = _random_requests(rng, table, version)
    results = scheduler.run([partial(r.send, racing, identity, table) for r in requests])
    assert not [first for fate, first in results if fate == "crashed"]
    check()

    # Each client sends its key again until answered: an answer is the first one, as it was.
    for request, (fate, first) in zip(requests, results, strict=True):
        if request.key is None:
            continue
        try:
            again = request.send(game, identity, table)
        except REFUSED:
            assert fate != "answered", "an answered key refused on its retry"
            continue
        if fate == "answered":
            assert (again.round, again.version) == (first.round, first.version)
        replayed = request.send(game, identity, table)
        assert (replayed.round, replayed.version) == (again.round, again.version)
    check()

    # Every answered settled round is in the history once, as answered; then the seat
    # plays on, which files its last round, and the history still tells the same story.
    answered = [first for fate, first in results if fate == "answered"]
    for _ in range(2):
        history = {round_["round_id"]: round_ for round_ in _history(game, identity)}
        for outcome in answered:
            if outcome.round["status"] == "settled":
                assert history.get(outcome.round["round_id"]) == _shown(outcome.round)
        _play_out(game, identity, table)
        game.start_round(identity, table, _bet(10))
        check()
