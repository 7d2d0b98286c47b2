"""The drills service on moto: a drill, its answer and the progress; one item per user and
table written by one conditional write per answer, under 2 KB; retries with an
Idempotency-Key; two answers sent at once."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bench.drills import WRITE_UNIT, billed_bytes, heavy_schedule
from blackjack.actions import Action
from blackjack.drills import CellProgress, grade, legal_actions
from blackjack.errors import IllegalAction
from blackjack.rules import TABLES
from blackjack_service import factories
from blackjack_service.drills import DrillService
from blackjack_service.errors import (
    IdempotencyKeyReused,
    NotFound,
    Unauthorized,
    ValidationFailed,
)
from blackjack_service.idempotency import RequestKey
from blackjack_service.identity import Identity
from blackjack_service.records import DrillKey, Drills

from .helpers import Player, all_items, get_item, table_name

ALICE = Identity(login="alice1", nick="Nickalice1")
ROUTE = ["POST", "/v1/tables/{table_id}/drills", {"table_id": "casino"}]


class Clock:
    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def service(alice: Player) -> DrillService:
    return DrillService(factories.store(), clock=Clock(), rng=random.Random(29))


def answer(
    service: DrillService, drill: dict[str, Any], right: bool, key: str | None = None
) -> dict[str, Any]:
    """Answer a drawn drill with its best action, or with another legal one."""
    table = TABLES[drill["table"]]
    cards, up = drill["cards"], drill["up_card"]
    best = grade(table, cards, up, Action.STAND).best
    action = best if right else Action(next(a for a in drill["legal_actions"] if a != best))
    body = {"cards": cards, "up_card": up, "action": action.value}
    request_key = None if key is None else RequestKey.of(ROUTE, key, body)
    return service.answer(ALICE, table.id, cards, up, action, request_key)


def where(cell: dict[str, Any]) -> tuple[str, str, str]:
    return cell["section"], cell["row"], cell["up"]


def drills_item(table: str = "casino") -> dict[str, Any]:
    item = get_item("USER#alice1", f"DRILLS#{table}")
    assert item is not None
    return item


def raw_drills_item(table: str = "casino") -> dict[str, Any]:
    key = {"pk": {"S": "USER#alice1"}, "sk": {"S": f"DRILLS#{table}"}}
    return factories.store().client.get_item(TableName=table_name(), Key=key)["Item"]


# ---- drills, answers, progress ---------------------------------------------------------


def test_a_missed_drill_comes_back_at_the_next_drill_but_one(service: DrillService) -> None:
    first = service.next(ALICE, "casino")
    assert first["table"] == "casino" and len(first["cards"]) == 2
    assert first["cell"]["box"] == 0 and first["cell"]["attempts"] == 0
    table = TABLES["casino"]
    assert first["legal_actions"] == [
        a.value for a in legal_actions(table, first["cards"], first["up_card"])
    ]
    missed = answer(service, first, right=False)
    assert missed["cell"] == {**first["cell"], "box": 0, "attempts": 1, "correct": 0}
    assert missed["loss"] >= 0.0005 and missed["best"] != missed["action"]
    between = service.next(ALICE, "casino")
    assert where(between["cell"]) != where(first["cell"])
    right = answer(service, between, right=True)
    assert right["loss"] == 0 and right["cell"]["box"] == 1 and right["cell"]["correct"] == 1
    again = service.next(ALICE, "casino")
    assert again["cell"] == missed["cell"]


def test_the_progress_lists_the_answered_cells_in_chart_order(service: DrillService) -> None:
    assert service.progress(ALICE, "european") == {
        "table": "european",
        "attempts": 0,
        "correct": 0,
        "cells": [],
    }
    service.answer(ALICE, "european", ["AS", "7D"], "9C", Action.STAND)  # soft 18: hit
    service.answer(ALICE, "european", ["8S", "8D"], "6C", Action.SPLIT)
    service.answer(ALICE, "european", ["TS", "6D"], "TC", Action.HIT)
    service.answer(ALICE, "european", ["KS", "6D"], "JC", Action.HIT)
    progress = service.progress(ALICE, "european")
    assert progress["attempts"] == 4 and progress["correct"] == 3
    assert progress["cells"] == [
        {"section": "hard", "row": "16", "up": "T", "box": 2, "attempts": 2, "correct": 2},
        {"section": "soft", "row": "18", "up": "9", "box": 0, "attempts": 1, "correct": 0},
        {"section": "pairs", "row": "8", "up": "6", "box": 1, "attempts": 1, "correct": 1},
    ]
    assert service.progress(ALICE, "casino")["cells"] == []  # per table


def test_next_draws_within_the_section(service: DrillService) -> None:
    for section in ("hard", "soft", "pairs"):
        for _ in range(5):
            assert service.next(ALICE, "bicycle", section)["cell"]["section"] == section


def test_bad_requests(service: DrillService) -> None:
    with pytest.raises(NotFound):
        service.next(ALICE, "nowhere")
    with pytest.raises(NotFound):
        service.answer(ALICE, "nowhere", ["8S", "8H"], "TD", Action.HIT)
    with pytest.raises(ValidationFailed):
        service.next(ALICE, "casino", "splits")
    with pytest.raises(IllegalAction):
        service.answer(ALICE, "european", ["9S", "7H"], "TD", Action.SURRENDER)
    with pytest.raises(Unauthorized):
        service.next(Identity(login="nobody", nick="nobody"), "casino")
    with pytest.raises(Unauthorized):
        nobody = Identity(login="nobody", nick="nobody")
        service.answer(nobody, "casino", ["8S", "8H"], "TD", Action.HIT)
    assert get_item("USER#alice1", "DRILLS#european") is None  # failures write nothing


# ---- one item, one write --------------------------------------------------------------


def test_an_answer_is_one_read_and_one_conditional_write_of_its_item(
    service: DrillService,
) -> None:
    before = {(i["pk"]["S"], i["sk"]["S"]): i for i in all_items()}
    calls: list[str] = []
    events = factories.store().client.meta.events
    events.register("before-call.dynamodb.*", lambda model, **_: calls.append(model.name))
    service.answer(ALICE, "casino", ["8S", "8H"], "TD", Action.SURRENDER)
    service.answer(ALICE, "casino", ["8S", "8H"], "TD", Action.SURRENDER)
    assert calls == ["BatchGetItem", "PutItem"] * 2
    after = {(i["pk"]["S"], i["sk"]["S"]): i for i in all_items()}
    assert set(after) - set(before) == {("USER#alice1", "DRILLS#casino")}
    assert all(after[key] == item for key, item in before.items())  # no coins, no seat
    assert drills_item()["revision"] == 2


def test_the_item_of_a_user_who_answered_every_cell_many_times_is_under_2_kb(
    service: DrillService,
) -> None:
    """Every cell answered 1,000 times, 10 of them marked wrong, and the 16 keys kept,
    each of a cell answered thousands of times: then one more answer."""
    rng = random.Random(31)
    keys = [
        DrillKey(rng.randbytes(8), rng.randbytes(4), 30_000_000, CellProgress(4, 99_999, 99_000))
        for _ in range(16)
    ]
    heavy = Drills(revision=7, schedule=heavy_schedule("casino", rng), keys=keys)
    factories.store().put_drills("alice1", "casino", heavy, expected_revision=None)
    body = {"cards": ["8S", "8H"], "up_card": "TD", "action": "surrender"}
    service.answer(ALICE, "casino", ["8S", "8H"], "TD", Action.SURRENDER, _item_key("k", body))
    item = raw_drills_item()
    size = billed_bytes(item)
    units = -(-size // WRITE_UNIT)
    print(f"\nthe drills item, every cell answered 1000 times and 16 keys: {size} bytes")
    print(f"schedule {len(item['schedule']['B'])} bytes, keys {len(item['keys']['B'])} bytes")
    print(f"write units per answer: {units}")
    assert size < 2 * WRITE_UNIT and units <= 2
    stored = factories.store().get_drills("alice1", "casino")[1]
    assert stored is not None and stored.revision == 8 and len(stored.keys) == 16


# ---- retries ---------------------------------------------------------------------------


def _item_key(key: str, body: dict[str, Any]) -> RequestKey:
    return RequestKey.of(ROUTE, key, body)


def test_a_retried_answer_is_answered_as_it_first_was_and_counts_once(
    service: DrillService,
) -> None:
    body = {"cards": ["8S", "8H"], "up_card": "TD", "action": "hit"}
    key = _item_key("answer-1", body)
    first = service.answer(ALICE, "casino", ["8S", "8H"], "TD", Action.HIT, key)
    for _ in range(3):  # the same cell answered again meanwhile, without a key
        service.answer(ALICE, "casino", ["8C", "8D"], "TD", Action.SURRENDER)
    version = drills_item()["revision"]
    again = service.answer(ALICE, "casino", ["8S", "8H"], "TD", Action.HIT, key)
    assert again == first and first["cell"]["attempts"] == 1
    assert drills_item()["revision"] == version  # nothing written
    assert service.progress(ALICE, "casino")["attempts"] == 4
    with pytest.raises(IdempotencyKeyReused):
        other = {**body, "action": "stand"}
        service.answer(
            ALICE, "casino", ["8S", "8H"], "TD", Action.STAND, _item_key("answer-1", other)
        )


def test_a_key_replays_while_one_of_the_last_16_and_within_24_hours(alice: Player) -> None:
    clock = Clock()
    service = DrillService(factories.store(), clock=clock)
    body = {"cards": ["5S", "6H"], "up_card": "6D", "action": "double"}
    first = _item_key("first", body)
    service.answer(ALICE, "casino", ["5S", "6H"], "6D", Action.DOUBLE, first)
    for n in range(15):
        service.answer(ALICE, "casino", ["5S", "6H"], "6D", Action.DOUBLE, _item_key(f"k{n}", body))
    attempts = service.progress(ALICE, "casino")["attempts"]
    service.answer(ALICE, "casino", ["5S", "6H"], "6D", Action.DOUBLE, first)
    assert service.progress(ALICE, "casino")["attempts"] == attempts  # replayed
    service.answer(ALICE, "casino", ["5S", "6H"], "6D", Action.DOUBLE, _item_key("k15", body))
    service.answer(ALICE, "casino", ["5S", "6H"], "6D", Action.DOUBLE, first)
    assert service.progress(ALICE, "casino")["attempts"] == attempts + 2  # 16 since: new
    latest = _item_key("latest", body)
    service.answer(ALICE, "casino", ["5S", "6H"], "6D", Action.DOUBLE, latest)
    clock.now += 24 * 3600 + 60
    service.answer(ALICE, "casino", ["5S", "6H"], "6D", Action.DOUBLE, latest)
    assert service.progress(ALICE, "casino")["attempts"] == attempts + 4  # a day on: new
    stored = factories.store().get_drills("alice1", "casino")[1]
    assert stored is not None and len(stored.keys) == 1  # the older keys expired


# ---- races -----------------------------------------------------------------------------


def after_first_read(change: Any) -> None:
    """Run `change` right after the service's next read of the drills (BatchGetItem)."""
    done: list[bool] = []

    def hook(**_: Any) -> None:
        if not done:
            done.append(True)
            change()

    factories.store().client.meta.events.register("after-call.dynamodb.BatchGetItem", hook)


