"""What is stored: the account's two items registration writes, the player item a bet or
an action writes, and the items stored before it existed
(`fixtures/items_before_the_player_item.json`, written by the service as it was then: a
round settled at each of two tables, one in play at `european`; their history filed under
the rounds' ids, found by an index), which the migration moves to today's keys,
idempotently, whatever point a run died at, and which then read and play on."""

from __future__ import annotations

import json
import time
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import pytest

from blackjack_service import factories, migration
from blackjack_service.errors import Conflict
from blackjack_service.records import Drills, ShoeRecord, Stats, committed_at_of
from blackjack_service.records import Player as PlayerRecord
from blackjack_service.records import Profile as ProfileRecord
from blackjack_service.shoes import FairShoes
from blackjack_service.store import Store

from .harness import Gateway
from .helpers import (
    Player,
    assert_ledger,
    bet,
    dynamodb,
    get_item,
    play_out,
    player_record,
    table_name,
)

if TYPE_CHECKING:
    from mypy_boto3_dynamodb.client import DynamoDBClient

BEFORE = Path(__file__).parent / "fixtures" / "items_before_the_player_item.json"
OLD_IN_PLAY = "a7d78619119d4ec1aa2d3cb1601c1afb"  # the european round in play
OLD_EUROPEAN_SHOE = "0c1326db331d4386aa10c69e55545f16"
OLD_RETIRED_CLASSIC_SHOE = "1742c391589247a2927d23a800d7044d"


def raw_item(pk: str, sk: str) -> dict[str, Any]:
    """The item as DynamoDB holds it: typed attribute values."""
    key = {"pk": {"S": pk}, "sk": {"S": sk}}
    item: dict[str, Any] = dynamodb().get_item(TableName=table_name(), Key=key)["Item"]
    return item


def test_a_bet_writes_the_player_item_alone(alice: Player) -> None:
    profile = raw_item("USER#alice1", "PROFILE")
    assert set(profile) == {"pk", "sk", "login", "nick", "password_hash"}
    registered = raw_item("USER#alice1", "PLAYER")  # written with the profile
    assert set(registered) == {"pk", "sk", "revision", "balance", "stats"}
    assert registered["balance"] == {"N": "10000"} and registered["revision"] == {"N": "1"}
    alice.get("/v1/tables/european")
    player = raw_item("USER#alice1", "PLAYER")
    assert set(player) == {"pk", "sk", "revision", "balance", "stats", "seat_european"}
    seat = json.loads(player["seat_european"]["S"])
    assert set(seat) == {"version", "shoe"}  # committed: seeds, no cards, no round yet
    assert set(seat["shoe"]) == {"seed", "client", "nonce", "t"}  # and its commit time
    reply = alice.post(
        "/v1/tables/european/rounds",
        {"bets": [{"box": 0, "amount": 10}]},
        headers={"Idempotency-Key": "first"},
    )
    player = raw_item("USER#alice1", "PLAYER")
    seat = json.loads(player["seat_european"]["S"])
    assert seat["round"]["bets"] == {"0": "10"}
    assert len(player["keys_european"]["B"]) == 20  # one key: two digests, version, minute
    stats = Stats.from_stored(player["stats"]["S"])
    assert stats.rounds == (reply.body["status"] == "settled")
    kinds = {item["sk"]["S"].split("#")[0] for item in _items("alice1")}
    assert kinds <= {"PROFILE", "PLAYER", "HISTORY"}  # no seat, shoe, ledger or key items


def _items(login: str) -> list[dict[str, Any]]:
    response = dynamodb().query(
        TableName=table_name(),
        KeyConditionExpression="pk = :pk",
        ExpressionAttributeValues={":pk": {"S": f"USER#{login}"}},
    )
    items: list[dict[str, Any]] = response["Items"]
    return items


