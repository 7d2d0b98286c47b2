"""The one data-access class: every DynamoDB read and write of the service goes through
`Store`, and this is the only module that imports boto3 (on first use; `aws_client` also
makes the SQS and `@connections` clients of `deadlines` and `live`). What an item holds
besides its item key is its record's, in `records`.

Single-table design (the DynamoDB table `TABLE_NAME`, `table_name` here: `pk`/`sk`
strings, no index, TTL attribute `expires_at`):

- profile (`Profile`: login, nick, password hash): `USER#<account_id>` / `PROFILE`
- player (`Player`: balance, stats, every seat with its shoe and round, the idempotency
  keys), written with the profile at registration: `USER#<account_id>` / `PLAYER`
- settled round (`SettledRound`: replayable, with its net): `USER#<account_id>` /
  `HISTORY#<stream>#<settled at, µs, 16 digits>#<round_id>` (its history position in its
  stream). A stream is a table's own rounds (`<table_id>`) or its rooms' (`<table_id>+rooms`),
  so a page of history is a query of a page in each stream it spans (one table's: at most
  two), merged by position, whatever the history's length, and no index write is paid a
  round. A round or a shoe is found by id from the shoe's commit time, which the shoe id
  holds (`records.committed_at_of`): its rounds are filed after it in one stream, in a
  run at the table's own stream (a seat deals from one shoe at a time), which a later
  shoe ends.
- drills at a game table (`Drills`: the Leitner schedule and the answers' idempotency
  keys): `USER#<account_id>` / `DRILLS#<table_id>`
- login attempts since the last success (`LoginAttempts`, expire by TTL):
  `LOGIN#<account_id>` / `ATTEMPTS`
- the shoes committed before shoe ids held their commit time (`OldShoes`: where their
  rounds are filed from): `USER#<account_id>` / `OLD_SHOES`, written by `migration`
- ledger entries `LEDGER#…`, stored before the player item: nothing reads them
- a shared table (`Room`): `ROOM#<room_id>` / `ROOM`; its place in its table's lobby (an
  empty item): `LOBBY#<table_id>` / `<room_id>`; each shoe it deals from (`RoomShoe`: the
  room, the table, when it was retired), put when it is committed and again when it is
  retired: `SHOE#<shoe_id>` / `ROOM_SHOE`. A room shoe's rounds are read between its
  commit and its retirement, among the user's other rooms' at that table; a shoe id no
  room dealt from is one read.

A change of a room is one conditional write of its item; one that moves money (a bet, a
double, a settlement) writes, in one transaction, the room and the player item of each
user whose balance moves (each at the revision read), and a settlement also each
participant's history item: a room round is filed exactly when it is paid.

`<account_id>` is the login lower-cased, so logins are unique ignoring case (registration
puts the profile and the player item on condition that neither exists).

A bet or an action is one conditional write of the player item (it expects the revision
it read), so a lost race changes nothing. The player item is the truth and history follows
it: a settled round stays in its seat until the next bet there, which first puts the
round's history item, made from the player item alone (see `GameService`). No transaction
but registration's (once an account): DynamoDB bills each item written in one twice.
"""

from __future__ import annotations

import base64
import functools
import heapq
import itertools
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from blackjack.rules import TABLES

from .errors import Conflict, LoginTaken, NotMigrated, Unauthorized
from .models import ROOM_TABLES
from .records import (
    REVISION,
    UNNAMED_REVISION,
    Drills,
    LoginAttempts,
    OldShoe,
    OldShoes,
    Player,
    Profile,
    Room,
    RoomShoe,
    SettledRound,
    attempts_codec,
    committed_at_of,
    drills_codec,
    history_position,
    old_shoes_codec,
    player_codec,
    profile_codec,
    room_codec,
    room_shoe_codec,
    settled_codec,
)

if TYPE_CHECKING:
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer
    from botocore.exceptions import ClientError
    from mypy_boto3_dynamodb.client import DynamoDBClient
    from mypy_boto3_dynamodb.type_defs import TransactWriteItemTypeDef

# How long a call may take before the request is answered 503 (api.py): botocore's defaults
# (60 s to connect and to read, and DynamoDB's 10 attempts, from 50 ms of backoff doubling)
# held a request 25.6 s when the table was gone. DynamoDB answers in milliseconds; a second
# to connect and two to read leave a loaded machine room. No call is retried by the client:
# a write whose answer was lost may have landed, and sent again its condition would fail,
# so a done write would pass for a lost race (409, its history item withdrawn). The
# request answers 503 instead, and its retry with the same Idempotency-Key replays it. A
# table that refuses connections costs at most a second; one that hangs, three.
CONNECT_TIMEOUT_S = 1
READ_TIMEOUT_S = 2
ATTEMPTS_PER_CALL = 1
PROFILE = "PROFILE"
PLAYER = "PLAYER"
DRILLS = "DRILLS#"  # and the table id
ATTEMPTS = "ATTEMPTS"
HISTORY = "HISTORY#"  # then the round's stream and its history position
ROOMS_STREAM = "+rooms"  # after a table id: the stream of its rooms' rounds
OLD_SHOES = "OLD_SHOES"
ROOM = "ROOM"
LOBBY = "LOBBY#"  # and the table id
SHOE = "SHOE#"  # and the shoe id: a room's shoe's partition
ROOM_SHOE = "ROOM_SHOE"  # not `ROOM`: the stream's room changes are the items keyed so
_PAGE = 50  # history items a query reads at a time where the caller may stop early
# Writes a request tries before it answers 409: each one lost to another request of the
# same user, which then counts first, so four are slack beyond any user's own pace.
_WRITE_ATTEMPTS = 4
# Tries at counting a login attempt: each loses only to an attempt that started a new
# window (which it then counts in), so two are enough and a third is slack.
_ATTEMPT_WRITES = 3
_BATCH_KEYS = 100  # keys a BatchGetItem takes
_Read = TypeVar("_Read")
_Written = TypeVar("_Written")


