"""The records' codecs: a profile's attributes are exactly those the profiles already
stored have, the player item reads back what it wrote, and the items stored before the
player item (profiles with a balance, seats with whole rounds) become today's records in
the migration."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import fields
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from boto3.dynamodb.types import TypeDeserializer

from blackjack.actions import Action, Move, Phase
from blackjack.grading import Kind
from blackjack.rules import TABLES
from blackjack_service import migration, responses
from blackjack_service.errors import NotMigrated
from blackjack_service.game import seat_round
from blackjack_service.records import (
    CounterGrades,
    ExpertGrades,
    Grades,
    LoginAttempts,
    Player,
    Profile,
    RetryKey,
    RoundRecord,
    Seat,
    SettledRound,
    ShoeRecord,
    Stats,
    attempts_codec,
    player_codec,
    profile_codec,
    settled_codec,
)

# Attributes as the store wrote them before the records had codecs (numbers as DynamoDB
# gives them back: Decimal).
STORED_PROFILE: dict[str, Any] = {
    "login": "Alice1",
    "nick": "alnick",
    "password_hash": "$argon2id$hash",
    "balance": Decimal("9980.5"),
    "rounds": Decimal(6),
    "hands_won": Decimal(2),
    "hands_lost": Decimal(4),
    "hands_pushed": Decimal(0),
    "net": Decimal("-19.5"),
    **{f"{kind}_{name}": Decimal(0) for kind in Kind for name in ("decisions", "mistakes")},
    **{f"{kind}_ev_lost": Decimal(0) for kind in Kind},
    "hard_decisions": Decimal(8),
    "hard_mistakes": Decimal(3),
    "hard_ev_lost": Decimal("29.1180"),
}
BEFORE = Path(__file__).parents[2] / "integration/fixtures/items_before_the_player_item.json"


def _stored_before() -> dict[str, dict[str, Any]]:
    """The fixture's items as the store reads them, by sort key."""
    deserializer = TypeDeserializer()
    items = [
        {name: deserializer.deserialize(value) for name, value in item.items()}
        for item in json.loads(BEFORE.read_text())
    ]
    return {item["sk"]: item for item in items}


def test_profile_as_stored() -> None:
    profile = profile_codec.from_attributes(
        {"pk": "USER#alice1", "sk": "PROFILE", **STORED_PROFILE}
    )
    assert (profile.login, profile.account_id) == ("Alice1", "alice1")
    assert profile_codec.attributes(profile) == {
        "login": "Alice1",
        "nick": "alnick",
        "password_hash": "$argon2id$hash",
    }


def test_a_profile_stored_with_a_balance_makes_its_player_item() -> None:
    player = migration.player_of(STORED_PROFILE, {})
    assert (player.revision, player.balance, player.seats) == (1, Decimal("9980.5"), {})
    stats = player.stats
    assert (stats.rounds, stats.hands_won, stats.hands_lost, stats.net) == (
        6,
        2,
        4,
        Decimal("-19.5"),
    )
    assert type(stats.rounds) is int and type(stats.net) is Decimal
    assert stats.by_kind[Kind.HARD] == Grades(decisions=8, mistakes=3, ev_lost=Decimal("29.1180"))
    assert stats.by_kind[Kind.SOFT] == Grades()
    # Stored before the counters against perfect play were kept: they are 0.
    assert stats.expert == ExpertGrades() and stats.counter == CounterGrades()


def test_profile_stored_before_the_trainer_has_zero_grades() -> None:
    trainer = tuple(f"{kind}_" for kind in Kind)
    before = {name: value for name, value in STORED_PROFILE.items() if not name.startswith(trainer)}
    stats = migration.player_of(before, {}).stats
    assert stats.by_kind == {kind: Grades() for kind in Kind}
    assert stats.expert == ExpertGrades()
    assert stats.counter == CounterGrades()
    assert stats.rounds == 6


def test_stats_counters_are_the_profile_attributes() -> None:
    stats = Stats(rounds=1, net=Decimal("-2.5"))
    stats.by_kind[Kind.PAIRS].mistakes = 1
    counters = stats.counters()
    later = {f.name for f in fields(ExpertGrades) + fields(CounterGrades)}  # since STORED_PROFILE
    assert (
        set(counters)
        == set(STORED_PROFILE) - {*(f.name for f in fields(Profile)), "balance"} | later
    )
    assert counters["rounds"] == 1 and counters["pairs_mistakes"] == 1
    assert stats.totals() == {
        "rounds": 1,
        "hands_won": 0,
        "hands_lost": 0,
        "hands_pushed": 0,
        "net": Decimal("-2.5"),
    }