def _put_stored_before(cut_index: int | None = None, login: str = "legacy1") -> dict[str, Any]:
    """The fixture's items in the table (`cut_index`: the european shoe's, changed; `login`:
    whose they are); its profile."""
    items = json.loads(BEFORE.read_text().replace("USER#legacy1", f"USER#{login}"))
    for item in items:
        if cut_index is not None and item["sk"]["S"] in (
            "SEAT#european",
            f"SHOE#{OLD_EUROPEAN_SHOE}",
        ):
            document = json.loads(item["state"]["S"])
            (document.get("shoe") or document)["state"]["cut_index"] = cut_index
            item["state"]["S"] = json.dumps(document)
        dynamodb().put_item(TableName=table_name(), Item=item)
    (profile,) = (item for item in items if item["sk"]["S"] == "PROFILE")
    return dict(profile)


def _stored_before(api: Gateway, cut_index: int | None = None) -> tuple[Player, Decimal]:
    """The fixture's items in the table, migrated, and its user logged in; the balance its
    profile holds."""
    profile = _put_stored_before(cut_index)
    migration.migrate(factories.store(), report=lambda line: None)
    assert not [i for i in _items("legacy1") if i["sk"]["S"].startswith(("ROUND#", "SHOE#"))]
    return _logged_in(api), Decimal(profile["balance"]["N"])


def _logged_in(api: Gateway) -> Player:
    """The fixture's user, logged in."""
    legacy = Player.__new__(Player)  # the user exists already: log in only
    legacy.api, legacy.login, legacy.viewed = api, "Legacy1", {"european", "classic"}
    session = api.request("POST", "/v1/sessions", {"login": "Legacy1", "password": "password1"})
    assert session.status == 200
    legacy.token = session.body["token"]
    return legacy


def test_a_shoe_stored_in_play_whose_round_is_its_last_is_revealed_after_it(
    api: Gateway,
) -> None:
    legacy, _ = _stored_before(api, cut_index=10)  # the cut card came out in the round in play
    seat = legacy.get("/v1/tables/european").body
    play_out(legacy, "european", seat["round"])
    play_out(legacy, "european", bet(legacy, "european", 10).body)  # on the next shoe
    shoe = legacy.get(f"/v1/shoes/{OLD_EUROPEAN_SHOE}").body
    assert shoe["retired"] is True and shoe["server_seed"] is not None
    assert shoe["rounds"][-1] == OLD_IN_PLAY and len(shoe["cards"]) > 10


def test_an_account_stored_before_the_player_item_waits_for_the_migration(
    api: Gateway,
) -> None:
    profile = _put_stored_before()
    credentials = {"login": "Legacy1", "password": "password1"}
    waiting = api.request("POST", "/v1/sessions", credentials)
    assert (waiting.status, waiting.body["code"]) == (503, "unavailable"), waiting.body
    assert waiting.headers["Retry-After"] == "60" and "retry in a minute" in waiting.body["detail"]
    reported: list[str] = []
    done = migration.migrate(factories.store(), report=reported.append)
    assert done == migration.Moved(accounts=1, moved=1)
    assert reported == ["1 accounts: 1 moved"]
    session = api.request("POST", "/v1/sessions", credentials)
    assert session.status == 200
    assert session.body["user"]["balance"] == Decimal(profile["balance"]["N"])
    moved = _items("legacy1")
    again = migration.migrate(factories.store(), report=reported.append)
    assert again == migration.Moved(accounts=1, moved=0)
    assert _items("legacy1") == moved  # run twice, it changes nothing


class Died(BaseException):
    """The migration's process died here: nothing after this point of it runs."""


class DyingClient:
    """A DynamoDB client whose `write`-th write dies, before it is sent or after it landed."""

    def __init__(self, client: Any, write: int, landed: bool) -> None:
        self._client, self._write, self._landed, self.writes = client, write, landed, 0

    def __getattr__(self, name: str) -> Any:
        call = getattr(self._client, name)
        if name not in ("put_item", "update_item", "delete_item", "transact_write_items"):
            return call

        def dying(**params: Any) -> Any:
            self.writes += 1
            if self.writes == self._write and not self._landed:
                raise Died
            answer = call(**params)
            if self.writes == self._write:
                raise Died  # the write landed; the process never knew
            return answer

        return dying


