"""The `counter` player (RULES.md, "AI levels"): on every chart cell of every table, at
every true count, the card's action or, where the shipped index reaches the count, the
index's play; insurance exactly from the insurance index on; and the true count it reads
off the unseen cards is the hint's."""

import random
from decimal import Decimal
from functools import cache
from typing import Any

import pytest

from blackjack.actions import Action, Phase
from blackjack.cards import deck_order
from blackjack.count import hi_lo, true_count, unseen
from blackjack.players import AI_LEVELS, counter_at, counter_play, decide, medium
from blackjack.rules import TABLES, Insurance
from blackjack.strategy import strategy_card
from blackjack.strategy.card import chart_rows, label
from blackjack.strategy.indices import TRUE_COUNTS, indices_document
from blackjack.turn import PlayerView, insurance_actions, play_actions

# Every integer true count, and counts between them (the hint's have two decimals).
COUNTS = [Decimal(t) + step for t in TRUE_COUNTS for step in (Decimal("-0.01"), 0, Decimal("0.5"))]


def _view(table_id: str, first: str, second: str, up: str) -> PlayerView:
    rules = TABLES[table_id].rules
    cards = (first, second)
    legal = play_actions(rules, cards, up_card=up, split_hand=False, can_split=True)
    return PlayerView(rules, Phase.PLAYER_TURN, cards, up, legal, 1, False)


@cache
def _by_cell(table_id: str) -> dict[tuple[str, str, str], list[dict[str, Any]]]:
    out: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for entry in indices_document(table_id)["indices"]:
        out.setdefault((entry["section"], entry["row"], entry["up"]), []).append(entry)
    return out


@cache
def _chart(table_id: str) -> dict[str, Any]:
    chart: dict[str, Any] = strategy_card(table_id)["chart"]
    return chart


def _expected(table_id: str, cell: tuple[str, str, str], true: Decimal) -> tuple[str, Any]:
    """The shipped document read literally: the card's action, else an index's play."""
    section, row, up = cell
    action, applied = _chart(table_id)[section][row][up], None
    for entry in _by_cell(table_id).get(cell, []):
        up_from = entry["direction"] == "at_or_above"
        if true >= entry["index"] if up_from else true <= entry["index"]:
            action, applied = entry["play"], entry
    return action, applied


@pytest.mark.parametrize("table_id", list(TABLES))
def test_every_cell_at_every_count_plays_the_card_or_its_index(table_id: str) -> None:
    chart = strategy_card(table_id)["chart"]
    suits = iter("SHDC" * 10_000)
    for section, rows in chart_rows().items():
        for row, hands in rows.items():
            for up_label in chart[section][row]:
                up = up_label + "D"
                for a, b in hands:
                    view = _view(table_id, label(a) + next(suits), label(b) + next(suits), up)
                    for true in COUNTS:
                        action, index = counter_at(view, true)
                        want, entry = _expected(table_id, (section, row, up_label), true)
                        if Action(want) in view.legal_actions:
                            assert (action.value, index and index.as_dict()) == (want, entry)
                        else:
                            assert (action, index) == (medium(view), None)


@pytest.mark.parametrize("table_id", list(TABLES))
def test_insurance_from_the_insurance_index_on(table_id: str) -> None:
    rules = TABLES[table_id].rules
    entries = [e for e in indices_document(table_id)["indices"] if e["section"] == "insurance"]
    for cards, natural in ((("9S", "7H"), False), (("AS", "KH"), True)):
        legal = insurance_actions(rules, natural=natural)
        view = PlayerView(rules, Phase.INSURANCE, cards, "AD", legal, 1, False)
        for true in COUNTS:
            action, index = counter_at(view, true)
            if rules.insurance is Insurance.NONE or true < entries[0]["index"]:
                assert (action, index) == (Action.DECLINE_INSURANCE, None)
            else:
                assert index is not None and index.as_dict() == entries[0]
                assert action is (
                    Action.EVEN_MONEY if natural and rules.even_money else Action.INSURANCE
                )


def test_a_hand_with_no_cell_plays_medium() -> None:
    rules = TABLES["casino"].rules
    cards = ("TS", "5H", "5D")  # hard 20: no chart row
    legal = play_actions(rules, cards, up_card="6D", split_hand=False, can_split=False)
    view = PlayerView(rules, Phase.PLAYER_TURN, cards, "6D", legal, 1, False)
    assert counter_at(view, Decimal(10)) == (medium(view), None)
    # A three-card hard 16 reads the hard 16 row, and its index against a ten.
    rules = TABLES["european"].rules
    cards = ("TS", "4H", "2D")
    legal = play_actions(rules, cards, up_card="KD", split_hand=False, can_split=False)
    view = PlayerView(rules, Phase.PLAYER_TURN, cards, "KD", legal, 1, False)
    action, index = counter_at(view, Decimal(10))
    assert action is Action.STAND and index is not None and index.row == "16"


def test_the_true_count_of_the_unseen_cards_is_the_hints() -> None:
    rng = random.Random(34)
    for decks in (1, 4, 6):
        shoe = deck_order(decks)
        for _ in range(200):
            rng.shuffle(shoe)
            public = shoe[: rng.randrange(0, 52 * decks - 1)]
            assert true_count(decks, unseen(decks, public)) == hi_lo(decks, public)["true"]


def test_the_counter_is_an_ai_level_that_needs_the_unseen_cards() -> None:
    assert "counter" in AI_LEVELS
    view = _view("casino", "TS", "6H", "TD")
    with pytest.raises(ValueError):
        decide("counter", view)
    fresh = unseen(6, ["TS", "6H", "TD"])
    assert decide("counter", view, fresh) is counter_play(view, fresh)[0]
