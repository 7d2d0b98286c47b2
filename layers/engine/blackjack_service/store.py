"""The one data-access class: every DynamoDB read and write of the service goes through
`Store`, and this is the only module that imports boto3 (on first use).

Single-table design (table `TABLE_NAME`: `pk`/`sk` strings, GSI `gsi1` on
`gsi1pk`/`gsi1sk` projecting ALL, TTL attribute `expires_at`):

- profile + wallet (login, nick, password hash, balance, stats counters, the trainer's
  counters by kind of decision as `<kind>_decisions`, `<kind>_mistakes`, `<kind>_ev_lost`):
  `USER#<login>` / `PROFILE`
- seat at a table (version; shoe in play or the next shoe committed; current or last
  round): `USER#<login>` / `SEAT#<table>`
- settled round (its public view as JSON): `USER#<login>` / `ROUND#<round_id>`, and in
  `gsi1`: `HISTORY#<login>` / `<settled at, µs, 16 digits>#<round_id>`
- ledger entry, one per balance change: `USER#<login>` / `LEDGER#<time>#<id>`
- shoe (commitment, seeds, round ids; dealt cards once retired): `USER#<login>` /
  `SHOE#<shoe_id>`
- failed logins (expire by TTL): `LOGIN#<login>` / `ATTEMPTS`
- idempotency records (Powertools): `idempotency#<function>` / `<hash>`

`<login>` is the login lower-cased, so logins are unique ignoring case (a conditional put
on the profile key). A settled round's `gsi1sk` is its settle time (µs) and id, so the
history reads last settled first from one GSI query. Only `gsi1` is used.

Every change is conditional: a seat write expects the seat's `version` (or its absence),
a wallet debit expects `balance >= stake`; a play (bet or action) writes profile, seat,
ledger, round and shoes in one `TransactWriteItems`, so a lost race changes nothing.
"""

from __future__ import annotations

import functools
import json
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from blackjack.grading import Kind

from .errors import Conflict, InsufficientFunds, LoginTaken

if TYPE_CHECKING:
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
    from botocore.exceptions import ClientError
    from mypy_boto3_dynamodb.client import DynamoDBClient

PROFILE = "PROFILE"
ATTEMPTS = "ATTEMPTS"
HISTORY_INDEX = "gsi1"
_ZERO = Decimal(0)


@functools.cache
def _types() -> tuple[TypeSerializer, TypeDeserializer]:
    # boto3 is imported on the first DynamoDB call, not with the function (it is a third
    # of a function's import time, and the routes that need no table never pay it).
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

    return TypeSerializer(), TypeDeserializer()


def _user_key(login: str) -> str:
    return f"USER#{login}"


