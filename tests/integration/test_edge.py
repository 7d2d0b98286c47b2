"""GET /v1/tables/{table_id}/edge through the API: the edge of the seat's shoe before the
next bet (perfect play on the unseen cards), the strategy card's for a fresh shoe, and the
Kelly bet it makes within the table's limits; and the strategy card's `variance`."""

from __future__ import annotations

from dataclasses import replace
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from math import floor
from typing import Any

import pytest

from blackjack import variance as variance_module
from blackjack.cards import points
from blackjack.fairness import shuffled_shoe
from blackjack.rules import TABLES
from blackjack.strategy import strategy_card
from blackjack.strategy.card import card_at
from blackjack_service import factories
from blackjack_service.edge import kelly_bet
from tests.traced import first_traced

from .helpers import Player, bet, play_out, player_record, problem
from .seeds import CLIENT_SEED, find_seed, no_natural_nor_ace_up, use_seeds

EDGE_FIELDS = {"table", "count", "edge", "fresh_edge", "bet"}
FOUR = Decimal("0.0001")


def _four(ev_percent: float) -> float:
    return float(Decimal(repr(ev_percent)).quantize(FOUR, ROUND_HALF_EVEN))


def _fresh(table: str) -> float:
    return _four(strategy_card(table)["player_ev"])


def _edge(player: Player, table: str) -> dict[str, Any]:
    reply = player.get(f"/v1/tables/{table}/edge")
    assert reply.status == 200, reply.text
    assert reply.header("Cache-Control") == "no-store"
    body: dict[str, Any] = reply.body
    assert set(body) == EDGE_FIELDS and body["table"] == table
    return body


def _unseen(decks: int, cards: list[str]) -> list[int]:
    """The composition by rank, the ace first (every ten-value card one rank), of a shoe
    of `decks` decks less `cards`: counted here, apart from the service's count."""
    counts = [4 * decks] * 9 + [16 * decks]
    for card in cards:
        counts[points(card) - 1] -= 1
    return counts


def _kelly(balance: Decimal, edge: float, variance: float) -> int:
    if edge <= 0:
        return 0
    wager = Fraction(balance) * Fraction(str(edge)) / (100 * Fraction(str(variance)))
    return floor(wager)


def _round_cards(view: dict[str, Any]) -> list[str]:
    cards: list[str] = [
        card for box in view["boxes"] for hand in box["hands"] for card in hand["cards"]
    ]
    return [*cards, *view["dealer"]["cards"]]


def test_at_a_fresh_shoe_the_edge_is_the_strategy_cards(alice: Player) -> None:
    for table in ("european", "casino"):
        unviewed = _edge(alice, table)  # a seat never seen: its first shoe will be fresh
        assert alice.get(f"/v1/tables/{table}").status == 200
        body = _edge(alice, table)
        assert body == unviewed
        assert body["edge"] == body["fresh_edge"] == _fresh(table)
        assert body["count"] == {
            "system": "hi_lo",
            "running": 0,
            "true": 0,
            "cards_seen": 0,
            "cards_unseen": 6 * 52,
        }
        # The house's edge: no Kelly bet, the table's minimum advised.
        assert body["bet"] == {"kelly": 0, "advised": TABLES[table].min_bet}


