"""The records the service stores, and one codec per record.

A record is a dataclass, and its fields are the one list of what it stores: its codec
turns it into the attributes of its DynamoDB item and back through pydantic (names from
the fields, values converted by their types), so no converter names a field again. The
keys (`pk`, `sk`) are the store's; a codec gives the other
attributes, as the plain values boto3's serializer takes (numbers as int or Decimal).

What a round costs is what it writes, so the player's item is small: DynamoDB bills every
started KB written. A shoe is kept as its seeds (its cards are a function of them,
FAIRNESS.md) and a round as its bets and moves (the engine replays them), never as cards
or views; documents use short names.

- `Profile` (login, nick, password hash): its fields. Profiles written before the player
  item existed also hold a balance and the stats, flat (each total under its name, each
  kind's `Grades` as `<kind>_<name>`): `migration` made their player items of them, and
  nothing reads them since.
- `Player`: `revision` (which every write of it expects; `version` in items written
  before the word meant one thing, which `migration` renames), `balance`,
  `stats` (the counters by short name, `Stats.stored`; in items written before the names,
  every counter in `Stats.counters()` order), and per table `seat_<table>` (a `Seat` as
  one JSON document) and `keys_<table>` (the idempotency keys, `RetryKey`s packed), and
  `rooms` (the ids of the rooms the user took boxes in, space-separated).
- `SettledRound`: `table` and `round`, one JSON document (the round with its shoe); a
  round settled before rounds were stored as their bets and moves: `table` and its public
  `view` (JSON), as `migration` moved it.
- `OldShoes` (one item per user, written by `migration`): `shoes`, one JSON document.
- `LoginAttempts`: its fields.
- `SettledRound` of a room: `table`, `room` (its id) and `packed` (the document, deflated).
- `Room` (a shared table): `version`, `room` (the rest, one JSON document, deflated) and `keys`
  (the idempotency keys of its requests, `RetryKey`s packed).
- `Drills` (one item per user and table): `revision` (`version` before, as the player's),
  `schedule` (the
  engine's packed `Schedule`) and `keys` (the idempotency keys of answers, `DrillKey`s packed).
"""

from __future__ import annotations

import functools
import json
import re
import struct
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BeforeValidator, Field, PlainSerializer, TypeAdapter

from blackjack.actions import Action, Move
from blackjack.drills import CellProgress, Schedule, pack_progress, unpack_progress
from blackjack.fairness import seed_hash
from blackjack.grading import ExpertGrade, Kind

from .errors import NotMigrated

_ZERO = Decimal(0)
_R = TypeVar("_R")


class Codec(Generic[_R]):
    """A record as its item's attributes and back: each field an attribute of its own."""

    def __init__(self, record_type: type[_R]) -> None:
        self.record_type = record_type

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
        return self.dump(record)

    def from_attributes(self, attributes: Mapping[str, Any]) -> _R:
        return self.load(attributes)

    def document(self, record: _R) -> str:
        """The record as one compact JSON document (amounts as strings: exact)."""
        return self._adapter.dump_json(record, by_alias=True, exclude_defaults=True).decode()

    def from_document(self, document: str | bytes) -> _R:
        return self._adapter.validate_json(document)


# ---- the player's counters --------------------------------------------------------------


@dataclass(slots=True)
class Grades:
    """The trainer's counters of one kind of decision."""

    decisions: int = 0
    mistakes: int = 0
    ev_lost: Decimal = _ZERO  # coins, exact: the sum of loss x the hand's original bet


GRADE_FIELDS = tuple(f.name for f in fields(Grades))


@dataclass(slots=True)
class ExpertGrades:
    """The trainer's counters against perfect play for the shoe (`expert`), over every
    decision: its mistakes and what they gave up, and the spots where the shoe's cards
    change the best play (deviations) and how many of them the user played right."""

    expert_mistakes: int = 0
    expert_ev_lost: Decimal = _ZERO  # coins, exact
    deviations: int = 0
    deviations_taken: int = 0


EXPERT_FIELDS = tuple(f.name for f in fields(ExpertGrades))


@dataclass(slots=True)
class CounterGrades:
    """The trainer's counters against the `counter`'s play: the spots where an index play
    changes the card's action, and how many of them the user played right."""

    index_spots: int = 0
    index_spots_taken: int = 0


COUNTER_FIELDS = tuple(f.name for f in fields(CounterGrades))