def test_two_answers_from_the_same_stored_version_both_count(service: DrillService) -> None:
    service.answer(ALICE, "casino", ["8S", "8H"], "TD", Action.SURRENDER)
    other = DrillService(factories.store(), clock=Clock())
    after_first_read(lambda: other.answer(ALICE, "casino", ["AS", "7D"], "9C", Action.STAND))
    calls: list[str] = []
    events = factories.store().client.meta.events
    events.register("before-call.dynamodb.*", lambda model, **_: calls.append(model.name))
    mine = service.answer(ALICE, "casino", ["8S", "8H"], "TD", Action.SURRENDER)
    # mine read version 1, the other answer wrote version 2, mine lost and played again
    assert calls.count("PutItem") == 3 and calls.count("BatchGetItem") == 3
    assert mine["cell"]["attempts"] == 2 and mine["cell"]["box"] == 2
    progress = service.progress(ALICE, "casino")
    assert progress["attempts"] == 3 and progress["correct"] == 2
    assert drills_item()["revision"] == 3


def test_a_retry_that_races_its_first_answer_replays_it(service: DrillService) -> None:
    body = {"cards": ["8S", "8H"], "up_card": "TD", "action": "surrender"}
    key = _item_key("raced", body)
    first: list[dict[str, Any]] = []
    other = DrillService(factories.store(), clock=Clock())
    after_first_read(
        lambda: first.append(
            other.answer(ALICE, "casino", ["8S", "8H"], "TD", Action.SURRENDER, key)
        )
    )
    retry = service.answer(ALICE, "casino", ["8S", "8H"], "TD", Action.SURRENDER, key)
    assert retry == first[0] and retry["cell"]["attempts"] == 1
    assert service.progress(ALICE, "casino")["attempts"] == 1
