"""Drills: what grading an answer costs in process, and what an answer writes.

- grading: every cell of every table dealt once, each legal first action graded from the
  shipped strategy card (loaded once, as in a warm function), median and p99; target:
  p99 under 10 ms (issue 21). Beside it, the schedule's part of a request for a user who
  has answered every cell: unpacking it, drawing the next cell and dealing it, and
  answering and packing it again.
- write units: the drills item of a user who answered every cell of a table 1,000 times,
  with the 16 keys kept, after one more answer on moto: its size as DynamoDB bills it and
  the write units of that answer's one PutItem; target: at most 2.

Run: `python -m bench drills`.
"""

import os
import random
import time
from typing import Any

from blackjack.actions import Action
from blackjack.drills import CellProgress, Schedule, cells, deal, grade, legal_actions
from blackjack.rules import TABLES

from .backend import moto_backend
from .grading import _figures, _ms

TARGET_P99_MS = 10.0
WRITE_UNIT = 1024  # bytes: DynamoDB bills each started KB written
TARGET_UNITS = 2


def heavy_schedule(table_id: str, rng: random.Random) -> Schedule:
    """Every cell answered 1,000 times, under 16 of them wrong but for ten cells marked
    wrong (200 wrong each)."""
    order = cells(table_id)
    progress = {
        cell: CellProgress(rng.randrange(1, 5), 1000, 1000 - rng.randrange(16)) for cell in order
    }
    missed = order[::33]
    for cell in missed:
        progress[cell] = CellProgress(0, 1000, 800)
    return Schedule(progress, missed, order[0])


def billed_bytes(item: dict[str, Any]) -> int:
    """An item's size as DynamoDB bills it (low-level attribute values): each attribute's
    name and value, a number about half its digits plus one."""
    size = 0
    for name, value in item.items():
        size += len(name.encode())
        if "S" in value:
            size += len(value["S"].encode())
        elif "N" in value:
            size += len(value["N"].strip("-").replace(".", "").lstrip("0")) // 2 + 2
        else:
            size += len(value["B"])
    return size


def grading() -> None:
    rng = random.Random(41)
    asked = []
    for table in TABLES.values():
        for cell in cells(table.id):
            cards, up = deal(table, cell, rng)
            asked += [(table, cards, up, a) for a in legal_actions(table, cards, up)]
    for question in asked:  # the shipped cards loaded, as in a warm function
        grade(*question)
    times = [_ms(grade, *question) for question in asked]
    print(
        f"drills, grading ({len(times)} answers over every cell of 4 tables): "
        f"{_figures(times)} (target p99 < {TARGET_P99_MS:g} ms)",
        flush=True,
    )
    table = TABLES["casino"]
    packed = heavy_schedule(table.id, rng).packed(table.id)

    def draw() -> None:
        schedule = Schedule.unpacked(table.id, packed)
        deal(table, schedule.draw(cells(table.id), rng), rng)

    def answer_one() -> None:
        schedule = Schedule.unpacked(table.id, packed)
        schedule.answer(rng.choice(cells(table.id)), rng.random() < 0.8).packed(table.id)

    draws = [_ms(draw) for _ in range(500)]
    schedules = [_ms(answer_one) for _ in range(500)]
    print(
        f"drills, the schedule of every cell answered ({len(packed)} bytes packed): "
        f"unpack, draw and deal {_figures(draws)}; unpack, answer and pack "
        f"{_figures(schedules)} (load average {os.getloadavg()[0]:.1f})",
        flush=True,
    )


def write_units() -> None:
    with moto_backend():
        from blackjack_service import factories
        from blackjack_service.drills import DrillService
        from blackjack_service.idempotency import RequestKey
        from blackjack_service.identity import Identity
        from blackjack_service.models import RegisterRequest
        from blackjack_service.records import DrillKey, Drills

        rng = random.Random(43)
        factories.accounts().register(
            RegisterRequest(login="bench0001", nick="bench", password="password1")
        )
        keys = [
            DrillKey(
                rng.randbytes(8),
                rng.randbytes(4),
                int(time.time() // 60),
                CellProgress(4, 1000, 990),
            )
            for _ in range(16)
        ]
        store = factories.store()
        heavy = Drills(revision=1, schedule=heavy_schedule("casino", rng), keys=keys)
        store.put_drills("bench0001", "casino", heavy, expected_revision=None)
        body = {"cards": ["8S", "8H"], "up_card": "TD", "action": "surrender"}
        key = RequestKey.of(["POST", "/v1/tables/{table_id}/drills", {}], "bench", body)
        service = DrillService(store, rng=rng)
        identity = Identity(login="bench0001", nick="bench")
        service.answer(identity, "casino", ["8S", "8H"], "TD", Action.SURRENDER, key)
        item = store.client.get_item(
            TableName=store.table_name,
            Key={"pk": {"S": "USER#bench0001"}, "sk": {"S": "DRILLS#casino"}},
        )["Item"]
        size = billed_bytes(item)
        units = -(-size // WRITE_UNIT)
        print(
            f"drills, write units per answer: {units} (one PutItem of {size} bytes: every "
            f"cell answered 1,000 times and 16 keys kept; target <= {TARGET_UNITS})",
            flush=True,
        )


def main() -> None:
    grading()
    write_units()


if __name__ == "__main__":
    main()