@dataclass(slots=True)
class Stats:
    """A player's counters: the rounds and hands, and the trainer's grades."""

    rounds: int = 0
    hands_won: int = 0
    hands_lost: int = 0
    hands_pushed: int = 0
    net: Decimal = _ZERO
    by_kind: dict[Kind, Grades] = field(default_factory=lambda: {kind: Grades() for kind in Kind})
    expert: ExpertGrades = field(default_factory=ExpertGrades)
    counter: CounterGrades = field(default_factory=CounterGrades)

    def totals(self) -> dict[str, int | Decimal]:
        """The counters over every kind of decision, by name."""
        return {name: getattr(self, name) for name in _TOTALS}

    def counters(self) -> dict[str, int | Decimal]:
        """Every counter by its name in the profile: the totals, then `<kind>_<name>`, then
        the counters against perfect play, then against the counter's (each group added
        last: a packed string of before it was kept is one without it)."""
        by_kind = {
            f"{kind}_{name}": getattr(grades, name)
            for kind, grades in self.by_kind.items()
            for name in GRADE_FIELDS
        }
        expert = {name: getattr(self.expert, name) for name in EXPERT_FIELDS}
        counter = {name: getattr(self.counter, name) for name in COUNTER_FIELDS}
        return self.totals() | by_kind | expert | counter

    def plus(self, other: Stats) -> Stats:
        """These counters and `other`'s, added."""
        mine, theirs = self.counters(), other.counters()
        return Stats.from_counters({name: mine[name] + theirs[name] for name in mine})

    @classmethod
    def from_counters(cls, counters: Mapping[str, Any]) -> Stats:
        """The stats in a profile's attributes; a counter it lacks is zero."""
        by_kind = {
            kind: {
                name: counters[key]
                for name in GRADE_FIELDS
                if (key := f"{kind}_{name}") in counters
            }
            for kind in Kind
        }
        expert = {name: counters[name] for name in EXPERT_FIELDS if name in counters}
        counter = {name: counters[name] for name in COUNTER_FIELDS if name in counters}
        return _stats_codec.load(
            {**counters, "by_kind": by_kind, "expert": expert, "counter": counter}
        )

    def stored(self) -> str:
        """The counters as the player item stores them: `<short name><value>`,
        comma-separated, zeros left out. A counter added later is absent from the stats
        stored before it, and reads as zero there."""
        return ",".join(
            f"{_SHORT_NAMES[name]}{value}" for name, value in self.counters().items() if value
        )

    @classmethod
    def from_stored(cls, stored: str) -> Stats:
        """The counters as `stored` writes them, or as player items packed them before:
        every counter's value in `counters()` order (which starts with a number)."""
        if stored[:1].isdigit():
            return cls._unpacked(stored)
        named = (_NAMED.fullmatch(part) for part in stored.split(",") if part)
        return cls.from_counters(
            {_NAMES[match[1]]: match[2] for match in named if match and match[1] in _NAMES}
        )

    @classmethod
    def _unpacked(cls, packed: str) -> Stats:
        values = packed.split(",")
        if len(values) not in _PACKED_LENGTHS:
            raise ValueError(f"{len(values)} packed counters, not {len(_COUNTERS)}")
        return cls.from_counters(dict(zip(_COUNTERS, values, strict=False)))


_TOTALS = tuple(f.name for f in fields(Stats) if f.name not in ("by_kind", "expert", "counter"))
_COUNTERS = tuple(Stats().counters())
# Today's, then as stored before the counter's counters, then before the expert's.
_PACKED_LENGTHS = (
    len(_COUNTERS),
    len(_COUNTERS) - len(COUNTER_FIELDS),
    len(_COUNTERS) - len(COUNTER_FIELDS) - len(EXPERT_FIELDS),
)
# The counters' stored names are short, as the player item is written every request and
# DynamoDB bills every started KB: a total's letter; a kind's initial and its grade's
# letter; `x` and an expert grade's, `c` and a counter grade's.
_LETTERS = {
    "rounds": "r",
    "hands_won": "w",
    "hands_lost": "l",
    "hands_pushed": "p",
    "net": "n",
    "decisions": "d",
    "mistakes": "m",
    "ev_lost": "e",
    "expert_mistakes": "m",
    "expert_ev_lost": "e",
    "deviations": "d",
    "deviations_taken": "t",
    "index_spots": "s",
    "index_spots_taken": "t",
}
_SHORT_NAMES = {
    **{name: _LETTERS[name] for name in _TOTALS},
    **{f"{kind}_{name}": kind.value[0] + _LETTERS[name] for kind in Kind for name in GRADE_FIELDS},
    **{name: "x" + _LETTERS[name] for name in EXPERT_FIELDS},
    **{name: "c" + _LETTERS[name] for name in COUNTER_FIELDS},
}
_NAMES = {short: name for name, short in _SHORT_NAMES.items()}
assert len(_NAMES) == len(_COUNTERS), "two counters share a stored name"
_NAMED = re.compile(r"([a-z]+)(.+)")