def until_written(
    read: _Read,
    write: Callable[[_Read], _Written],
    read_again: Callable[[], _Read],
    retry: Callable[[_Read, _Read], bool] = lambda lost_on, now: True,
    attempts: int = _WRITE_ATTEMPTS,
) -> _Written:
    """`write(read)`: a change of what was `read`, written by a conditional write that
    expects it and raises `Conflict` when another request wrote first (then nothing was
    written). A lost write reads again and writes again on that, up to `attempts` writes,
    while `retry(what it lost on, what is read now)` holds; else its `Conflict` is raised."""
    for attempt in range(1, attempts + 1):
        try:
            return write(read)
        except Conflict:
            if attempt == attempts:
                raise
            fresh = read_again()
            if not retry(read, fresh):
                raise
            read = fresh
    raise AssertionError("at least one attempt is made")


def aws_client(service: str, endpoint_url: str | None = None) -> Any:
    """A boto3 client with the timeouts above and no retry (for their reasons): the
    store's DynamoDB, and the SQS and `@connections` clients of `deadlines` and `live`.
    boto3 is imported on the first call."""
    import boto3
    from botocore.config import Config  # loaded with boto3's client anyway

    return boto3.client(  # type: ignore[call-overload]
        service,
        endpoint_url=endpoint_url,
        config=Config(
            connect_timeout=CONNECT_TIMEOUT_S,
            read_timeout=READ_TIMEOUT_S,
            retries={"mode": "standard", "total_max_attempts": ATTEMPTS_PER_CALL},
        ),
    )


@functools.cache
def _types() -> tuple[TypeSerializer, TypeDeserializer]:
    # boto3 is imported on the first DynamoDB call, not with the function (it is a third
    # of a function's import time, and the routes that need no table never pay it).
    from boto3.dynamodb.types import TypeDeserializer, TypeSerializer

    return TypeSerializer(), TypeDeserializer()


def _account_pk(login: str) -> str:
    return f"USER#{login}"


