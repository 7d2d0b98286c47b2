"""Exact money. Bets are whole coins; every other amount is a multiple of half a coin."""

from decimal import Decimal
from fractions import Fraction

ZERO = Decimal(0)
HALF_COIN = Decimal("0.5")


def is_multiple(amount: Decimal, step: Decimal) -> bool:
    """A positive whole number of steps. Exact at any size: Decimal's `%` overflows its
    28-digit context (an insurance of 1e40 would raise, not be refused)."""
    return amount > 0 and (Fraction(amount) / Fraction(step)).denominator == 1


def to_json(amount: Decimal) -> int | float:
    """A JSON number for an amount: whole coins as integers, halves as floats (a binary
    float holds any multiple of 0.5, and 0.01, with its exact decimal repr)."""
    return int(amount) if amount == amount.to_integral_value() else float(amount)
