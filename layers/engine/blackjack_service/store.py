"""The one data-access class: every DynamoDB read and write of the service goes through
`Store`, and this is the only module that imports boto3 (on first use). What an item holds
besides its keys is its record's, in `records`.

Single-table design (table `TABLE_NAME`: `pk`/`sk` strings, GSI `gsi1` on
`gsi1pk`/`gsi1sk` projecting ALL, TTL attribute `expires_at`):

- profile + wallet (`Profile`, with its stats counters): `USER#<login>` / `PROFILE`
- seat at a table (`Seat`: version; shoe in play or the next shoe committed; current or
  last round): `USER#<login>` / `SEAT#<table>`
- settled round (`SettledRound`: its public view as JSON): `USER#<login>` /
  `ROUND#<round_id>`, and in `gsi1`: `HISTORY#<login>` / `<settled at, µs, 16 digits>#<round_id>`
- ledger entry (`LedgerEntry`), one per balance change: `USER#<login>` / `LEDGER#<time>#<id>`
- shoe (`ShoeRecord`: commitment, seeds, round ids; dealt cards once retired):
  `USER#<login>` / `SHOE#<shoe_id>`
- failed logins (`LoginAttempts`, expire by TTL): `LOGIN#<login>` / `ATTEMPTS`
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
import time
import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .errors import Conflict, InsufficientFunds, LoginTaken
from .records import (
    LoginAttempts,
    Page,
    Play,
    Profile,
    Seat,
    ShoeRecord,
    attempts_codec,
    history_position,
    ledger_codec,
    profile_codec,
    seat_codec,
    settled_round_attributes,
    settled_round_view,
    shoe_codec,
)

if TYPE_CHECKING:
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
    from botocore.exceptions import ClientError
    from mypy_boto3_dynamodb.client import DynamoDBClient

PROFILE = "PROFILE"
ATTEMPTS = "ATTEMPTS"
HISTORY_INDEX = "gsi1"


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


def _item(pk: str, sk: str, attributes: Mapping[str, Any]) -> dict[str, Any]:
    return {**_key(pk, sk), **_to_item(attributes)}


def _to_item(values: Mapping[str, Any]) -> dict[str, Any]:
    serializer = _types()[0]
    return {name: serializer.serialize(value) for name, value in values.items()}


def _from_item(item: Mapping[str, Any]) -> dict[str, Any]:
    deserializer = _types()[1]
    return {name: deserializer.deserialize(value) for name, value in item.items()}


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
        return None if item is None else profile_codec.record(_from_item(item))

    def get_profile_and_attempts(
        self, login_key: str
    ) -> tuple[Profile | None, LoginAttempts | None]:
        items = self._batch_get(
            [_key(_user_key(login_key), PROFILE), _key(f"LOGIN#{login_key}", ATTEMPTS)]
        )
        profile = items.get((_user_key(login_key), PROFILE))
        attempts = items.get((f"LOGIN#{login_key}", ATTEMPTS))
        return (
            None if profile is None else profile_codec.record(profile),
            None if attempts is None else attempts_codec.record(attempts),
        )

    def put_login_attempts(self, login_key: str, attempts: LoginAttempts, expires_at: int) -> None:
        self.client.put_item(
            TableName=self.table_name,
            Item=_item(
                f"LOGIN#{login_key}",
                ATTEMPTS,
                {**attempts_codec.attributes(attempts), "expires_at": expires_at},
            ),
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
        seats = (seat_codec.record(item) for item in items.values())
        return profile_codec.record(profile), {seat.table: seat for seat in seats}

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
            entry = _item(
                pk,
                f"LEDGER#{now:017.6f}#{uuid.uuid4().hex[:8]}",
                ledger_codec.attributes(play.ledger_entry(at=int(now))),
            )
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
            # Profiles made before the trainer lack its counters: they start at zero.
            added = {name: amount for name, amount in play.stats.counters().items() if amount}
            sets += [f"{name} = if_not_exists({name}, :zero) + :{name}" for name in added]
            values |= {f":{name}": amount for name, amount in added.items()}
            if added:
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
            "Item": _item(
                _user_key(play.login),
                f"ROUND#{settled.round_id}",
                {
                    **settled_round_attributes(settled),
                    "gsi1pk": f"HISTORY#{play.login}",
                    "gsi1sk": history_position(settled.settled_at_us, settled.round_id),
                },
            ),
            "ConditionExpression": "attribute_not_exists(pk)",
        }

    # ---- history and shoes ----------------------------------------------------------

    def get_round(self, login_key: str, round_id: str) -> dict[str, Any] | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=_key(_user_key(login_key), f"ROUND#{round_id}")
        ).get("Item")
        return None if item is None else settled_round_view(_from_item(item))

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
                rounds.append(settled_round_view(record))
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
        return None if item is None else shoe_codec.record(_from_item(item))

    # ---- items ----------------------------------------------------------------------

    def _profile_item(self, profile: Profile) -> dict[str, Any]:
        return _item(_user_key(profile.key), PROFILE, profile_codec.attributes(profile))

    def _seat_item(self, login_key: str, seat: Seat) -> dict[str, Any]:
        return _item(_user_key(login_key), f"SEAT#{seat.table}", seat_codec.attributes(seat))

    def _shoe_item(self, login_key: str, shoe: ShoeRecord) -> dict[str, Any]:
        return _item(_user_key(login_key), f"SHOE#{shoe.shoe_id}", shoe_codec.attributes(shoe))

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