def test_the_api_stats_have_the_records_fields() -> None:
    grades = list(responses.Grades.model_fields)
    assert grades == [f.name for f in fields(Grades)]
    stats = [f.name for f in fields(Stats) if f.name not in ("expert", "counter")]
    expert = [f.name for f in fields(ExpertGrades)]
    counter = [f.name for f in fields(CounterGrades)]
    assert list(responses.Stats.model_fields) == grades + stats + expert + counter


SHOE = ShoeRecord(stored_id="s1", server_seed="5", client_seed="c", nonce=4, position=30, rounds=2)
ROUND = RoundRecord(
    number=2,
    version=7,
    start=24,
    started_at=1700000000500,
    bets={0: Decimal(10), 2: Decimal(25)},
    ai={1: "hard"},
    moves=[Move(Action.INSURANCE, Decimal("2.5")), Move(Action.HIT)],
    expert=[(Action.DECLINE_INSURANCE, Decimal("0.0912")), (Action.HIT, Decimal(0))],
    balances=[Decimal(9965), Decimal("9962.5"), Decimal("9962.5")],
)


def test_the_player_item_reads_back_what_it_wrote() -> None:
    stats = Stats(rounds=3, net=Decimal("-12.5"))
    stats.by_kind[Kind.SOFT].ev_lost = Decimal("0.1234")
    keys = [
        RetryKey(b"k" * 8, b"b" * 4, 9, 29_000_000),
        RetryKey(b"K" * 8, b"B" * 4, 10, 29_000_001),
    ]
    player = Player(
        revision=12,
        balance=Decimal("9962.5"),
        stats=stats,
        seats={"casino": Seat(version=9, shoe=SHOE, round=ROUND)},
        keys={"casino": keys},
    )
    attributes = player_codec.attributes(player)
    assert set(attributes) == {"revision", "balance", "stats", "seat_casino", "keys_casino"}
    assert len(attributes["keys_casino"]) == 2 * 20
    assert "n-12.5" in attributes["stats"].split(",")
    seat = json.loads(attributes["seat_casino"])
    assert seat["round"]["moves"] == ["insurance=2.5", "hit"]
    assert "retired" not in seat and "snapshot" not in seat["round"]  # defaults are left out
    assert player_codec.from_attributes(attributes) == player
    unnamed = {("version" if k == "revision" else k): v for k, v in attributes.items()}
    with pytest.raises(NotMigrated):  # stored before the counter was named: 503 until moved
        player_codec.from_attributes(unnamed)


def _packed(stats: Stats) -> str:
    """The counters as player items stored them before their names."""
    return ",".join(str(value) for value in stats.counters().values())


def test_stats_add_up_and_read_back_by_their_names() -> None:
    stats = Stats(rounds=1, hands_won=1, net=Decimal(10))
    stats.by_kind[Kind.HARD].decisions = 2
    both = stats.plus(stats)
    assert (both.rounds, both.net, both.by_kind[Kind.HARD].decisions) == (2, Decimal(20), 4)
    assert stats.rounds == 1  # unchanged
    stored = player_codec.attributes(Player(revision=1, balance=Decimal(1), stats=both))["stats"]
    assert stored == "r2,w2,n20,hd4"
    assert Stats().stored() == ""  # no counter yet
    read = player_codec.from_attributes({"revision": 1, "balance": 1, "stats": stored})
    assert read.stats == both


def test_stats_stored_before_a_counter_read_zero_for_it() -> None:
    stored = "r3,hd4,xm1,zz9"  # no soft grades, no counter's; a name from later is ignored
    stats = player_codec.from_attributes({"revision": 1, "balance": 1, "stats": stored}).stats
    assert stats.rounds == 3 and stats.by_kind[Kind.HARD] == Grades(decisions=4)
    assert stats.by_kind[Kind.SOFT] == Grades() and stats.counter == CounterGrades()
    assert stats.expert == ExpertGrades(expert_mistakes=1)