def _key(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def _to_item(values: Mapping[str, Any]) -> dict[str, Any]:
    serializer = _types()[0]
    return {name: serializer.serialize(value) for name, value in values.items()}


def _from_item(item: Mapping[str, Any]) -> dict[str, Any]:
    deserializer = _types()[1]
    return {name: deserializer.deserialize(value) for name, value in item.items()}


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


# ---- records ------------------------------------------------------------------------


@dataclass(slots=True)
class Grades:
    """The trainer's counters of one kind of decision."""

    decisions: int = 0
    mistakes: int = 0
    ev_lost: Decimal = _ZERO  # coins, exact: the sum of loss x the hand's original bet


GRADE_FIELDS = tuple(f.name for f in fields(Grades))


@dataclass(slots=True)
class Stats:
    rounds: int = 0
    hands_won: int = 0
    hands_lost: int = 0
    hands_pushed: int = 0
    net: Decimal = _ZERO
    by_kind: dict[Kind, Grades] = field(default_factory=lambda: {kind: Grades() for kind in Kind})


@dataclass(slots=True)
class Profile:
    login: str  # as registered
    nick: str
    password_hash: str
    balance: Decimal
    stats: Stats = field(default_factory=Stats)

    @property
    def key(self) -> str:
        return self.login.lower()


@dataclass(slots=True)
class LoginAttempts:
    failures: int
    window_start: int  # epoch seconds of the first failure counted
    locked_until: int  # epoch seconds; 0 when not locked


@dataclass(slots=True)
class ShoeRecord:
    """A committed shoe. `state` is the engine's `Shoe.to_state()` (cards absent until the
    bet that starts the shoe shuffles it); secret until `retired`."""

    shoe_id: str
    table: str
    state: dict[str, Any]
    server_seed_hash: str
    rounds: list[str] = field(default_factory=list)
    in_play: bool = False
    retired: bool = False
    dealt: str | None = None  # every card dealt, in order, once retired


@dataclass(slots=True)
class Seat:
    """A user's seat at one table: the shoe in play (or the next one, committed) and the
    current or last round. `version` counts the seat's writes."""

    table: str
    version: int
    shoe: ShoeRecord
    round_id: str | None = None
    round_shoe_id: str | None = None
    round_state: dict[str, Any] | None = None
    round_started_at: str | None = None  # RFC 3339; None for rounds stored before
    round_settled_at: str | None = None


@dataclass(slots=True)
class SettledRound:
    round_id: str
    table: str
    view: dict[str, Any]
    settled_at_us: int


def history_position(settled_at_us: int, round_id: str) -> str:
    """A settled round's place in the history index: settle time, then id for ties."""
    return f"{settled_at_us:016d}#{round_id}"


@dataclass(slots=True)
class Play:
    """One request's change to a seat and the wallet, written atomically."""

    login: str
    seat: Seat  # the new seat; its version is expected_version + 1
    expected_version: int | None  # None: the seat must not exist yet
    wallet_change: Decimal = _ZERO
    stake: Decimal = _ZERO  # what the request takes from the balance (balance >= stake)
    reason: str = ""
    round_id: str | None = None
    stats: Stats | None = None  # counters to add when the request settles a round
    settled: SettledRound | None = None
    shoes: list[ShoeRecord] = field(default_factory=list)  # shoe items to write


@dataclass(slots=True)
class Page:
    rounds: list[dict[str, Any]]
    next_position: str | None  # the history position of the page's last round


# ---- the store ----------------------------------------------------------------------


class Store:
    """DynamoDB access for the service. The client is made on first use, so importing a
    function costs no client construction, and tests and benchmarks may pass their own."""

    def __init__(self, table_name: str, client: DynamoDBClient | None = None) -> None:
        self.table_name = table_name
        self._client = client

    @property
    def client(self) -> DynamoDBClient:
        if self._client is None:
            import boto3

            self._client = boto3.client("dynamodb")
        return self._client

    # ---- accounts -------------------------------------------------------------------

    def create_profile(self, profile: Profile) -> None:
        """Raises `LoginTaken` when the lower-cased login exists."""
        try:
            self.client.put_item(
                TableName=self.table_name,
                Item=self._profile_item(profile),
                ConditionExpression="attribute_not_exists(pk)",
            )
        except _client_error() as error:
            if _error_code(error) == "ConditionalCheckFailedException":
                raise LoginTaken("this login is taken") from error
            raise

    def get_profile(self, login_key: str) -> Profile | None:
        item = self.client.get_item(
            TableName=self.table_name,
            Key=_key(_user_key(login_key), PROFILE),
            ConsistentRead=True,
        ).get("Item")
        return None if item is None else _profile(_from_item(item))

    def get_profile_and_attempts(
        self, login_key: str
    ) -> tuple[Profile | None, LoginAttempts | None]:
        items = self._batch_get(
            [_key(_user_key(login_key), PROFILE), _key(f"LOGIN#{login_key}", ATTEMPTS)]
        )
        profile = items.get((_user_key(login_key), PROFILE))
        attempts = items.get((f"LOGIN#{login_key}", ATTEMPTS))
        return (
            None if profile is None else _profile(profile),
            None if attempts is None else _attempts(attempts),
        )

    def put_login_attempts(self, login_key: str, attempts: LoginAttempts, expires_at: int) -> None:
        self.client.put_item(
            TableName=self.table_name,
            Item={
                **_key(f"LOGIN#{login_key}", ATTEMPTS),
                **_to_item(
                    {
                        "failures": attempts.failures,
                        "window_start": attempts.window_start,
                        "locked_until": attempts.locked_until,
                        "expires_at": expires_at,
                    }
                ),
            },
        )

    def clear_login_attempts(self, login_key: str) -> None:
        self.client.delete_item(TableName=self.table_name, Key=_key(f"LOGIN#{login_key}", ATTEMPTS))

    # ---- seats ----------------------------------------------------------------------

    def get_profile_and_seat(self, login_key: str, table: str) -> tuple[Profile, Seat | None]:
        """One consistent BatchGetItem; `LookupError` when the profile is gone (a token that
        outlived its user)."""
        profile, seats = self.get_profile_and_seats(login_key, [table])
        return profile, seats.get(table)

    def get_profile_and_seats(
        self, login_key: str, tables: Sequence[str]
    ) -> tuple[Profile, dict[str, Seat]]:
        pk = _user_key(login_key)
        keys = [_key(pk, PROFILE), *(_key(pk, f"SEAT#{table}") for table in tables)]
        items = self._batch_get(keys)
        profile = items.pop((pk, PROFILE), None)
        if profile is None:
            raise LookupError(login_key)
        seats = (_seat(item) for item in items.values())
        return _profile(profile), {seat.table: seat for seat in seats}

    def create_seat(self, login_key: str, seat: Seat) -> None:
        """The first view of a table: the seat and its first committed shoe, or `Conflict`
        when a concurrent request made the seat first."""
        self._transact(
            [
                {
                    "Put": {
                        "TableName": self.table_name,
                        "Item": self._seat_item(login_key, seat),
                        "ConditionExpression": "attribute_not_exists(pk)",
                    }
                },
                {
                    "Put": {
                        "TableName": self.table_name,
                        "Item": self._shoe_item(login_key, seat.shoe),
                    }
                },
            ],
            wallet_index=None,
        )

    def save_seat(self, login_key: str, seat: Seat, expected_version: int) -> None:
        """A change of the seat alone (no coin moves): one conditional PutItem."""
        try:
            self.client.put_item(
                TableName=self.table_name,
                Item=self._seat_item(login_key, seat),
                ConditionExpression="version = :expected",
                ExpressionAttributeValues={":expected": {"N": str(expected_version)}},
            )
        except _client_error() as error:
            if _error_code(error) == "ConditionalCheckFailedException":
                raise Conflict("the round changed meanwhile; read it again") from error
            raise

    def apply_play(self, play: Play) -> None:
        """Write a bet or an action: wallet, seat, ledger, settled round and shoes in one
        transaction. Raises `InsufficientFunds` when the balance no longer covers the
        stake, `Conflict` when the seat moved on; either way nothing is written."""
        seat_only = not (play.wallet_change or play.stats or play.shoes or play.settled)
        if seat_only and play.expected_version is not None:
            self.save_seat(play.login, play.seat, play.expected_version)
            return
        pk = _user_key(play.login)
        now = time.time()
        seat_put: dict[str, Any] = {
            "TableName": self.table_name,
            "Item": self._seat_item(play.login, play.seat),
        }
        if play.expected_version is None:
            seat_put["ConditionExpression"] = "attribute_not_exists(pk)"
        else:
            seat_put["ConditionExpression"] = "version = :expected"
            seat_put["ExpressionAttributeValues"] = {":expected": {"N": str(play.expected_version)}}
        items: list[dict[str, Any]] = [{"Update": self._wallet_update(play)}, {"Put": seat_put}]
        if play.wallet_change:
            entry = {
                **_key(pk, f"LEDGER#{now:017.6f}#{uuid.uuid4().hex[:8]}"),
                **_to_item(
                    {
                        "amount": play.wallet_change,
                        "reason": play.reason,
                        "table": play.seat.table,
                        "round_id": play.round_id or "",
                        "at": int(now),
                    }
                ),
            }
            items.append({"Put": {"TableName": self.table_name, "Item": entry}})
        if play.settled is not None:
            items.append({"Put": self._round_put(play)})
        items.extend(
            {"Put": {"TableName": self.table_name, "Item": self._shoe_item(play.login, shoe)}}
            for shoe in play.shoes
        )
        self._transact(items, wallet_index=0)

    def _wallet_update(self, play: Play) -> dict[str, Any]:
        sets = ["balance = balance + :change"]
        values: dict[str, Any] = {":change": play.wallet_change, ":stake": play.stake}
        if play.stats is not None:
            stats = play.stats
            sets += [
                "rounds = rounds + :rounds",
                "hands_won = hands_won + :won",
                "hands_lost = hands_lost + :lost",
                "hands_pushed = hands_pushed + :pushed",
                "net = net + :net",
            ]
            values |= {
                ":rounds": stats.rounds,
                ":won": stats.hands_won,
                ":lost": stats.hands_lost,
                ":pushed": stats.hands_pushed,
                ":net": stats.net,
            }
            # Profiles made before the trainer lack its counters: they start at zero.
            graded = {name: amount for name, amount in _grade_attributes(stats).items() if amount}
            sets += [f"{name} = if_not_exists({name}, :zero) + :{name}" for name in graded]
            values |= {f":{name}": amount for name, amount in graded.items()}
            if graded:
                values[":zero"] = 0
        return {
            "TableName": self.table_name,
            "Key": _key(_user_key(play.login), PROFILE),
            "UpdateExpression": "SET " + ", ".join(sets),
            "ConditionExpression": "balance >= :stake",
            "ExpressionAttributeValues": _to_item(values),
        }

    def _round_put(self, play: Play) -> dict[str, Any]:
        assert play.settled is not None
        settled = play.settled
        return {
            "TableName": self.table_name,
            "Item": {
                **_key(_user_key(play.login), f"ROUND#{settled.round_id}"),
                **_to_item(
                    {
                        "table": settled.table,
                        "view": _dumps(settled.view),
                        "gsi1pk": f"HISTORY#{play.login}",
                        "gsi1sk": history_position(settled.settled_at_us, settled.round_id),
                    }
                ),
            },
            "ConditionExpression": "attribute_not_exists(pk)",
        }

    # ---- history and shoes ----------------------------------------------------------

    def get_round(self, login_key: str, round_id: str) -> dict[str, Any] | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=_key(_user_key(login_key), f"ROUND#{round_id}")
        ).get("Item")
        return None if item is None else dict(json.loads(_from_item(item)["view"]))

    def list_rounds(
        self, login_key: str, table: str | None, limit: int, before: str | None
    ) -> Page:
        """Settled rounds, last settled first; `before` (a history position) continues a
        page. A table filter may need several queries to fill a page."""
        rounds: list[dict[str, Any]] = []
        positions: list[str] = []
        condition = "gsi1pk = :pk"
        values: dict[str, Any] = {":pk": {"S": f"HISTORY#{login_key}"}}
        if before is not None:
            condition += " AND gsi1sk < :before"
            values[":before"] = {"S": before}
        query: dict[str, Any] = {
            "TableName": self.table_name,
            "IndexName": HISTORY_INDEX,
            "KeyConditionExpression": condition,
            "ExpressionAttributeValues": values,
            "ScanIndexForward": False,
            "Limit": limit + 1,
        }
        if table is not None:
            query["FilterExpression"] = "#table = :table"
            query["ExpressionAttributeNames"] = {"#table": "table"}
            values[":table"] = {"S": table}
        while len(rounds) <= limit:
            response = self.client.query(**query)
            for item in response.get("Items", []):
                record = _from_item(item)
                rounds.append(json.loads(record["view"]))
                positions.append(record["gsi1sk"])
            last = response.get("LastEvaluatedKey")
            if last is None:
                break
            query["ExclusiveStartKey"] = last
        if len(rounds) > limit:
            return Page(rounds=rounds[:limit], next_position=positions[limit - 1])
        return Page(rounds=rounds, next_position=None)

    def get_shoe(self, login_key: str, shoe_id: str) -> ShoeRecord | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=_key(_user_key(login_key), f"SHOE#{shoe_id}")
        ).get("Item")
        return None if item is None else _shoe(_from_item(item))

    # ---- items ----------------------------------------------------------------------

    def _profile_item(self, profile: Profile) -> dict[str, Any]:
        stats = profile.stats
        return {
            **_key(_user_key(profile.key), PROFILE),
            **_to_item(
                {
                    "login": profile.login,
                    "nick": profile.nick,
                    "password_hash": profile.password_hash,
                    "balance": profile.balance,
                    "rounds": stats.rounds,
                    "hands_won": stats.hands_won,
                    "hands_lost": stats.hands_lost,
                    "hands_pushed": stats.hands_pushed,
                    "net": stats.net,
                    **_grade_attributes(stats),
                }
            ),
        }

    def _seat_item(self, login_key: str, seat: Seat) -> dict[str, Any]:
        body = {
            "shoe": _shoe_document(seat.shoe),
            "round_id": seat.round_id,
            "round_shoe_id": seat.round_shoe_id,
            "round": seat.round_state,
            "round_started_at": seat.round_started_at,
            "round_settled_at": seat.round_settled_at,
        }
        return {
            **_key(_user_key(login_key), f"SEAT#{seat.table}"),
            "table": {"S": seat.table},
            "version": {"N": str(seat.version)},
            "state": {"S": _dumps(body)},
        }

    def _shoe_item(self, login_key: str, shoe: ShoeRecord) -> dict[str, Any]:
        return {
            **_key(_user_key(login_key), f"SHOE#{shoe.shoe_id}"),
            "state": {"S": _dumps(_shoe_document(shoe))},
        }

    # ---- plumbing -------------------------------------------------------------------

    def _batch_get(self, keys: Sequence[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
        found: dict[tuple[str, str], dict[str, Any]] = {}
        request: dict[str, Any] = {self.table_name: {"Keys": list(keys), "ConsistentRead": True}}
        while request:
            response = self.client.batch_get_item(RequestItems=request)
            for item in response.get("Responses", {}).get(self.table_name, []):
                record = _from_item(item)
                found[(record["pk"], record["sk"])] = record
            request = dict(response.get("UnprocessedKeys") or {})
        return found

    def _transact(self, items: list[dict[str, Any]], wallet_index: int | None) -> None:
        try:
            self.client.transact_write_items(TransactItems=items)  # type: ignore[arg-type]
        except _client_error() as error:
            if _error_code(error) != "TransactionCanceledException":
                raise
            reasons = error.response.get("CancellationReasons", [])
            codes = [reason.get("Code", "None") for reason in reasons]
            if (
                wallet_index is not None
                and len(codes) > wallet_index
                and codes[wallet_index] == "ConditionalCheckFailed"
            ):
                raise InsufficientFunds("the balance cannot cover this stake") from error
            raise Conflict("lost a race with a concurrent request; read the table again") from error


def _client_error() -> type[ClientError]:
    """botocore's ClientError, looked up only when a call failed (botocore is loaded by
    then: the client made the call)."""
    from botocore.exceptions import ClientError

    return ClientError


def _error_code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def _shoe_document(shoe: ShoeRecord) -> dict[str, Any]:
    return {
        "shoe_id": shoe.shoe_id,
        "table": shoe.table,
        "state": shoe.state,
        "server_seed_hash": shoe.server_seed_hash,
        "rounds": shoe.rounds,
        "in_play": shoe.in_play,
        "retired": shoe.retired,
        "dealt": shoe.dealt,
    }


def _shoe_from_document(document: Mapping[str, Any]) -> ShoeRecord:
    return ShoeRecord(
        shoe_id=document["shoe_id"],
        table=document["table"],
        state=dict(document["state"]),
        server_seed_hash=document["server_seed_hash"],
        rounds=list(document["rounds"]),
        in_play=bool(document["in_play"]),
        retired=bool(document["retired"]),
        dealt=document["dealt"],
    )


def _shoe(record: Mapping[str, Any]) -> ShoeRecord:
    return _shoe_from_document(json.loads(record["state"]))


def _seat(record: Mapping[str, Any]) -> Seat:
    body = json.loads(record["state"])
    return Seat(
        table=record["table"],
        version=int(record["version"]),
        shoe=_shoe_from_document(body["shoe"]),
        round_id=body["round_id"],
        round_shoe_id=body["round_shoe_id"],
        round_state=body["round"],
        round_started_at=body.get("round_started_at"),
        round_settled_at=body.get("round_settled_at"),
    )


def _grade_attributes(stats: Stats) -> dict[str, int | Decimal]:
    """The profile's trainer counters: `<kind>_<field>`."""
    return {
        f"{kind}_{name}": getattr(grades, name)
        for kind, grades in stats.by_kind.items()
        for name in GRADE_FIELDS
    }


def _grades(record: Mapping[str, Any], kind: Kind) -> Grades:
    """One kind's counters of a profile (absent, as before the trainer: zero)."""
    zero = Grades()
    return Grades(
        **{
            name: type(getattr(zero, name))(record.get(f"{kind}_{name}", 0))
            for name in GRADE_FIELDS
        }
    )


def _profile(record: Mapping[str, Any]) -> Profile:
    return Profile(
        login=record["login"],
        nick=record["nick"],
        password_hash=record["password_hash"],
        balance=Decimal(record["balance"]),
        stats=Stats(
            rounds=int(record["rounds"]),
            hands_won=int(record["hands_won"]),
            hands_lost=int(record["hands_lost"]),
            hands_pushed=int(record["hands_pushed"]),
            net=Decimal(record["net"]),
            by_kind={kind: _grades(record, kind) for kind in Kind},
        ),
    )


def _attempts(record: Mapping[str, Any]) -> LoginAttempts:
    return LoginAttempts(
        failures=int(record["failures"]),
        window_start=int(record["window_start"]),
        locked_until=int(record["locked_until"]),
    )