def _item_key(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def _item(pk: str, sk: str, attributes: Mapping[str, Any]) -> dict[str, Any]:
    return {**_item_key(pk, sk), **_to_item(attributes)}


def _to_item(values: Mapping[str, Any]) -> dict[str, Any]:
    serializer = _types()[0]
    return {name: serializer.serialize(value) for name, value in values.items()}


def _from_item(item: Mapping[str, Any]) -> dict[str, Any]:
    deserializer = _types()[1]
    return {name: deserializer.deserialize(value) for name, value in item.items()}


def history_stream(table_id: str, in_room: bool) -> str:
    """The history stream of a table's own rounds, or of its rooms'."""
    return table_id + ROOMS_STREAM if in_room else table_id


def history_sk(table_id: str, in_room: bool, position: str) -> str:
    """The sort key of a history item: its stream, then its history position."""
    return f"{HISTORY}{history_stream(table_id, in_room)}#{position}"


def _streams(table_ids: Iterable[str], seated: Collection[str]) -> list[str]:
    """The history streams of these tables: their own rounds' where the user has a seat,
    then their rooms' where a table has rooms."""
    table_ids = list(table_ids)
    own = [history_stream(table, False) for table in table_ids if table in seated]
    return own + [history_stream(table, True) for table in table_ids if table in ROOM_TABLES]


def _history_sk(settled: SettledRound) -> str:
    return history_sk(settled.table, settled.room is not None, settled.position)


@dataclass(frozen=True, slots=True)
class _Span:
    """History positions of one stream from `since` (on) to `before` (not on), read a page
    of `page` items at a time."""

    stream: str
    before: str | None = None
    since: str | None = None
    newest_first: bool = False
    page: int = _PAGE

    @property
    def prefix(self) -> str:
        return f"{HISTORY}{self.stream}#"

    def query(self, table_name: str, partition: str) -> dict[str, Any]:
        """The query of the span's history items in a user's partition. BETWEEN takes
        `before` in: the reader leaves it out."""
        return {
            "TableName": table_name,
            "KeyConditionExpression": "pk = :pk AND sk BETWEEN :lo AND :hi",
            "ExpressionAttributeValues": {
                ":pk": {"S": partition},
                ":lo": {"S": self.prefix + (self.since or "0")},
                ":hi": {"S": self.prefix + (self.before or "~")},
            },
            "ScanIndexForward": not self.newest_first,
            "Limit": self.page,
        }


@dataclass(frozen=True, slots=True)
class RoomWrite:
    """What one change of a room writes: the room (at `expected_version`; None: new), the
    player items whose balance it moves (each at the revision it was read at), the history
    items of the round it settles, by account, and the room's lobby entry."""

    room_id: str
    room: Room
    expected_version: int | None
    players: Mapping[str, tuple[Player, int | None]] = field(default_factory=dict)
    history: Mapping[str, SettledRound] = field(default_factory=dict)
    lobby: Literal["add", "remove"] | None = None
    shoes: Mapping[str, RoomShoe] = field(default_factory=dict)  # by shoe id


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
            self._client = aws_client("dynamodb")
        return self._client

    def ping(self) -> None:
        """Read an item key no item has (eventually consistent: half a read unit): returns when
        the table answers; raises what the client raised when it does not."""
        self.client.get_item(TableName=self.table_name, Key=_item_key("HEALTH", "PING"))

    # ---- accounts -------------------------------------------------------------------

    def create_account(self, profile: Profile, player: Player) -> None:
        """The profile and the player item in one transaction, both conditional on there
        being no such user: `LoginTaken` when the lower-cased login exists, `Conflict` when
        another registration of it was under way (DynamoDB cancels both; one may retry)."""
        pk = _account_pk(profile.account_id)
        absent = "attribute_not_exists(pk)"
        try:
            self.client.transact_write_items(
                TransactItems=[
                    {
                        "Put": {
                            "TableName": self.table_name,
                            "Item": item,
                            "ConditionExpression": absent,
                        }
                    }
                    for item in (
                        _item(pk, PROFILE, profile_codec.attributes(profile)),
                        _item(pk, PLAYER, player_codec.attributes(player)),
                    )
                ]
            )
        except _client_error() as error:
            reasons = _cancellation_reasons(error)
            if "ConditionalCheckFailed" in reasons:
                raise LoginTaken("this login is taken") from error
            if "TransactionConflict" in reasons:
                raise Conflict(
                    "this login is being registered at this moment; try again"
                ) from error
            raise

    def get_login(
        self, account_id: str
    ) -> tuple[Profile | None, LoginAttempts | None, Player | None]:
        """What a login reads, in one consistent BatchGetItem."""
        pk, attempts_pk = _account_pk(account_id), f"LOGIN#{account_id}"
        items = self._batch_get(
            [_item_key(pk, PROFILE), _item_key(attempts_pk, ATTEMPTS), _item_key(pk, PLAYER)]
        )
        profile, attempts = items.get((pk, PROFILE)), items.get((attempts_pk, ATTEMPTS))
        player = items.get((pk, PLAYER))
        return (
            None if profile is None else profile_codec.from_attributes(profile),
            None if attempts is None else attempts_codec.from_attributes(attempts),
            None if player is None else player_codec.from_attributes(player),
        )

    def get_login_attempts(self, account_id: str) -> LoginAttempts | None:
        """The login's count alone, strongly consistent: what a login waiting for the
        attempts before it polls."""
        item = self.client.get_item(
            TableName=self.table_name,
            Key=_item_key(f"LOGIN#{account_id}", ATTEMPTS),
            ConsistentRead=True,
        ).get("Item")
        return None if item is None else attempts_codec.from_attributes(_from_item(item))

    def add_login_attempt(self, account_id: str, now: int, window_seconds: int) -> LoginAttempts:
        """Count one more attempt at the login, atomically (an `ADD`, so parallel attempts
        each get a count of their own), and return the count with it: in the window under
        way, or in a new window from `now` once the last window and its lock are both over
        (the reset is conditional on that, so a lock is never cut short). The item expires
        (TTL) a minute after its window."""
        item_key = _item_key(f"LOGIN#{account_id}", ATTEMPTS)
        over, expires = now - window_seconds, now + window_seconds + 60
        values = _to_item({":one": 1, ":zero": 0, ":now": now, ":over": over, ":expires": expires})
        fresh = LoginAttempts(failures=1, window_start=now, locked_until=0)

        def count(_: None) -> LoginAttempts:
            try:
                counted = self.client.update_item(
                    TableName=self.table_name,
                    Key=item_key,
                    UpdateExpression="ADD failures :one SET "
                    "window_start = if_not_exists(window_start, :now), "
                    "locked_until = if_not_exists(locked_until, :zero), "
                    "expires_at = if_not_exists(expires_at, :expires)",
                    ConditionExpression="attribute_not_exists(pk) "
                    "OR window_start > :over OR locked_until > :now",
                    ExpressionAttributeValues=values,
                    ReturnValues="ALL_NEW",
                )
                return attempts_codec.from_attributes(_from_item(counted["Attributes"]))
            except _client_error() as error:
                if _error_code(error) != "ConditionalCheckFailedException":
                    raise
            # The window and its lock are over: a new window, unless another attempt
            # started one first (then this one counts in it).
            self._put_conditionally(
                {
                    **item_key,
                    **_to_item(attempts_codec.attributes(fresh)),
                    "expires_at": values[":expires"],
                },
                {
                    "ConditionExpression": "window_start <= :over AND locked_until <= :now",
                    "ExpressionAttributeValues": {k: values[k] for k in (":over", ":now")},
                },
                "lost a race with concurrent logins; try again",
            )
            return fresh

        return until_written(None, count, lambda: None, attempts=_ATTEMPT_WRITES)

    def lock_login(self, account_id: str, attempts: LoginAttempts, until: int) -> bool:
        """Lock the login until `until`, if its window is still the one of `attempts` and
        counts as many attempts (a success may have cleared it meanwhile); whether it did."""
        try:
            self.client.update_item(
                TableName=self.table_name,
                Key=_item_key(f"LOGIN#{account_id}", ATTEMPTS),
                UpdateExpression="SET locked_until = :until, expires_at = :expires",
                ConditionExpression="window_start = :window AND failures >= :failures",
                ExpressionAttributeValues=_to_item(
                    {
                        ":until": until,
                        ":expires": until + 60,
                        ":window": attempts.window_start,
                        ":failures": attempts.failures,
                    }
                ),
            )
        except _client_error() as error:
            if _error_code(error) != "ConditionalCheckFailedException":
                raise
            return False
        return True

    def clear_login_attempts(self, account_id: str, now: int) -> None:
        """Forget the login's attempts, unless it is locked: a lock that the fifth failure
        of attempts counted before this one set meanwhile holds to its end."""
        try:
            self.client.delete_item(
                TableName=self.table_name,
                Key=_item_key(f"LOGIN#{account_id}", ATTEMPTS),
                ConditionExpression="attribute_not_exists(pk) OR locked_until <= :now",
                ExpressionAttributeValues=_to_item({":now": now}),
            )
        except _client_error() as error:
            if _error_code(error) != "ConditionalCheckFailedException":
                raise

    # ---- the player -----------------------------------------------------------------

    def get_account(self, account_id: str) -> tuple[Profile | None, Player | None]:
        """The profile and the player item, in one consistent BatchGetItem."""
        pk = _account_pk(account_id)
        items = self._batch_get([_item_key(pk, PROFILE), _item_key(pk, PLAYER)])
        profile, player = items.get((pk, PROFILE)), items.get((pk, PLAYER))
        return (
            None if profile is None else profile_codec.from_attributes(profile),
            None if player is None else player_codec.from_attributes(player),
        )

    def load_player(self, account_id: str) -> Player | None:
        item = self.client.get_item(
            TableName=self.table_name,
            Key=_item_key(_account_pk(account_id), PLAYER),
            ConsistentRead=True,
        ).get("Item")
        return None if item is None else player_codec.from_attributes(_from_item(item))

    def existing_player(self, account_id: str) -> Player:
        """The player item of a user who must exist: a token can outlive its account, and
        an account stored before the player item may not be migrated yet."""
        player = self.load_player(account_id)
        if player is None:
            profile = self.client.get_item(
                TableName=self.table_name, Key=_item_key(_account_pk(account_id), PROFILE)
            ).get("Item")
            if profile is not None:
                raise NotMigrated()
            raise Unauthorized("this account no longer exists")
        return player

    def put_player(self, account_id: str, player: Player, expected_revision: int | None) -> None:
        """One conditional PutItem: the item must be at `expected_revision` (None: must not
        exist yet), else `Conflict` and nothing is written."""
        item = _item(_account_pk(account_id), PLAYER, player_codec.attributes(player))
        self._put_at_revision(item, expected_revision)

    # ---- what `migration` reads and writes ------------------------------------------

    def account_ids(self) -> Iterator[list[str]]:
        """Every account's id, a page of a scan at a time."""
        scan: dict[str, Any] = {
            "TableName": self.table_name,
            "FilterExpression": "sk = :profile",
            "ExpressionAttributeValues": {":profile": {"S": PROFILE}},
            "ProjectionExpression": "pk",
        }
        while True:
            response = self.client.scan(**scan)
            yield [item["pk"]["S"].removeprefix("USER#") for item in response.get("Items", [])]
            last = response.get("LastEvaluatedKey")
            if last is None:
                return
            scan = scan | {"ExclusiveStartKey": last}

    def account_items(self, account_id: str) -> dict[str, dict[str, Any]]:
        """Every item of the account as stored, by sort key (one consistent query)."""
        query = {
            "TableName": self.table_name,
            "KeyConditionExpression": "pk = :pk",
            "ExpressionAttributeValues": {":pk": {"S": _account_pk(account_id)}},
            "ConsistentRead": True,
        }
        return {item["sk"]: item for item in self._query(query)}

    def put_new(self, account_id: str, sk: str, attributes: Mapping[str, Any]) -> bool:
        """Put the item unless one is there; whether this put it."""
        return self._put_absent(_item(_account_pk(account_id), sk, attributes))

    def put_revision_named(self, account_id: str, sk: str, attributes: Mapping[str, Any]) -> bool:
        """Put the item with its write counter under its name (`REVISION`), if the stored one
        still holds it unnamed at the same count; whether this put it."""
        counted = {name: value for name, value in attributes.items() if name not in ("pk", "sk")}
        revision = int(counted.pop(UNNAMED_REVISION))
        item = _item(_account_pk(account_id), sk, {**counted, REVISION: revision})
        try:
            self._put_at_revision(item, revision, counter=UNNAMED_REVISION)
        except Conflict:
            return False
        return True

    def delete(self, account_id: str, sk: str) -> None:
        key = _item_key(_account_pk(account_id), sk)
        self.client.delete_item(TableName=self.table_name, Key=key)

    # ---- drills ---------------------------------------------------------------------

    def get_drills(self, account_id: str, table_id: str) -> tuple[Profile | None, Drills | None]:
        """The profile (None: no such user) and the user's drills at the table (None: none
        answered yet), in one consistent BatchGetItem."""
        pk, sk = _account_pk(account_id), DRILLS + table_id
        items = self._batch_get([_item_key(pk, PROFILE), _item_key(pk, sk)])
        profile, drills = items.get((pk, PROFILE)), items.get((pk, sk))
        return (
            None if profile is None else profile_codec.from_attributes(profile),
            None if drills is None else drills_codec.from_attributes(table_id, drills),
        )

    def put_drills(
        self, account_id: str, table_id: str, drills: Drills, expected_revision: int | None
    ) -> None:
        """One conditional PutItem of the drills item, which must be at `expected_revision`
        (None: must not exist yet), else `Conflict` and nothing is written."""
        item = _item(
            _account_pk(account_id), DRILLS + table_id, drills_codec.attributes(table_id, drills)
        )
        self._put_at_revision(item, expected_revision)

    def _put_absent(self, item: dict[str, Any]) -> bool:
        """Put the item unless one is there; whether this put it."""
        try:
            self._put_at_revision(item, None)
        except Conflict:
            return False
        return True

    def _put_at_revision(
        self, item: dict[str, Any], expected: int | None, counter: str = REVISION
    ) -> None:
        """Put `item` if the stored one's `counter` is at `expected` (None: if there is
        none), else raise `Conflict`."""
        self._put_conditionally(
            item,
            _expecting(counter, expected),
            "lost a race with a concurrent request; read the table again",
        )

    def _put_conditionally(
        self, item: dict[str, Any], condition: dict[str, Any], lost: str
    ) -> None:
        """Put `item` if `condition` holds, else raise `Conflict` with the message `lost`."""
        try:
            self.client.put_item(TableName=self.table_name, Item=item, **condition)
        except _client_error() as error:
            if _error_code(error) == "ConditionalCheckFailedException":
                raise Conflict(lost) from error
            raise

    # ---- history and shoes ----------------------------------------------------------

    def put_round(self, account_id: str, settled: SettledRound) -> None:
        """Put the settled round's history item, whatever was there: it is made from the
        player item alone, so a put again writes the same bytes."""
        attributes = settled_codec.attributes(settled)
        item = _item(_account_pk(account_id), _history_sk(settled), attributes)
        self.client.put_item(TableName=self.table_name, Item=item)

    def get_round(self, account_id: str, round_id: str) -> SettledRound | dict[str, Any] | None:
        """A settled round, or the public view of one settled before the player item."""
        shoe_id, numbered, number = round_id.partition("-")
        if not numbered:  # dealt before the player item: its shoe is among the old ones
            old = self.get_old_shoes(account_id)
            shoe_id = next((i for i, shoe in old.items() if round_id in shoe.rounds), "")
        found = self._rounds_of_shoe(account_id, shoe_id, int(number) if numbered else _PAGE)
        return next((stored for i, stored in found if i == round_id), None)  # read up to it

    def list_rounds(
        self,
        account_id: str,
        table_id: str | None,
        count: int,
        before: str | None,
        seated: Collection[str] = TABLES.keys(),
    ) -> list[tuple[str, SettledRound | dict[str, Any]]]:
        """Up to `count` settled rounds with their history positions, last settled first,
        from before the history position `before` (None: from the last): a page of each of
        the table's streams (or every table's), merged. `seated`: the tables where the
        user has a seat (no other has rounds of the user's own)."""
        streams = _streams(TABLES.keys() if table_id is None else [table_id], seated)
        pages = [
            self._history(account_id, _Span(stream, before=before, newest_first=True, page=count))
            for stream in streams
        ]
        merged = heapq.merge(*pages, key=lambda found: found[0], reverse=True)
        return [
            (position, settled_codec.from_attributes(item))
            for position, item in itertools.islice(merged, count)
        ]

    def rounds_since(self, account_id: str, table_id: str, since_us: int) -> Iterator[SettledRound]:
        """The table's own settled rounds, first settled first, from a time (µs) on."""
        span = _Span(history_stream(table_id, False), since=history_position(since_us, ""))
        history = self._history(account_id, span)
        yield from _replayable(settled_codec.from_attributes(item) for _, item in history)

    def rounds_of_shoe(self, account_id: str, shoe_id: str) -> list[SettledRound]:
        """The settled rounds dealt from a shoe, first dealt first (those settled before the
        player item, which are views, left out)."""
        found = self._rounds_of_shoe(account_id, shoe_id, _PAGE)
        rounds = _replayable(stored for _, stored in found)
        return sorted(rounds, key=lambda settled: settled.round.number)

    def get_old_shoes(self, account_id: str) -> dict[str, OldShoe]:
        """The user's shoes whose ids hold no commit time, by id."""
        item = self.client.get_item(
            TableName=self.table_name, Key=_item_key(_account_pk(account_id), OLD_SHOES)
        ).get("Item")
        if item is None:
            return {}
        return old_shoes_codec.from_document(_from_item(item)["shoes"]).shoes

    def put_old_shoes(self, account_id: str, shoes: OldShoes) -> bool:
        """Put the user's old shoes unless they are there; whether this put them."""
        return self.put_new(account_id, OLD_SHOES, {"shoes": old_shoes_codec.document(shoes)})

    def _rounds_of_shoe(
        self, account_id: str, shoe_id: str, page: int
    ) -> Iterator[tuple[str, SettledRound | dict[str, Any]]]:
        """A shoe's history items with their round ids, first settled first, as they are
        read: from its commit time, which its id holds, in each table's own stream until
        one holds them, else in its room's table's rooms' stream until it was retired; or,
        for a shoe committed before that was kept, from where its `OldShoe` says. `page`:
        the items read at a time (a round's number is enough for the run up to it)."""
        committed_at = committed_at_of(shoe_id) if shoe_id else None
        if committed_at is not None:
            since = history_position(committed_at * 1000, "")
            for table in TABLES:
                span = _Span(history_stream(table, False), since=since, page=min(page + 2, _PAGE))
                found = self._filed_rounds_of_shoe(account_id, shoe_id, span, committed_at)
                first = next(found, None)
                if first is not None:
                    yield first
                    yield from found
                    return
            room_shoe = self.get_room_shoe(shoe_id)
            if room_shoe is not None:
                until = self._retired_at(room_shoe)
                if until is not None and until < committed_at:
                    return  # the room dealt no round from it
                before = None if until is None else history_position((until + 1) * 1000, "")
                stream = history_stream(room_shoe.table, True)
                span = _Span(stream, since=since, before=before, page=min(page + 2, _PAGE))
                yield from self._filed_rounds_of_shoe(account_id, shoe_id, span, committed_at)
                return
        old = self.get_old_shoes(account_id).get(shoe_id) if shoe_id else None
        if old is not None:
            span = _Span(history_stream(old.table, False), since=old.since)
            yield from self._filed_rounds_of_shoe(account_id, shoe_id, span, None, old.rounds)

    def _retired_at(self, shoe: RoomShoe) -> int | None:
        """When a room shoe's last round settled, at the latest (epoch ms): when it was
        retired, or, in play, its room's last round's settle time (None: a round is in
        play, or the room is gone)."""
        if shoe.retired_at is not None:
            return shoe.retired_at
        room = self.get_room(shoe.room)
        if room is None or room.round is None:
            return None if room is None else 0
        return room.round.settled_at

    def _filed_rounds_of_shoe(
        self,
        account_id: str,
        shoe_id: str,
        span: _Span,
        committed_at: int | None,
        old_ids: Sequence[str] = (),
    ) -> Iterator[tuple[str, SettledRound | dict[str, Any]]]:
        """A shoe's history items in a stream from its commit time on, with their round
        ids. Its rounds are `<shoe_id>-<n>`, and `old_ids`, those dealt before the player
        item. At a table's own stream they are a run, after at most the end of the shoe
        before: a shoe committed later (the next, or any, where it has no rounds) ends the
        search. A room's are among the other rooms' rounds until the room deals from
        another shoe."""
        room = None  # once found: its room's id, or "" at a table's own stream
        for position, item in self._history(account_id, span):
            round_id = position.partition("#")[2]
            stored = settled_codec.from_attributes(item)
            if round_id.startswith(f"{shoe_id}-") or round_id in old_ids:
                room = item.get("room", "")
                yield round_id, stored
            elif room is not None and item.get("room", "") == room:
                return  # its table or room dealt from another shoe
            elif room is None and "room" not in item and _ends_search(stored, committed_at):
                return

    def _history(self, account_id: str, span: _Span) -> Iterator[tuple[str, dict[str, Any]]]:
        """The history items in a span, with their positions."""
        query = span.query(self.table_name, _account_pk(account_id))
        for item in self._query(query | {"ConsistentRead": True}):
            position = item["sk"].removeprefix(span.prefix)
            if position != span.before:
                yield position, item

    def _query(self, query: dict[str, Any]) -> Iterator[dict[str, Any]]:
        """Every item a query finds, a page at a time, as it is read."""
        while True:
            response = self.client.query(**query)
            for item in response.get("Items", []):
                yield _from_item(item)
            last = response.get("LastEvaluatedKey")
            if last is None:
                return
            query = query | {"ExclusiveStartKey": last}

    # ---- shared tables --------------------------------------------------------------

    def get_room(self, room_id: str) -> Room | None:
        item = self.client.get_item(
            TableName=self.table_name, Key=_item_key(_room_pk(room_id), ROOM), ConsistentRead=True
        ).get("Item")
        return None if item is None else room_codec.from_attributes(_from_item(item))

    def get_room_shoe(self, shoe_id: str) -> RoomShoe | None:
        item = self.client.get_item(
            TableName=self.table_name,
            Key=_item_key(SHOE + shoe_id, ROOM_SHOE),
            ConsistentRead=True,
        ).get("Item")
        return None if item is None else room_shoe_codec.from_attributes(_from_item(item))

    def put_room_shoe(self, shoe_id: str, shoe: RoomShoe) -> bool:
        """Put a room shoe unless it is there (the migration's); whether this put it."""
        return self._put_absent(_item(SHOE + shoe_id, ROOM_SHOE, room_shoe_codec.attributes(shoe)))

    def get_players(self, account_ids: Iterable[str]) -> dict[str, Player]:
        """The player items of these accounts (one consistent BatchGetItem), by account."""
        keys = [_item_key(_account_pk(account_id), PLAYER) for account_id in set(account_ids)]
        found = self._batch_get(keys) if keys else {}
        return {
            pk.removeprefix("USER#"): player_codec.from_attributes(attributes)
            for (pk, _), attributes in found.items()
        }

    def lobby(self, table_ids: Sequence[str], count: int) -> dict[str, Room]:
        """Up to `count` rooms of each table's lobby, by id."""
        ids: list[str] = []
        for table in table_ids:
            query = {
                "TableName": self.table_name,
                "KeyConditionExpression": "pk = :pk",
                "ExpressionAttributeValues": {":pk": {"S": LOBBY + table}},
            }
            ids += [item["sk"] for item in itertools.islice(self._query(query), count)]
        rooms: dict[str, Room] = {}
        for start in range(0, len(ids), _BATCH_KEYS):
            keys = [
                _item_key(_room_pk(room_id), ROOM) for room_id in ids[start : start + _BATCH_KEYS]
            ]
            for (pk, _), attributes in self._batch_get(keys).items():
                rooms[pk.removeprefix("ROOM#")] = room_codec.from_attributes(attributes)
        return rooms

    def write_room(self, write: RoomWrite) -> None:
        """The change as one conditional write, or one transaction where it moves money or
        the lobby: `Conflict`, and nothing written, when the room or a player item is not
        at the version read (or another transaction holds one of them)."""
        room_item = _item(_room_pk(write.room_id), ROOM, room_codec.attributes(write.room))
        # A room's item counts its writes in the room's own version.
        if not (write.players or write.history or write.lobby or write.shoes):
            self._put_at_revision(room_item, write.expected_version, counter="version")
            return
        writes: list[TransactWriteItemTypeDef] = [
            _conditional_put(self.table_name, room_item, write.expected_version, "version")
        ]
        for account_id, (player, expected) in write.players.items():
            item = _item(_account_pk(account_id), PLAYER, player_codec.attributes(player))
            writes.append(_conditional_put(self.table_name, item, expected))
        for account_id, settled in write.history.items():
            item = _item(
                _account_pk(account_id), _history_sk(settled), settled_codec.attributes(settled)
            )
            writes.append({"Put": {"TableName": self.table_name, "Item": item}})
        for shoe_id, shoe in write.shoes.items():
            item = _item(SHOE + shoe_id, ROOM_SHOE, room_shoe_codec.attributes(shoe))
            writes.append({"Put": {"TableName": self.table_name, "Item": item}})
        lobby_key = _item_key(LOBBY + write.room.table, write.room_id)
        if write.lobby == "add":
            writes.append({"Put": {"TableName": self.table_name, "Item": lobby_key}})
        elif write.lobby == "remove":
            writes.append({"Delete": {"TableName": self.table_name, "Key": lobby_key}})
        try:
            self.client.transact_write_items(TransactItems=writes)
        except _client_error() as error:
            if _cancellation_reasons(error) & {"ConditionalCheckFailed", "TransactionConflict"}:
                raise Conflict(
                    "lost a race with a concurrent request; read the room again"
                ) from error
            raise

    # ---- plumbing -------------------------------------------------------------------

    def _batch_get(self, keys: Sequence[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
        found: dict[tuple[str, str], dict[str, Any]] = {}
        request: dict[str, Any] = {self.table_name: {"Keys": list(keys), "ConsistentRead": True}}
        while request:
            response = self.client.batch_get_item(RequestItems=request)
            for item in response.get("Responses", {}).get(self.table_name, []):
                attributes = _from_item(item)
                found[(attributes["pk"], attributes["sk"])] = attributes
            request = dict(response.get("UnprocessedKeys") or {})
        return found

    # ---- live connections -------------------------------------------------------------
    # A ticket `TICKET#<ticket>` / `TICKET` (account id, room id) lets one WebSocket
    # connect to a room's updates, once; a connection is two items, so that the room's
    # are one Query and a closed connection's room is known: `ROOM#<room_id>` /
    # `CONN#<connection_id>` and `CONN#<connection_id>` / `CONN` (room id). All expire by
    # TTL (`expires_at`), the connections at API Gateway's longest connection.

    def put_ticket(self, ticket: str, account_id: str, room_id: str, expires_at: int) -> None:
        attributes = {"account_id": account_id, "room_id": room_id, "expires_at": expires_at}
        item = _item(f"TICKET#{ticket}", "TICKET", attributes)
        self.client.put_item(TableName=self.table_name, Item=item)

    def take_ticket(self, ticket: str, now: int) -> tuple[str, str] | None:
        """Delete the ticket if it is there and unexpired (TTL deletes late); its account
        and room id, or None when it was not to be used (so no two connections use one)."""
        try:
            taken = self.client.delete_item(
                TableName=self.table_name,
                Key=_item_key(f"TICKET#{ticket}", "TICKET"),
                ConditionExpression="attribute_exists(pk) AND expires_at > :now",
                ExpressionAttributeValues={":now": {"N": str(now)}},
                ReturnValues="ALL_OLD",
            )
        except _client_error() as error:
            if _error_code(error) == "ConditionalCheckFailedException":
                return None
            raise
        attributes = _from_item(taken["Attributes"])
        return str(attributes["account_id"]), str(attributes["room_id"])

    def put_connection(self, room_id: str, connection_id: str, expires_at: int) -> None:
        keys = ((f"CONN#{connection_id}", "CONN"), (f"ROOM#{room_id}", f"CONN#{connection_id}"))
        for pk, sk in keys:
            item = _item(pk, sk, {"room_id": room_id, "expires_at": expires_at})
            self.client.put_item(TableName=self.table_name, Item=item)

    def delete_connection(self, connection_id: str) -> None:
        """Forget the connection (both items; nothing where it is gone already)."""
        gone = self.client.delete_item(
            TableName=self.table_name,
            Key=_item_key(f"CONN#{connection_id}", "CONN"),
            ReturnValues="ALL_OLD",
        ).get("Attributes")
        if gone is not None:
            room_pk = f"ROOM#{_from_item(gone)['room_id']}"
            key = _item_key(room_pk, f"CONN#{connection_id}")
            self.client.delete_item(TableName=self.table_name, Key=key)

    @staticmethod
    def stream_image(image: Mapping[str, Any]) -> dict[str, Any]:
        """An item's image in a stream record as Lambda passes it (DynamoDB JSON, binary
        values in base64) as the store reads items."""

        def decoded(value: dict[str, Any]) -> dict[str, Any]:
            ((kind, held),) = value.items()
            if kind == "B":
                return {"B": base64.b64decode(held)}
            if kind == "BS":
                return {"BS": [base64.b64decode(one) for one in held]}
            if kind == "M":
                return {"M": {name: decoded(one) for name, one in held.items()}}
            if kind == "L":
                return {"L": [decoded(one) for one in held]}
            return value

        return _from_item({name: decoded(value) for name, value in image.items()})

    def room_connections(self, room_id: str) -> dict[str, int]:
        """The room's connections, strongly consistent (a watcher that read the room once
        connected misses no later change): each id's `expires_at`, 0 where it has none."""
        query = {
            "TableName": self.table_name,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :conn)",
            "ExpressionAttributeValues": {":pk": {"S": f"ROOM#{room_id}"}, ":conn": {"S": "CONN#"}},
            "ProjectionExpression": "sk, expires_at",
            "ConsistentRead": True,
        }
        return {
            item["sk"].removeprefix("CONN#"): int(item.get("expires_at", 0))
            for item in self._query(query)
        }


def _room_pk(room_id: str) -> str:
    return f"ROOM#{room_id}"


def _expecting(counter: str, expected: int | None) -> dict[str, Any]:
    """The condition that the stored item's `counter` is at `expected` (None: no item)."""
    if expected is None:
        return {"ConditionExpression": "attribute_not_exists(pk)"}
    return {
        "ConditionExpression": "#counter = :expected",
        "ExpressionAttributeNames": {"#counter": counter},
        "ExpressionAttributeValues": {":expected": {"N": str(expected)}},
    }


def _conditional_put(
    table_name: str, item: dict[str, Any], expected: int | None, counter: str = REVISION
) -> TransactWriteItemTypeDef:
    """A transaction's put of `item` if the stored one's `counter` is at `expected` (None:
    is absent)."""
    put = {"TableName": table_name, "Item": item, **_expecting(counter, expected)}
    return {"Put": put}  # type: ignore[typeddict-item]


def _ends_search(met: SettledRound | dict[str, Any], committed_at: int | None) -> bool:
    """Whether a round met in a table's own stream before any of the shoe searched for
    (committed at `committed_at`; None: an old shoe, searched from its first round) says
    that shoe has no rounds there: it was dealt from a shoe committed later. (One committed
    earlier may end after the searched shoe's commit; one with no commit time kept is
    earlier.)"""
    if committed_at is None:
        return True
    dealt_from = met.shoe.committed_at if isinstance(met, SettledRound) else None
    return dealt_from is not None and dealt_from > committed_at


def _replayable(stored: Iterable[SettledRound | dict[str, Any]]) -> Iterator[SettledRound]:
    """The settled rounds among history items, leaving out the public views of rounds
    settled before the player item (which no replay needs)."""
    return (settled for settled in stored if isinstance(settled, SettledRound))


def _client_error() -> type[ClientError]:
    """botocore's ClientError, looked up only when a call failed (botocore is loaded by
    then: the client made the call)."""
    from botocore.exceptions import ClientError

    return ClientError


def _error_code(error: ClientError) -> str:
    return str(error.response.get("Error", {}).get("Code", ""))


def _cancellation_reasons(error: ClientError) -> set[str]:
    """Why a transaction was cancelled, by its writes' reason codes (none for other errors)."""
    if _error_code(error) != "TransactionCanceledException":
        return set()
    return {str(reason.get("Code")) for reason in error.response.get("CancellationReasons", [])}
