"""The items stored before the player item, read and turned into today's records.

A deployed table holds real players, so their items must go on playing: the first
request of a player who has no player item yet reads the profile and the seats as they
were stored (`Store.get_legacy`) and `player_of` makes the player item of them, which
that request writes. The old items stay as they are (the history and the retired shoes
still read from them); nothing writes them again.

The layouts, as they were written (their attribute `state` is a snapshot, read into
`snapshot` fields here):

- seat `USER#<login>` / `SEAT#<table>`: `table`, `version`, and one JSON document `state`
  holding the shoe's document (below), `round_id`, `round_shoe_id`, `round` (the round as
  `snapshots.round_snapshot`, hidden cards included), `round_started_at` and
  `round_settled_at` (RFC 3339; absent in seats stored before the round times);
- shoe `USER#<login>` / `SHOE#<shoe_id>`: one JSON document `state`: `shoe_id`, `table`,
  `state` (seeds, nonce, decks, cut index, the cards and the position), `server_seed_hash`,
  `rounds` (its round ids), `in_play`, `retired`, `dealt` (every card dealt, once retired);
- settled round `USER#<login>` / `ROUND#<round_id>`: `table` and its public `view` (JSON).
"""

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from typing import Annotated, Any

from pydantic import Field

from .records import Codec, Player, Profile, RoundRecord, Seat, ShoeRecord


@dataclass(slots=True)
class LegacyShoe:
    shoe_id: str
    table: str
    snapshot: Annotated[dict[str, Any], Field(alias="state")]  # `snapshots.shoe_snapshot`
    server_seed_hash: str
    rounds: list[str] = field(default_factory=list)
    in_play: bool = False
    retired: bool = False
    dealt: str | None = None


@dataclass(slots=True)
class LegacySeat:
    table: str
    version: int
    shoe: LegacyShoe
    round_id: str | None = None
    round_shoe_id: str | None = None
    round_snapshot: Annotated[dict[str, Any] | None, Field(alias="round")] = None
    round_started_at: str | None = None
    round_settled_at: str | None = None


_shoe_codec = Codec(LegacyShoe)
_seat_codec = Codec(LegacySeat)


def shoe(attributes: Mapping[str, Any]) -> LegacyShoe:
    return _shoe_codec.load(json.loads(attributes["state"]))


def seat(attributes: Mapping[str, Any]) -> LegacySeat:
    document = json.loads(attributes["state"])
    return _seat_codec.load(
        {**document, "table": attributes["table"], "version": attributes["version"]}
    )


def view(attributes: Mapping[str, Any]) -> dict[str, Any]:
    """A settled round's stored view; one stored before the trainer gains its fields, and
    its decisions the grades against perfect play and the counter's play as `hard`
    graded them (API.md: a decision graded before either reads as `best`)."""
    stored: dict[str, Any] = json.loads(attributes["view"])
    stored.setdefault("started_at", None)
    stored.setdefault("settled_at", None)
    stored.setdefault("dealt", [])
    for box in stored["boxes"]:
        for hand in box["hands"]:
            for decision in hand.setdefault("decisions", []):
                decision.setdefault("expert_best", decision["best"])
                decision.setdefault("expert_loss", decision["loss"])
                decision.setdefault("counter_best", decision["best"])
    return stored


def player_of(profile: Profile, seats: Mapping[str, LegacySeat]) -> Player:
    """The player item of a profile and its seats as they were stored."""
    return Player(
        version=None,
        balance=profile.balance,
        stats=profile.stats,
        seats={table: _seat_of(old, profile.balance) for table, old in seats.items()},
    )


def _seat_of(old: LegacySeat, balance: Decimal) -> Seat:
    snapshot = old.shoe.snapshot
    shoe = ShoeRecord(
        stored_id=old.shoe.shoe_id,
        server_seed=snapshot["server_seed"],
        client_seed=snapshot["client_seed"],
        nonce=int(snapshot["nonce"]),
        cut_index=snapshot["cut_index"],
        position=int(snapshot["position"]) if old.shoe.in_play else 0,
        rounds=len(old.shoe.rounds),
    )
    round_ = None
    if old.round_snapshot is not None and old.round_id is not None:
        number = old.shoe.rounds.index(old.round_id) + 1 if old.round_id in old.shoe.rounds else 0
        round_ = RoundRecord(
            number=number,
            version=old.version,
            start=shoe.position,  # the snapshot has dealt up to here: its moves go on from it
            started_at=_ms(old.round_started_at),
            bets={},
            balances=[balance],
            settled_at=_ms(old.round_settled_at),
            round_id=old.round_id,
            # The round's cards are in its snapshot; its shoe id too, as its shoe may be retired.
            snapshot={**old.round_snapshot, "shoe_id": old.round_shoe_id or old.shoe.shoe_id},
        )
    return Seat(version=old.version, shoe=shoe, round=round_)


def _ms(moment: str | None) -> int | None:
    """Epoch milliseconds of an RFC 3339 time; None where none was stored."""
    if moment is None:
        return None
    return int(datetime.fromisoformat(moment.replace("Z", "+00:00")).timestamp() * 1000)
