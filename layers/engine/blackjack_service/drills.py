"""Drills at a table (API.md "Drills"): the next hand of the user's schedule, an answer
graded and scheduled, and the user's progress.

Pure of AWS: it reads and writes only through `Store`. A user's drills at a table are one
item (`Drills`): every request reads it once with the profile (no profile, no user: 401),
and an answer changes it by one conditional write of the revision it read. An answer that
lost the write to another answer at the table is played again on what that one wrote, so
two answers sent at once both count; its Idempotency-Key is looked up again first, so a
retry that raced its own first answer replays it. No coins move, and no shoe, seat or round
is read or written.
"""

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from blackjack import drills
from blackjack.actions import Action
from blackjack.cards import Card
from blackjack.drills import Cell, CellProgress, Graded, Section
from blackjack.money import to_json
from blackjack.rules import TABLES, Table

from . import idempotency
from .errors import IdempotencyKeyReused, NotFound, Unauthorized, ValidationFailed
from .idempotency import RequestKey
from .identity import Identity
from .records import DrillKey, Drills
from .store import Store, until_written

ANY = "any"  # the `section` that draws from every cell


class DrillService:
    def __init__(
        self,
        store: Store,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.rng = rng or random.Random()

    def next(
        self,
        identity: Identity,
        table_id: str,
        section: str = ANY,
        rng: random.Random | None = None,
    ) -> dict[str, Any]:
        """`{"table", "cards", "up_card", "legal_actions", "cell"}`: a hand of the cell the
        schedule draws within `section` (`any`: the chart's, `hard`, `soft`, `pairs` or
        `indices`, which adds the `true_count` it is asked at)."""
        table = _table(table_id)
        chosen = None if section == ANY else _section(section)
        schedule = self._drills(identity, table).schedule
        pick = rng or self.rng
        cell = schedule.draw(drills.section_cells(table.id, chosen), pick)
        if cell.section is Section.INDICES:
            cards, up_card, legal, true_count = drills.deal_index(table, cell, pick)
            counted = {"true_count": true_count}
        else:
            cards, up_card = drills.deal(table, cell, pick)
            legal, counted = drills.legal_actions(table, cards, up_card), {}
        return {
            "table": table.id,
            "cards": list(cards),
            "up_card": up_card,
            "legal_actions": [a.value for a in legal],
            "cell": _cell_json(cell, schedule.progress_of(cell)),
            **counted,
        }

    def answer(
        self,
        identity: Identity,
        table_id: str,
        cards: Sequence[Card],
        up_card: Card,
        action: Action,
        key: RequestKey | None = None,
        true_count: int | None = None,
    ) -> dict[str, Any]:
        """`{"action", "best", "loss", "ev", "cell"}`: the answer graded, `cell` as the
        answer left it; a retried key answers as it first did. With a `true_count`, an
        index drill's answer."""
        table = _table(table_id)

        def graded_answer() -> Graded:  # InvalidHand, IllegalAction
            if true_count is None:
                return drills.grade(table, cards, up_card, action)
            return drills.grade_index(table, cards, up_card, action, true_count)

        def answer_on(stored: Drills) -> dict[str, Any]:
            now = self.clock()
            if key is not None:
                first = idempotency.entry_of(stored.keys, key, now)
                if first is not None:
                    if first.body != key.body:
                        raise IdempotencyKeyReused(
                            "this Idempotency-Key was sent with another body"
                        )
                    return _answer_json(graded_answer(), first.cell)
            graded = graded_answer()
            schedule = stored.schedule.answer(graded.cell, graded.right)
            progress = schedule.progress_of(graded.cell)
            keys = idempotency.kept(stored.keys, now)
            if key is not None:
                keys = idempotency.adding(
                    keys, DrillKey(key.digest, key.body, int(now // 60), progress)
                )
            written = Drills(revision=(stored.revision or 0) + 1, schedule=schedule, keys=keys)
            self.store.put_drills(identity.account_id, table.id, written, stored.revision)
            return _answer_json(graded, progress)

        def read() -> Drills:
            return self._drills(identity, table)

        # Each lost write lost to another answer at the table, which then counts first.
        return until_written(read(), answer_on, read)

    def progress(self, identity: Identity, table_id: str) -> dict[str, Any]:
        """`{"table", "attempts", "correct", "cells"}`: every answered cell, in chart order."""
        table = _table(table_id)
        answered = list(self._drills(identity, table).schedule.progress(table.id))
        return {
            "table": table.id,
            "attempts": sum(progress.attempts for _, progress in answered),
            "correct": sum(progress.correct for _, progress in answered),
            "cells": [_cell_json(cell, progress) for cell, progress in answered],
        }

    def _drills(self, identity: Identity, table: Table) -> Drills:
        profile, stored = self.store.get_drills(identity.account_id, table.id)
        if profile is None:
            raise Unauthorized("this account no longer exists")
        return stored or Drills(revision=None)


def _cell_json(cell: Cell, progress: CellProgress) -> dict[str, Any]:
    direction = {} if cell.direction is None else {"direction": cell.direction}
    return {
        "section": cell.section.value,
        "row": cell.row,
        "up": cell.up,
        **direction,
        "box": progress.box,
        "attempts": progress.attempts,
        "correct": progress.correct,
    }


def _answer_json(graded: Graded, progress: CellProgress) -> dict[str, Any]:
    return {
        "action": graded.action.value,
        "best": graded.best.value,
        "loss": to_json(graded.loss),
        "ev": {action.value: value for action, value in graded.ev.items()},
        "cell": _cell_json(graded.cell, progress),
    }


def _table(table_id: str) -> Table:
    table = TABLES.get(table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    return table


def _section(section: str) -> Section:
    try:
        return Section(section)
    except ValueError:
        choices = ", ".join([ANY, *Section])
        raise ValidationFailed(f"section is one of {choices}, not {section!r}") from None
