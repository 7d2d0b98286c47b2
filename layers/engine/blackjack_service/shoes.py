"""The fair shoes of a user's seats (FAIRNESS.md): each shoe's commitment before its first
card, the player's seed and cut on the round that starts it, and what a shoe shows of
itself, its seed and cards once retired.

A shoe is stored as its seeds and how far it has dealt (`ShoeRecord`); its cards are the
seeds' shuffle, made again when needed (a six-deck shuffle takes about 0.3 ms, and the
last few are kept).

Seeds come from a `SeedSource`. The deployed functions use `SystemSeeds` (the operating
system's generator) and nothing in the environment, a request or the table can change
that; a test that needs a known shoe builds its own service with its own source.
"""

import functools
import re
from dataclasses import replace
from decimal import Decimal
from typing import Any, Protocol

from blackjack import fairness
from blackjack.cards import Card
from blackjack.rules import TABLES, Shuffle, Table
from blackjack.shoe import Shoe

from .errors import NotFound, ValidationFailed
from .identity import Identity
from .models import SHOE_ID_PATTERN
from .records import SettledRound, ShoeRecord
from .store import Store

_SHOE_ID = re.compile(SHOE_ID_PATTERN)


class SeedSource(Protocol):
    def server_seed(self) -> str: ...

    def client_seed(self) -> str: ...


class SystemSeeds:
    """The production source: the operating system's secure generator."""

    def server_seed(self) -> str:
        return fairness.new_server_seed()

    def client_seed(self) -> str:
        return fairness.new_client_seed()


class FairShoes:
    """Commits the next shoe of a seat, and shows any shoe of the user's."""

    def __init__(self, store: Store, seeds: SeedSource) -> None:
        self.store = store
        self.seeds = seeds

    def commit(self, nonce: int, now_ms: int) -> ShoeRecord:
        """The next shoe's commitment: its server seed fixed (and hashed), not shuffled."""
        return ShoeRecord(
            server_seed=self.seeds.server_seed(),
            client_seed=self.seeds.client_seed(),
            nonce=nonce,
            committed_at=now_ms,
        )

    def shoe(self, identity: Identity, shoe_id: str) -> dict[str, Any]:
        """`GET /v1/shoes/{shoe_id}`: a shoe in play, committed next, or retired."""
        if not _SHOE_ID.fullmatch(shoe_id):
            raise NotFound(f"no shoe {shoe_id}")
        player = self.store.existing_player(identity.account_id)
        for table_id, seat in player.seats.items():
            table = TABLES[table_id]
            if seat.shoe.shoe_id == shoe_id:
                return self._shoe(identity, table, seat.shoe, None)
            if seat.round_shoe is not None and seat.round_shoe.shoe_id == shoe_id:
                retired = seat.round_shoe
                return self._shoe(identity, table, retired, retired.position)
        settled = self.store.rounds_of_shoe(identity.account_id, shoe_id)
        if settled and settled[-1].room is not None:
            # a room's shoe is retired once the room deals from another (its seed stays
            # secret until then, whoever asks)
            room = self.store.get_room(settled[-1].room)
            if room is not None and room.shoe.shoe_id == shoe_id:
                return self._shoe(identity, TABLES[room.table], room.shoe, None)
        if settled:
            return self._retired(identity, settled[-1])
        # A shoe retired before the player item: its rounds are views, its seeds kept apart.
        old = self.store.get_old_shoes(identity.account_id).get(shoe_id)
        if old is None or old.retired is None:
            raise NotFound(f"no shoe {shoe_id}")
        return self._shoe(identity, TABLES[old.table], old.retired, old.retired.position)

    def _retired(self, identity: Identity, last: SettledRound) -> dict[str, Any]:
        """A retired shoe, from its last round's history item."""
        record = replace(last.shoe, rounds=last.round.number)
        return self._shoe(identity, TABLES[last.table], record, last.end)

    def _shoe(
        self, identity: Identity, table: Table, record: ShoeRecord, retired_at: int | None
    ) -> dict[str, Any]:
        """A shoe of the player item or the history; `retired_at`: the position it was
        retired at (None: committed or in play)."""
        retired = retired_at is not None
        cut = record.cut_index
        if cut is None and record.position == 0 and not retired:
            cut = _default_cut_index(table)
        cards = None
        if retired:
            cards = _cards(record.server_seed, record.client_seed, record.nonce, table.rules.decks)
        return {
            "shoe_id": record.shoe_id,
            "table": table.id,
            "server_seed_hash": fairness.seed_hash(record.server_seed),
            "client_seed": record.client_seed,
            "nonce": record.nonce,
            "decks": table.rules.decks,
            "cut_index": cut,
            "retired": retired,
            "server_seed": record.server_seed if retired else None,
            "cards": None if cards is None else list(cards[:retired_at]),
            "rounds": self._round_ids(identity, table, record),
        }

    def _round_ids(self, identity: Identity, table: Table, record: ShoeRecord) -> list[str]:
        """The shoe's round ids: `<shoe_id>-<n>`, after those of the rounds dealt before the
        player item existed (which have ids of their own)."""
        before: list[str] = []
        if record.stored_id is not None:  # only a shoe of those days has an id of its own
            old = self.store.get_old_shoes(identity.account_id).get(record.shoe_id)
            before = [] if old is None else old.rounds
        numbered = range(len(before) + 1, record.rounds + 1)
        return [*before, *(f"{record.shoe_id}-{n}" for n in numbered)]