def test_stats_packed_before_the_counters_of_later_levels_read_zero_for_them() -> None:
    stats = Stats(rounds=2, net=Decimal(5))
    stats.expert.deviations = 3
    stats.counter.index_spots, stats.counter.index_spots_taken = 4, 1
    values = _packed(stats).split(",")
    assert (
        player_codec.from_attributes({"revision": 1, "balance": 1, "stats": _packed(stats)}).stats
        == stats
    )
    assert values[-2:] == ["4", "1"]
    before_counter = Stats.from_stored(",".join(values[:-2]))
    assert before_counter == dataclasses.replace(stats, counter=CounterGrades())
    before_expert = Stats.from_stored(",".join(values[: -2 - len(fields(ExpertGrades))]))
    assert before_expert == Stats(rounds=2, net=Decimal(5))
    with pytest.raises(ValueError):
        Stats.from_stored(",".join(values[:-1]))


def test_a_settled_round_reads_back_what_it_wrote() -> None:
    settled = SettledRound(
        round_id="s1-2", table="casino", shoe=SHOE, round=ROUND, net=Decimal(-30), end=38
    )
    attributes = settled_codec.attributes(settled)
    assert attributes["table"] == "casino"
    assert settled_codec.from_attributes(attributes) == settled


def test_seats_stored_before_the_player_item_become_rounds_of_bets_and_moves() -> None:
    items = _stored_before()
    player = migration.player_of(items["PROFILE"], items)
    assert player.revision == 1 and player.balance == Decimal("9985.0")
    european = player.seats["european"]  # its round in play, dealt from card 9 of its shoe
    assert european.version == 5 and european.round_shoe is None
    assert european.shoe.stored_id == "0c1326db331d4386aa10c69e55545f16"
    assert (european.shoe.position, european.shoe.rounds) == (13, 3)
    in_play = european.round
    assert in_play is not None and in_play.round_id == "a7d78619119d4ec1aa2d3cb1601c1afb"
    assert (in_play.number, in_play.version, in_play.start) == (3, 5, 9)
    assert in_play.bets == {0: Decimal(10)} and in_play.moves == [] and in_play.settled_at is None
    round_ = seat_round(TABLES["european"], european)
    assert round_ is not None and round_.phase is Phase.PLAYER_TURN
    assert round_.dealer == ["4C", "2C"] and round_.boxes[0].hands[0].cards == ["2S", "QC"]
    classic = player.seats["classic"]  # its settled round dealt from a shoe retired since
    assert classic.shoe.stored_id == "1d7f6e877aa24c458d97e68091e9aaf9"
    assert classic.shoe.position == 0 and classic.round_shoe is not None
    assert classic.round_shoe.stored_id == "1742c391589247a2927d23a800d7044d"
    assert classic.round_shoe.position == 4
    settled = classic.round
    assert settled is not None and (settled.number, settled.start, settled.version) == (1, 0, 2)
    assert settled.moves == [Move(Action.STAND)] and settled.settled_at == 1796110161694
    # graded before perfect play: as `hard` graded it
    assert settled.expert == [(Action.HIT, Decimal("0.3156"))]
    round_ = seat_round(TABLES["classic"], classic)
    assert round_ is not None and round_.phase is Phase.SETTLED and round_.net == -10


def test_a_seat_stored_before_round_times_were_kept() -> None:
    items = _stored_before()
    for table in ("european", "classic"):
        document = json.loads(items[f"SEAT#{table}"]["state"])
        del document["round_started_at"], document["round_settled_at"]
        items[f"SEAT#{table}"]["state"] = json.dumps(document)
    seats = migration.player_of(items["PROFILE"], items).seats
    in_play, settled = seats["european"].round, seats["classic"].round
    assert in_play is not None and in_play.started_at is None and in_play.settled_at is None
    # when it settled, from its history item's position: at the millisecond
    assert settled is not None and settled.settled_at == 1796110161694


def test_a_seat_whose_round_is_stored_whole_is_read_once_migrated() -> None:
    seat = '{"version":5,"shoe":{"seed":"5","client":"c","nonce":1},"round":{"snapshot":{}}}'
    with pytest.raises(NotMigrated):
        attributes = {"revision": 2, "balance": 1, "stats": "", "seat_casino": seat}
        player_codec.from_attributes(attributes)


def test_login_attempts_as_stored() -> None:
    stored = {"failures": Decimal(2), "window_start": Decimal(1700), "locked_until": Decimal(0)}
    attempts = attempts_codec.from_attributes({**stored, "expires_at": Decimal(2660)})
    assert attempts == LoginAttempts(failures=2, window_start=1700, locked_until=0)
    assert attempts_codec.attributes(attempts) == stored