# ---- accounts ---------------------------------------------------------------------------


@dataclass(slots=True)
class Profile:
    """What logging in reads."""

    login: str  # as registered
    nick: str
    password_hash: str

    @property
    def account_id(self) -> str:
        """The login lower-cased: the account's id in the table, unique ignoring case."""
        return self.login.lower()


@dataclass(slots=True)
class LoginAttempts:
    failures: int
    window_start: int  # epoch seconds of the first failure counted
    locked_until: int  # epoch seconds; 0 when not locked


# ---- the player's item ------------------------------------------------------------------


def _move_code(move: Move) -> str:
    return move.action.value if move.amount is None else f"{move.action.value}={move.amount}"


def _move_of(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    action, _, amount = value.partition("=")
    return Move(Action(action), Decimal(amount) if amount else None)


MoveCode = Annotated[Move, BeforeValidator(_move_of), PlainSerializer(_move_code)]


def _expert_code(grade: ExpertGrade) -> str:
    return f"{grade[0].value} {grade[1]}"


def _expert_of(value: Any) -> Any:
    if not isinstance(value, str):
        return value
    action, _, loss = value.partition(" ")
    return Action(action), Decimal(loss)


ExpertCode = Annotated[
    tuple[Action, Decimal], BeforeValidator(_expert_of), PlainSerializer(_expert_code)
]


@dataclass(slots=True)
class ShoeRecord:
    """A shoe as its seeds and how far it has dealt: its cards are `shuffled_shoe` of the
    seeds. `position` 0: committed, not yet shuffled (the bet that starts it may still give
    the client seed and the cut). Its round ids are `<shoe_id>-<n>`, n from 1 (the rounds
    of a shoe stored before the player item have ids of their own)."""

    server_seed: Annotated[str, Field(alias="seed")]
    client_seed: Annotated[str, Field(alias="client")]
    nonce: int
    cut_index: Annotated[int | None, Field(alias="cut")] = None
    position: Annotated[int, Field(alias="at")] = 0
    rounds: int = 0  # dealt from it
    # A shoe committed before the player item has an id of its own (a later one's is made
    # from its commitment: unique, public, and never stored).
    stored_id: Annotated[str | None, Field(alias="id")] = None
    # When it was committed (epoch ms; None for a shoe committed before this was kept).
    committed_at: Annotated[int | None, Field(alias="t")] = None

    @property
    def shoe_id(self) -> str:
        """Its commit time (11 hex digits of epoch ms) and its commitment's first 21 hex
        digits: its rounds settle after that time, which is where the history finds them
        (`committed_at_of`). A shoe with no commit time kept: the commitment's first 32."""
        if self.stored_id is not None:
            return self.stored_id
        if self.committed_at is None:
            return seed_hash(self.server_seed)[:32]
        return f"{self.committed_at:011x}{seed_hash(self.server_seed)[:21]}"


# The first shoes whose ids hold their commit time were committed on this day (epoch ms,
# 2026-12-02 UTC); an id whose first 11 hex digits read as an earlier time is a
# commitment's digits alone.
_TIMED_SHOES_FROM_MS = 1_796_169_600_000


def committed_at_of(shoe_id: str) -> int | None:
    """The commit time (epoch ms) a shoe id holds, or None where it holds none. An id made
    of its commitment alone may read as a time by chance (a later one, mostly): whoever
    reads by it must find nothing there, not fail."""
    committed_at = int(shoe_id[:11], 16)
    return committed_at if committed_at >= _TIMED_SHOES_FROM_MS else None


@dataclass(slots=True)
class RoundRecord:
    """A round as what replays it: its shoe at `start`, the bets, the user's moves. The
    seat's version after the bet is `version`; after move k it is `version + k`."""

    number: Annotated[int, Field(alias="n")]  # its place in its shoe, from 1
    version: Annotated[int, Field(alias="v")]
    start: Annotated[int, Field(alias="at")]
    started_at: Annotated[int | None, Field(alias="t")]  # epoch ms; None: stored before times
    bets: dict[int, Decimal]
    ai: dict[int, str] = field(default_factory=dict)
    moves: list[MoveCode] = field(default_factory=list)
    # Each move's grade against perfect play, as it was taken: replays reuse it rather than
    # run the analysis again (a round stored before it was kept has none: graded afresh).
    expert: Annotated[list[ExpertCode], Field(alias="x")] = field(default_factory=list)
    # The user's balance after the bet and after each move (what each answer showed).
    balances: Annotated[list[Decimal], Field(alias="b")] = field(default_factory=list)
    settled_at: Annotated[int | None, Field(alias="s")] = None  # epoch milliseconds
    # A round dealt before the player item has an id of its own.
    round_id: Annotated[str | None, Field(alias="id")] = None
    # At a shared table: each box's owner (account id) and nick, as dealt.
    owners: Annotated[dict[int, str], Field(alias="o")] = field(default_factory=dict)
    nicks: Annotated[dict[int, str], Field(alias="k")] = field(default_factory=dict)


@dataclass(slots=True)
class Seat:
    """The user's seat at one table. `version` counts its writes (the round's ETag)."""

    version: int
    shoe: ShoeRecord  # in play, or committed next
    round: RoundRecord | None = None  # the current or last round
    # The retired shoe the last round was dealt from, while that round is the seat's.
    round_shoe: Annotated[ShoeRecord | None, Field(alias="retired")] = None

    def shoe_of_round(self) -> ShoeRecord:
        return self.round_shoe or self.shoe


@dataclass(frozen=True, slots=True)
class RetryKey:
    """An `Idempotency-Key` the user sent at a table, as digests: of the route and key, and
    of the body; `version` is the seat's after the request (which names its answer)."""

    digest: bytes  # 8 bytes: of the route and the key
    body: bytes  # 4 bytes
    version: int
    minute: int  # when first sent, minutes since the epoch


_RETRY_KEY = struct.Struct(">8s4sII")


def pack_keys(keys: list[RetryKey]) -> bytes:
    return b"".join(_RETRY_KEY.pack(k.digest, k.body, k.version, k.minute) for k in keys)


def unpack_keys(packed: bytes) -> list[RetryKey]:
    return [RetryKey(*values) for values in _RETRY_KEY.iter_unpack(packed)]


@dataclass(slots=True)
class Player:
    """The one item a bet or an action writes: the balance, the counters, every seat and
    the keys that replay. `revision` counts the item's writes (None: not written yet)."""

    revision: int | None
    balance: Decimal
    stats: Stats = field(default_factory=Stats)
    seats: dict[str, Seat] = field(default_factory=dict)
    keys: dict[str, list[RetryKey]] = field(default_factory=dict)
    # The rooms the user took a box in (some may have unseated them since: a room's item
    # is the truth of its seats).
    rooms: list[str] = field(default_factory=list)


@dataclass(slots=True)
class SettledRound:
    """A settled round as the history lists it: replayable (its shoe as it stood at the
    deal), with what it moved (`net`) and when (`round.settled_at`)."""

    round_id: str
    table: str
    shoe: ShoeRecord
    round: RoundRecord
    net: Decimal
    end: int  # the shoe's position after the round
    room: str | None = None  # the room's id, for a round at a shared table

    @property
    def position(self) -> str:
        """Its history position."""
        assert self.round.settled_at is not None
        return history_position(self.round.settled_at * 1000, self.round_id)


def history_position(settled_at_us: int, round_id: str) -> str:
    """A settled round's place in the history: settle time, then id for ties."""
    return f"{settled_at_us:016d}#{round_id}"


@dataclass(frozen=True, slots=True)
class RoomShoe:
    """Where a room's shoe is dealt: its room and table, and when the room moved on to its
    next shoe (epoch ms; None: in play or committed next). A user's rounds of it are filed
    in the table's rooms' stream between its commit time and then."""

    room: str
    table: str
    retired_at: int | None = None


@dataclass(slots=True)
class OldShoe:
    """A shoe committed before shoe ids held their commit time, so its id cannot say where
    its rounds are filed: from the history position `since` on. `rounds`: the ids of its
    rounds dealt before the player item (they have ids of their own); `retired`: a shoe
    retired then, its seeds and `position` where it was retired (its later rounds' items
    hold a shoe retired since)."""

    table: str
    since: str
    rounds: list[str] = field(default_factory=list)
    retired: ShoeRecord | None = None


@dataclass(slots=True)
class OldShoes:
    """A user's shoes whose ids hold no commit time, by id."""

    shoes: dict[str, OldShoe] = field(default_factory=dict)


# ---- shared tables ---------------------------------------------------------------------


@dataclass(slots=True)
class RoomUser:
    """A user seated in a room."""

    nick: str
    seed: str | None = None  # the client seed of their first bet on the shoe in play
    sat_out: int = 0  # rounds in a row dealt without their bet or pass


@dataclass(slots=True)
class Room:
    """A shared table: the one item every change of it writes. `version` counts its
    changes (the room view's `version` and ETag)."""

    version: int
    table: str
    name: str
    turn_seconds: int
    betting_seconds: int
    active_at: int  # epoch ms of its last change
    shoe: ShoeRecord  # in play, or committed next
    seats: dict[int, str] = field(default_factory=dict)  # box -> account id
    users: dict[str, RoomUser] = field(default_factory=dict)  # by account id
    bets: dict[int, Decimal] = field(default_factory=dict)  # the next round's, taken
    passed: list[str] = field(default_factory=list)  # account ids
    round: RoundRecord | None = None  # the round in play or the last one
    round_shoe: Annotated[ShoeRecord | None, Field(alias="retired")] = None
    seeds: dict[int, str] = field(default_factory=dict)  # the shoe's seeds, by first box
    deadline: int | None = None  # epoch ms: when the window closes or the decision is due
    # The version of the change that set the deadline: its answer's message names it.
    asked: Annotated[int | None, Field(alias="a")] = None
    keys: list[RetryKey] = field(default_factory=list)

    def shoe_of_round(self) -> ShoeRecord:
        return self.round_shoe or self.shoe

    @property
    def in_play(self) -> bool:
        return self.round is not None and self.round.settled_at is None


@dataclass(slots=True)
class Page:
    rounds: list[Any]
    next_position: str | None  # the history position of the page's last round


# ---- drills ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DrillKey:
    """An `Idempotency-Key` of a drill's answer: the digests and the minute as in a
    `RetryKey`, and the answered cell as that answer left it (its replay shows it again;
    the rest of the answer is the grading of the same body)."""

    digest: bytes  # 8 bytes: of the route and the key
    body: bytes  # 4 bytes
    minute: int
    cell: CellProgress


_DRILL_KEY = struct.Struct(">8s4sI")  # then the cell, as `pack_progress` packs it


def pack_drill_keys(keys: list[DrillKey]) -> bytes:
    return b"".join(
        _DRILL_KEY.pack(k.digest, k.body, k.minute) + pack_progress(k.cell) for k in keys
    )


def unpack_drill_keys(packed: bytes) -> list[DrillKey]:
    keys, at = [], 0
    while at < len(packed):
        digest, body, minute = _DRILL_KEY.unpack_from(packed, at)
        cell, at = unpack_progress(packed, at + _DRILL_KEY.size)
        keys.append(DrillKey(digest, body, minute, cell))
    return keys


@dataclass(slots=True)
class Drills:
    """The user's drills at one table: the one item an answer writes. `revision` counts
    its writes (None: not written yet)."""

    revision: int | None
    schedule: Schedule = field(default_factory=Schedule)
    keys: list[DrillKey] = field(default_factory=list)


# ---- the codecs ------------------------------------------------------------------------

# The attribute of a player or drills item that counts its writes, which each conditional
# write expects. Items written before it had its own word hold it as `UNNAMED_REVISION`.
REVISION, UNNAMED_REVISION = "revision", "version"


def revision_of(attributes: Mapping[str, Any]) -> int:
    """The item's revision; `NotMigrated` for an item that `migration` has not renamed yet."""
    if REVISION not in attributes and UNNAMED_REVISION in attributes:
        raise NotMigrated()
    return int(attributes[REVISION])


class _PlayerCodec:
    def attributes(self, player: Player) -> dict[str, Any]:
        assert player.revision is not None
        attributes: dict[str, Any] = {
            REVISION: player.revision,
            "balance": player.balance,
            "stats": player.stats.stored(),
        }
        for table, seat in player.seats.items():
            attributes[f"seat_{table}"] = seat_codec.document(seat)
        for table, keys in player.keys.items():
            if keys:
                attributes[f"keys_{table}"] = pack_keys(keys)
        if player.rooms:
            attributes["rooms"] = " ".join(player.rooms)
        return attributes

    def from_attributes(self, attributes: Mapping[str, Any]) -> Player:
        seats, keys = {}, {}
        for name, value in attributes.items():
            kind, _, table = name.partition("_")
            if kind == "seat" and table:
                if _SNAPSHOT in value:  # a round stored whole, which `migration` replays
                    raise NotMigrated()
                seats[table] = seat_codec.from_document(value)
            elif kind == "keys" and table:
                keys[table] = unpack_keys(bytes(value))
        return Player(
            revision=revision_of(attributes),
            balance=Decimal(attributes["balance"]),
            stats=Stats.from_stored(attributes["stats"]),
            seats=seats,
            keys=keys,
            rooms=str(attributes.get("rooms", "")).split(),
        )


class _SettledRoundCodec:
    def attributes(self, settled: SettledRound) -> dict[str, Any]:
        document = _settled_codec.document(settled)
        if settled.room is None:
            return {"table": settled.table, "round": document}
        # A room's round names every box's owner: packed, it stays within a KB.
        return {"table": settled.table, "room": settled.room, "packed": _packed(document)}

    def from_attributes(self, attributes: Mapping[str, Any]) -> SettledRound | dict[str, Any]:
        """The settled round, or the public view of one settled before the player item."""
        if "packed" in attributes:
            return _settled_codec.from_document(_unpacked(attributes["packed"]))
        if "round" not in attributes:
            view: dict[str, Any] = json.loads(attributes["view"])
            return view
        return _settled_codec.from_document(attributes["round"])


class _DrillsCodec:
    """The drills item of a table (the schedule is packed by the table's cells)."""

    def attributes(self, table_id: str, drills: Drills) -> dict[str, Any]:
        assert drills.revision is not None
        attributes: dict[str, Any] = {
            REVISION: drills.revision,
            "schedule": drills.schedule.packed(table_id),
        }
        if drills.keys:
            attributes["keys"] = pack_drill_keys(drills.keys)
        return attributes

    def from_attributes(self, table_id: str, attributes: Mapping[str, Any]) -> Drills:
        return Drills(
            revision=revision_of(attributes),
            schedule=Schedule.unpacked(table_id, bytes(attributes["schedule"])),
            keys=unpack_drill_keys(bytes(attributes.get("keys", b""))),
        )


class _RoomCodec:
    """The room as its `version` and one JSON document (`room`, deflated: a room of five
    users is some 1.1 KB of JSON, 0.6 KB packed), the retry keys packed."""

    def attributes(self, room: Room) -> dict[str, Any]:
        attributes: dict[str, Any] = {
            "version": room.version,
            "room": _packed(_room_codec.document(replace(room, keys=[]))),
        }
        if room.keys:
            attributes["keys"] = pack_keys(room.keys)
        return attributes

    def from_attributes(self, attributes: Mapping[str, Any]) -> Room:
        room = _room_codec.from_document(_unpacked(attributes["room"]))
        return replace(
            room,
            version=int(attributes["version"]),
            keys=unpack_keys(bytes(attributes.get("keys", b""))),
        )


def _packed(document: str) -> bytes:
    """A JSON document deflated (raw DEFLATE): DynamoDB bills every started KB written."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    return packer.compress(document.encode()) + packer.flush()


def _unpacked(packed: Any) -> str:
    return zlib.decompress(bytes(packed), -15).decode()


_SNAPSHOT = '"snapshot":'  # in a seat's round that `migration` has not replayed yet
_stats_codec = Codec(Stats)
_settled_codec = Codec(SettledRound)
_room_codec = Codec(Room)
profile_codec = Codec(Profile)
attempts_codec = Codec(LoginAttempts)
seat_codec = Codec(Seat)
old_shoes_codec = Codec(OldShoes)


class _RoomShoeCodec:
    """A room's shoe: its room and table, and when it was retired once it is."""

    def attributes(self, shoe: RoomShoe) -> dict[str, Any]:
        attributes: dict[str, Any] = {"room": shoe.room, "table": shoe.table}
        if shoe.retired_at is not None:
            attributes["retired_at"] = shoe.retired_at
        return attributes

    def from_attributes(self, attributes: Mapping[str, Any]) -> RoomShoe:
        retired_at = attributes.get("retired_at")
        return RoomShoe(
            attributes["room"], attributes["table"], None if retired_at is None else int(retired_at)
        )


player_codec = _PlayerCodec()
settled_codec = _SettledRoundCodec()
drills_codec = _DrillsCodec()
room_codec = _RoomCodec()
room_shoe_codec = _RoomShoeCodec()
