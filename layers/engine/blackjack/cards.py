"""Cards as two-character strings, rank then suit ("AS", "TD", "QC"), and hand values."""

from collections.abc import Sequence
from typing import NamedTuple

Card = str

RANKS = "A23456789TJQK"
SUITS = "SHDC"
TEN_RANKS = frozenset("TJQK")

# An ace counts 1 here; `hand_value` lifts one ace to 11 where that does not bust.
_POINTS = {rank: min(index + 1, 10) for index, rank in enumerate(RANKS)}


def points(card: Card) -> int:
    """The card's value with an ace counted as 1."""
    return _POINTS[card[0]]


def is_ace(card: Card) -> bool:
    return card[0] == "A"


def is_ten(card: Card) -> bool:
    return card[0] in TEN_RANKS


class HandValue(NamedTuple):
    total: int
    soft: bool


def best_total(hard: int, has_ace: bool) -> HandValue:
    """The best total of cards worth `hard` with every ace counted 1; soft when an ace
    counts 11 (the one place this rule is written: the analysis counts by it too)."""
    if has_ace and hard <= 11:
        return HandValue(hard + 10, True)
    return HandValue(hard, False)


def hand_value(cards: Sequence[Card]) -> HandValue:
    """The best total of `cards`; soft when an ace counts 11."""
    total = 0
    has_ace = False
    for card in cards:
        total += _POINTS[card[0]]
        has_ace = has_ace or card[0] == "A"
    return best_total(total, has_ace)


def deck_order(decks: int) -> list[Card]:
    """The unshuffled shoe of FAIRNESS.md: deck by deck, suits S H D C, ranks A..K."""
    one_deck = [rank + suit for suit in SUITS for rank in RANKS]
    return one_deck * decks
