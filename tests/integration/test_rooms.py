"""Shared tables through the REST API (API.md, "Shared tables (rooms)"): seats, bets,
turns, deadlines the service answers, money and history, on moto."""

from __future__ import annotations

import functools
import time
from dataclasses import replace
from decimal import Decimal
from typing import Any

import pytest

from bench.backend import CallCounter
from blackjack_service import factories, migration
from blackjack_service.records import RoomShoe, SettledRound
from blackjack_service.rooms import RoomService

from .helpers import START, Player, balance, problem

pytestmark = pytest.mark.usefixtures("deadline_queue")


@pytest.fixture
def deadline_queue(aws: None, monkeypatch: pytest.MonkeyPatch) -> Deadlines:
    queue = Deadlines()
    factories.rooms.cache_clear()
    monkeypatch.setattr(factories, "deadlines", functools.cache(lambda: queue))
    return queue


@pytest.fixture
def carol(api: Any) -> Player:
    return Player(api, "carol1")


def make_room(player: Player, **body: Any) -> dict[str, Any]:
    reply = player.post("/v1/rooms", {"table": "casino", **body})
    assert reply.status == 201, reply.text
    room: dict[str, Any] = reply.body
    return room


def take(player: Player, room_id: str, *boxes: int) -> Any:
    return player.post(f"/v1/rooms/{room_id}/seats", {"boxes": list(boxes)})


def room_bet(player: Player, room_id: str, bets: dict[int, int], **extra: Any) -> Any:
    body = {"bets": [{"box": box, "amount": amount} for box, amount in bets.items()], **extra}
    return player.post(f"/v1/rooms/{room_id}/bets", body)


def view(player: Player, room_id: str) -> dict[str, Any]:
    reply = player.get(f"/v1/rooms/{room_id}")
    assert reply.status == 200, reply.text
    room: dict[str, Any] = reply.body
    return room


def owner_of_turn(room: dict[str, Any], players: dict[str, Player]) -> Player:
    box = room["round"]["turn"]["box"]
    nick = next(seat["nick"] for seat in room["seats"] if seat["box"] == box)
    return next(p for p in players.values() if "Nick" + p.login[:8] == nick)


def play_round(room_id: str, players: dict[str, Player], room: dict[str, Any]) -> dict[str, Any]:
    """Each owner answers their decisions (stand, declining insurance) until it settles."""
    while room["phase"] in ("insurance", "player_turn"):
        actor = owner_of_turn(room, players)
        others = [p for p in players.values() if p is not actor]
        mine = view(actor, room_id)
        assert mine["legal_actions"], mine
        for other in others:
            assert view(other, room_id)["legal_actions"] == []
        action = "decline_insurance" if room["phase"] == "insurance" else "stand"
        reply = actor.post(
            f"/v1/rooms/{room_id}/actions",
            {"action": action},
            headers={"If-Match": str(mine["version"])},
        )
        assert reply.status == 200, reply.text
        room = reply.body
    assert room["phase"] == "settled"
    return room


def history_nets(player: Player) -> list[dict[str, Any]]:
    reply = player.get("/v1/rounds?limit=100")
    assert reply.status == 200
    rounds: list[dict[str, Any]] = reply.body["rounds"]
    return rounds


def assert_balance_story(player: Player) -> None:
    rounds = history_nets(player)
    assert balance(player.login) == START + sum(Decimal(str(r["net"])) for r in rounds)
    ids = [r["round_id"] for r in rounds]
    assert len(ids) == len(set(ids))
    stats = player.get("/v1/me").body["stats"]  # room rounds count in the stats and trainer
    assert stats["rounds"] == len(rounds)
    assert Decimal(str(stats["net"])) == sum(Decimal(str(r["net"])) for r in rounds)
    decisions = [d for r in rounds for b in r["boxes"] for h in b["hands"] for d in h["decisions"]]
    assert stats["decisions"] == len(decisions)