def _accounts_of_every_age(api: Gateway) -> list[str]:
    """Three accounts stored before the player item (two with seats, one that never
    played) and one registered today, its history filed before streams and its player and
    drills items counting their writes in `version`; their logins."""
    _put_stored_before(login="legacy1")
    _put_stored_before(login="legacy2")
    dynamodb().put_item(
        TableName=table_name(),
        Item={
            "pk": {"S": "USER#idle01"},
            "sk": {"S": "PROFILE"},
            **{
                k: v
                for k, v in raw_item("USER#legacy1", "PROFILE").items()
                if k not in ("pk", "sk")
            },
            "login": {"S": "Idle01"},
        },
    )
    today = Player(api, "today1")
    _play_rounds(today, ["european", "casino", "european", "casino"])  # two filed
    for item in _history_items("today1"):  # filed as before the history had streams
        dynamodb().delete_item(TableName=table_name(), Key={"pk": item["pk"], "sk": item["sk"]})
        position = item["sk"]["S"].removeprefix("HISTORY#").partition("#")[2]
        dynamodb().put_item(
            TableName=table_name(), Item={**item, "sk": {"S": f"HISTORY#{position}"}}
        )
    factories.store().put_drills("today1", "casino", Drills(revision=1), expected_revision=None)
    for sk in ("PLAYER", "DRILLS#casino"):  # their write counters stored unnamed, as before
        item = raw_item("USER#today1", sk)
        item["version"] = item.pop("revision")
        dynamodb().put_item(TableName=table_name(), Item=item)
    return ["legacy1", "legacy2", "idle01", "today1"]


def _every_item(logins: list[str]) -> dict[str, list[dict[str, Any]]]:
    return {login: _items(login) for login in logins}


def _put_again(logins: list[str], items: dict[str, list[dict[str, Any]]]) -> None:
    """The accounts' items as `items` holds them, and no other."""
    for login in logins:
        for item in _items(login):
            dynamodb().delete_item(TableName=table_name(), Key={"pk": item["pk"], "sk": item["sk"]})
        for item in items[login]:
            dynamodb().put_item(TableName=table_name(), Item=item)


def _history_once(login: str) -> None:
    """Today's reads list each of the user's settled rounds once."""
    listed = [position.rpartition("#")[2] for position, _ in _store_rounds(login)]
    assert len(listed) == len(set(listed)), listed


def _store_rounds(login: str) -> list[tuple[str, Any]]:
    return factories.store().list_rounds(login, None, 100, None)


@pytest.mark.no_cover  # the migration 60 times over: the tests above run its lines traced
@pytest.mark.parametrize("landed", [False, True], ids=["before it is sent", "after it landed"])
def test_the_migration_finishes_whatever_write_its_run_died_at(api: Gateway, landed: bool) -> None:
    logins = _accounts_of_every_age(api)
    before = _every_item(logins)
    clean = DyingClient(dynamodb(), write=0, landed=landed)
    migration.migrate(Store(table_name(), cast("DynamoDBClient", clean)), report=lambda line: None)
    moved = _every_item(logins)
    assert clean.writes > 3  # the player items, old shoes, history items, deletes
    for write in range(1, clean.writes + 1):
        _put_again(logins, before)
        dying = DyingClient(dynamodb(), write=write, landed=landed)
        with pytest.raises(Died):
            migration.migrate(
                Store(table_name(), cast("DynamoDBClient", dying)), report=lambda line: None
            )
        _history_once("legacy1")
        _history_once("today1")
        migration.migrate(factories.store(), report=lambda line: None)  # run again
        assert _every_item(logins) == moved, f"died at write {write}"
    idle = get_item("USER#idle01", "PLAYER")
    idle_profile = get_item("USER#idle01", "PROFILE")
    assert idle is not None and idle_profile is not None
    assert (idle["balance"], idle["revision"]) == (idle_profile["balance"], 1)
    for sk in ("PLAYER", "DRILLS#casino"):  # the counters named, at the count they held
        (unnamed,) = [item for item in before["today1"] if item["sk"]["S"] == sk]
        named = raw_item("USER#today1", sk)
        assert "version" not in named and named["revision"] == unnamed["version"]
    assert [key for key in _every_item(["today1"])["today1"] if key["sk"]["S"][8:9].isdigit()] == []
    assert len(_store_rounds("today1")) == 2