def test_mid_shoe_the_edge_is_perfect_play_on_the_unseen_cards(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_seeds(monkeypatch, find_seed(6, no_natural_nor_ace_up))
    view = play_out(alice, "european", bet(alice, "european", 10).body)
    body = _edge(alice, "european")
    expected = card_at(TABLES["european"].rules, _unseen(6, _round_cards(view)))["player_ev"]
    assert body["edge"] == _four(expected)
    assert body["edge"] != body["fresh_edge"] == _fresh("european")
    assert body["count"] == alice.get("/v1/tables/european").body["shoe"]["count"]
    assert body["count"]["cards_seen"] == len(_round_cards(view))
    assert body["bet"]["kelly"] == _kelly(
        Decimal(view["balance"]), body["edge"], _variance("european")
    )


@pytest.mark.parametrize("table", ["classic", "bicycle"])
def test_at_a_table_that_shuffles_every_round_the_edge_is_the_fresh_shoes(
    alice: Player, table: str
) -> None:
    play_out(alice, table, bet(alice, table, 10).body)
    body = _edge(alice, table)
    assert body["edge"] == body["fresh_edge"] == _fresh(table)
    assert body["count"]["cards_seen"] == 0  # the next round's shoe: nothing dealt yet
    expected_kelly = _kelly(player_record("alice1").balance, body["edge"], _variance(table))
    assert body["bet"]["kelly"] == expected_kelly  # classic pays the player: positive
    assert body["bet"]["advised"] == min(
        max(expected_kelly, TABLES[table].min_bet), TABLES[table].max_bet
    )


def _variance(table: str) -> float:
    return float(variance_module.variance(table))


def _rich_seed() -> str:
    """A shoe whose first 200 cards hold many low cards: the 112 after them favour the
    player."""
    return find_seed(6, lambda shoe: _hi_lo(shoe[:200]) >= 24)


def _hi_lo(cards: list[str]) -> int:
    return sum((2 <= points(c) <= 6) - (points(c) in (1, 10)) for c in cards)


def _set_seat(login: str, table: str, position: int, balance: Decimal) -> None:
    """The stored seat's shoe dealt to `position` (as if its earlier rounds had been
    played and filed), and the balance: a known shoe state for the edge."""
    store = factories.store()
    player = player_record(login)
    seat = player.seats[table]
    seat = replace(seat, shoe=replace(seat.shoe, position=position))
    changed = replace(
        player,
        revision=(player.revision or 0) + 1,
        balance=balance,
        seats={**player.seats, table: seat},
    )
    store.put_player(login.lower(), changed, expected_revision=player.revision)


@pytest.mark.parametrize(
    ("balance", "where"),
    first_traced(
        [(Decimal(100), "below"), (Decimal("10000.5"), "within"), (Decimal(1_000_000), "above")]
    ),
)
def test_the_kelly_bet_of_a_positive_edge_is_kept_within_the_limits(
    alice: Player, monkeypatch: pytest.MonkeyPatch, balance: Decimal, where: str
) -> None:
    seed = _rich_seed()
    use_seeds(monkeypatch, seed)
    assert alice.get("/v1/tables/european").status == 200
    _set_seat("alice1", "european", 200, balance)
    body = _edge(alice, "european")
    cards = shuffled_shoe(seed, CLIENT_SEED, 1, 6)[:200]
    expected = card_at(TABLES["european"].rules, _unseen(6, cards))["player_ev"]
    assert body["edge"] == _four(expected) > 0
    assert body["count"]["running"] == _hi_lo(cards) and body["count"]["cards_seen"] == 200
    kelly = _kelly(balance, body["edge"], _variance("european"))
    table = TABLES["european"]
    assert body["bet"]["kelly"] == kelly
    advised = body["bet"]["advised"]
    if where == "below":
        assert kelly < table.min_bet and advised == table.min_bet
    elif where == "within":
        assert table.min_bet <= kelly <= table.max_bet and advised == kelly
    else:
        assert kelly > table.max_bet and advised == table.max_bet


def test_kelly_is_exact_and_nothing_where_the_edge_is_not_positive() -> None:
    table = TABLES["casino"]
    assert kelly_bet(table, Decimal(10000), Decimal("-0.2011"), Decimal("1.2424")) == (0, 10)
    assert kelly_bet(table, Decimal(10000), Decimal(0), Decimal("1.2424")) == (0, 10)
    # 12424 * 1.2424 / 100 / 1.2424 = 124.24: rounded down, never up
    assert kelly_bet(table, Decimal(12424), Decimal("1.2424"), Decimal("1.2424")) == (124, 124)
    # exactly 1000 (no float on the way): at the maximum
    assert kelly_bet(table, Decimal(124240), Decimal("1"), Decimal("1.2424")) == (1000, 1000)
    assert kelly_bet(table, Decimal(124239), Decimal("1"), Decimal("1.2424")) == (999, 999)


def test_while_a_round_is_in_play_the_edge_is_409(
    alice: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    use_seeds(monkeypatch, find_seed(6, no_natural_nor_ace_up))
    view = bet(alice, "casino", 10).body
    assert view["status"] == "player_turn"
    problem(alice.get("/v1/tables/casino/edge"), 409, "round_in_progress")
    settled = play_out(alice, "casino", view)
    assert _edge(alice, "casino")["count"]["cards_seen"] == len(_round_cards(settled))


def test_an_unknown_table_is_404_and_no_token_401(alice: Player) -> None:
    problem(alice.get("/v1/tables/nosuch/edge"), 404, "not_found")
    problem(alice.api.request("GET", "/v1/tables/casino/edge"), 401, "unauthorized")


def test_the_strategy_card_carries_the_shipped_variance(alice: Player) -> None:
    for table in TABLES:
        reply = alice.api.request("GET", f"/v1/tables/{table}/strategy")
        assert reply.status == 200, reply.text
        card = reply.body
        assert list(card)[:3] == ["table", "player_ev", "variance"]
        assert card["variance"] == _variance(table)
        assert 1.0 < card["variance"] < 1.4