def test_three_users_share_a_room(alice: Player, bob: Player, carol: Player) -> None:
    players = {"alice1": alice, "bob123": bob, "carol1": carol}
    room = make_room(alice, name="Friday", boxes=[0], betting_seconds=5, turn_seconds=5)
    room_id = room["room_id"]
    assert room["phase"] == "waiting" and room["version"] == 1
    assert room["seats"] == [{"box": 0, "nick": "Nickalice1", "you": True}]
    assert room["shoe"]["client_seed"] is None and room["shoe"]["server_seed_hash"]
    problem(take(bob, room_id, 0), 409, "box_taken")
    assert take(bob, room_id, 2, 3).status == 200
    assert take(carol, room_id, 4).status == 200
    listed = alice.get("/v1/rooms?table=casino").body["rooms"]
    assert [r["room_id"] for r in listed] == [room_id]
    assert listed[0]["players"] == 3 and listed[0]["free_boxes"] == 1
    for number in range(6):
        assert room_bet(alice, room_id, {0: 10}).status == 200
        problem(room_bet(alice, room_id, {0: 10}), 409, "already_bet")
        problem(room_bet(carol, room_id, {2: 10}), 409, "not_seated")
        assert room_bet(bob, room_id, {2: 20, 3: 10}).status == 200
        reply = room_bet(carol, room_id, {4: 50} if number % 2 else {})
        assert reply.status == 200, reply.text
        room = reply.body
        assert room["round"]["room_id"] == room_id
        assert room["round"]["dealt"], "the bet that completes the betting deals"
        if room["phase"] != "settled":
            problem(room_bet(alice, room_id, {0: 10}), 409, "round_in_progress")
        if room["phase"] == "player_turn":
            actor = owner_of_turn(room, players)
            idle = next(p for p in players.values() if p is not actor)
            problem(
                idle.post(f"/v1/rooms/{room_id}/actions", {"action": "stand"}),
                409,
                "not_your_turn",
            )
            problem(idle.get(f"/v1/rooms/{room_id}/hint?level=hard"), 409, "not_your_turn")
            assert actor.get(f"/v1/rooms/{room_id}/hint?level=hard").status == 200
        room = play_round(room_id, players, room)
    seeds = room["shoe"]["seeds"]
    for player in players.values():
        assert_balance_story(player)
        rounds = history_nets(player)
        assert rounds and all(r["room_id"] == room_id for r in rounds)
    # carol passed every other round
    assert len(history_nets(alice)) == 6 and len(history_nets(carol)) == 3
    assert seeds == [] or [s["box"] for s in seeds] == [0, 2, 4]


def test_a_decision_nobody_answers_is_answered_by_the_service(
    alice: Player, bob: Player, deadline_queue: Deadlines
) -> None:
    room_id = make_room(alice, boxes=[0], turn_seconds=5, betting_seconds=5)["room_id"]
    take(bob, room_id, 1)
    room_bet(alice, room_id, {0: 10})
    later = RoomService(factories.store(), deadline_queue, clock=lambda: time.time() + 61)
    # Only alice bet: the window closes when its deadline is answered.
    assert deadline_queue.fire(later) == 1
    room = view(alice, room_id)
    assert room["round"] is not None
    while room["phase"] in ("insurance", "player_turn"):
        assert deadline_queue.fire(later) >= 1
        room = view(alice, room_id)
    assert room["phase"] == "settled"
    assert room["round"]["boxes"][0]["hands"][0]["status"] in (
        "standing",
        "bust",
        "blackjack",
        "surrendered",
    )
    assert_balance_story(alice)
    assert balance(bob.login) == START  # bob sat out: nothing moved