def test_items_stored_before_the_player_item_read_and_play_on(api: Gateway) -> None:
    legacy, balance = _stored_before(api)
    session = api.request("POST", "/v1/sessions", {"login": "Legacy1", "password": "password1"})
    assert Decimal(session.body["user"]["balance"]) == balance
    me = legacy.get("/v1/me").body
    assert Decimal(me["balance"]) == balance and me["stats"]["rounds"] == 3
    old_history = legacy.get("/v1/rounds").body["rounds"]
    assert len(old_history) == 3
    assert_ledger("legacy1")

    seat = legacy.get("/v1/tables/european").body
    assert seat["round"]["round_id"] == OLD_IN_PLAY and seat["round"]["status"] == "player_turn"
    assert seat["shoe"]["shoe_id"] == OLD_EUROPEAN_SHOE
    settled = play_out(legacy, "european", seat["round"])
    assert settled["round_id"] == OLD_IN_PLAY and settled["version"] == seat["round"]["version"] + 1
    assert get_item("USER#legacy1", "PLAYER") is not None
    assert legacy.get(f"/v1/rounds/{OLD_IN_PLAY}").body == {**settled, "dealt": []}
    assert_ledger("legacy1")

    new = play_out(legacy, "european", bet(legacy, "european", 10).body)
    assert new["round_id"] == f"{OLD_EUROPEAN_SHOE}-4" and new["shoe_id"] == OLD_EUROPEAN_SHOE
    shoe = legacy.get(f"/v1/shoes/{OLD_EUROPEAN_SHOE}").body
    assert shoe["rounds"][2:] == [OLD_IN_PLAY, new["round_id"]] and len(shoe["rounds"]) == 4
    assert shoe["retired"] is False and shoe["server_seed"] is None

    classic = legacy.get("/v1/tables/classic").body
    assert classic["round"]["status"] == "settled" and classic["round"]["net"] is not None
    assert classic["round"]["shoe_id"] == OLD_RETIRED_CLASSIC_SHOE
    retired = legacy.get(f"/v1/shoes/{OLD_RETIRED_CLASSIC_SHOE}").body
    assert retired["retired"] is True and len(retired["cards"]) >= 4
    assert retired["rounds"] == [classic["round"]["round_id"]]
    play_out(legacy, "classic", bet(legacy, "classic", 10).body)

    history = legacy.get("/v1/rounds").body["rounds"]
    assert [r["round_id"] for r in history[2:]] == [OLD_IN_PLAY] + [
        r["round_id"] for r in old_history if r["round_id"] != OLD_IN_PLAY
    ]
    assert legacy.get("/v1/me").body["stats"]["rounds"] == 6
    assert_ledger("legacy1")
    assert Decimal(legacy.get("/v1/me").body["balance"]) == Decimal(10000) + sum(
        Decimal(str(r["net"])) for r in history
    )


def _moved_by_the_first_migration(login: str) -> None:
    """The player item as the migration to it wrote it (issue 33): each seat's round with
    its snapshot, which the moves after it played on."""
    profile = raw_item(f"USER#{login}", "PROFILE")
    stats = Stats.from_counters(get_item(f"USER#{login}", "PROFILE") or {})
    item = {"pk": profile["pk"], "sk": {"S": "PLAYER"}, "version": {"N": "1"}}
    item |= {"balance": profile["balance"], "stats": {"S": stats.stored()}}
    for table in ("european", "classic"):
        seat = raw_item(f"USER#{login}", f"SEAT#{table}")
        state = json.loads(seat["state"]["S"])
        shoe, version = state["shoe"], int(seat["version"]["N"])
        dealt = shoe["state"]["position"] if shoe["in_play"] else 0
        record = {"id": shoe["shoe_id"], "seed": shoe["state"]["server_seed"], "at": dealt}
        record |= {"client": shoe["state"]["client_seed"], "nonce": shoe["state"]["nonce"]}
        record |= {"cut": shoe["state"]["cut_index"], "rounds": len(shoe["rounds"])}
        round_: dict[str, Any] = {"n": 0, "v": version, "at": dealt, "bets": {}}
        round_ |= {"b": [profile["balance"]["N"]]}
        round_ |= {"t": _ms(state["round_started_at"]), "s": _ms(state["round_settled_at"])}
        snapshot = {**state["round"], "shoe_id": state["round_shoe_id"]}
        round_ |= {"id": state["round_id"], "snapshot": snapshot}
        document = {"version": version, "shoe": record, "round": round_}
        item[f"seat_{table}"] = {"S": json.dumps(document)}
    dynamodb().put_item(TableName=table_name(), Item=item)


