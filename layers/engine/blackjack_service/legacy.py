"""The items stored before the player item, read as they were written.

`migration` made each such player's item of their profile and seats; the old items stay
as they are, and nothing writes them again. The history items and the shoes of those
days are read from them still: they hold the rounds' public views, not the bets and moves
a replay needs, so no rewrite can make them today's records.

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
from typing import Annotated, Any

from pydantic import Field

from .records import Codec


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
    its decisions the grades against perfect play and the counter's and the chart's
    plays as `hard` graded them (API.md: a decision graded before any of them reads as
    `best`)."""
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
                decision.setdefault("medium_best", decision["best"])
    return stored
