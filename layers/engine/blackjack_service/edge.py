"""The edge of the shoe in play (API.md `GET /v1/tables/{table_id}/edge`): before the user's
next bet at a table, the player's EV for that round with perfect play on the unseen cards,
and the bet Kelly's criterion makes of it.

Pure of AWS: it reads the player item through `Store` and writes nothing. The seat is read
as the game reads it (`game.seat_round`): between rounds the public cards are everything
the seat's shoe has dealt, and a seat never seen, or a shoe just committed, has dealt
nothing: the next round comes off a fresh shoe, whose edge is the strategy card's.
"""

from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from functools import lru_cache
from math import floor
from typing import Any

from blackjack import count
from blackjack.actions import Phase
from blackjack.cards import Card
from blackjack.money import to_json
from blackjack.rules import TABLES, Shuffle, Table
from blackjack.variance import variance

from . import shoes
from .errors import NotFound, RoundInProgress
from .game import seat_round
from .identity import Identity
from .store import Store

EDGE_STEP = Decimal("0.0001")  # API.md: percent, four decimals
_HUNDRED = Fraction(100)


class EdgeService:
    def __init__(self, store: Store) -> None:
        self.store = store

    def edge(self, identity: Identity, table_id: str) -> dict[str, Any]:
        table = TABLES.get(table_id)
        if table is None:
            raise NotFound(f"no table {table_id!r}")
        player = self.store.existing_player(identity.account_id)
        seat = player.seats.get(table.id)
        public: list[Card] = []
        if seat is not None:
            round_ = seat_round(table, seat)
            if round_ is not None and round_.phase is not Phase.SETTLED:
                raise RoundInProgress("the edge is the next round's: finish the round in play")
            public = count.public_cards(shoes.engine_shoe(table, seat.shoe))
        counted = count.hi_lo(table.rules.decks, public)
        fresh = fresh_edge(table.id)
        edge = fresh if not public else edge_of(table, public)
        kelly, advised = kelly_bet(table, player.balance, edge, variance(table.id))
        return {
            "table": table.id,
            "count": {**counted, "true": to_json(counted["true"])},
            "edge": float(edge),
            "fresh_edge": float(fresh),
            "bet": {"kelly": kelly, "advised": advised},
        }


def percent(player_ev: float) -> Decimal:
    """A `player_ev` in percent (the analysis's float) to API.md's four decimals."""
    return Decimal(repr(player_ev)).quantize(EDGE_STEP, ROUND_HALF_EVEN)


def fresh_edge(table_id: str) -> Decimal:
    """The strategy card's `player_ev`, to four decimals."""
    from blackjack.strategy import strategy_card  # the analysis, imported when first asked

    return percent(strategy_card(table_id)["player_ev"])


def edge_of(table: Table, public: list[Card]) -> Decimal:
    """The edge of a round dealt from a shoe less its `public` cards. At tables that
    shuffle every round the next round is a fresh shoe's, whatever the last one dealt."""
    if table.rules.shuffle is Shuffle.EVERY_ROUND:
        return fresh_edge(table.id)
    return _edge_at(table.id, count.unseen(table.rules.decks, public))


@lru_cache(maxsize=64)  # a client asks again between rounds: the same cards, the same edge
def _edge_at(table_id: str, unseen: tuple[int, ...]) -> Decimal:
    from blackjack.strategy.card import player_ev_at

    return percent(player_ev_at(TABLES[table_id].rules, unseen))


def kelly_bet(table: Table, balance: Decimal, edge: Decimal, variance: Decimal) -> tuple[int, int]:
    """Kelly's bet, the balance times edge/100 over the round's variance, in whole coins
    rounded down (0 where the edge is not positive), and that bet kept within the table's
    limits. Exact: a Fraction, floored."""
    kelly = 0
    if edge > 0:
        kelly = floor(Fraction(balance) * Fraction(edge) / (_HUNDRED * Fraction(variance)))
    return kelly, min(max(kelly, table.min_bet), table.max_bet)