def _ms(moment: str | None) -> int | None:
    if moment is None:
        return None
    return round(datetime.fromisoformat(moment.replace("Z", "+00:00")).timestamp() * 1000)


def test_seats_the_first_migration_kept_whole_replay_as_those_it_moves_now(api: Gateway) -> None:
    _put_stored_before(login="legacy1")
    _put_stored_before(login="legacy2")
    _moved_by_the_first_migration("legacy2")
    credentials = {"login": "Legacy2", "password": "password1"}
    waiting = api.request("POST", "/v1/sessions", credentials)
    assert (waiting.status, waiting.body["code"]) == (503, "unavailable"), waiting.body
    done = migration.migrate(factories.store(), report=lambda line: None)
    assert done == migration.Moved(accounts=2, moved=2)
    first, now = player_record("legacy2"), player_record("legacy1")
    assert first.revision == 2 and now.revision == 1  # replayed in one more write
    assert (first.balance, first.stats, first.seats) == (now.balance, now.stats, now.seats)
    assert api.request("POST", "/v1/sessions", credentials).status == 200


def test_a_player_who_plays_between_the_migrations_writes_loses_nothing(api: Gateway) -> None:
    _put_stored_before()
    # It dies at its second write: the player item is put, the history not yet moved.
    player_item_only = DyingClient(dynamodb(), write=2, landed=False)
    with pytest.raises(Died):
        migration.migrate(
            Store(table_name(), cast("DynamoDBClient", player_item_only)), report=lambda line: None
        )
    legacy = _logged_in(api)
    play_out(legacy, "european", legacy.get("/v1/tables/european").body["round"])
    play_out(legacy, "classic", bet(legacy, "classic", 10).body)  # files the seat's old round
    migration.migrate(factories.store(), report=lambda line: None)
    history = legacy.get("/v1/rounds").body["rounds"]
    assert len(history) == 5 and len({r["round_id"] for r in history}) == 5
    assert_ledger("legacy1")
    assert Decimal(legacy.get("/v1/me").body["balance"]) == Decimal(10000) + sum(
        Decimal(str(r["net"])) for r in history
    )


def _history_items(login: str) -> list[dict[str, Any]]:
    return [item for item in _items(login) if item["sk"]["S"].startswith(("HISTORY#", "ROUND#"))]


def _play_rounds(player: Player, tables: list[str]) -> list[str]:
    return [play_out(player, table, bet(player, table, 10).body)["round_id"] for table in tables]


def _untimed_commit(shoes: FairShoes, nonce: int, now_ms: int) -> ShoeRecord:
    """A shoe as the service committed it before shoes kept their commit time."""
    return ShoeRecord(
        server_seed=shoes.seeds.server_seed(), client_seed=shoes.seeds.client_seed(), nonce=nonce
    )


def test_a_round_is_filed_under_its_history_position_with_no_index_write(alice: Player) -> None:
    played = _play_rounds(alice, ["european", "classic", "european", "european", "classic"])
    _play_rounds(alice, ["european", "classic"])  # their bets file the last rounds
    items = _history_items("alice1")
    assert {item["sk"]["S"].partition("#")[0] for item in items} == {"HISTORY"}
    assert not [item for item in items if "gsi1pk" in item]
    filed = [item["sk"]["S"].rpartition("#")[2] for item in items]
    assert set(played) <= set(filed)
    for round_id in filed:  # each shoe id holds the time its shoe was committed
        committed_at = committed_at_of(round_id.partition("-")[0])
        assert committed_at is not None and abs(committed_at / 1000 - time.time()) < 600


