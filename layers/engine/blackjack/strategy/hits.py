"""Shipped hit values of the hands whose trees are too big to value at the first hint.

Valuing a hand's hit means valuing every hand it can become, and each of those needs the
dealer's outcome with its own cards removed (`dealer.stand_values`). The tree is big when
the hand's hard total is small: A,A,A against a 2 at six decks reaches some 1,450 removed
compositions and took 150 to 250 ms from a fresh process, where the target for a hint is
50 ms; hard totals of 12 to 15 still took 30 to 60 ms, 16 or more take under about 25 ms.

So for each table and up card the data holds U (see `analysis`) of hitting, for every
hand of three or more cards with a hard total of at most `HARD_LIMIT` that the shoe can
hold and that is not 21: 560 hands per up card at four or six decks. `hint_solver` hands
them to the solver as `known_hits`, which then values only what lies outside those trees;
standing is one composition, computed on demand. The values are the solver's own, bit
for bit (`generate --check` recomputes them), packed as little-endian doubles in the
order of `heavy_hands`, base64 encoded: 6 KB per up card, 60 KB per table, read and
decoded (under a millisecond) on the first hint of the table.
"""

import base64
import json
import struct
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from ..rules import TABLES, Rules
from . import native
from .analysis import EMPTY, UpCardSolver, shoe_counts, solver
from .card import DATA, label, table_of
from .dealer import ACE, RANKS, Comp, add, total

HARD_LIMIT = 15  # hands of at most this hard total (counting aces as 1) are shipped
MIN_CARDS = 3  # two-card hands read the strategy card


def heavy_hands(counts: Comp) -> list[Comp]:
    """The hands whose hit values are shipped, in their fixed order (sorted): three or
    more cards, hard total at most `HARD_LIMIT`, best total under 21, within `counts`."""

    def extend(hand: Comp, lowest: int, hard: int) -> Iterator[Comp]:
        if sum(hand) >= MIN_CARDS and total(hand)[0] < 21:
            yield hand
        for rank in range(lowest, RANKS):
            if hard + rank + 1 > HARD_LIMIT:
                break
            if hand[rank] < counts[rank]:
                yield from extend(add(hand, rank), rank, hard + rank + 1)

    return sorted(extend(EMPTY, ACE, 0))


def compute_hits(rules: Rules, up: int) -> list[float]:
    """U of hitting each of `heavy_hands`, computed by the plain (memoised) solver."""
    s = solver(rules, up)
    hands = heavy_hands(s.counts)
    s.prepare(hands)
    return [s.hit(EMPTY, hand) for hand in hands]


def pack(values: list[float]) -> str:
    return base64.b64encode(struct.pack(f"<{len(values)}d", *values)).decode("ascii")


def unpack(text: str) -> list[float]:
    data = base64.b64decode(text)
    return list(struct.unpack(f"<{len(data) // 8}d", data))


def build_hits(table_id: str) -> dict[str, Any]:
    """A table's shipped hit values, computed afresh."""
    rules = TABLES[table_id].rules
    return {
        "table": table_id,
        "hard_limit": HARD_LIMIT,
        "hit": {label(up): pack(compute_hits(rules, up)) for up in range(RANKS)},
    }


def hits_path(table_id: str) -> Path:
    return DATA / f"{table_id}.hits.json"


@cache
def _shipped(table_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(hits_path(table_id).read_text(encoding="utf-8"))
    return data


def shipped_hits(table_id: str, up: int) -> dict[Comp, float]:
    """The shipped hit values of a table against one up card, by hand."""
    data = _shipped(table_id)
    if data["hard_limit"] != HARD_LIMIT:
        raise ValueError(f"{hits_path(table_id)} is stale: regenerate it")
    counts = add(shoe_counts(TABLES[table_id].rules.decks), up, -1)
    hands = heavy_hands(counts)
    values = unpack(data["hit"][label(up)])
    if len(values) != len(hands):
        raise ValueError(f"{hits_path(table_id)} is stale: regenerate it")
    return dict(zip(hands, values, strict=True))


def hint_solver(rules: Rules, up: int) -> UpCardSolver:
    """The solver hints use: the kernel's where it is loaded (it values the heavy trees in
    about a millisecond); else the plain one, told the shipped hit values where the table
    is shipped (the same values, without the wait)."""
    return _hint_solver(rules, up, native.library() is not None)


@cache
def _hint_solver(rules: Rules, up: int, kernel: bool) -> UpCardSolver:
    if kernel:
        return native.KernelSolver(rules, up)
    table_id = table_of(rules)
    if table_id is None:
        return UpCardSolver(rules, up)
    return UpCardSolver(rules, up, shipped_hits(table_id, up))