def for_first_round(
    table: Table, record: ShoeRecord, client_seed: str | None, cut: Decimal | None
) -> ShoeRecord:
    """The shoe a bet deals from: the one in play, or the committed one with the player's
    seed and cut (allowed only on the round that starts it)."""
    if record.position > 0:
        if client_seed is not None or cut is not None:
            raise ValidationFailed(
                "client_seed and cut are allowed only on the round that starts a new shoe"
            )
        return record
    rules = table.rules
    if cut is not None:
        if rules.cut_range is None:
            raise ValidationFailed(f"the player does not place the cut at {table.id}")
        low, high = rules.cut_range
        if not low <= cut <= high:
            raise ValidationFailed(f"cut is from {low} to {high}")
    cut = cut if cut is not None else rules.cut_default
    return replace(
        record,
        client_seed=client_seed or record.client_seed,
        cut_index=(
            fairness.cut_index(rules.decks, cut)
            if rules.shuffle is Shuffle.CUT_CARD and cut is not None
            else None
        ),
    )


def engine_shoe(table: Table, record: ShoeRecord, position: int | None = None) -> Shoe:
    """The engine's shoe of a stored one, at `position` (default: as far as it has dealt)."""
    decks = table.rules.decks
    return Shoe(
        server_seed=record.server_seed,
        client_seed=record.client_seed,
        nonce=record.nonce,
        decks=decks,
        cut_index=record.cut_index,
        cards=list(_cards(record.server_seed, record.client_seed, record.nonce, decks)),
        position=record.position if position is None else position,
    )


def seat_shoe(table: Table, record: ShoeRecord) -> dict[str, Any]:
    """The shoe of a seat's answer: its commitment and how far it has dealt."""
    decks = table.rules.decks
    return {
        "shoe_id": record.shoe_id,
        "server_seed_hash": fairness.seed_hash(record.server_seed),
        "client_seed": record.client_seed,
        "nonce": record.nonce,
        "decks": decks,
        "cards_remaining": 52 * decks - record.position,
        "cut_card_out": record.cut_index is not None and record.position > record.cut_index,
    }


@functools.lru_cache(maxsize=64)
def _cards(server_seed: str, client_seed: str, nonce: int, decks: int) -> tuple[Card, ...]:
    return tuple(fairness.shuffled_shoe(server_seed, client_seed, nonce, decks))


def _default_cut_index(table: Table) -> int | None:
    rules = table.rules
    if rules.shuffle is not Shuffle.CUT_CARD or rules.cut_default is None:
        return None
    return fairness.cut_index(rules.decks, rules.cut_default)
