"""The records the service stores, and one codec per record.

A record is a dataclass, and its fields are the one list of what it stores: its codec
turns it into the attributes of its DynamoDB item and back through pydantic (names from
the fields, values converted by their types), so no converter names a field again. The
keys (`pk`, `sk`, the history index's) are the store's; a codec gives the other
attributes, as the plain values boto3's serializer takes (numbers as int or Decimal).

The layouts are those of the items already stored, which must go on reading:

- `Profile`: its fields, and its `Stats` flat: each total under its name, each kind's
  `Grades` as `<kind>_<name>` (absent in profiles made before the trainer: zero);
- `LoginAttempts`, `LedgerEntry`: their fields;
- `ShoeRecord`: one JSON document, `state`;
- `Seat`: `table` and `version` (which writes are conditional on), the rest one JSON
  document, `state`, holding its shoe's document;
- `SettledRound`: `table` and its `view` as JSON (its id is in the key, its settle time in
  the history position).
"""

# No `from __future__ import annotations`: pydantic resolves annotations written as strings
# in the module sys.modules holds under this module's name, and the local stack gives each
# execution environment its own copy of the module, which is not that one.
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from decimal import Decimal
from typing import Annotated, Any, Generic, TypeVar

from pydantic import Field, TypeAdapter

from blackjack.grading import Kind

_ZERO = Decimal(0)
_R = TypeVar("_R")


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


class Codec(Generic[_R]):
    """A record as its item's attributes and back. `document` names the attribute that
    holds, as one JSON document, every field but the `columns` (None: each field is an
    attribute of its own)."""

    def __init__(
        self, record_type: type[_R], document: str | None = None, columns: tuple[str, ...] = ()
    ) -> None:
        self.record_type = record_type
        self.document = document
        self.columns = columns

    @functools.cached_property
    def _adapter(self) -> TypeAdapter[_R]:
        # Built on first use: a function that stores nothing never pays for the schema.
        return TypeAdapter(self.record_type)

    def dump(self, record: _R) -> dict[str, Any]:
        """The record's fields by their stored names, as plain values."""
        return dict(self._adapter.dump_python(record, by_alias=True))

    def load(self, values: Mapping[str, Any]) -> _R:
        """A record from its fields' values (others are ignored; absent ones default)."""
        return self._adapter.validate_python(values)

    def attributes(self, record: _R) -> dict[str, Any]:
        values = self.dump(record)
        if self.document is None:
            return values
        columns = {name: values.pop(name) for name in self.columns}
        return {**columns, self.document: _dumps(values)}

    def record(self, attributes: Mapping[str, Any]) -> _R:
        if self.document is None:
            return self.load(attributes)
        columns = {name: attributes[name] for name in self.columns}
        return self.load({**json.loads(attributes[self.document]), **columns})


# ---- the records ------------------------------------------------------------------------


@dataclass(slots=True)
class Grades:
    """The trainer's counters of one kind of decision."""

    decisions: int = 0
    mistakes: int = 0
    ev_lost: Decimal = _ZERO  # coins, exact: the sum of loss x the hand's original bet


GRADE_FIELDS = tuple(f.name for f in fields(Grades))


@dataclass(slots=True)
class Stats:
    rounds: int = 0
    hands_won: int = 0
    hands_lost: int = 0
    hands_pushed: int = 0
    net: Decimal = _ZERO
    by_kind: dict[Kind, Grades] = field(default_factory=lambda: {kind: Grades() for kind in Kind})

    def totals(self) -> dict[str, int | Decimal]:
        """The counters over every kind of decision, by name."""
        return {name: getattr(self, name) for name in _TOTALS}

    def counters(self) -> dict[str, int | Decimal]:
        """Every counter by its name in the profile: the totals, then `<kind>_<name>`."""
        return self.totals() | {
            f"{kind}_{name}": getattr(grades, name)
            for kind, grades in self.by_kind.items()
            for name in GRADE_FIELDS
        }

    @classmethod
    def from_counters(cls, counters: Mapping[str, Any]) -> "Stats":
        """The stats in a profile's attributes; a counter it lacks is zero."""
        by_kind = {
            kind: {
                name: counters[key]
                for name in GRADE_FIELDS
                if (key := f"{kind}_{name}") in counters
            }
            for kind in Kind
        }
        return _stats_codec.load({**counters, "by_kind": by_kind})