def test_rounds_of_shoes_committed_before_commit_times_read_on_beside_later_ones(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(FairShoes, "commit", _untimed_commit)
    before_tables = ["european", "classic", "european", "classic"]
    before = _play_rounds(alice, before_tables)
    monkeypatch.undo()
    # european goes on with its shoe, classic's next shoe was committed before, then its
    # shoes hold their times; casino is seated now: one timed shoe among the others' rounds
    after_tables = ["classic", "casino", "european", "casino", "classic", "casino", "european"]
    after = _play_rounds(alice, after_tables)
    _play_rounds(alice, ["european", "classic", "casino"])  # file the last ones
    _file_under_round_ids("alice1")
    migration.migrate(factories.store(), report=lambda line: None)
    assert_ledger("alice1")
    rounds, tables = before + after, before_tables + after_tables

    pages: list[str] = []
    cursor = None
    while True:
        query = "/v1/rounds?limit=2" + ("" if cursor is None else f"&cursor={cursor}")
        page = alice.get(query).body
        pages += [r["round_id"] for r in page["rounds"]]
        if (cursor := page["next_cursor"]) is None:
            break
    newest_first = list(reversed(rounds))
    played_newest_first = [r for r in pages if r in rounds]
    assert played_newest_first == newest_first
    casino = alice.get("/v1/rounds?table=casino&limit=100").body["rounds"]
    expected = [r for r, t in reversed(list(zip(rounds, tables, strict=True))) if t == "casino"]
    assert [r["round_id"] for r in casino][-len(expected) :] == expected
    for round_id in rounds:
        assert alice.get(f"/v1/rounds/{round_id}").body["round_id"] == round_id
    for shoe_id in {round_id.partition("-")[0] for round_id in rounds}:
        shoe = alice.get(f"/v1/shoes/{shoe_id}").body
        assert [r for r in shoe["rounds"] if r in rounds] == [
            r for r in rounds if r.startswith(shoe_id)
        ]
    casino_shoe = after[1].partition("-")[0]
    assert alice.get(f"/v1/rounds/{casino_shoe}-99").status == 404

    items = _history_items("alice1")
    assert all(item["sk"]["S"].startswith("HISTORY#") and "gsi1pk" not in item for item in items)


def _file_under_round_ids(login: str) -> None:
    """The history items of shoes with no commit time as the service filed them before the
    migration: under their round ids, with their history positions in an index."""
    for item in _history_items(login):
        settled = json.loads(item["round"]["S"])
        if "t" in settled["shoe"]:
            continue
        position = item["sk"]["S"].removeprefix("HISTORY#").partition("#")[2]  # past the stream
        round_id = position.rpartition("#")[2]
        dynamodb().delete_item(TableName=table_name(), Key={"pk": item["pk"], "sk": item["sk"]})
        old = {**item, "sk": {"S": f"ROUND#{round_id}"}, "gsi1pk": {"S": f"HISTORY#{login}"}}
        dynamodb().put_item(TableName=table_name(), Item={**old, "gsi1sk": {"S": position}})


class RacedClient:
    """A DynamoDB client whose transactions DynamoDB cancels for a concurrent one on the
    same items, as it does when two registrations of one login meet."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def __getattr__(self, name: str) -> Any:
        if name != "transact_write_items":
            return getattr(self._client, name)

        def cancelled(**params: Any) -> Any:
            from botocore.exceptions import ClientError

            reasons: list[Any] = [{"Code": "None"}, {"Code": "TransactionConflict"}]
            raise ClientError(
                {
                    "Error": {"Code": "TransactionCanceledException", "Message": "cancelled"},
                    "CancellationReasons": reasons,
                },
                "TransactWriteItems",
            )

        return cancelled


def test_a_registration_that_meets_another_of_its_login_is_a_conflict(api: Gateway) -> None:
    store = Store(table_name(), cast("DynamoDBClient", RacedClient(dynamodb())))
    profile = ProfileRecord(login="Racer1", nick="racer1", password_hash="$argon2id$hash")
    with pytest.raises(Conflict, match="being registered"):
        store.create_account(profile, PlayerRecord(revision=1, balance=Decimal(10000)))
    assert get_item("USER#racer1", "PROFILE") is None  # nothing was written
    Player(api, "racer1")  # and a registration after it makes the account