class Deadlines:
    """The deadline queue as the rooms service sees it, holding what it is sent: the
    test delivers the messages (the queue and its event source are the local stack's,
    tested there)."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, int, int]] = []

    def schedule(self, room_id: str, version: int, due_ms: int) -> None:
        self.sent.append((room_id, version, due_ms))

    def fire(self, rooms: RoomService) -> int:
        sent, self.sent = self.sent, []
        for room_id, version, _ in sent:
            rooms.answer_deadline(room_id, version)
        return len(sent)


def test_too_many_rooms(alice: Player) -> None:
    for _ in range(3):
        make_room(alice, boxes=[0])
    problem(alice.post("/v1/rooms", {"table": "european", "boxes": [0]}), 409, "too_many_rooms")


def test_a_room_at_a_one_box_table_is_refused(alice: Player) -> None:
    problem(alice.post("/v1/rooms", {"table": "classic"}), 422, "validation_error")


def test_a_room_shoe_in_play_keeps_its_seed(alice: Player) -> None:
    room_id = make_room(alice, table="european", boxes=[0])["room_id"]
    room = room_bet(alice, room_id, {0: 10}).body
    room = play_round(room_id, {"alice1": alice}, room)
    shoe_id = room["round"]["shoe_id"]
    if room["shoe"]["shoe_id"] == shoe_id:  # european deals on from its cut card
        shoe = alice.get(f"/v1/shoes/{shoe_id}").body
        assert shoe["retired"] is False and shoe["server_seed"] is None
        assert shoe["client_seed"] == room["shoe"]["client_seed"]


def test_history_filed_before_streams_reads_the_same_once_migrated(
    alice: Player, bob: Player
) -> None:
    """Rounds filed under their history position alone (before issue 43's streams), at
    the user's own tables and in a room, are moved to their streams' keys by the
    migration, and the room's shoe kept: every read answers as before; a second run moves
    nothing."""
    for table in ("european", "casino", "european"):
        bet = alice.post(f"/v1/tables/{table}/rounds", {"bets": [{"box": 0, "amount": 10}]})
        round_ = bet.body
        while round_["status"] != "settled":
            action = "stand" if "stand" in round_["legal_actions"] else "decline_insurance"
            round_ = alice.post(f"/v1/tables/{table}/round/actions", {"action": action}).body
    room_id = make_room(alice, boxes=[0])["room_id"]
    assert take(bob, room_id, 1).status == 200
    for _ in range(2):
        assert room_bet(alice, room_id, {0: 10}).status == 200
        play_round(room_id, {"alice1": alice, "bob123": bob}, room_bet(bob, room_id, {1: 10}).body)
    for table in ("european", "casino"):  # their bets file the seats' last rounds
        alice.post(f"/v1/tables/{table}/rounds", {"bets": [{"box": 0, "amount": 10}]})

    def reads() -> list[Any]:
        pages = [alice.get(f"/v1/rounds{query}").body for query in ("", "?table=casino")]
        ids = [r["round_id"] for r in pages[0]["rounds"]]
        shoes = {i.partition("-")[0] for i in ids}
        return [
            pages,
            [alice.get(f"/v1/rounds/{i}").body for i in ids],
            [alice.get(f"/v1/shoes/{shoe}").body["rounds"] for shoe in sorted(shoes)],
        ]

    before = reads()
    listed = before[0][0]["rounds"]
    assert len(listed) >= 5 and {r["room_id"] for r in listed} == {None, room_id}
    client, name = factories.store().client, factories.store().table_name
    filed = [
        item
        for item in client.scan(TableName=name)["Items"]
        if item["sk"]["S"].startswith("HISTORY#")
    ]
    assert len(filed) >= 3 + 2 + 2  # alice's own, alice's and bob's in the room
    for item in filed:  # as they were filed before: under the position alone
        client.delete_item(TableName=name, Key={"pk": item["pk"], "sk": item["sk"]})
        position = item["sk"]["S"].removeprefix("HISTORY#").partition("#")[2]
        client.put_item(TableName=name, Item={**item, "sk": {"S": f"HISTORY#{position}"}})
    pointers = [
        item for item in client.scan(TableName=name)["Items"] if item["pk"]["S"].startswith("SHOE#")
    ]
    assert pointers  # the room's shoe, put when the room made it
    for item in pointers:  # as before rooms' shoes were kept
        client.delete_item(TableName=name, Key={"pk": item["pk"], "sk": item["sk"]})
    assert alice.get("/v1/rounds").body["rounds"] != before[0][0]["rounds"]

    assert migration.migrate(factories.store(), report=lambda line: None).moved == 2
    assert reads() == before
    keys = sorted(
        item["sk"]["S"]
        for item in client.scan(TableName=name)["Items"]
        if item["sk"]["S"].startswith("HISTORY#")
    )
    streams = {key.split("#")[1] for key in keys}
    assert len(keys) == len(filed) and streams == {"european", "casino", "casino+rooms"}
    shoe_id = next(r["round_id"] for r in listed if r["room_id"]).partition("-")[0]
    assert factories.store().get_room_shoe(shoe_id) == RoomShoe(room_id, "casino", None)
    assert migration.migrate(factories.store(), report=lambda line: None).moved == 0


def test_a_room_shoe_costs_the_same_reads_however_many_rounds_follow_it(
    alice: Player, bob: Player
) -> None:
    """A room shoe's rounds are read between its commit and its room's last round (here in
    play), and an id no room dealt from is one read: the reads are the same after 300 room
    rounds at the table's other rooms, and so are the answers."""
    room_id = make_room(alice, boxes=[0])["room_id"]
    assert take(bob, room_id, 1).status == 200
    for _ in range(2):
        assert room_bet(alice, room_id, {0: 10}).status == 200
        play_round(room_id, {"alice1": alice, "bob123": bob}, room_bet(bob, room_id, {1: 10}).body)
    round_ids = [r["round_id"] for r in history_nets(alice)]
    shoe_id = round_ids[0].partition("-")[0]
    made_up = f"{int(time.time() * 1000) - 60_000:011x}" + "0" * 21
    paths = [f"/v1/shoes/{shoe_id}", f"/v1/rounds/{round_ids[-1]}", f"/v1/rounds/{made_up}-1"]

    def reads() -> list[tuple[int, Any]]:
        counter = CallCounter()
        events = factories.game().store.client.meta.events
        events.register("before-call.dynamodb", counter)
        try:
            answers = []
            for path in paths:
                counter.take()
                answer = alice.get(path).body
                answers.append((len(counter.take()), answer))
            return answers
        finally:
            events.unregister("before-call.dynamodb", counter)

    before = reads()
    store = factories.store()
    (_, filed), *_ = store.list_rounds("alice1", "casino", 1, None)
    assert isinstance(filed, SettledRound) and filed.room == room_id
    later = int(time.time() * 1000) + 1000
    for number in range(300):  # another room's rounds at the table, after these
        shoe = replace(filed.shoe, committed_at=later + number // 10 * 10)
        record = replace(filed.round, number=number % 10 + 1, settled_at=later + number + 1)
        round_id = f"{shoe.shoe_id}-{record.number}"
        store.put_round(
            "alice1", replace(filed, round_id=round_id, shoe=shoe, round=record, room="q" * 32)
        )
    after = reads()
    assert after == before
    (_, shoe), (_, round_), (_, made_up_round) = after
    assert sorted(shoe["rounds"]) == sorted(round_ids)
    assert round_["round_id"] == round_ids[-1] and made_up_round["code"] == "not_found"
