"""The records' codecs: each record's attributes are exactly those the items already stored
have (so old items read, and old code reads new ones), and its fields are its one list."""

from __future__ import annotations

import json
from dataclasses import fields
from decimal import Decimal
from typing import Any

from blackjack.grading import Kind
from blackjack_service import responses
from blackjack_service.records import (
    Grades,
    LoginAttempts,
    Play,
    Profile,
    Seat,
    SettledRound,
    ShoeRecord,
    Stats,
    attempts_codec,
    ledger_codec,
    profile_codec,
    seat_codec,
    settled_round_attributes,
    settled_round_view,
    shoe_codec,
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
SHOE_DOCUMENT = (
    '{"shoe_id":"s1","table":"classic","state":{"server_seed":"5","client_seed":"c",'
    '"nonce":4,"decks":4,"cut_index":null,"cards":"","position":0},'
    '"server_seed_hash":"96de","rounds":["r1"],"in_play":false,"retired":false,"dealt":null}'
)
STORED_SEAT: dict[str, Any] = {
    "table": "classic",
    "version": Decimal(9),
    "state": '{"shoe":'
    + SHOE_DOCUMENT
    + ',"round_id":"r1","round_shoe_id":"s1","round":{"phase":"settled"},'
    '"round_started_at":"2023-11-14T22:13:20.500Z","round_settled_at":null}',
}
SHOE = ShoeRecord(
    shoe_id="s1",
    table="classic",
    state={
        "server_seed": "5",
        "client_seed": "c",
        "nonce": 4,
        "decks": 4,
        "cut_index": None,
        "cards": "",
        "position": 0,
    },
    server_seed_hash="96de",
    rounds=["r1"],
)


def test_profile_as_stored() -> None:
    profile = profile_codec.record({"pk": "USER#alice1", "sk": "PROFILE", **STORED_PROFILE})
    assert (profile.login, profile.key, profile.balance) == ("Alice1", "alice1", Decimal("9980.5"))
    stats = profile.stats
    assert (stats.rounds, stats.hands_won, stats.hands_lost, stats.net) == (
        6,
        2,
        4,
        Decimal("-19.5"),
    )
    assert type(stats.rounds) is int and type(stats.net) is Decimal
    assert stats.by_kind[Kind.HARD] == Grades(decisions=8, mistakes=3, ev_lost=Decimal("29.1180"))
    assert stats.by_kind[Kind.SOFT] == Grades()
    assert profile_codec.attributes(profile) == STORED_PROFILE


def test_profile_stored_before_the_trainer_has_zero_grades() -> None:
    trainer = tuple(f"{kind}_" for kind in Kind)
    before = {name: value for name, value in STORED_PROFILE.items() if not name.startswith(trainer)}
    profile = profile_codec.record(before)
    assert profile.stats.by_kind == {kind: Grades() for kind in Kind}
    assert profile.stats.rounds == 6
    assert set(profile_codec.attributes(profile)) == set(STORED_PROFILE)


def test_stats_counters_are_the_profile_attributes() -> None:
    stats = Stats(rounds=1, net=Decimal("-2.5"))
    stats.by_kind[Kind.PAIRS].mistakes = 1
    counters = stats.counters()
    assert set(counters) == set(STORED_PROFILE) - {f.name for f in fields(Profile)}
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
    assert list(responses.Stats.model_fields) == grades + [f.name for f in fields(Stats)]


def test_seat_as_stored() -> None:
    seat = seat_codec.record({"pk": "USER#alice1", "sk": "SEAT#classic", **STORED_SEAT})
    assert seat == Seat(
        table="classic",
        version=9,
        shoe=SHOE,
        round_id="r1",
        round_shoe_id="s1",
        round_state={"phase": "settled"},
        round_started_at="2023-11-14T22:13:20.500Z",
    )
    assert seat_codec.attributes(seat) == {**STORED_SEAT, "version": 9}


def test_seat_stored_before_round_times_were_kept() -> None:
    document = json.loads(STORED_SEAT["state"])
    del document["round_started_at"], document["round_settled_at"]
    seat = seat_codec.record({**STORED_SEAT, "state": json.dumps(document)})
    assert seat.round_started_at is None and seat.round_settled_at is None
    assert seat.round_state == {"phase": "settled"}


def test_shoe_as_stored() -> None:
    assert shoe_codec.record({"state": SHOE_DOCUMENT}) == SHOE
    assert shoe_codec.attributes(SHOE) == {"state": SHOE_DOCUMENT}


def test_login_attempts_as_stored() -> None:
    stored = {"failures": Decimal(2), "window_start": Decimal(1700), "locked_until": Decimal(0)}
    attempts = attempts_codec.record({**stored, "expires_at": Decimal(2660)})
    assert attempts == LoginAttempts(failures=2, window_start=1700, locked_until=0)
    assert attempts_codec.attributes(attempts) == stored


def test_ledger_entry_and_settled_round_as_stored() -> None:
    seat = Seat(table="european", version=2, shoe=SHOE)
    play = Play(login="alice1", seat=seat, expected_version=1, wallet_change=Decimal(-10))
    entry = ledger_codec.attributes(play.ledger_entry(at=1700000005))
    assert entry == {
        "amount": Decimal(-10),
        "reason": "",
        "table": "european",
        "round_id": "",
        "at": 1700000005,
    }
    settled = SettledRound(round_id="r1", table="european", view={"a": [1]}, settled_at_us=5)
    attributes = settled_round_attributes(settled)
    assert attributes == {"table": "european", "view": '{"a":[1]}'}
    assert settled_round_view(attributes) == {"a": [1]}