_TOTALS = tuple(f.name for f in fields(Stats) if f.name != "by_kind")


@dataclass(slots=True)
class Profile:
    login: str  # as registered
    nick: str
    password_hash: str
    balance: Decimal
    stats: Stats = field(default_factory=Stats)

    @property
    def key(self) -> str:
        return self.login.lower()


@dataclass(slots=True)
class LoginAttempts:
    failures: int
    window_start: int  # epoch seconds of the first failure counted
    locked_until: int  # epoch seconds; 0 when not locked


@dataclass(slots=True)
class ShoeRecord:
    """A committed shoe. `state` is the engine's `Shoe.to_state()` (cards absent until the
    bet that starts the shoe shuffles it); secret until `retired`."""

    shoe_id: str
    table: str
    state: dict[str, Any]
    server_seed_hash: str
    rounds: list[str] = field(default_factory=list)
    in_play: bool = False
    retired: bool = False
    dealt: str | None = None  # every card dealt, in order, once retired


@dataclass(slots=True)
class Seat:
    """A user's seat at one table: the shoe in play (or the next one, committed) and the
    current or last round. `version` counts the seat's writes."""

    table: str
    version: int
    shoe: ShoeRecord
    round_id: str | None = None
    round_shoe_id: str | None = None
    round_state: Annotated[dict[str, Any] | None, Field(alias="round")] = None
    round_started_at: str | None = None  # RFC 3339; None for rounds stored before
    round_settled_at: str | None = None


@dataclass(slots=True)
class SettledRound:
    round_id: str
    table: str
    view: dict[str, Any]
    settled_at_us: int


def history_position(settled_at_us: int, round_id: str) -> str:
    """A settled round's place in the history index: settle time, then id for ties."""
    return f"{settled_at_us:016d}#{round_id}"


@dataclass(slots=True)
class LedgerEntry:
    """One change of a balance."""

    amount: Decimal
    reason: str
    table: str
    round_id: str  # "" for a change outside a round
    at: int  # epoch seconds


@dataclass(slots=True)
class Play:
    """One request's change to a seat and the wallet, written atomically."""

    login: str
    seat: Seat  # the new seat; its version is expected_version + 1
    expected_version: int | None  # None: the seat must not exist yet
    wallet_change: Decimal = _ZERO
    stake: Decimal = _ZERO  # what the request takes from the balance (balance >= stake)
    reason: str = ""
    round_id: str | None = None
    stats: Stats | None = None  # counters to add when the request settles a round
    settled: SettledRound | None = None
    shoes: list[ShoeRecord] = field(default_factory=list)  # shoe items to write

    def ledger_entry(self, at: int) -> LedgerEntry:
        return LedgerEntry(
            amount=self.wallet_change,
            reason=self.reason,
            table=self.seat.table,
            round_id=self.round_id or "",
            at=at,
        )


@dataclass(slots=True)
class Page:
    rounds: list[dict[str, Any]]
    next_position: str | None  # the history position of the page's last round


# ---- the codecs ------------------------------------------------------------------------


class _ProfileCodec(Codec[Profile]):
    def attributes(self, record: Profile) -> dict[str, Any]:
        values = self.dump(record)
        del values["stats"]
        return values | record.stats.counters()

    def record(self, attributes: Mapping[str, Any]) -> Profile:
        return self.load({**attributes, "stats": Stats.from_counters(attributes)})


_stats_codec = Codec(Stats)
profile_codec = _ProfileCodec(Profile)
attempts_codec = Codec(LoginAttempts)
ledger_codec = Codec(LedgerEntry)
shoe_codec = Codec(ShoeRecord, document="state")
seat_codec = Codec(Seat, document="state", columns=("table", "version"))


def settled_round_attributes(settled: SettledRound) -> dict[str, Any]:
    return {"table": settled.table, "view": _dumps(settled.view)}


def settled_round_view(attributes: Mapping[str, Any]) -> dict[str, Any]:
    return dict(json.loads(attributes["view"]))
